#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sliceext's benchmarks (README: "make bench", docs/benchmarks.md): build
# the release kernel (patched, no debug options), the stock kernel (same
# source and config, unpatched), the module and tools/bench; boot the
# release kernel and run every benchmark there, boot the stock kernel for
# the hook-overhead baseline, and print one table of medians, spreads and
# ratios (scripts/bench-report.py).
#
# Usage: scripts/bench.sh [options]      (make bench ARGS="...")
#   --quick          the short run: 3 repeats of 2 s, lock table and latency
#                    only, no stock kernel
#   --repeat N       runs per point (default 5)
#   --duration S     seconds per run (default 5)
#   --parts LIST     comma list of lock,latency,compute,overhead
#   --json FILE      also save every raw result (JSON lines) to FILE
#   --kernel FLAVOUR kernel to benchmark: release (default) or test (lockdep:
#                    its numbers are labelled as such)
#   --bin DIR        use these tools/bench binaries instead of building them
#
# Environment:
#   SLICEEXT_KDIR=DIR        benchmark this kernel directory (laid out as
#                            scripts/kernel.sh's) instead of building one
#   SLICEEXT_STOCK_KDIR=DIR  the same for the stock kernel
#
# The raw results of the last run stay in ~/.cache/sliceext/bench-last.jsonl
# (scripts/bench-report.py FILE prints the table again).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SLICEEXT_CACHE:-${HOME:-/root}/.cache/sliceext}
command=${SLICEEXT_BENCH_CMD:-scripts/bench.sh${*:+ $*}}

quick=0 repeat='' duration='' parts='' json='' flavour=release bin=''
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--repeat) repeat=$2; shift 2 ;;
	--duration) duration=$2; shift 2 ;;
	--parts) parts=$2; shift 2 ;;
	--json) json=$2; shift 2 ;;
	--kernel) flavour=$2; shift 2 ;;
	--bin) bin=$(cd "$2" && pwd); shift 2 ;;
	-h|--help) sed -n '4,/^set -euo/{/^set/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
if [ $quick = 1 ]; then
	repeat=${repeat:-3} duration=${duration:-2} parts=${parts:-lock,latency}
else
	repeat=${repeat:-5} duration=${duration:-5}
	parts=${parts:-lock,latency,compute,overhead}
fi
case $flavour in
release|test) ;;
*) echo "bench.sh: --kernel is release or test" >&2; exit 2 ;;
esac
case $repeat$duration in
*[!0-9]*) echo "bench.sh: --repeat and --duration take whole numbers" >&2; exit 2 ;;
esac
has_part() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }

log() { echo "bench: $*" >&2; }
json_str() {
	local s=${1//\\/\\\\}
	printf '"%s"' "${s//\"/\\\"}"
}

"$top/scripts/deps.sh" all
log "kernels (a first build takes 15-25 minutes each)"
kdir=${SLICEEXT_KDIR:-$("$top/scripts/kernel.sh" "$flavour")}
skdir=
if has_part overhead; then
	skdir=${SLICEEXT_STOCK_KDIR:-$("$top/scripts/kernel.sh" stock)}
fi
. "$kdir/env"

# Not under /tmp: the guest mounts its own tmpfs there.
mkdir -p "$cache/runs"
work=$(mktemp -d "$cache/runs/bench.XXXXXX")
# shellcheck disable=SC2064
trap "rm -rf '$work'" EXIT

# A module that does not build leaves its rows "skipped" in the guest.
log "building sliceext.ko for $KVER"
mkdir -p "$work/mod"
cp -r "$top/Kbuild" "$top/module" "$work/mod/"
[ -d "$top/uapi" ] && cp -r "$top/uapi" "$work/mod/"
if ! make -s -C "$KBUILD" M="$work/mod" modules >&2; then
	log "warning: sliceext.ko did not build; its rows will be skipped"
fi

if [ -z "$bin" ]; then
	bin=$work/bench
	if [ ! -f "$top/tools/bench/Makefile" ]; then
		log "warning: no tools/bench; its rows will be skipped"
	elif ! make -s -C "$top/tools/bench" O="$bin" >&2; then
		log "warning: tools/bench did not build; missing tools are skipped"
	fi
fi

# Generous: TCG is slow, a fork-heavy load slower still, and hackbench's
# run time is not bounded by --duration.
runs=$((14 * repeat * (duration + 10)))
has_part overhead && runs=$((runs + 3 * repeat * (duration + 120)))
timeout=$((600 + 2 * runs))
[ $quick = 1 ] || [ $timeout -ge 3600 ] || timeout=3600

# run_vm LABEL KERNEL_DIR PARTS [--ko PATH]
rc=0
run_vm() {
	local label=$1 dir=$2 p=$3 r=0
	shift 3
	log "booting the $label kernel ($(. "$dir/env"; echo "$KVER")) under QEMU" \
		"(TCG, 2 vCPUs): $p, $repeat x ${duration}s per point," \
		"timeout ${timeout}s"
	"$top/scripts/vm.sh" --cpus 2 --timeout "$timeout" --out "$work/vm-$label" \
		"$dir" -- "$top/scripts/bench-guest.sh" --kernel "$label" \
		--bin "$bin" --parts "$p" --repeat "$repeat" --duration "$duration" \
		--results /out/bench.jsonl "$@" || r=$?
	case $r in
	0) ;;
	3) log "$label boot: some runs failed (see the table)"; rc=1 ;;
	*) log "$label boot: vm.sh exit $r (1: test failure or kernel splat," \
		"124: timed out, 125: no result)"; rc=1 ;;
	esac
}

run_vm "$flavour" "$kdir" "$parts" --ko "$work/mod/sliceext.ko"
[ -z "$skdir" ] || run_vm stock "$skdir" overhead

qemu=$(qemu-system-x86_64 --version | head -n 1)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	printf '{"meta":"host","command":%s,"date":%s,"cpu":%s,"host_nproc":%d,"qemu":%s}\n' \
		"$(json_str "$command")" "$(json_str "$(date -u '+%Y-%m-%d %H:%M UTC')")" \
		"$(json_str "$cpu")" "$(nproc)" "$(json_str "$qemu")"
	# stock first: it is the overhead part's base row.
	[ -z "$skdir" ] || cat "$work/vm-stock/bench.jsonl" 2>/dev/null || true
	cat "$work/vm-$flavour/bench.jsonl" 2>/dev/null || true
} > "$work/results.jsonl"
cp "$work/results.jsonl" "$cache/bench-last.jsonl"
[ -z "$json" ] || cp "$work/results.jsonl" "$json"

echo
python3 "$top/scripts/bench-report.py" "$work/results.jsonl"
exit $rc
