#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install and load sliceext the way a user does: dkms install from the tree
# the host prepared with "dkms add" and "dkms build", then modprobe.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

kver=$(uname -r)
check "dkms install for $kver" \
	dkms install -m sliceext -v "$SLICEEXT_VERSION" -k "$kver" $DKMS_OPTS
check "module installed under /lib/modules/$kver" \
	test -f "$(modinfo -n sliceext 2>/dev/null)"
check_eq "installed module version" "$SLICEEXT_VERSION" \
	"$(modinfo -F version sliceext 2>/dev/null)"
check "modprobe sliceext" modprobe sliceext
check "sliceext listed in /proc/modules" grep -q '^sliceext ' /proc/modules
check "modprobe -r sliceext" modprobe -r sliceext
check_fails "sliceext gone from /proc/modules" grep -q '^sliceext ' /proc/modules
tap_done
