#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One version everywhere: dkms.conf and the module agree.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
mod=$(sed -n 's/^#define SLICEEXT_VERSION[[:space:]]*"\(.*\)"/\1/p' "$top/module/sliceext.h")
check_eq "dkms.conf PACKAGE_VERSION matches SLICEEXT_VERSION" "$dkms" "$mod"
check_eq "dkms builds only with the core patch" "CONFIG_SCHED_SLICEEXT" \
	"$(sed -n 's/^BUILD_EXCLUSIVE_CONFIG="\(.*\)"$/\1/p' "$top/dkms.conf")"
tap_done
