#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module builds against the patched kernel with W=1 and with sparse
# (C=1) without a single warning, and refuses to build without
# CONFIG_SCHED_SLICEEXT.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

b=$SLICEEXT_WORK/build-w1
mkdir -p "$b"
cp -r "$top/Kbuild" "$top/module" "$b/"
out=$(make -C "$KBUILD" M="$b" W=1 C=1 modules 2>&1)
rc=$?
check_eq "module builds with W=1 C=1" 0 "$rc"
warn=$(grep -E "warning:|error:" <<<"$out")
check_eq "no compiler or sparse warnings" "" "$warn"
check "sliceext.ko produced" test -f "$b/sliceext.ko"

# Without the option the kernel's autoconf.h lacks CONFIG_SCHED_SLICEEXT.
out=$(echo '#include "sliceext.h"' |
	gcc -E -I"$top/module" -I"$KSRC_TREE/include" -x c - 2>&1)
check_fails "build without CONFIG_SCHED_SLICEEXT fails" test $? = 0
check "with a message naming the option" \
	grep -q "needs a kernel with CONFIG_SCHED_SLICEEXT=y" <<<"$out"
tap_done
