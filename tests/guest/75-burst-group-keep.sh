#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# burst/group_keep (patch 0010's group_keep hook): a thread that wakes a
# worker of its own process every millisecond on one CPU, beside a hog of
# another cpu cgroup there. A wakeup that preempts the waker for its
# worker is asked about when their group's entity (a cpu cgroup's, or a
# session's autogroup) still runs its protected slice: burst/stats counts
# the module's yes (group_keep) with the knob on, and none with it off,
# with burst scheduling disabled, where the two sit in the root group with
# no group above them, or where the preempted task is a hog (it scores
# higher than the woken one). The kept group still pays for the time it
# keeps: beside a waker and worker that keep each other busy, a hog of
# another cgroup keeps its share of their CPU (half of it, less what the
# two leave idle), knob on or off.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
autogroup=/proc/sys/kernel/sched_autogroup_enabled
check "modprobe sliceext" modprobe sliceext
check_eq "group_keep is on by default" 1 "$(cat $d/group_keep)"

hogcg=$(load_cgroup sliceext-keep-hog)
paircg=$(load_cgroup sliceext-keep-pair)
check "cpu cgroups for the hog and the pair" test -n "$hogcg" -a -n "$paircg"
run_placed cgroup "$hogcg" taskset -c 0 sh -c 'while :; do :; done' &
hog=$!

# pair CGROUP|root|session INTERVAL_US SECONDS: the waker and its worker
# on CPU 0, 200 us of work a wakeup, in CGROUP, in the root group, or in
# a session of their own (its autogroup, where autogroups are on).
pair() {
	local argv=(taskset -c 0 "$SLICEEXT_BIN/wakeup_lat" --message-threads 1
		    --workers 1 --work-us 200 --interval-us "$2" --duration "$3")
	case $1 in
	root) "${argv[@]}" ;;
	session) (run_placed autogroup "" "${argv[@]}") ;;
	*) (run_placed cgroup "$1" "${argv[@]}") ;;
	esac >/dev/null
}

# kept ENABLED KNOB WHERE: group_keep counted over a 2 s run of the pair.
kept() {
	echo "$1" > $d/enabled
	echo "$2" > $d/group_keep
	echo 0 > $d/stats
	pair "$3" 1000 2
	burst_stat group_keep
}

n=$(kept 1 1 "$paircg")
check "group_keep 1: the worker's wakeups keep the pair's group ($n)" \
	test "$n" -gt 20
check_eq "group_keep 0: the module asks nothing" 0 "$(kept 1 0 "$paircg")"
check_eq "burst/enabled 0: the module asks nothing" 0 "$(kept 0 1 "$paircg")"
# A session's autogroup is a group above the pair too, as on a desktop
# where a terminal's commands run in their own.
old=$(cat $autogroup)
echo 1 > $autogroup
n=$(kept 1 1 session)
check "group_keep 1: in a session of its own the pair's autogroup is kept ($n)" \
	test "$n" -gt 20
check_eq "group_keep 0: nor there does the module ask" 0 "$(kept 1 0 session)"
# Without autogroups, a task outside any cpu cgroup is in the root group.
echo 0 > $autogroup
check_eq "in the root group there is no group above to keep" 0 \
	"$(kept 1 1 root)"
echo "$old" > $autogroup

# A sleeper that preempts a hog of its own cgroup: the rest of the turn
# would be the hog's, so the module does not ask to keep it. The hog runs
# to a score of 8 (about 0.7 s of burst) first: under TCG a host that
# stalls the vCPU for 27 ms or more in one of the sleeper's bursts gives
# it a score of 1 or 2 for a while (seen in CI), as high as a hog that
# has only just scored.
run_placed cgroup "$paircg" taskset -c 0 sh -c 'while :; do :; done' &
ownhog=$!
run_placed cgroup "$paircg" taskset -c 0 python3 -c "$short_bursts_py" &
sleeper=$!
check "the hog of the pair's cgroup scores 8" wait_until 20 scored $ownhog 8
check "the sleeper beside it scores 0" wait_until 20 unscored $sleeper
echo 0 > $d/stats
sleep 2
check_eq "a wakeup that preempts a hog of its own group keeps nothing" 0 \
	"$(burst_stat group_keep)"
kill $ownhog $sleeper
wait $ownhog $sleeper 2>/dev/null

# hog_share KNOB: the hog's share of CPU 0 (%) while the pair keeps busy.
hog_share() {
	local t0 t1 w0 w1
	echo "$1" > $d/group_keep
	t0=$(awk '{ print $1 }' /proc/$hog/schedstat)
	w0=$(date +%s%N)
	pair "$paircg" 0 3
	t1=$(awk '{ print $1 }' /proc/$hog/schedstat)
	w1=$(date +%s%N)
	echo $(( (t1 - t0) * 100 / (w1 - w0) ))
}
for k in 1 0; do
	s=$(hog_share $k)
	check "group_keep $k: the hog keeps its share of the CPU ($s%)" \
		test "$s" -ge 35 -a "$s" -le 80
done
echo 1 > $d/group_keep

kill $hog
wait $hog 2>/dev/null
check "the cgroups go" wait_until 10 cgroups_removed "$hogcg" "$paircg"
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
