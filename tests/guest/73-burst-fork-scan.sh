#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fork inheritance looks at no more than BURST_SCAN_MAX (252) tasks a
# fork, however many of them it has to skip (module/burst_fork.c): the
# skipped ones take no sample, so the average filling up would never end
# the scan, and it runs under tasklist_lock. burst/cache_lifetime_ns 0
# makes every fork sample; a parent with 600 zombie children, and a
# process with 600 SCHED_IDLE threads, then fork 50 times more. burst/stats
# counts one cache miss per sampling and fork_scanned per task looked at:
# no sampling looked at more than 252 if fork_scanned <= 252 x cache_misses.
# Unbounded, each of the 50 forks would look at 600 tasks or more, 30000
# in all, past the 252 x (50 + N) the check allows unless the guest forked
# N = 70 times or more elsewhere meanwhile (it forks a few times). The
# program is tests/guest/fork_scan.c.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
scan_max=252	# BURST_SCAN_MAX: 4 x BURST_CACHE_SAMPLES
skipped=600 forks=50

check "modprobe sliceext" modprobe sliceext
echo 0 > $d/cache_lifetime_ns

# fork_scan NAME MODE COUNTER: run the program in MODE and check that its
# forks (counted by burst/stats COUNTER) each sampled, met the bound and
# kept to it.
fork_scan() {
	local name=$1 mode=$2 counter=$3 res misses

	res=$("$SLICEEXT_BIN/fork_scan" "$mode" $skipped $forks $d/stats)
	check_eq "$name: fork_scan exits 0" 0 "$?"
	echo "# ${res//$'\n'/$'\n'# }"
	check_eq "$name: $skipped relatives without a sample" $skipped \
		"$(out skipped)"
	check_eq "$name: cache_lifetime_ns 0, no fork served from the cache" 0 \
		"$(out cache_hits)"
	check "$name: each of the $forks forks sampled ($counter)" \
		test "$(out "$counter")" -ge $forks
	check "$name: each of the $forks forks sampled (cache_misses)" \
		test "$(out cache_misses)" -ge $forks
	# The relatives to skip come first in the lists a scan walks (a new
	# child or thread is added at the end), so each of the program's
	# forks looks at exactly 252 tasks: the case the bound is for.
	check "$name: the forks' scans reached the bound" \
		test "$(out fork_scanned)" -ge $((forks * scan_max))
	misses=$(out cache_misses)
	check "$name: no sampling looked at more than $scan_max tasks" \
		test "$(out fork_scanned)" -le $((${misses:-0} * scan_max))
}

for t in 1 2; do
	echo $t > $d/inherit_type
	fork_scan "inherit_type $t, a parent with $skipped zombie children" \
		children fork_process
done
fork_scan "a process with $skipped SCHED_IDLE threads" threads fork_thread

check "modprobe -r sliceext" modprobe -r sliceext
tap_done
