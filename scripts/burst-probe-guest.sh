#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of scripts/burst-probe.sh: the burst probe, a task woken
# every millisecond for 200 us of work (wakeup_lat, one message thread,
# one worker) beside HOGS CPU hogs, per scheduler configuration and per
# placement of the hogs. One line per run:
#   RES PLACEMENT CONFIG rN p50=US p90=US p99=US posN over=PCT apart=PCT
# where N is the configuration's place in its round (1: first), over the
# share of wakeups that waited more than 500 us and apart the share the
# worker took on another CPU than its waker's.
#
# Environment (set by scripts/burst-probe.sh):
#   KO       sliceext.ko         BIN     tools/bench binaries
#   CFGS     configurations, each a "+" list of: off, on (burst/enabled, or
#            on a BORE kernel, which needs no module, its sched_bore sysctl),
#            ndz (NO_DELAY_ZERO), nrtp (NO_RUN_TO_PARITY), hrtick (HRTICK:
#            slices end on time, not at the next tick), s4 (4 ms base
#            slice), KNOB=VALUE (a burst/ knob)
#   PLACES   same, autogroup (setsid), cgroup (a cpu cgroup of their own)
#   ORDER    alternate: CFGS reversed in even rounds; given: as listed
#   REPS     runs per point      DUR     seconds per run
#   PIN      if set, taskset -c PIN for the probe (the hogs stay free)
#   HOGS     CPU hogs (default 4, the issue's two per CPU on two CPUs)
set -u
: "${KO:?}" "${BIN:?}"
. "$(dirname "$0")/lib.sh"
CFGS=${CFGS:-off on}
PLACES=${PLACES:-same autogroup cgroup}
ORDER=${ORDER:-alternate} REPS=${REPS:-5} DUR=${DUR:-2} PIN=${PIN:-} HOGS=${HOGS:-4}
dbg=/sys/kernel/debug
feat=$dbg/sched/features
burst=$dbg/sliceext/burst
mountpoint -q $dbg || mount -t debugfs none $dbg
# A BORE kernel (for comparison) has no module: "on" and "off" are its
# sysctl, and only its own scheduler features apply. A kernel with neither
# (stock 6.12: scripts/burst-probe.sh builds no module for it) has "off"
# alone.
bore=/proc/sys/kernel/sched_bore
if [ -e $bore ]; then
	KO=none
elif [ ! -e "$KO" ]; then
	KO=none bore=''
else
	insmod "$KO" || exit 1
	# Every knob's value at load, to start each configuration from.
	declare -A knob_default
	for f in $burst/*; do
		case ${f##*/} in stats|tasks|enabled) continue ;; esac
		knob_default[$f]=$(cat "$f")
	done
fi
base_slice=$(cat $dbg/sched/base_slice_ns)

cg=$(load_cgroup probe-hogs) || exit 1

defaults() {
	echo DELAY_ZERO > $feat
	echo RUN_TO_PARITY > $feat
	echo NO_HRTICK > $feat
	if [ "$KO" = none ]; then
		[ -z "$bore" ] || echo 0 > $bore
		return
	fi
	echo "$base_slice" > $dbg/sched/base_slice_ns
	for f in "${!knob_default[@]}"; do
		echo "${knob_default[$f]}" > "$f"
	done
	echo 0 > $burst/enabled
}

burst_on() {
	if [ "$KO" = none ]; then
		[ -n "$bore" ] || { echo "on: this kernel has no burst scheduling" >&2; return 1; }
		echo 1 > $bore
	else
		echo 1 > $burst/enabled
	fi
}

# set_config CONFIG: from the defaults, apply each "+" part.
set_config() {
	local part
	defaults
	for part in ${1//+/ }; do
		case $part in
		off) ;;
		on) burst_on || return 1 ;;
		ndz) echo NO_DELAY_ZERO > $feat ;;
		nrtp) echo NO_RUN_TO_PARITY > $feat ;;
		hrtick) echo HRTICK > $feat ;;
		s4) echo 4000000 > $dbg/sched/base_slice_ns ;;
		*=*) echo "${part#*=}" > "$burst/${part%%=*}" || return 1 ;;
		*) echo "unknown config part: $part" >&2; return 1 ;;
		esac
	done
}

pct() { awk -v k="$1" '$0 ~ "^latency " k " " { printf "%.0f", $NF }'; }
over() { awk '/^latency over 500 us / { printf "%.2f", $NF }'; }
apart() { awk '/^woken on another CPU / { printf "%.0f", $NF }'; }

# The configurations of round R: each runs first in every other round.
# shellcheck disable=SC2086
round_cfgs() {
	if [ "$ORDER" = alternate ] && [ $(($1 % 2)) -eq 0 ]; then
		printf '%s\n' $CFGS | tac
	else
		printf '%s\n' $CFGS
	fi
}

for r in $(seq 1 "$REPS"); do
	cfgs=$(round_cfgs "$r")
	for pl in $PLACES; do
		pos=0
		for c in $cfgs; do
			pos=$((pos + 1))
			set_config "$c" || exit 1
			# run_placed execs: $! is the load's own PID, and
			# the load reaps its hogs on SIGTERM.
			(run_placed "$pl" "$cg" "$BIN/load" --hogs "$HOGS" \
				--duration $((DUR + 60))) > /dev/null 2>&1 &
			hog_pid=$!
			sleep 1
			out=$(${PIN:+taskset -c "$PIN"} "$BIN/wakeup_lat" \
				--message-threads 1 --workers 1 --work-us 200 \
				--interval-us 1000 --duration "$DUR")
			kill -TERM $hog_pid
			wait $hog_pid 2> /dev/null
			if pgrep -x load > /dev/null; then
				echo "hogs left running after run $r" >&2
				exit 1
			fi
			echo "RES $pl $c r$r p50=$(pct p50 <<<"$out")" \
			     "p90=$(pct p90 <<<"$out") p99=$(pct p99 <<<"$out") pos$pos" \
			     "over=$(over <<<"$out") apart=$(apart <<<"$out")"
		done
	done
done
defaults
[ "$KO" = none ] || rmmod sliceext
