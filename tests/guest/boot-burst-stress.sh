#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload the module 50 times while hackbench forks and wakes
# tasks, hogs build scores and the knobs change: no splat (the VM harness
# fails the run on any), no WARN, and no task left with a burst weight.
# Then, loaded, switch every knob that registers or drops burst hooks
# (sliceext_burst_hooks()) under the same load: every weight still
# matches its score, and a hog is scored again.
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

# Each write below registers or drops hooks (burst/enabled all of them,
# with a walk over the tasks); each takes 0.1 to 5 s under TCG, where
# switching a static call waits for every vCPU.
check "modprobe sliceext for the knob switches" modprobe sliceext
errs=
for i in 1 2 3; do
	for kv in "enabled 0 1" "futex_zero_slice 0 1" "keep_unscored 0 1" \
		  "scored_slice_ns 4000000 0" "group_keep 0 1" \
		  "wakeup_half_slice 0 1" "half_lag_clamp 0 1" \
		  "keep_delayed_lag 0 1" "wakeup_unprotect 0 1" \
		  "wakeup_preempt 0 1"; do
		set -- $kv
		echo "$2" > $d/$1 || errs+=" $1=$2"
		echo "$3" > $d/$1 || errs+=" $1=$3"
	done
done
check_eq "60 knob writes that switch hooks succeeded" "" "$errs"
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
