#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the demo: load the module, walk its debugfs tree and
# record its trace events while a small load runs; then the short benchmark
# run (scripts/bench.sh --quick's parts) with the tools/bench binaries in
# BENCH_BIN, its results in /out/bench.jsonl for scripts/bench-report.py.
#
# Usage: scripts/demo-guest.sh PATH/TO/sliceext.ko PATH/TO/ext_grant [BENCH_BIN]
set -euo pipefail

ko=$1 workload=$2 bench_bin=${3:-}
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

echo "== trace-cmd record -e sliceext: 2 s of request windows under wakeup preemption"
trace-cmd record -q -e sliceext -o /tmp/demo.dat "$workload" yield 2
trace-cmd report -i /tmp/demo.dat > /tmp/demo.txt 2>/dev/null
grep 'sliceext_' /tmp/demo.txt | sed -n 1,12p
echo "($(grep -c 'sliceext_' /tmp/demo.txt) sliceext events recorded)"

echo "== $d/ext/stats and ext/hist after the run"
paste -d' ' - - - - < "$d/ext/stats" | column -t
cat "$d/ext/hist"

rmmod sliceext
echo "== unloaded; $d present: $([ -e $d ] && echo yes || echo no)"

[ -n "$bench_bin" ] || exit 0
echo
echo "== short benchmark on $(uname -r): a TEST kernel (lockdep, debug options)"
echo "   under QEMU TCG: the numbers show the benchmarks run, not what sliceext"
echo "   gains; see make bench"
# As scripts/bench.sh --quick: 3 runs of 2 s, lock table and latency.
"$(dirname "$0")/bench-guest.sh" --ko "$ko" --bin "$bench_bin" \
	--parts lock,latency --repeat 3 --duration 2 --kernel test \
	--results /out/bench.jsonl
