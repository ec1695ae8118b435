#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What a wakeup asks of the core, across groups: a sleeper in one cpu
# cgroup, then in a session's autogroup, wakes every millisecond on the
# CPU where a hog of another cgroup runs. The burst/stats counters show
# the module's answer at each such wakeup, with burst scheduling on:
# wakeup_preempt, the sleeper's score being lower; wakeup_unprotect where
# the two score alike but the sleeper's penalty is lower (penalty_scale
# lowered so far that no task scores); nothing with burst/enabled 0. The
# preempting path runs in the core's check_preempt_wakeup_fair() (next
# buddy); the guest's log is checked for warnings after the test. The
# sleeper's entities (its own and its cgroup's) go to sleep having just
# run, so their dequeue is delayed: with burst scheduling on the module
# exempts those from DELAY_ZERO (keep_delayed_lag), and the core asks at
# each; off, it asks nothing.
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

# ENABLED: burst/enabled; prints "unprotect preempt" counted over two
# seconds. A futex waiter's wakeup may unprotect too (77-burst-futex.sh);
# none of this test's tasks is one, other tasks may be.
answers() {
	echo "$1" > $d/enabled
	sleep 0.2
	echo 0 > $d/stats
	sleep 2
	echo "$(burst_stat wakeup_unprotect) $(burst_stat wakeup_preempt)"
}

read -r un pr <<<"$(answers 1)"
check "the sleeper's wakeups preempt ($pr)" test "$pr" -gt 100
# Other tasks' wakeups (the test's own) may be answered too, a few.
check "almost none only unprotects ($un)" test "$un" -lt 50

# unprotect_checks WHERE: with penalty_scale 40 a burst takes days to
# score 1, so no task scores and none preempts; the hog's penalty still
# grows with its burst, and the sleeper's 1 ms bursts give it none: a
# lower penalty at the same score unprotects.
unprotect_checks() {
	local un pr
	echo 40 > $d/penalty_scale
	check "$1penalty_scale 40: the hog scores 0" wait_until 5 unscored $hog
	check "$1its penalty is above 0 ($(burst_field $hog penalty))" \
		test "$(burst_field $hog penalty)" -gt 0
	read -r un pr <<<"$(answers 1)"
	check "$1no task scores: the sleeper's wakeups unprotect ($un)" \
		test "$un" -gt 100
	check_eq "$1no task scores: none preempts" 0 "$pr"
	echo 1536 > $d/penalty_scale
	check "$1penalty_scale back at 1536: the hog scores again" \
		wait_until 10 scored $hog
}
unprotect_checks ""

read -r un pr <<<"$(answers 0)"
check_eq "burst/enabled 0: the module asks nothing" "0 0" "$un $pr"

# ENABLED: prints keep_delayed_lag counted over two seconds.
kept() {
	echo "$1" > $d/enabled
	sleep 0.2
	echo 0 > $d/stats
	sleep 2
	burst_stat keep_delayed_lag
}
n=$(kept 1)
check "the sleeper's delayed dequeues keep their lag ($n)" test "$n" -gt 100
check_eq "burst/enabled 0: no dequeue is exempted" 0 "$(kept 0)"

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
read -r un pr <<<"$(answers 1)"
check "own session: the sleeper's wakeups preempt ($pr)" test "$pr" -gt 100
unprotect_checks "own session, "
n=$(kept 1)
check "own session: delayed dequeues keep their lag ($n)" test "$n" -gt 100
echo "$old_autogroup" > $autogroup

# Against a SCHED_IDLE hog the core preempts on its own, before asking;
# the module does not score such a task anyway.
echo 1 > $d/enabled
chrt -i -p 0 $hog
read -r un pr <<<"$(answers 1)"
check "against a SCHED_IDLE task: almost nothing asked ($un $pr)" \
	test $((un + pr)) -lt 50

kill $hog $sleeper 2>/dev/null
wait 2>/dev/null
rmdir "$hogcg" "$sleepcg" 2>/dev/null
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
