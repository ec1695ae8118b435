#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# burst/ knobs and files: defaults and ranges of README.md, every malformed
# or out-of-range write fails with EINVAL and keeps the value, non-root
# writes are refused.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
check "modprobe sliceext" modprobe sliceext

check_knob $d/enabled 1 0 1
check_knob $d/penalty_offset 24 0 63
check_knob $d/penalty_scale 1536 0 4095
check_knob $d/smoothness 1 0 3
check_knob $d/inherit_type 2 0 2
check_knob $d/cache_lifetime_ns 75000000 0 1000000000
check_knob $d/wakeup_half_slice 1 0 1
check_knob $d/half_lag_clamp 1 0 1
check_knob $d/group_placement 0 0 1
check_knob $d/wakeup_unprotect 1 0 1
check_knob $d/wakeup_preempt 1 0 1
check_knob $d/keep_delayed_lag 1 0 1
check_knob $d/futex_zero_slice 1 0 1
check_knob $d/keep_unscored 1 0 1
check_knob $d/scored_slice_ns 0 0 100000000
check_knob $d/group_keep 1 0 1

check_eq "stats mode 0644" 644 "$(stat -c %a $d/stats)"
check_eq "stats lists every counter" \
	"score_changes restarts fork_thread fork_process cache_hits cache_misses ancestor_steps descendant_steps fork_scanned wakeup_unprotect wakeup_preempt keep_delayed_lag futex_zero_slice balance_keep balance_apart balance_own_group group_keep" \
	"$(awk '{ print $1 }' $d/stats | xargs)"
for bad in 1 abc -1 " "; do
	check_eq "stats: write '$bad' fails with EINVAL" "Invalid argument" \
		"$(write_err $d/stats "$bad")"
done
sleep 1
before=$(burst_stat restarts)
check "stats count restarts (tasks sleep all the time)" test "$before" -gt 0
check "stats: write 0 resets" write_ok $d/stats 0
check "stats: restarts fell from $before" test "$(burst_stat restarts)" -lt "$before"
check_eq "stats: non-root write refused" "Permission denied" \
	"$(as_nobody bash -c "echo 0 > $d/stats" 2>&1 | sed 's/.*: //')"

check_eq "tasks mode 0444" 444 "$(stat -c %a $d/tasks)"
check_eq "tasks header" "pid comm score penalty burst_ns weight" "$(head -n 1 $d/tasks)"
check "tasks lists this shell" test -n "$(burst_field $$ score)"
check_eq "tasks lists no RT task (migration/0 is SCHED_FIFO)" "" \
	"$(awk -v p="$(pgrep -x migration/0)" '$1 == p' $d/tasks)"
check "tasks: write fails" test -n "$(write_err $d/tasks 1)"

check "modprobe -r sliceext" modprobe -r sliceext
tap_done
