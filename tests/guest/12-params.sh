#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every knob is also a module parameter, with the same range check: at
# load (modprobe arguments, /etc/modprobe.d) a bad value refuses the load
# with a message naming the knob and its range; at run time
# /sys/module/sliceext/parameters/ and debugfs show and set the same value.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

p=/sys/module/sliceext/parameters
d=/sys/kernel/debug/sliceext

# parameter  debugfs file  default  min  max
knobs="ext_enabled ext/enabled 1 0 1
slice_ext_nsec ext/slice_ext_nsec 5000 5000 50000
rt_guard ext/rt_guard 1 0 1
burst_enabled burst/enabled 1 0 1
burst_penalty_offset burst/penalty_offset 24 0 63
burst_penalty_scale burst/penalty_scale 1536 0 4095
burst_smoothness burst/smoothness 1 0 3
burst_inherit_type burst/inherit_type 2 0 2
burst_cache_lifetime_ns burst/cache_lifetime_ns 75000000 0 1000000000
burst_wakeup_half_slice burst/wakeup_half_slice 1 0 1
burst_half_lag_clamp burst/half_lag_clamp 1 0 1
burst_group_placement burst/group_placement 0 0 1
burst_wakeup_unprotect burst/wakeup_unprotect 1 0 1
burst_wakeup_preempt burst/wakeup_preempt 1 0 1
burst_keep_delayed_lag burst/keep_delayed_lag 1 0 1
burst_futex_zero_slice burst/futex_zero_slice 1 0 1
burst_keep_unscored burst/keep_unscored 1 0 1
burst_scored_slice_ns burst/scored_slice_ns 0 0 100000000
burst_group_keep burst/group_keep 1 0 1"

check "modprobe sliceext" modprobe sliceext
check_eq "one parameter per knob" "$(wc -l <<<"$knobs")" "$(ls $p | wc -l)"
while read -r name file def min max; do
	check_eq "$name: default $def" "$def" "$(cat $p/$name)"
	check_eq "$name: mode 0644" 644 "$(stat -c %a $p/$name)"
	check "$name: set to $max at run time" write_ok $p/$name "$max"
	check_eq "$name: debugfs $file shows it" "$max" "$(cat $d/$file)"
	check "$name: debugfs write of $min" write_ok $d/$file "$min"
	check_eq "$name: the parameter shows it" "$min" "$(cat $p/$name)"
	check_eq "$name: $((max + 1)) refused" "Invalid argument" \
		"$(write_err $p/$name $((max + 1)))"
	check_eq "$name: 'x' refused" "Invalid argument" "$(write_err $p/$name x)"
	check_eq "$name: value kept" "$min" "$(cat $p/$name)"
	check_eq "$name: non-root write refused" "Permission denied" \
		"$(as_nobody bash -c "echo $def > $p/$name" 2>&1 | sed 's/.*: //')"
	write_ok $p/$name "$def"
done <<<"$knobs"
check "modprobe -r sliceext" modprobe -r sliceext

check "modprobe with slice_ext_nsec=20000 burst_penalty_offset=30" \
	modprobe sliceext slice_ext_nsec=20000 burst_penalty_offset=30
check_eq "slice_ext_nsec from modprobe" 20000 "$(cat $d/ext/slice_ext_nsec)"
check_eq "burst_penalty_offset from modprobe" 30 "$(cat $d/burst/penalty_offset)"
modprobe -r sliceext

# bad_load ARGS: the load fails, nothing stays, the log names knob and range.
bad_load() {
	local arg=$1 name=${1%%=*} range=$2
	dmesg -C
	check_fails "modprobe sliceext $arg refused" modprobe sliceext "$arg"
	check_fails "$arg: module not loaded" grep -q '^sliceext ' /proc/modules
	check "$arg: log names $name and $range" dmesg_has "sliceext: $name: not a number in $range"
}
bad_load slice_ext_nsec=4999 5000-50000
bad_load slice_ext_nsec=abc 5000-50000
bad_load burst_penalty_offset=64 0-63
bad_load rt_guard=-1 0-1
check_fails "no debugfs tree left after refused loads" test -e $d

mkdir -p /etc/modprobe.d
echo "options sliceext rt_guard=0 burst_smoothness=3" > /etc/modprobe.d/sliceext-test.conf
check "modprobe with options from /etc/modprobe.d" modprobe sliceext
check_eq "rt_guard from modprobe.d" 0 "$(cat $d/ext/rt_guard)"
check_eq "burst_smoothness from modprobe.d" 3 "$(cat $d/burst/smoothness)"
modprobe -r sliceext
rm /etc/modprobe.d/sliceext-test.conf
tap_done
