#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The balancer's rule of patch 0009 (on with burst scheduling) where the
# load balancer has more than one level: four vCPUs in two sockets, so
# CPU 0 balances within its socket and across the package. Hogs in one
# cpu cgroup run on every CPU; eight tasks that run and sleep a
# millisecond at a time sit in another. The module asks
# the balancer to keep those score-0 tasks (their destinations hold the
# hogs' group), yet, gathered on CPU 0 and set free, they must spread
# again: each wakeup places them anew, which the hook does not touch.
# The kernel log must stay clean (the harness fails the boot on a splat).
#
# A boot of its own, with the topology on QEMU's -smp.
# vm: --cpus 4,sockets=2,cores=2
# timeout: 600
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
check "modprobe sliceext" modprobe sliceext
check_eq "four CPUs" 4 "$(nproc)"
check_eq "CPU 0 balances at two levels" 2 \
	"$(awk '/^cpu/ { c = $1 } c == "cpu0" && /^domain/' /proc/schedstat |
	   wc -l)"

hogcg=$(load_cgroup sliceext-hogs)
taskcg=$(load_cgroup sliceext-tasks)
check "cpu cgroups for the hogs and the other tasks" \
	test -n "$hogcg" -a -n "$taskcg"
hogs=() short=()
for _ in 1 2 3 4; do
	(run_placed cgroup "$hogcg" sh -c 'while :; do :; done') &
	hogs+=($!)
done
for _ in 1 2 3 4 5 6 7 8; do
	(run_placed cgroup "$taskcg" python3 -c "$short_bursts_py") &
	short+=($!)
done
check "the hogs get a score" wait_until 10 scored "${hogs[3]}"
# Python's start-up is one long burst; its 1 ms bursts then bring it down.
check "the short-burst tasks score 0" wait_until 30 unscored "${short[7]}"

echo 0 > $d/stats
check "the balancer is asked to keep" \
	wait_until 15 burst_counted balance_keep

# spread: the short tasks sit on at least three CPUs at one look.
spread() {
	local p
	[ "$(for p in "${short[@]}"; do
		awk '{ print $39 }' "/proc/$p/stat"
	done | sort -u | wc -l)" -ge 3 ]
}
for p in "${short[@]}"; do
	taskset -p 1 "$p" > /dev/null
done
check_fails "gathered: the short tasks are all on CPU 0" spread
for p in "${short[@]}"; do
	taskset -p f "$p" > /dev/null
done
check "set free, they spread over three CPUs or more" \
	wait_until 10 spread

kill "${hogs[@]}" "${short[@]}" 2>/dev/null
wait 2>/dev/null
check "the cgroups go" wait_until 5 cgroups_removed "$hogcg" "$taskcg"
check_eq "no WARN in the kernel log" 0 "$(dmesg | grep -c 'WARNING:')"
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
