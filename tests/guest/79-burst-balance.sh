#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the load balancer asks of the module (patch 0010): three hogs and
# four tasks that run about a millisecond and sleep another, free on both
# CPUs, keep the balancer moving tasks between them. With
# keep_unscored on, the module counts the score-0 tasks as cache
# hot whenever the balancer considers one (burst/stats: balance_keep);
# off, or with burst scheduling disabled, it is never asked to keep any.
# The hogs' own scores keep them movable: they must still migrate.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
check "modprobe sliceext" modprobe sliceext
check_eq "keep_unscored is off by default" 0 \
	"$(cat $d/keep_unscored)"

hogs=() short=()
for _ in 1 2 3; do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done
for _ in 1 2 3 4; do
	python3 -c '
import time
while True:
    end = time.monotonic() + 0.001
    while time.monotonic() < end:
        pass
    time.sleep(0.001)' &
	short+=($!)
done
check "the hogs get a score" wait_until 10 scored "${hogs[2]}"
# Python's start-up is one long burst; its 1 ms bursts then bring it down.
check "the short-burst tasks score 0" wait_until 20 unscored "${short[3]}"

# ENABLED KEEP: prints balance_keep counted over three seconds.
kept() {
	echo "$1" > $d/enabled
	echo "$2" > $d/keep_unscored
	sleep 0.2
	echo 0 > $d/stats
	sleep 3
	burst_stat balance_keep
}
migrations() { # PID: how often the scheduler moved it
	awk '$1 == "se.nr_migrations" { print $3 }' "/proc/$1/sched"
}

# The balancer looks at a score-0 task only when one is queued on the
# busier CPU and not cache hot already; give it up to 15 seconds.
asked() { [ "$(burst_stat balance_keep)" -gt 0 ]; }
h0=$(migrations "${hogs[0]}")
echo 1 > $d/keep_unscored
echo 0 > $d/stats
check "keep_unscored 1: the balancer is asked to keep" wait_until 15 asked
check "keep_unscored 1: the hogs still migrate" \
	test "$(migrations "${hogs[0]}")" -gt "$h0"
check_eq "keep_unscored 0: no task is kept" 0 "$(kept 1 0)"
check_eq "burst/enabled 0: no task is kept" 0 "$(kept 0 1)"

echo 1 > $d/enabled
echo 0 > $d/keep_unscored
kill "${hogs[@]}" "${short[@]}" 2>/dev/null
wait 2>/dev/null
