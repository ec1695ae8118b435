#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Grants under wakeup preemption and at the tick, and how each ends:
# yield, abort (any other syscall) or expiry, at 5 and 50 us; none denied
# for 6.12's mm_cid scan (task work the tick queues). slice_grant.c asserts that
# ext/stats agrees with what the thread saw; here, that the events and
# the histogram show the grants too.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/ext
check "modprobe sliceext" modprobe sliceext
echo 0 > $d/hist
trace-cmd start -q -e sliceext_grant -e sliceext_yield -e sliceext_expire
run_bin slice_grant
trace-cmd stop
trace=$(trace-cmd show 2>/dev/null)
for e in grant yield expire; do
	check "sliceext_$e events were traced" grep -q "sliceext_$e:" <<<"$trace"
done
trace-cmd reset -q 2>/dev/null
check "ext/hist counts the grants' time" test -n "$(cat $d/hist)"
echo "# ext/hist:"; sed 's/^/#   /' $d/hist
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
