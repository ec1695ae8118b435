#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sliceext's main demo (README: "make demo"): install what is missing,
# build the patched kernel (cached) and the module, boot the kernel under
# QEMU, load the module, show its debugfs tree and record its trace events.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh" all
kdir=$("$top/scripts/kernel.sh" test)
. "$kdir/env"

# Not under /tmp: the guest mounts its own tmpfs there.
cache=${SLICEEXT_CACHE:-${HOME:-/root}/.cache/sliceext}
mkdir -p "$cache/runs"
work=$(mktemp -d "$cache/runs/demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$top/Kbuild" "$top/module" "$work/"
[ -d "$top/uapi" ] && cp -r "$top/uapi" "$work/"
echo "demo: building sliceext.ko for $KVER"
make -s -C "$KBUILD" M="$work" modules
# A thread in request windows, preempted by a noise thread on its CPU.
gcc -O2 -Wall -pthread -I "$top/uapi" -o "$work/ext_grant" \
	"$top/tests/guest/ext_grant.c"

echo "demo: booting $KVER under QEMU (TCG)"
"$top/scripts/vm.sh" --timeout 600 "$kdir" -- \
	"$top/scripts/demo-guest.sh" "$work/sliceext.ko" "$work/ext_grant"
