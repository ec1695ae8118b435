#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sliceext's benchmarks (README: "make bench", docs/benchmarks.md): build
# the release kernel (patched, no debug options), the stock kernel (same
# source and config, unpatched), mainline 7.3 (its own slice extension),
# the module and tools/bench; boot each kernel under QEMU and run its
# points (scripts/bench-points) there; print one table of medians, spreads
# and ratios, and draw a picture per part (scripts/bench-report.py).
#
# Boots: the release kernel for the lock table, latency and compute parts;
# mainline 7.3 for its lock-table rows; the release and the stock kernel
# once more for the hook overhead, always with --icount, whose ratios of a
# few percent only instruction counting resolves.
#
# Usage: scripts/bench.sh [options]      (make bench ARGS="...")
#   --quick          the short run: 3 repeats of 2 s, lock table and latency
#                    only, release kernel only
#   --icount         every boot with deterministic timing (scripts/vm.sh
#                    --icount), not only the overhead's
#   --repeat N       runs per point (default 5)
#   --duration S     seconds per run (default 5)
#   --parts LIST     comma list of lock,latency,compute,overhead,mainline,
#                    bore (mainline: the lock table on mainline 7.3; bore:
#                    the latency and compute rows on a BORE kernel, built
#                    from SLICEEXT_BORE_PATCH or given as SLICEEXT_BORE_KDIR;
#                    never in the default list)
#   --json FILE      also save every raw result (JSON lines) to FILE
#   --out DIR        where the results, the table and the pictures go
#                    (default ~/.cache/sliceext/bench-last)
#   --kernel FLAVOUR kernel to benchmark: release (default) or test (lockdep:
#                    its numbers are labelled as such)
#   --bin DIR        use these tools/bench binaries instead of building them
#
# Environment:
#   SLICEEXT_KDIR=DIR          benchmark this kernel directory (laid out as
#                              scripts/kernel.sh's) instead of building one
#   SLICEEXT_STOCK_KDIR=DIR    the same for the stock kernel
#   SLICEEXT_MAINLINE_KDIR=DIR the same for mainline 7.3
#   SLICEEXT_BORE_PATCH=FILE   BORE's patch for 6.12 (not in Debian: its
#                              authors publish it), for --parts bore:
#                              scripts/kernel.sh bore builds the kernel
#   SLICEEXT_BORE_KDIR=DIR     instead, a 6.12 kernel with BORE's patch
#                              built elsewhere, laid out the same way
#
# DIR holds results.jsonl (scripts/bench-report.py DIR/results.jsonl prints
# the table again), report.md (the table) and bench-PART.svg.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
cache=$(sliceext_cache)
command=${SLICEEXT_BENCH_CMD:-scripts/bench.sh${*:+ $*}}

quick=0 icount=0 repeat='' duration='' parts='' json='' flavour=release bin=''
out=''
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--icount) icount=1; shift ;;
	--repeat|--duration|--parts|--json|--kernel|--bin|--out)
		[ $# -ge 2 ] || { echo "bench.sh: $1 needs a value" >&2; exit 2; }
		case $1 in
		--repeat) repeat=$2 ;;
		--duration) duration=$2 ;;
		--parts) parts=$2 ;;
		--json) json=$2 ;;
		--kernel) flavour=$2 ;;
		--bin) bin=$(cd "$2" && pwd) ;;
		--out) out=$2 ;;
		esac
		shift 2 ;;
	-h|--help) sed -n '4,/^set -euo/{/^set/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
if [ $quick = 1 ]; then
	repeat=${repeat:-3} duration=${duration:-2} parts=${parts:-lock,latency}
else
	repeat=${repeat:-5} duration=${duration:-5}
	parts=${parts:-lock,latency,compute,overhead,mainline}
fi
case $flavour in
release|test) ;;
*) echo "bench.sh: --kernel is release or test" >&2; exit 2 ;;
esac
case $repeat$duration in
''|*[!0-9]*) echo "bench.sh: --repeat and --duration take whole numbers" >&2; exit 2 ;;
esac
if [ "$repeat" -lt 1 ] || [ "$duration" -lt 1 ]; then
	echo "bench.sh: --repeat and --duration are at least 1" >&2
	exit 2
fi
for p in ${parts//,/ }; do
	case $p in
	lock|latency|compute|overhead|mainline|bore) ;;
	*) echo "bench.sh: unknown part '$p' in --parts (lock, latency," \
		"compute, overhead, mainline, bore)" >&2; exit 2 ;;
	esac
done
has_part() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }
if has_part bore && [ -z "${SLICEEXT_BORE_KDIR:-}" ] &&
	[ ! -f "${SLICEEXT_BORE_PATCH:-}" ]; then
	echo "bench.sh: --parts bore needs SLICEEXT_BORE_PATCH, BORE's patch" \
		"for 6.12, or SLICEEXT_BORE_KDIR, a kernel built with it" \
		"(docs/benchmarks.md)" >&2
	exit 2
fi
# The parts the release kernel's main boot runs.
main_parts=
for p in lock latency compute; do
	if has_part $p; then
		main_parts+=${main_parts:+,}$p
	fi
done
mode=tcg
[ $icount = 0 ] || mode=icount
out=${out:-$cache/bench-last}

log() { echo "bench: $*" >&2; }

"$top/scripts/deps.sh" all
log "kernels (a first build takes 15-25 minutes each)"
# The release kernel and its module serve the main boot and the overhead
# part; --parts bore or mainline alone boots only that kernel.
kdir='' skdir='' mkdir='' bkdir=''
if [ -n "$main_parts" ] || has_part overhead; then
	kdir=${SLICEEXT_KDIR:-$("$top/scripts/kernel.sh" "$flavour")}
fi
if has_part overhead; then
	skdir=${SLICEEXT_STOCK_KDIR:-$("$top/scripts/kernel.sh" stock)}
fi
if has_part bore; then
	bkdir=${SLICEEXT_BORE_KDIR:-$("$top/scripts/kernel.sh" bore)}
fi
if has_part mainline; then
	mkdir=${SLICEEXT_MAINLINE_KDIR:-$("$top/scripts/kernel.sh" mainline)}
fi

# Not under /tmp: the guest mounts its own tmpfs there.
mkdir -p "$cache/runs"
work=$(mktemp -d "$cache/runs/bench.XXXXXX")
# shellcheck disable=SC2064
trap "rm -rf '$work'" EXIT

# A module that does not build leaves its rows "skipped" in the guest.
if [ -n "$kdir" ]; then
	. "$kdir/env"
	log "building sliceext.ko for $KVER"
	stage_module "$top" "$work/mod"
	if ! make -s -C "$KBUILD" M="$work/mod" modules >&2; then
		log "warning: sliceext.ko did not build; its rows will be skipped"
	fi
fi

if [ -z "$bin" ]; then
	bin=$work/bench
	if [ ! -f "$top/tools/bench/Makefile" ]; then
		log "warning: no tools/bench; its rows will be skipped"
	elif ! make -s -C "$top/tools/bench" O="$bin" >&2; then
		log "warning: tools/bench did not build; missing tools are skipped"
	fi
	# The lock table's mutex rows run under the LD_PRELOAD library.
	if ! make -s -C "$top/tools/preload" O="$bin" >&2; then
		log "warning: tools/preload did not build; its rows are skipped"
	fi
fi

# run_vm LABEL KERNEL_DIR MODE PARTS NPOINTS [--ko PATH]: one boot. Its
# timeout is generous: TCG is slow, icount slower (one host thread for
# both vCPUs), a fork-heavy load slower still, and hackbench's run time
# is not bounded by --duration.
rc=0
results=()	# each boot's results, in boot order
run_vm() {
	local label=$1 dir=$2 m=$3 p=$4 n=$5 r=0 t vmopt=() vmout
	shift 5
	t=$((n * repeat * (duration + 10)))
	case ",$p," in *,overhead,*) t=$((t + 3 * repeat * 120)) ;; esac
	if [ "$m" = icount ]; then
		t=$((6 * t))
		vmopt=(--icount)
	fi
	t=$((600 + 2 * t))
	log "booting the $label kernel ($(. "$dir/env"; echo "$KVER")) under QEMU" \
		"($m, 2 vCPUs): $p, $repeat x ${duration}s per point, timeout ${t}s"
	vmout=$work/vm-$label-$m-${p//,/-}
	results+=("$vmout/bench.jsonl")
	"$top/scripts/vm.sh" "${vmopt[@]}" --cpus 2 --timeout "$t" \
		--out "$vmout" "$dir" -- \
		"$top/scripts/bench-guest.sh" --kernel "$label" --mode "$m" \
		--bin "$bin" --parts "$p" --repeat "$repeat" --duration "$duration" \
		--results /out/bench.jsonl "$@" || r=$?
	case $r in
	0) ;;
	3) log "$label boot: some runs failed (see the table)"; rc=1 ;;
	*) log "$label boot: vm.sh exit $r (1: test failure or kernel splat," \
		"124: timed out, 125: no result)"; rc=1 ;;
	esac
}

# npoints KERNEL PARTS: how many points a boot runs, for its timeout (the
# lock part brings its histogram runs).
npoints() {
	awk -F '\t' -v k="$1" -v p=",$2," '
		/^(#|$)/ { next }
		$3 == k && (index(p, "," $1 ",") || ($1 == "hist" && index(p, ",lock,"))) { n++ }
		END { print n + 0 }' "$top/scripts/bench-points"
}

ko=(--ko "$work/mod/sliceext.ko")
[ -z "$main_parts" ] ||
	run_vm "$flavour" "$kdir" $mode "$main_parts" \
		"$(npoints sliceext "$main_parts")" "${ko[@]}"
[ -z "$mkdir" ] || run_vm mainline "$mkdir" $mode lock "$(npoints mainline lock)"
if has_part bore; then
	run_vm bore "$bkdir" $mode latency,compute \
		"$(npoints bore latency,compute)"
fi
if has_part overhead; then
	run_vm "$flavour" "$kdir" icount overhead 3 "${ko[@]}"
	run_vm stock "$skdir" icount overhead 1
fi

qemu=$(qemu-system-x86_64 --version | head -n 1)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
mkdir -p "$out"
rm -f "$out"/results.jsonl "$out"/report.md "$out"/bench-*.svg
{
	printf '{"meta":"host","command":%s,"date":%s,"cpu":%s,"host_nproc":%d,"qemu":%s}\n' \
		"$(json_str "$command")" "$(json_str "$(date -u '+%Y-%m-%d %H:%M UTC')")" \
		"$(json_str "$cpu")" "$(nproc)" "$(json_str "$qemu")"
	for f in "${results[@]}"; do
		cat "$f" 2>/dev/null || true
	done
} > "$out/results.jsonl"
[ -z "$json" ] || cp "$out/results.jsonl" "$json"

echo
# Debian's python3: the pictures need its python3-matplotlib.
/usr/bin/python3 "$top/scripts/bench-report.py" --svg "$out" \
	"$out/results.jsonl" | tee "$out/report.md"
log "results, table and pictures in $out"
exit $rc
