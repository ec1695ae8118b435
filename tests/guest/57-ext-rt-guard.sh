#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rt_guard: a waking SCHED_FIFO thread is never delayed by a grant. A
# fair hog on the same CPU sits in a request window all the time; the
# only reschedules it sees come from the RT thread's wakeups, so with the
# guard on every request is denied, and with it off they are granted
# and delay the RT thread by at most slice_ext_nsec plus timer slack.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/ext
secs=${SLICEEXT_RT_SECS:-3}

check "modprobe sliceext" modprobe sliceext

res=$("$SLICEEXT_BIN/rt_guard" plain "$secs")
echo "$res" | sed 's/^/# no requests: /'
base_p50=$(out latency_p50_ns)

# run_requests GUARD STATS...: the hog requesting with rt_guard=GUARD;
# prints the run's output and the named counters, sets $res.
run_requests() {
	local guard=$1
	shift
	echo "$guard" > $d/rt_guard
	echo 0 > $d/stats
	res=$("$SLICEEXT_BIN/rt_guard" request "$secs")
	echo "$res" | sed "s/^/# rt_guard=$guard: /"
	sed "s/^/# rt_guard=$guard stats: /" $d/stats | grep -E "$(IFS='|'; echo "$*")"
}

run_requests 1 requested granted rt_waiter
on_p50=$(out latency_p50_ns)
check "rt_guard=1: requests meet RT wakeups and are denied" \
	test "$(ext_stat denied_rt_waiter)" -gt 0
# Fair wakeups of other tasks on CPU 0 may still be granted, rarely.
check "rt_guard=1: at most 1 grant per 20 RT denials" \
	test $(( $(ext_stat granted) * 20 )) -le "$(ext_stat denied_rt_waiter)"

run_requests 0 requested granted expired
off_p50=$(out latency_p50_ns)
check "rt_guard=0: RT wakeups are delayed by grants" \
	test "$(ext_stat granted)" -gt 0
check_eq "rt_guard=0: no RT denials" 0 "$(ext_stat denied_rt_waiter)"
echo 1 > $d/rt_guard

echo "# RT wakeup latency p50: plain ${base_p50} ns, guard on ${on_p50} ns, guard off ${off_p50} ns"
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
