#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the benchmarks (scripts/bench.sh; "make demo" runs
# scripts/demo-guest.sh instead). Runs every point of the requested parts
# that belongs to this kernel (scripts/bench-points; the probe's points
# are its configurations in its placements, woken each way of its wakes)
# REPEAT times and appends one JSON object per run to RESULTS: the
# benchmark tool's own --json object plus the point's tags. A point that
# cannot run here (no module, no knob, no tool) gets one {"skipped":
# "why"} line instead and is printed as "skipped: why". Every line is
# written by scripts/bench-record.py, which also sets each point's
# configuration (off, on, on+KNOB=VALUE: scripts/benchlib.py);
# scripts/bench-report.py describes the records and turns them into the
# tables. Each part, and what the parts share, is a file of
# scripts/bench-guest/, sourced below.
#
# Usage: scripts/bench-guest.sh [options]
#   --ko PATH          sliceext.ko to insmod (none: a kernel without sliceext)
#   --bin DIR          the tools/bench binaries (lock_table, wakeup_lat, ...)
#   --postgres DIR     tools/examples/postgresql's build (its install
#                      directory), for the postgres part
#   --parts LIST       comma list of lock,latency,compute,overhead,probe,
#                      postgres (default lock,latency,compute,overhead)
#   --repeat N         runs per point (default 5)
#   --duration S       seconds per run (default 5)
#   --kernel LABEL     release, test (6.12 + sliceext), stock, mainline or
#                      bore (a kernel with BORE's patch, compared through
#                      its sched_bore sysctl): which points run, recorded
#                      with every run
#   --mode MODE        tcg or icount: how the VM runs (scripts/vm.sh),
#                      recorded with the boot (default tcg)
#   --results FILE     where the JSON lines go (default /out/bench.jsonl)
#   --configs LIST     the probe's configurations (default "off on")
#   --places LIST      where the probe's hogs run: same, autogroup, cgroup
#                      (default all three)
#   --wakes LIST       how the probe wakes its worker: futex, pipe
#                      (wakeup_lat --wake; default both)
#   --pin CPU          run the probe under taskset -c CPU (the hogs stay free)
#   --order ORDER      alternate (default): the probe's configurations in
#                      the order given in odd rounds, reversed in even
#                      ones, so that each runs first as often; given: as
#                      listed
#
# Environment, for tests/host/bench-scripts.sh only: SLICEEXT_BENCH_ROOT, a
# made-up tree the knobs are read and written under instead of /, and
# SLICEEXT_BENCH_POINTS, a points file instead of scripts/bench-points.
#
# Exit status: 0, or 3 if a run failed (crashed, timed out, no JSON), or 2
# for bad arguments.
# shellcheck source-path=SCRIPTDIR # lib.sh and bench-guest/*.sh, beside it
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

ko='' bin='' pg='' parts=lock,latency,compute,overhead repeat=5 duration=5
kernel=unknown mode=tcg results=/out/bench.jsonl
probe_configs='off on' probe_places='same autogroup cgroup' probe_wakes='futex pipe'
pin='' order=alternate
while [ $# -gt 0 ]; do
	case $1 in
	--ko|--bin|--postgres|--parts|--repeat|--duration|--kernel|--mode|\
	--results|--configs|--places|--wakes|--pin|--order)
		[ $# -ge 2 ] || { echo "bench-guest.sh: $1 needs a value" >&2; exit 2; } ;;
	*) echo "bench-guest.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	case $1 in
	--ko) ko=$2 ;;
	--bin) bin=$2 ;;
	--postgres) pg=$2 ;;
	--parts) parts=$2 ;;
	--repeat) repeat=$2 ;;
	--duration) duration=$2 ;;
	--kernel) kernel=$2 ;;
	--mode) mode=$2 ;;
	--results) results=$2 ;;
	--configs) probe_configs=${2//,/ } ;;
	--places) probe_places=${2//,/ } ;;
	--wakes) probe_wakes=${2//,/ } ;;
	--pin) pin=$2 ;;
	--order) order=$2 ;;
	esac
	shift 2
done
case $kernel in
release|test) kind=sliceext ;;
stock|mainline|bore) kind=$kernel ;;
*) echo "bench-guest.sh: --kernel is release, test, stock, mainline or bore" >&2
   exit 2 ;;
esac
case $order in
alternate|given) ;;
*) echo "bench-guest.sh: --order is alternate or given" >&2; exit 2 ;;
esac
[[ $pin =~ ^[0-9]*$ ]] || { echo "bench-guest.sh: --pin takes a CPU number" >&2; exit 2; }

# Debian's python3 (the guest runs on the host's root file system).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
rec() { "$py" "$here/bench-record.py" "$@"; }
root=${SLICEEXT_BENCH_ROOT:-}
points_file=${SLICEEXT_BENCH_POINTS:-$here/bench-points}

d=$root/sys/kernel/debug/sliceext
ncpu=$(nproc)
failed=0
load_pid=
state=$(mktemp -d)/state.json

# The lock table (docs/tools.md), scaled with the CPUs (6 clients and 8
# hogs on 2): more clients than CPUs, so that a holder can lose its CPU
# inside the critical section; more hogs than clients; a critical section
# as short as the work between two.
lock_clients=$((3 * ncpu)) lock_hogs=$((4 * ncpu)) lock_cs_us=2 lock_out_us=2
# Background for latency and compute: CPU hogs plus a build-like fork load.
load_hogs=$((2 * ncpu)) load_forkers=$ncpu
# The overhead part's fork loop runs this many processes down a chain.
fork_depth=1000
# Its pinned wakeup (run under taskset -c 0), as the boot's line records it.
pinned_wakeup=(--message-threads 1 --workers 1 --work-us 200 --interval-us 1000)
# The probe (docs/design.md): a task woken every millisecond by a timer,
# which wakes one worker for 200 µs of work, through a futex or (--wake
# pipe) by a write to its pipe; both wakeups are measured. Beside two CPU
# hogs per CPU, no forkers.
probe_args=(--message-threads 1 --workers 1 --work-us 200 --interval-us 1000)
probe_hogs=$((2 * ncpu))
# PostgreSQL under pgbench: four clients and one pgbench thread per CPU
# (-c 8 -j 2 on 2), more backends than CPUs as in the lock table, beside
# the lock table's hogs. Every kernel runs the server on the patch's own
# rseq area (GLIBC_TUNABLES=glibc.pthread.rseq=0), as large as
# AT_RSEQ_FEATURE_SIZE asks: mainline serves only those. The data fits in
# shared_buffers, so that select-only runs from memory; WAL is kept small
# on the guest's tmpfs; at DEBUG1 each process logs whether it enabled the
# extension (counted per run).
pg_clients=$((4 * ncpu)) pg_threads=$ncpu pg_scale=10
pg_env=(GLIBC_TUNABLES=glibc.pthread.rseq=0)
pg_conf=(-c shared_buffers=256MB -c max_wal_size=256MB -c log_min_messages=debug1)

has_part() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }

# ---- the parts, and what they share ----------------------------------------

. "$here/bench-guest/points.sh"
. "$here/bench-guest/background-load.sh"
. "$here/bench-guest/module.sh"
. "$here/bench-guest/part-overhead.sh"
. "$here/bench-guest/part-lock.sh"
. "$here/bench-guest/part-under-load.sh"
. "$here/bench-guest/part-probe.sh"
. "$here/bench-guest/part-postgres.sh"

# ---- main ------------------------------------------------------------------

if ! pts=$(rec points --kind "$kind" --points "$points_file"); then
	echo "bench-guest.sh: scripts/bench-points does not parse" >&2
	exit 2
fi
add_points <<<"$pts"
if has_part probe; then
	if ! pts=$(rec probe-points --configs "$probe_configs" --places "$probe_places" \
		--wakes "$probe_wakes"); then
		echo "bench-guest.sh: bad --configs, --places or --wakes" >&2
		exit 2
	fi
	add_points <<<"$pts"
fi
trap 'stop_load; pg_cleanup; rm -rf "${state%/*}"' EXIT

mkdir -p "$(dirname "$results")"
part_set=()
if has_part probe; then
	# The command for every wake: futex's runs without --wake, so
	# "[--wake pipe]" with both.
	probe_cmd="${pin:+taskset -c $pin }wakeup_lat ${probe_args[*]}" others=
	for w in $probe_wakes; do
		[ "$w" = futex ] || others+=${others:+|}$w
	done
	case " $probe_wakes " in
	*" futex "*) probe_cmd+=${others:+ [--wake $others]} ;;
	*) probe_cmd+=" --wake $others" ;;
	esac
	part_set=(--set "probe_configs=$probe_configs" --set "probe_places=$probe_places"
		--set "probe_wakes=$probe_wakes" --set "probe_hogs=$probe_hogs"
		--set "probe_order=$order" --set "probe_cmd=$probe_cmd")
fi
if has_part postgres; then
	part_set+=(--set "pg_clients=$pg_clients" --set "pg_threads=$pg_threads"
		--set "pg_scale=$pg_scale" --set "pg_hogs=$lock_hogs"
		--set "pg_server=${pg_env[*]} postgres ${pg_conf[*]}"
		--set "pg_build=${pg:+$(basename "$(dirname "$pg")")}")
fi
rec boot "$results" --kernel "$kernel" --mode "$mode" --parts "$parts" \
	--repeat "$repeat" --duration "$duration" \
	--set "lock_clients=$lock_clients" --set "lock_hogs=$lock_hogs" \
	--set "lock_cs_us=$lock_cs_us" --set "lock_outside_us=$lock_out_us" \
	--set "load_hogs=$load_hogs" --set "load_forkers=$load_forkers" \
	--set "fork_depth=$fork_depth" \
	--set "pinned_wakeup=taskset -c 0 wakeup_lat ${pinned_wakeup[*]}" \
	"${part_set[@]}" || exit 2
echo "== $(uname -r) ($kernel, $mode), $ncpu CPUs: parts $parts," \
	"$repeat x ${duration}s per point"

if has_part overhead && [ -n "$(overhead_rows without)" ]; then
	echo "== d) hook overhead: hackbench -g 4 -l 200, syscall_loop getppid," \
		"fork_loop --depth $fork_depth, wakeup_lat pinned to CPU 0"
	for id in $(overhead_rows without); do
		overhead_state "$id"
	done
fi

[ "$kind" != sliceext ] || load_module
# Every point starts from the knobs as they are now, the module loaded.
[ -n "$root" ] || grep -qs " /sys/kernel/debug " /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
rec snapshot --kind "$kind" --state "$state" --root "${root:-/}" || exit 1

has_part lock && part_lock
has_part latency && [ -n "$(points latency)" ] && part_latency
has_part compute && [ -n "$(points compute)" ] && part_compute
has_part probe && part_probe
has_part postgres && [ -n "$(points postgres)" ] && part_postgres

if has_part overhead && [ -n "$(overhead_rows with)" ]; then
	# Loaded and idle (off): the extension available, nobody using it,
	# no burst scoring; then burst scoring on.
	echo "== d) hook overhead, module loaded"
	for id in $(overhead_rows with); do
		overhead_state "$id"
	done
	restore
fi

sync
[ $failed = 0 ] || exit 3
exit 0
