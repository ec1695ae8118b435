#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the demo: load the module, walk its debugfs tree and
# record its trace events while a small load runs.
#
# Usage: scripts/demo-guest.sh PATH/TO/sliceext.ko
set -euo pipefail

ko=$1
d=/sys/kernel/debug/sliceext

echo "== $(uname -r): insmod sliceext.ko"
insmod "$ko"
dmesg | grep 'sliceext:' | tail -n 1

echo "== debugfs: $d"
find "$d" -type f | sort | while read -r f; do
	printf '%-40s %s  %s\n' "${f#"$d"/}" "$(stat -c %A "$f")" \
		"$(tr '\n' ' ' < "$f")"
done

echo "== trace events"
trace-cmd list -e sliceext

echo "== trace-cmd record -e sliceext (2 s of CPU load)"
trace-cmd record -q -e sliceext -o /tmp/demo.dat \
	sh -c 'for i in 1 2; do timeout 2 sh -c "while :; do :; done" & done; wait'
trace-cmd report -i /tmp/demo.dat 2>/dev/null | head -n 40
echo "($(trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep -c 'sliceext_') sliceext events recorded)"

rmmod sliceext
echo "== unloaded; $d present: $([ -e $d ] && echo yes || echo no)"
