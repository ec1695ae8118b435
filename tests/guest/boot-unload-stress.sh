#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload under load, with the fully preemptible model: threads
# requesting and yielding, threads whose grants expire, hackbench, a fork
# loop, and SCHED_RR parents with reset-on-fork whose children get their
# load weight computed in sched_fork() with preemption on (through the
# module's prio_offset hook). Lockdep and PROVE_RCU watch every hook call
# site (the runner fails the run on any splat); the counters the module
# logs at every unload must add up exactly, since by then every grant has
# ended and no hook is left:
#   requested = granted + denied,  granted = expired + revoked + yielded + aborted
# The requesting programs must survive every unload without a signal.
# The load runs at nice 0, this script and its modprobes at nice -20:
# beside some 90 busy tasks, modprobe's own start-up took two thirds of
# each round at nice 0 (14 s of guest time) and still 6 s at nice -10,
# while what it does in the kernel, under load, is what is tested.
#
# A boot of its own (tests/run), with single-threaded TCG: multi-threaded
# TCG now and then crashes a guest whose kernel patches code that another
# vCPU runs, which hundreds of loads and unloads (each switching the
# static calls) would hit; that is QEMU's, not the kernel's.
# vm: --tcg-single
# timeout: 1800
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

rounds=${SLICEEXT_STRESS_ROUNDS:-100}
preempt=/sys/kernel/debug/sched/preempt
old_model=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' "$preempt")
echo full > "$preempt"
check_eq "preemption model is full for the run" full \
	"$(sed -n 's/.*(\([a-z]*\)).*/\1/p' "$preempt")"

modprobe sliceext
pids=()
"$SLICEEXT_BIN/ext_grant" yield 3600 > /dev/null 2>&1 & pids+=($!)
"$SLICEEXT_BIN/ext_grant" expire 3600 > /dev/null 2>&1 & pids+=($!)
(while :; do hackbench -g 2 -l 200 > /dev/null 2>&1; done) & pids+=($!)
(while :; do /bin/true; done) & pids+=($!)
chrt --reset-on-fork --rr 10 bash -c \
	'while :; do /bin/true; /bin/sleep 0.01; done' & pids+=($!)
sleep 1
renice -n -20 -p $$ > /dev/null

dmesg -C
bad=0
start=$SECONDS
for i in $(seq "$rounds"); do
	modprobe -r sliceext || { bad=$i; break; }
	modprobe sliceext || { bad=$i; break; }
	sleep 0.05
	# Progress, so a run cut short by the time limit shows its rate.
	[ $((i % 10)) -ne 0 ] || echo "# round $i/$rounds after $((SECONDS - start)) s"
done
modprobe -r sliceext
check_eq "$rounds unload/load rounds under load" 0 "$bad"
check "the requesters survived every unload" kill -0 "${pids[0]}" "${pids[1]}"
kill "${pids[@]}" 2>/dev/null
wait "${pids[0]}"; rc0=$?
wait "${pids[1]}"; rc1=$?
wait 2>/dev/null
# SIGTERM (143) is ours; SIGSEGV (139) would be the module's.
check_eq "yield requester ended by our SIGTERM only" 143 "$rc0"
check_eq "expire requester ended by our SIGTERM only" 143 "$rc1"
echo "$old_model" > "$preempt"

totals=$(dmesg | sed -n 's/.*slice extension totals: //p')
check_eq "totals logged at every unload" "$((rounds + 1))" "$(wc -l <<<"$totals")"
wrong=$(awk '$2 != $4 + $6 || $4 != $8' <<<"$totals")
check_eq "requested = granted + denied, granted = ended, at every unload" "" "$wrong"
awk '{ r += $2; g += $4 } END { printf "# over all unloads: %d requests, %d grants\n", r, g }' \
	<<<"$totals"
check "grants were live around the unloads" \
	test "$(awk '{ g += $4 } END { print g + 0 }' <<<"$totals")" -gt 0

# How long loading and unloading took, as the module logs it.
report_times() { # WHAT SED_PATTERN
	dmesg | sed -n "$2" | sort -n | awk -v w="$1" '{ a[NR] = $1 } END {
		if (NR) printf "# %s: median %d us, max %d us over %d\n",
			w, a[int((NR + 1) / 2)], a[NR], NR }'
}
report_times load 's/.*sliceext: version .* in \([0-9]*\) us.*/\1/p'
report_times unload 's/.*sliceext: unloaded in \([0-9]*\) us.*/\1/p'
report_times "unload, threads clearing their areas" 's/.*sliceext: unloaded in .*(threads \([0-9]*\),.*/\1/p'
report_times "unload, hooks unregistered" 's/.*sliceext: unloaded in .* hooks \([0-9]*\),.*/\1/p'
report_times "unload, tasks reset" 's/.*sliceext: unloaded in .* tasks \([0-9]*\)).*/\1/p'
tap_done
