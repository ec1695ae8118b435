#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload the module 50 times while hackbench forks and wakes
# tasks, hogs build scores and the knobs change: no splat (the VM harness
# fails the run on any), no WARN, and no task left with a burst weight.
# Then, loaded, switch under the same load every burst knob that
# registers or drops burst hooks (sliceext_burst_hooks()) or walks the
# tasks, and inherit_type: every weight still matches its score, and a
# hog is scored again.
#
# A boot of its own with single-threaded TCG, as boot-unload-stress.sh.
# vm: --tcg-single
# timeout: 1200
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
rounds=${SLICEEXT_STRESS_ROUNDS:-50}

( while :; do hackbench -g 2 -l 50 >/dev/null 2>&1; done ) & bench=$!
bash -c 'while :; do :; done' & hog1=$!
nice -n 3 bash -c 'while :; do :; done' & hog2=$!
# The load stays at nice 0 and 3; this script, its modprobes and its knob
# writes run at -20, or their own start-up under TCG takes most of the
# run (911 s of a 1200 s limit at nice 0, 510 s at -10).
renice -n -20 -p $$ > /dev/null

failed=0
for i in $(seq "$rounds"); do
	modprobe sliceext || failed=$((failed + 1))
	sleep 0.2
	# Toggle a knob now and then, racing with the hooks.
	[ $((i % 5)) = 0 ] && echo 0 > $d/enabled && echo 1 > $d/enabled
	[ $((i % 7)) = 0 ] && echo 1 > $d/inherit_type
	modprobe -r sliceext || failed=$((failed + 1))
done
check_eq "$rounds loads and unloads succeeded" 0 "$failed"
check_eq "no task left reweighted while the load runs" "" "$(weight_mismatches)"

# The writes below register or drop hooks (burst/enabled all of them,
# with a walk over the tasks; group_keep, half_lag_clamp and
# wakeup_half_slice re-evaluate theirs), walk every task with new
# penalties (penalty_scale) or change fork inheritance under the forks
# (inherit_type); a hook switch takes 0.1 to 5 s under TCG, where
# switching a static call waits for every vCPU. Each pair ends at the
# default.
check "modprobe sliceext for the knob switches" modprobe sliceext
errs=
for i in 1 2 3; do
	for kv in "enabled 0 1" "group_keep 0 1" "wakeup_half_slice 0 1" \
		  "half_lag_clamp 0 1" "penalty_scale 1024 1536" \
		  "inherit_type 0 2"; do
		set -- $kv
		echo "$2" > $d/$1 || errs+=" $1=$2"
		echo "$3" > $d/$1 || errs+=" $1=$3"
	done
done
check_eq "36 knob writes succeeded" "" "$errs"
stale=
for i in $(seq 10); do
	stale+=$(stale_weights)
	sleep 0.1
done
check_eq "after them, every weight matches its score" "" "$stale"
check "a hog is scored again after the switches" wait_until 20 scored $hog1
check "modprobe -r sliceext" modprobe -r sliceext

kill $bench $hog1 $hog2
wait 2>/dev/null
check_eq "no WARN in the kernel log" 0 "$(dmesg | grep -c 'WARNING:')"
check_eq "no task left reweighted" "" "$(weight_mismatches)"
tap_done
