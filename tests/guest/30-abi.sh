#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A module built for another core hook ABI is refused with a clear message
# and leaves nothing behind.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

ko=$SLICEEXT_BADABI_KO
if [ ! -f "$ko" ]; then
	not_ok "mismatched hook ABI refused" "no test module at '$ko'"
	exit 1
fi
dmesg -C
out=$(insmod "$ko" 2>&1)
rc=$?
check_fails "insmod of a module for hook ABI 999 fails" test $rc = 0
# ENOEXEC, which kmod words as "Invalid module format".
check "insmod reports ENOEXEC" grep -q "Invalid module format" <<<"$out"
check "kernel log names both ABI versions" \
	dmesg_has "kernel has hook ABI $SLICEEXT_HOOK_ABI, module is built for 999: rebuild the module"
check_fails "module not left loaded" grep -q '^sliceext ' /proc/modules
check_fails "no debugfs tree left" test -e /sys/kernel/debug/sliceext
check "the right module still loads afterwards" modprobe sliceext
check "and unloads" modprobe -r sliceext
tap_done
