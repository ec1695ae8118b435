#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fail when a kernel log holds a splat: a WARN, BUG, oops, lockdep or RCU
# report, or an atomic-sleep complaint. Prints each hit with context.
#
# Usage: scripts/splat-scan.sh LOG...    exit 0: clean, 1: splat found
pattern='WARNING:|BUG:|Oops|kernel BUG|general protection fault'
pattern+='|possible circular locking|possible recursive locking'
pattern+='|inconsistent lock state|suspicious RCU usage'
pattern+='|rcu_sched detected stalls|rcu_preempt detected stalls'
pattern+='|sleeping function called from invalid context'
pattern+='|scheduling while atomic|Kernel panic|Call Trace:'
pattern+='|hung_task|blocked for more than|UBSAN:|KASAN:'

found=0
for log in "$@"; do
	[ -f "$log" ] || continue
	if grep -aEq "$pattern" "$log"; then
		echo "splat-scan: $log:"
		grep -aE -B2 -A12 "$pattern" "$log" | head -n 60
		found=1
	fi
done
exit $found
