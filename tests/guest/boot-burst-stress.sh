#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload the module 50 times while hackbench forks and wakes
# tasks, hogs build scores and the knobs change: no splat (the VM harness
# fails the run on any), no WARN, and no task left with a burst weight.
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

kill $bench $hog1 $hog2
wait 2>/dev/null
check_eq "no WARN in the kernel log" 0 "$(dmesg | grep -c 'WARNING:')"
check_eq "no task left reweighted" "" "$(weight_mismatches)"
tap_done
