#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# burst/ knobs and files: defaults and ranges of module/knob_list.h
# (docs/user-guide.md, "Knobs"), every malformed or out-of-range write
# fails with EINVAL and keeps the value, non-root writes are refused. The
# seven knobs the knob review cut (docs/log/2026-12-07-burst-knob-review.md;
# their rules are fixed: group_placement off, scored_slice_ns gone with its
# hook, the others on with burst/enabled) have no debugfs file and no
# module parameter; a load that still names one is the kernel's to judge,
# which ignores a parameter a module lacks, logs it and loads the module.
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
check_knob $d/group_keep 1 0 1

removed="group_placement wakeup_unprotect wakeup_preempt keep_delayed_lag
	 futex_zero_slice keep_unscored scored_slice_ns"
check_eq "burst/ holds the nine knobs, stats and tasks, no removed knob" \
	"cache_lifetime_ns enabled group_keep half_lag_clamp inherit_type penalty_offset penalty_scale smoothness stats tasks wakeup_half_slice" \
	"$(LC_ALL=C ls $d | paste -sd ' ')"

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

# Each removed knob's parameter, set to the value its rule is not fixed
# at. A module cannot refuse a parameter it does not declare: the kernel
# (unknown_module_param_cb()) logs it as ignored and loads the module.
args=()
for k in $removed; do
	case $k in
	group_placement) args+=("burst_$k=1") ;;
	scored_slice_ns) args+=("burst_$k=4000000") ;;
	*) args+=("burst_$k=0") ;;
	esac
done
dmesg -C
check "modprobe with the seven removed parameters loads, ignoring them" \
	modprobe sliceext "${args[@]}"
for k in $removed; do
	check "burst_$k: the log says the kernel ignored it" \
		dmesg_has "sliceext: unknown parameter 'burst_$k' ignored"
	check_fails "burst_$k: no such module parameter" \
		test -e /sys/module/sliceext/parameters/burst_$k
	check_fails "burst_$k: no debugfs file" test -e $d/$k
done
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
