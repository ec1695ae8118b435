#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the load balancer asks of the module (patch 0009): three hogs and
# four tasks that run about a millisecond and sleep another, free on both
# CPUs, keep the balancer moving tasks between them. Four more such
# tasks are woken through pipes by a thread bound to CPU 0.
#
# All in one group (the root one: autogroups are off while the tasks are
# forked, so the kernel's threads share it), the module keeps none of the
# score-0 tasks: the destination holds only their own group's tasks
# (balance_own_group). With the hogs in a cpu cgroup and the rest in
# another, the module counts a score-0 task as cache hot whenever the
# balancer considers one bound for a CPU where hogs run (balance_keep),
# unless the task sits on CPU 1, away from its waker (balance_apart);
# with burst scheduling disabled it keeps none. The hogs' own scores keep
# them movable: they must still migrate.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
check "modprobe sliceext" modprobe sliceext
ag=/proc/sys/kernel/sched_autogroup_enabled
ag0=$(cat $ag 2>/dev/null)
[ -n "$ag0" ] && echo 0 > $ag

hogs=() short=()
for _ in 1 2 3; do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done
for _ in 1 2 3 4; do
	python3 -c "$short_bursts_py" &
	short+=($!)
done
# The piped tasks run half a millisecond per wakeup; their waker, bound
# to CPU 0 once it has forked them, writes each a byte every 4 ms.
python3 -c '
import os, time
pipes = []
for _ in range(4):
    r, w = os.pipe()
    if os.fork() == 0:
        for x in pipes + [w]:
            os.close(x)
        while os.read(r, 64):
            end = time.monotonic() + 0.0005
            while time.monotonic() < end:
                pass
        os._exit(0)
    os.close(r)
    pipes.append(w)
os.sched_setaffinity(0, {0})
while True:
    for w in pipes:
        os.write(w, b"x")
    time.sleep(0.004)' &
waker=$!
check "the hogs get a score" wait_until 10 scored "${hogs[2]}"
# Python's start-up is one long burst; its 1 ms bursts then bring it down.
check "the short-burst tasks score 0" wait_until 20 unscored "${short[3]}"
forked() { [ "$(pgrep -c -P $waker)" = 4 ]; }
check "the waker forks its four tasks" wait_until 20 forked
piped=$(pgrep -P $waker | tail -1)
check "the piped tasks score 0" wait_until 20 unscored "$piped"

# ENABLED: burst/enabled; prints balance_keep and balance_apart, counted
# over three seconds, summed.
kept() {
	echo "$1" > $d/enabled
	sleep 0.2
	echo 0 > $d/stats
	sleep 3
	echo $(($(burst_stat balance_keep) + $(burst_stat balance_apart)))
}
migrations() { # PID...: how often the scheduler moved them, summed
	local pid n=0
	for pid; do
		n=$((n + $(awk '$1 == "se.nr_migrations" { print $3 }' \
			"/proc/$pid/sched")))
	done
	echo $n
}

# The balancer looks at a score-0 task only when one is queued on the
# busier CPU and not cache hot already; give it up to 15 seconds.
echo 0 > $d/stats
check "one group: a task is left to the balancer" \
	wait_until 15 burst_counted balance_own_group
check_eq "one group: no task is kept or left apart" 0 "$(kept 1)"

hogcg=$(load_cgroup sliceext-hogs)
taskcg=$(load_cgroup sliceext-tasks)
check "cpu cgroups for the hogs and the other tasks" \
	test -n "$hogcg" -a -n "$taskcg"
for h in "${hogs[@]}"; do
	echo "$h" > "$hogcg"/cgroup.procs
done
for t in "${short[@]}" $waker $(pgrep -P $waker); do
	echo "$t" > "$taskcg"/cgroup.procs
done
check_eq "the hogs move to a cpu cgroup" 3 \
	"$(wc -l < "$hogcg"/cgroup.procs)"
check_eq "the other tasks move to another" 9 \
	"$(wc -l < "$taskcg"/cgroup.procs)"

echo 0 > $d/stats
check "two groups: the balancer is asked to keep" \
	wait_until 15 burst_counted balance_keep
check "two groups: a task away from its waker is left to the balancer" \
	wait_until 15 burst_counted balance_apart
hogs_moved() { [ "$(migrations "${hogs[@]}")" -gt "$h0" ]; }
# Gathered on CPU 0 and set free, the hogs must spread again.
for h in "${hogs[@]}"; do
	taskset -p 1 "$h" > /dev/null
done
for h in "${hogs[@]}"; do
	taskset -p 3 "$h" > /dev/null
done
h0=$(migrations "${hogs[@]}")
check "two groups: the hogs still migrate" wait_until 15 hogs_moved
check_eq "burst/enabled 0: no task is kept or left apart" 0 "$(kept 0)"

echo 1 > $d/enabled
kill "${hogs[@]}" "${short[@]}" $waker 2>/dev/null
wait 2>/dev/null
# The piped tasks exit once their waker's pipes close.
wait_until 5 cgroups_removed "$hogcg" "$taskcg"
[ -z "$ag0" ] || echo "$ag0" > $ag
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
