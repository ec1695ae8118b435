#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every knob of module/knob_list.h is a debugfs file, a line of the
# read-only "knobs" file and a module parameter dir_name, with the same
# range check: at load (modprobe arguments, /etc/modprobe.d) a bad value
# refuses the load with a message naming the knob and its range; at run
# time /sys/module/sliceext/parameters/, debugfs and "knobs" show and set
# the same value.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

p=/sys/module/sliceext/parameters
d=/sys/kernel/debug/sliceext

# "dir/name min max default" per knob, from module/knob_list.h.
list=$("$(dirname "$0")/../lib/knob-list.sh")

check "modprobe sliceext" modprobe sliceext
check_eq "knobs: mode 0444" 444 "$(stat -c %a $d/knobs)"
check_eq "knobs: its heading" "name value min max default" \
	"$(head -n 1 $d/knobs)"
check_eq "knobs: every knob of module/knob_list.h, in its order" "$list" \
	"$(awk 'NR > 1 { print $1, $3, $4, $5 }' $d/knobs)"
check_eq "knobs: each value is its default at load" \
	"$(awk '{ print $1, $4 }' <<<"$list")" \
	"$(awk 'NR > 1 { print $1, $2 }' $d/knobs)"
check_eq "knobs: root write refused" "Invalid argument" \
	"$(write_err $d/knobs 'ext/enabled 0')"
check_eq "one parameter per knob" "$(wc -l <<<"$list")" "$(ls $p | wc -l)"
while read -r file min max def; do
	name=${file/\//_}
	check_eq "$name: default $def" "$def" "$(cat $p/$name)"
	check_eq "$name: mode 0644" 644 "$(stat -c %a $p/$name)"
	check_eq "$name: modinfo gives range and default" 1 \
		"$(modinfo -p sliceext | grep -c "^$name:.* ($min-$max, default $def)")"
	check "$name: set to $max at run time" write_ok $p/$name "$max"
	check_eq "$name: debugfs $file shows it" "$max" "$(cat $d/$file)"
	check_eq "$name: knobs shows it" "$file $max" \
		"$(awk -v k="$file" '$1 == k { print $1, $2 }' $d/knobs)"
	check "$name: debugfs write of $min" write_ok $d/$file "$min"
	check_eq "$name: the parameter shows it" "$min" "$(cat $p/$name)"
	check_eq "$name: $((max + 1)) refused" "Invalid argument" \
		"$(write_err $p/$name $((max + 1)))"
	check_eq "$name: 'x' refused" "Invalid argument" "$(write_err $p/$name x)"
	check_eq "$name: value kept" "$min" "$(cat $p/$name)"
	check_eq "$name: non-root write refused" "Permission denied" \
		"$(as_nobody bash -c "echo $def > $p/$name" 2>&1 | sed 's/.*: //')"
	write_ok $p/$name "$def"
done <<<"$list"
check "modprobe -r sliceext" modprobe -r sliceext

check "modprobe with ext_slice_ext_nsec=20000 burst_penalty_offset=30" \
	modprobe sliceext ext_slice_ext_nsec=20000 burst_penalty_offset=30
check_eq "ext_slice_ext_nsec from modprobe" 20000 "$(cat $d/ext/slice_ext_nsec)"
check_eq "burst_penalty_offset from modprobe" 30 "$(cat $d/burst/penalty_offset)"
check_eq "knobs shows both" "ext/slice_ext_nsec 20000 burst/penalty_offset 30" \
	"$(awk '$1 == "ext/slice_ext_nsec" || $1 == "burst/penalty_offset" { printf "%s%s %s", s, $1, $2; s = " " }' $d/knobs)"
modprobe -r sliceext

# bad_load ARGS: the load fails, nothing stays, the log names knob and range.
bad_load() {
	local arg=$1 name=${1%%=*} range=$2
	dmesg -C
	check_fails "modprobe sliceext $arg refused" modprobe sliceext "$arg"
	check_fails "$arg: module not loaded" grep -q '^sliceext ' /proc/modules
	check "$arg: log names $name and $range" dmesg_has "sliceext: $name: not a number in $range"
}
bad_load ext_slice_ext_nsec=4999 5000-50000
bad_load ext_slice_ext_nsec=abc 5000-50000
bad_load burst_penalty_offset=64 0-63
bad_load ext_rt_guard=-1 0-1
check_fails "no debugfs tree left after refused loads" test -e $d

mkdir -p /etc/modprobe.d
echo "options sliceext ext_rt_guard=0 burst_smoothness=3" > /etc/modprobe.d/sliceext-test.conf
check "modprobe with options from /etc/modprobe.d" modprobe sliceext
check_eq "ext_rt_guard from modprobe.d" 0 "$(cat $d/ext/rt_guard)"
check_eq "burst_smoothness from modprobe.d" 3 "$(cat $d/burst/smoothness)"
modprobe -r sliceext
rm /etc/modprobe.d/sliceext-test.conf
tap_done
