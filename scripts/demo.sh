#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sliceext's demo (README: "make demo"): install what it needs, build the
# patched kernel (cached) and the module, boot the kernel under QEMU, load
# the module, show its status and a few trace events, then two small
# side-by-side results (scripts/demo-guest.sh): the lock table with the
# slice extension off and on, and a wakeup-latency percentile with burst
# scheduling off and on. It boots the release kernel if "make bench" (or
# scripts/kernel.sh release) built it, else the test kernel, and says
# which: the test kernel has lockdep and other debug options, so its
# numbers show the effect, not its size. The full benchmark is "make bench".
#
# Usage: scripts/demo.sh [RUNS [SECONDS]]   runs per row (3), seconds each (3)
#   Results and a picture are kept in ~/.cache/sliceext/demo-last.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
runs=${1:-3} secs=${2:-3}
"$top/scripts/deps.sh" demo
if kdir=$("$top/scripts/kernel.sh" release --cached 2>/dev/null); then
	kind="release kernel"
else
	kdir=$("$top/scripts/kernel.sh" test)
	kind="TEST kernel (lockdep, debug options; make bench builds the release one)"
fi
. "$kdir/env"

# Not under /tmp: the guest mounts its own tmpfs there. The guest writes
# its results to /out, which is the host's $work/vm.
cache=$(sliceext_cache)
mkdir -p "$cache/runs"
work=$(mktemp -d "$cache/runs/demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage_module "$top" "$work"
echo "demo: building sliceext.ko for $KVER"
make -s -C "$KBUILD" M="$work" modules
mkdir -p "$work/bin"
gcc -O2 -Wall -pthread -I "$top/uapi" -o "$work/bin/ext_grant" \
	"$top/tests/guest/ext_grant.c"
make -s -C "$top/tools/sliceext" O="$work/bin"
make -s -C "$top/tools/bench" O="$work/bin" "$work/bin/lock_table" \
	"$work/bin/wakeup_lat" "$work/bin/load"

echo "demo: booting the $kind, $KVER, under QEMU (multi-threaded TCG, 2 vCPUs)"
last=$cache/demo-last
rm -rf "$last"
mkdir -p "$last"
rc=0
"$top/scripts/vm.sh" --timeout 900 --out "$work/vm" "$kdir" -- \
	"$top/scripts/demo-guest.sh" "$work/sliceext.ko" "$work/bin" \
	/out/results "$runs" "$secs" || rc=$?
if [ -d "$work/vm/results" ]; then
	cp -r "$work/vm/results" "$last/"
	echo
	python3 "$top/scripts/demo-report.py" --kernel "$KVER, $kind" \
		--svg "$last/demo.svg" "$last/results"
fi
exit $rc
