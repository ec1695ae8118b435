#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ext/ knobs and counters: defaults, every malformed or out-of-range write
# fails with EINVAL and keeps the value, non-root writes are refused.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/ext
check "modprobe sliceext" modprobe sliceext

check_knob enabled 1 0 1
check_knob slice_ext_nsec 5000 5000 50000
check_knob rt_guard 1 0 1

check_eq "stats mode 0644" 644 "$(stat -c %a $d/stats)"
for f in stats hist; do
	for bad in 1 abc -1 " "; do
		check_eq "$f: write '$bad' fails with EINVAL" "Invalid argument" \
			"$(write_err $d/$f "$bad")"
	done
	check "$f: write 0 resets" write_ok $d/$f 0
done
check_eq "stats read back as zeros" "" \
	"$(awk '$2 != 0' $d/stats)"
check_eq "stats lists every counter" \
	"requested granted denied denied_disabled denied_rt_waiter denied_exit_work denied_fault expired revoked yielded aborted" \
	"$(awk '{ print $1 }' $d/stats | xargs)"
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
