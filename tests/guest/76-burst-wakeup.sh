#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a wakeup asks of the core, across groups: a sleeper in one cpu
# cgroup, then in a session's autogroup, wakes every millisecond on the
# CPU where a hog of another cgroup runs. The burst/stats counters show
# the module's answer at each such wakeup: wakeup_preempt with that knob
# on (the sleeper's score is lower), wakeup_unprotect with it off,
# neither with both knobs off or burst scheduling disabled. The
# preempting path runs in the core's check_preempt_wakeup_fair() (next
# buddy); the guest's log is checked for warnings after the test. The
# sleeper's entities (its own and its cgroup's) go to sleep having just
# run, so their dequeue is delayed: with keep_delayed_lag the module
# exempts those from DELAY_ZERO, and the core asks at each.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
check "modprobe sliceext" modprobe sliceext

hogcg=$(load_cgroup sliceext-hog)
sleepcg=$(load_cgroup sliceext-sleeper)
check "cpu cgroups for the hog and the sleeper" test -n "$hogcg" -a -n "$sleepcg"
in_cg() { # CGROUP COMMAND...: become COMMAND, on CPU 0 in CGROUP
	local c=$1
	shift
	run_placed cgroup "$c" taskset -c 0 "$@"
}
in_cg "$hogcg" sh -c 'while :; do :; done' &
hog=$!
sleeper_py='
import time
while True:
    time.sleep(0.001)'
in_cg "$sleepcg" python3 -c "$sleeper_py" &
sleeper=$!
check "the hog gets a score" wait_until 10 scored $hog
# Python's start-up is one long burst; its 1 ms sleeps then bring it down.
check "the sleeper's score falls to 0" wait_until 20 unscored $sleeper

# KNOBS: "enabled unprotect preempt"; prints "unprotect preempt" counted
# over two seconds. A futex waiter's wakeup may unprotect too
# (77-burst-futex.sh); none of this test's tasks is one, other tasks may be.
echo 0 > $d/futex_zero_slice
answers() {
	read -r en un pr <<<"$1"
	echo "$en" > $d/enabled
	echo "$un" > $d/wakeup_unprotect
	echo "$pr" > $d/wakeup_preempt
	sleep 0.2
	echo 0 > $d/stats
	sleep 2
	echo "$(burst_stat wakeup_unprotect) $(burst_stat wakeup_preempt)"
}

read -r un pr <<<"$(answers "1 1 1")"
check "wakeup_preempt 1: the sleeper's wakeups preempt ($pr)" test "$pr" -gt 100
# Other tasks' wakeups (the test's own) may be answered too, a few.
check "wakeup_preempt 1: almost none only unprotects ($un)" test "$un" -lt 50

read -r un pr <<<"$(answers "1 1 0")"
check "wakeup_preempt 0: the sleeper's wakeups unprotect ($un)" test "$un" -gt 100
check_eq "wakeup_preempt 0: none preempts" 0 "$pr"

read -r un pr <<<"$(answers "1 0 0")"
check_eq "both off: the module asks nothing" "0 0" "$un $pr"

read -r un pr <<<"$(answers "0 1 1")"
check_eq "burst/enabled 0: the module asks nothing" "0 0" "$un $pr"

# ENABLED KEEP: prints keep_delayed_lag counted over two seconds.
kept() {
	echo "$1" > $d/enabled
	echo "$2" > $d/keep_delayed_lag
	sleep 0.2
	echo 0 > $d/stats
	sleep 2
	burst_stat keep_delayed_lag
}
echo 1 > $d/wakeup_unprotect
echo 0 > $d/wakeup_preempt
n=$(kept 1 1)
check "keep_delayed_lag 1: the sleeper's delayed dequeues keep their lag ($n)" \
	test "$n" -gt 100
check_eq "keep_delayed_lag 0: no dequeue is exempted" 0 "$(kept 1 0)"
check_eq "burst/enabled 0: no dequeue is exempted" 0 "$(kept 0 1)"

# The same wakeups from a session's autogroup (setsid, autogroups on),
# as a terminal's commands run on a desktop, against the cgroup's hog.
kill $sleeper
wait $sleeper 2>/dev/null
autogroup=/proc/sys/kernel/sched_autogroup_enabled
old_autogroup=$(cat $autogroup)
echo 1 > $autogroup
echo 1 > $d/enabled
run_placed autogroup "" taskset -c 0 python3 -c "$sleeper_py" &
sleeper=$!
check "the sleeper runs in an autogroup of its own" wait_until 5 \
	own_autogroup $sleeper
check "in its own session the sleeper's score falls to 0" \
	wait_until 20 unscored $sleeper
read -r un pr <<<"$(answers "1 1 1")"
check "own session, wakeup_preempt 1: the sleeper's wakeups preempt ($pr)" \
	test "$pr" -gt 100
read -r un pr <<<"$(answers "1 1 0")"
check "own session, wakeup_preempt 0: they unprotect ($un)" test "$un" -gt 100
check_eq "own session, wakeup_preempt 0: none preempts" 0 "$pr"
n=$(kept 1 1)
check "own session, keep_delayed_lag 1: delayed dequeues keep their lag ($n)" \
	test "$n" -gt 100
echo "$old_autogroup" > $autogroup

# Against a SCHED_IDLE hog the core preempts on its own, before asking;
# the module does not score such a task anyway.
echo 1 > $d/enabled
chrt -i -p 0 $hog
read -r un pr <<<"$(answers "1 1 1")"
check "against a SCHED_IDLE task: almost nothing asked ($un $pr)" \
	test $((un + pr)) -lt 50

kill $hog $sleeper 2>/dev/null
wait 2>/dev/null
rmdir "$hogcg" "$sleepcg" 2>/dev/null
echo 0 > $d/wakeup_preempt
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
