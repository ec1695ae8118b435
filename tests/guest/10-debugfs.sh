#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debugfs tree: present while loaded, version read-only and correct,
# gone after unload.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext
check_fails "no debugfs tree before load" test -e $d
check "modprobe sliceext" modprobe sliceext
check "debugfs directory exists" test -d $d
check_eq "version: module and hook ABI" "$SLICEEXT_VERSION $SLICEEXT_HOOK_ABI" \
	"$(cat $d/version)"
check_eq "version mode 0444" "444" "$(stat -c %a $d/version)"
before=$(cat $d/version)
out=$(bash -c "echo 2 > $d/version" 2>&1)
check_eq "root write to version fails with EINVAL" 1 \
	"$(grep -c "Invalid argument" <<<"$out")"
out=$(as_nobody bash -c "echo 2 > $d/version" 2>&1)
check_eq "non-root write to version fails with EACCES" 1 \
	"$(grep -c "Permission denied" <<<"$out")"
check_eq "version unchanged after writes" "$before" "$(cat $d/version)"
check "modprobe -r sliceext" modprobe -r sliceext
check_fails "debugfs tree gone after unload" test -e $d
tap_done
