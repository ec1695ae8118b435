#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest of tests/host/stock-decisions.sh: play each scenario of
# sched_scenario (BIN) with sched_switch traced, and print the switches
# between its tasks, one "prev[state]>next" line each, under a "== NAME"
# header; the driver prints as "driver", and a task outside the scenario
# as "other" where switches() cannot leave it out. With --perturb, every
# scenario runs again under "== NAME perturbed" with EEVDF's
# RUN_TO_PARITY, PLACE_LAG and WAKEUP_PREEMPTION off and a 10 ms base
# slice: decisions that stock makes differently, to show that the
# comparison sees a difference.
set -u
perturb=${2:-}
# From tmpfs, statically linked, and played once untraced: no page of it
# comes over 9p while traced, whose timing is the host's, not the
# guest's instruction count.
bin=/run/sched_scenario
cp "$1" "$bin"
T=/sys/kernel/tracing
F=/sys/kernel/debug/sched/features
. "$(dirname "$0")/../../scripts/lib.sh"

plays=0

# Collapse the trace to the scenario's own switches.
switches() {
	sed -n 's/.* \([0-9.]*\): sched_switch: prev_comm=\(.*\) prev_pid=.* prev_state=\([^ ]*\) ==> next_comm=\(.*\) next_pid=.*/\1 \2 \3 \4/p' "$T/trace" |
		awk '
		function name(c) {
			if (c ~ /^sx-/) return c
			if (c == "sched_scenario") return "driver"
			return "other"
		}
		# Another task in between (a per-CPU kworker, whose runs
		# follow the timing of the boot) is left out: A>other,
		# other>B reads A>B, and A>other, other>A nothing.
		# Only the first 100 ms count: the two kernels differ by a few
		# instructions a switch, and over a longer run that drift can
		# break a tie between deadlines differently.
		NR == 1 { start = $1 }
		$1 - start > 0.100 { next }
		{
			from = name($2); to = name($4)
			if (to == "other") {
				if (from != "other") {
					held = from
					state = $3
				}
				next
			}
			if (from == "other") {
				if (held == "" || held == to) {
					held = ""
					next
				}
				from = held
			} else {
				state = $3
			}
			held = ""
			if (from ~ /^sx-/ || to ~ /^sx-/)
				print from "[" state "]>" to
		}'
}

play() {	# SCENARIO
	local args=("$1") cg
	# A new group each time (sched_scenario sets its quota): nothing of
	# an earlier play's bandwidth state carries over.
	if [ "$1" = throttle ]; then
		plays=$((plays + 1))
		cg=$(load_cgroup "sx-limited-$plays") || exit 2
		args+=("$cg")
	fi
	[ "$1" = fork ] && echo NEXT_BUDDY > "$F"
	echo > "$T/trace"
	"$bin" "${args[@]}"	# switches tracing on and off itself
	local rc=$?
	[ "$1" = fork ] && echo NO_NEXT_BUDDY > "$F"
	[ $rc = 0 ] || { echo "sched_scenario $1 failed: $rc" >&2; exit 2; }
	switches
}

# CPU 1 is the scenario's: every task that may move goes to CPU 0 (the
# RCU grace-period kthread would otherwise wake on CPU 1 at times that
# depend on how long the kernel took to boot).
for p in /proc/[0-9]*; do
	taskset -pc 0 "${p#/proc/}" > /dev/null 2>&1
done
taskset -pc 1 $$ > /dev/null
for s in reweight fork throttle; do
	play "$s" > /dev/null
done
echo 0 > "$T/tracing_on"
echo 16384 > "$T/buffer_size_kb"
echo 1 > "$T/events/sched/sched_switch/enable"
for s in reweight fork throttle; do
	echo "== $s"
	play "$s"
done
if [ "$perturb" = --perturb ]; then
	echo NO_RUN_TO_PARITY > "$F"
	echo NO_PLACE_LAG > "$F"
	echo NO_WAKEUP_PREEMPTION > "$F"
	echo 10000000 > /sys/kernel/debug/sched/base_slice_ns
	for s in reweight fork throttle; do
		echo "== $s perturbed"
		play "$s"
	done
fi
