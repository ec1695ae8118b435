#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A thread woken from a futex wait is placed with no virtual slice and
# ends its waker's slice protection (the futex_zero_slice rule, on with
# burst scheduling), so that on one CPU it runs before the waker goes on
# (futex_wakeup.c); burst/stats counts each such placement. A thread woken
# from another sleep (a pipe) is placed as before. With burst/enabled 0
# no wakeup is placed so. Then the waiter still often runs first, on
# EEVDF's lag alone (the waker ran 200 us alone before the wake): that
# count is shown, not asserted.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
rounds=50
check "modprobe sliceext" modprobe sliceext

# ENABLED [pipe]: burst/enabled; prints "RAN_FIRST PLACED" for one run of
# futex_wakeup.
run() {
	local out
	echo "$1" > $d/enabled
	echo 0 > $d/stats
	out=$("$SLICEEXT_BIN/futex_wakeup" $rounds ${2:-}) ||
		{ echo "failed failed"; return; }
	echo "$(awk '{ print $2 }' <<<"$out") $(burst_stat futex_zero_slice)"
}

read -r first placed <<<"$(run 1)"
check "on: the waiter runs before its waker goes on ($first of $rounds)" \
	test "$first" -ge $((rounds * 3 / 4))
check "on: its wakeups are placed with no slice ($placed)" \
	test "$placed" -ge "$rounds"

read -r first placed <<<"$(run 1 pipe)"
# The guest's other tasks may wait on futexes too, a few.
check "on, woken from a pipe: not placed so ($placed)" \
	test "$placed" -lt $((rounds / 5))

read -r first placed <<<"$(run 0)"
echo "# burst/enabled 0: $first of $rounds ran first"
check_eq "burst/enabled 0: no wakeup placed with no slice" 0 "$placed"

echo 1 > $d/enabled
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
