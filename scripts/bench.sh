#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sliceext's benchmarks ("make bench", docs/results.md): build
# the release kernel (patched, no debug options), the stock kernel (same
# source and config, unpatched), mainline 7.3 (its own slice extension),
# the module and tools/bench; boot each kernel under QEMU and run its
# points there (scripts/bench-guest.sh: scripts/bench-points, and the
# probe's configurations, placements and wakes); print one table of
# medians, spreads, ratios and rank tests, and draw a picture per part
# (scripts/bench-report.py).
#
# Boots: the release kernel for the lock table, latency, compute, probe
# and postgres parts; mainline 7.3 for its lock-table and postgres rows;
# the release and the stock kernel once more for the hook overhead, always
# with --icount, whose ratios of a few percent only instruction counting
# resolves.
#
# Usage: scripts/bench.sh [options]      (make bench ARGS="...")
#   --quick          the short run: 3 repeats of 2 s, lock table and latency
#                    only, release kernel only
#   --icount         every boot with deterministic timing (scripts/vm.sh
#                    --icount), not only the overhead's
#   --repeat N       runs per point (default 5)
#   --duration S     seconds per run (default 5)
#   --parts LIST     comma list of lock,latency,compute,overhead,mainline,
#                    probe,postgres,bore (default all but bore). lock: the
#                    lock table and the extension used per grant; latency,
#                    compute: a wakeup latency and a CPU-bound thread under
#                    load; overhead: the hooks' cost, stock vs patched
#                    (icount); mainline: the lock table on mainline 7.3;
#                    probe: a task woken every millisecond (its timer wakeup
#                    and its worker's wakeup both measured) beside two CPU
#                    hogs per vCPU, in each placement of --places, each way
#                    of --wakes, in each configuration of --configs;
#                    postgres: PostgreSQL with tools/examples/postgresql's
#                    patch (built here into the cache) under pgbench,
#                    select-only and TPC-B-like, beside the lock table's
#                    hogs or alone, slice_extension off or on, on the
#                    release kernel and on mainline 7.3;
#                    bore: the latency, compute (and with probe, probe)
#                    points on a BORE kernel, built from SLICEEXT_BORE_PATCH
#                    or given as SLICEEXT_BORE_KDIR
#   --configs LIST   the probe's configurations, comma (or space) separated
#                    (default off,on): off, on, or on+KNOB=VALUE with more
#                    +KNOB=VALUE as needed, KNOB being burst/NAME or ext/NAME
#                    (sliceext's debugfs files) or sched/NAME (the
#                    scheduler's; sched/features=HRTICK sets one feature),
#                    e.g. off,on,on+burst/penalty_scale=40. On a BORE
#                    kernel on and off are its sched_bore sysctl.
#   --places LIST    where the probe's hogs run, comma separated: same (its
#                    session), autogroup (another), cgroup (another cpu
#                    cgroup) (default: all three)
#   --wakes LIST     how the probe wakes its worker, comma separated: futex
#                    (a FUTEX_WAKE), pipe (a write to a pipe the worker
#                    reads: a sync wakeup) (default: both; wakeup_lat
#                    --wake, docs/tools.md). futex rows keep the ids and
#                    labels they had before pipe joined them ("same:on",
#                    "on, hogs in its session"); pipe rows add the wake
#                    ("same:on:pipe", "on, hogs in its session,
#                    pipe-woken") and report "pipe wakeup" metrics, each
#                    against the off row of its placement and wake
#   --pin CPU        run the probe (not its hogs) under taskset -c CPU
#   --order ORDER    alternate (default): the probe's configurations in the
#                    order given in odd rounds, reversed in even ones, so
#                    that each runs first as often; given: as listed
#   --cpus N         vCPUs of every boot (default 2); the loads scale
#   --json FILE      also save every raw result (JSON lines) to FILE
#   --out DIR        where the results, the table and the pictures go
#                    (default ~/.cache/sliceext/bench-last)
#   --results-md FILE  also write FILE (docs/results.md) with its pictures
#                    beside it (scripts/bench-report.py --results-md)
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
# the table again; its records are described at the top of that script),
# report.md (the table) and bench-PART.svg.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
cache=$(sliceext_cache)
# The command as the results record it: one that can be pasted back.
command=scripts/bench.sh
for a in "$@"; do
	if [[ $a =~ ^[A-Za-z0-9_./,:=+@%-]+$ ]]; then
		command+=" $a"
	else
		command+=" $(printf '%q' "$a")"
	fi
done
command=${SLICEEXT_BENCH_CMD:-$command}

quick=0 icount=0 repeat='' duration='' parts='' json='' flavour=release bin=''
out='' results_md='' configs='off on' places='same autogroup cgroup' pin=''
wakes='futex pipe' order=alternate cpus=2
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--icount) icount=1; shift ;;
	--repeat|--duration|--parts|--json|--kernel|--bin|--out|--results-md|\
	--configs|--places|--wakes|--pin|--order|--cpus)
		[ $# -ge 2 ] || { echo "bench.sh: $1 needs a value" >&2; exit 2; }
		case $1 in
		--repeat) repeat=$2 ;;
		--duration) duration=$2 ;;
		--parts) parts=$2 ;;
		--json) json=$2 ;;
		--kernel) flavour=$2 ;;
		--bin) bin=$(cd "$2" && pwd) ;;
		--out) out=$2 ;;
		--results-md) results_md=$2 ;;
		--configs) configs=${2//,/ } ;;
		--places) places=${2//,/ } ;;
		--wakes) wakes=${2//,/ } ;;
		--pin) pin=$2 ;;
		--order) order=$2 ;;
		--cpus) cpus=$2 ;;
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
	parts=${parts:-lock,latency,compute,overhead,mainline,probe,postgres}
fi
case $flavour in
release|test) ;;
*) echo "bench.sh: --kernel is release or test" >&2; exit 2 ;;
esac
case $repeat$duration in
''|*[!0-9]*) echo "bench.sh: --repeat and --duration take whole numbers" >&2; exit 2 ;;
esac
[[ $cpus =~ ^[1-9][0-9]*$ ]] || { echo "bench.sh: --cpus takes a positive number" >&2; exit 2; }
case $pin in
'') ;;
*[!0-9]*) echo "bench.sh: --pin takes a CPU number" >&2; exit 2 ;;
*) [ "$pin" -lt "$cpus" ] ||
	{ echo "bench.sh: --pin $pin: the guest has CPUs 0-$((cpus - 1))" >&2; exit 2; } ;;
esac
case $order in
alternate|given) ;;
*) echo "bench.sh: --order is alternate or given" >&2; exit 2 ;;
esac
if [ "$repeat" -lt 1 ] || [ "$duration" -lt 1 ]; then
	echo "bench.sh: --repeat and --duration are at least 1" >&2
	exit 2
fi
for p in ${parts//,/ }; do
	case $p in
	lock|latency|compute|overhead|mainline|probe|postgres|bore) ;;
	*) echo "bench.sh: unknown part '$p' in --parts (lock, latency," \
		"compute, overhead, mainline, probe, postgres, bore)" >&2; exit 2 ;;
	esac
done
has_part() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }
if has_part bore && [ -z "${SLICEEXT_BORE_KDIR:-}" ] &&
	[ ! -f "${SLICEEXT_BORE_PATCH:-}" ]; then
	echo "bench.sh: --parts bore needs SLICEEXT_BORE_PATCH, BORE's patch" \
		"for 6.12, or SLICEEXT_BORE_KDIR, a kernel built with it" \
		"(docs/development.md)" >&2
	exit 2
fi
# The probe's configurations, placements and wakes, checked before
# anything is installed or built (scripts/benchlib.py parses them, here
# and in the guest), and again once python3 is there for sure.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
check_probe() {
	local err
	has_part probe || return 0
	command -v "$py" >/dev/null || return 0
	err=$("$py" "$top/scripts/bench-record.py" probe-points \
		--configs "$configs" --places "$places" --wakes "$wakes" \
		2>&1 >/dev/null) && return 0
	echo "bench.sh: --configs, --places or --wakes: ${err#bench-record: }" >&2
	exit 2
}
check_probe
# The parts the release kernel's main boot runs, and mainline 7.3's.
main_parts=
for p in lock latency compute probe postgres; do
	if has_part $p; then
		main_parts+=${main_parts:+,}$p
	fi
done
ml_parts=
has_part mainline && ml_parts=lock
has_part postgres && ml_parts+=${ml_parts:+,}postgres
mode=tcg
[ $icount = 0 ] || mode=icount
out=${out:-$cache/bench-last}

log() { echo "bench: $*" >&2; }

"$top/scripts/deps.sh" all
py=/usr/bin/python3
check_probe
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
if [ -n "$ml_parts" ]; then
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

# PostgreSQL for the postgres part, built once into the cache; without it
# the guest skips the part's rows.
pg_args=()
if has_part postgres; then
	log "PostgreSQL with tools/examples/postgresql's patch (a first build" \
		"takes about 10 minutes)"
	if pgbin=$("$top/tools/examples/postgresql/fetch-build.sh"); then
		pg_args=(--postgres "${pgbin%/bin}")
	else
		log "warning: PostgreSQL did not build; the postgres rows will be skipped"
	fi
fi

# The probe's options, for the boots that run it.
probe_args=(--configs "$configs" --places "$places" --wakes "$wakes" --order "$order"
	${pin:+--pin "$pin"})

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
	# initdb and pgbench -i, a server restart or two per round
	case ",$p," in *,postgres,*) t=$((t + 600 + repeat * 120)) ;; esac
	if [ "$m" = icount ]; then
		t=$((6 * t))
		vmopt=(--icount)
	fi
	t=$((600 + 2 * t))
	log "booting the $label kernel ($(. "$dir/env"; echo "$KVER")) under QEMU" \
		"($m, $cpus vCPUs): $p, $repeat x ${duration}s per point, timeout ${t}s"
	vmout=$work/vm-$label-$m-${p//,/-}
	results+=("$vmout/bench.jsonl")
	case ",$p," in *,probe,*) set -- "$@" "${probe_args[@]}" ;; esac
	case ",$p," in *,postgres,*) set -- "$@" "${pg_args[@]}" ;; esac
	"$top/scripts/vm.sh" "${vmopt[@]}" --cpus "$cpus" --timeout "$t" \
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
# lock part brings its histogram runs, the probe a point per placement,
# wake and configuration).
npoints() {
	local c p w
	read -ra c <<<"$configs"
	read -ra p <<<"$places"
	read -ra w <<<"$wakes"
	"$py" "$top/scripts/bench-record.py" count --kind "$1" --parts "$2" \
		--probe $((${#c[@]} * ${#p[@]} * ${#w[@]}))
}

ko=(--ko "$work/mod/sliceext.ko")
[ -z "$main_parts" ] ||
	run_vm "$flavour" "$kdir" $mode "$main_parts" \
		"$(npoints sliceext "$main_parts")" "${ko[@]}"
[ -z "$mkdir" ] ||
	run_vm mainline "$mkdir" $mode "$ml_parts" "$(npoints mainline "$ml_parts")"
if has_part bore; then
	bparts=latency,compute
	! has_part probe || bparts+=,probe
	run_vm bore "$bkdir" $mode "$bparts" "$(npoints bore "$bparts")"
fi
if has_part overhead; then
	run_vm "$flavour" "$kdir" icount overhead 3 "${ko[@]}"
	run_vm stock "$skdir" icount overhead 1
fi

mkdir -p "$out"
rm -f "$out"/results.jsonl "$out"/report.md "$out"/bench-*.svg
kdirs=()
for k in "$flavour=$kdir" "stock=$skdir" "mainline=$mkdir" "bore=$bkdir"; do
	[ -z "${k#*=}" ] || kdirs+=(--kernel-dir "$k")
done
{
	# The run's first line: the command, the host, the series.
	"$py" "$top/scripts/bench-record.py" host --command "$command" \
		--top "$top" "${kdirs[@]}"
	for f in "${results[@]}"; do
		cat "$f" 2>/dev/null || true
	done
} > "$out/results.jsonl"
[ -z "$json" ] || cp "$out/results.jsonl" "$json"

echo
# Debian's python3: the pictures need its python3-matplotlib.
"$py" "$top/scripts/bench-report.py" --svg "$out" \
	${results_md:+--results-md "$results_md"} \
	"$out/results.jsonl" | tee "$out/report.md"
log "results, table and pictures in $out"
exit $rc
