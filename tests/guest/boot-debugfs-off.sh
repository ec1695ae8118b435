#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Booted with debugfs=off (tests/run's second boot): the module still
# loads and works, says once that its tree is unavailable, and takes its
# knobs as module parameters.
# boot: debugfs=off
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

check "booted with debugfs=off" grep -qw debugfs=off /proc/cmdline
dmesg -C
check "modprobe sliceext ext_slice_ext_nsec=20000" modprobe sliceext ext_slice_ext_nsec=20000
check "one line says the tree is unavailable" dmesg_has "sliceext: debugfs unavailable"
check_eq "exactly one such line" 1 "$(dmesg | grep -c 'debugfs unavailable')"
check_fails "no debugfs tree" test -e /sys/kernel/debug/sliceext
check_eq "slice_ext_nsec set at load" 20000 \
	"$(cat /sys/module/sliceext/parameters/ext_slice_ext_nsec)"

# Grants still happen: the requester sees them in its own area.
res=$("$SLICEEXT_BIN/ext_grant" yield 2)
echo "$res" | sed 's/^/# /'
check "a requester is granted extensions" test "$(out grants_seen)" -gt 0
check "and yields inside them" test "$(out yields)" -gt 0

# Burst scheduling still scores a CPU hog: its weight drops below stock.
sh -c 'while :; do :; done' &
hog=$!
sleep 2
w=$(awk '/^se.load.weight/ { print $3 }' /proc/$hog/sched)
kill $hog 2>/dev/null
wait $hog 2>/dev/null
echo "# hog's se.load.weight after 2 s: $w"
check "a CPU hog's weight is below nice 0's (1048576)" test "$w" -lt 1048576
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
