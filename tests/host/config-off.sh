#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# With CONFIG_SCHED_SLICEEXT=n the patched tree builds to stock 6.12 code.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=$(dirname "$KBUILD")
out=$("$top/scripts/check-config-off.sh" "$kdir" "$SLICEEXT_WORK/config-off" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
check_eq "patched tree with CONFIG_SCHED_SLICEEXT=n compiles to stock code" 0 "$rc"
tap_done
