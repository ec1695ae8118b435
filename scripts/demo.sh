#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sliceext's main demo (README: "make demo"): install what is missing,
# build the patched kernel (cached) and the module, boot the kernel under
# QEMU, load the module, show its debugfs tree and record its trace events,
# then, in the same boot, the short benchmark run (scripts/bench.sh --quick's
# lock table and latency parts). The demo boots the test kernel (lockdep and
# other debug options), so those numbers are labelled as such; "make bench"
# measures the release kernel.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
"$top/scripts/deps.sh" all
kdir=$("$top/scripts/kernel.sh" test)
. "$kdir/env"

# Not under /tmp: the guest mounts its own tmpfs there.
cache=$(sliceext_cache)
mkdir -p "$cache/runs"
work=$(mktemp -d "$cache/runs/demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage_module "$top" "$work"
echo "demo: building sliceext.ko for $KVER"
make -s -C "$KBUILD" M="$work" modules
# A thread in request windows, preempted by a noise thread on its CPU.
gcc -O2 -Wall -pthread -I "$top/uapi" -o "$work/ext_grant" \
	"$top/tests/guest/ext_grant.c"

# The benchmark tools; rows whose tool is missing are reported as skipped.
if [ -f "$top/tools/bench/Makefile" ]; then
	make -s -C "$top/tools/bench" O="$work/bench" ||
		echo "demo: tools/bench did not build; its benchmark rows are skipped"
	# The lock table's mutex rows run under the LD_PRELOAD library.
	make -s -C "$top/tools/preload" O="$work/bench" ||
		echo "demo: tools/preload did not build; its rows are skipped"
fi

echo "demo: booting $KVER under QEMU (TCG)"
rc=0
"$top/scripts/vm.sh" --timeout 1800 --out "$work/vm" "$kdir" -- \
	"$top/scripts/demo-guest.sh" "$work/sliceext.ko" "$work/ext_grant" \
	"$work/bench" || rc=$?
if [ -s "$work/vm/bench.jsonl" ]; then
	echo
	python3 "$top/scripts/bench-report.py" --command "make demo" \
		--note "the short run of scripts/bench.sh --quick (lock table and latency), in the demo's boot" \
		"$work/vm/bench.jsonl"
fi
exit $rc
