#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the benchmarks (scripts/bench.sh, and the short run at the
# end of "make demo"). Runs every point of the requested parts that belongs
# to this kernel (scripts/bench-points; the probe's points are its
# configurations in its placements) REPEAT times and appends one JSON
# object per run to RESULTS: the benchmark tool's own --json object plus
# the point's tags. A point that cannot run here (no module, no knob, no
# tool) gets one {"skipped": "why"} line instead and is printed as
# "skipped: why". Every line is written by scripts/bench-record.py, which
# also sets each point's configuration (off, on, on+KNOB=VALUE:
# scripts/benchlib.py); scripts/bench-report.py describes the records and
# turns them into the tables.
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
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

ko='' bin='' pg='' parts=lock,latency,compute,overhead repeat=5 duration=5
kernel=unknown mode=tcg results=/out/bench.jsonl
probe_configs='off on' probe_places='same autogroup cgroup' pin='' order=alternate
while [ $# -gt 0 ]; do
	case $1 in
	--ko|--bin|--postgres|--parts|--repeat|--duration|--kernel|--mode|\
	--results|--configs|--places|--pin|--order)
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
# which wakes one worker through a futex for 200 µs of work; both wakeups
# are measured. Beside two CPU hogs per CPU, no forkers.
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

# ---- the points -------------------------------------------------------------

declare -A label place config
declare -A ids	# part -> this kernel's point ids, in order

# Lines "part id placement config label" (ids and configurations have no
# blanks: benchlib.py checks).
add_points() {
	local p id pl cfg lab
	while IFS=$'\t' read -r p id pl cfg lab; do
		[ -n "$p" ] || continue
		label[$p/$id]=$lab
		place[$p/$id]=$pl
		config[$p/$id]=$cfg
		ids[$p]+="$id "
	done
}
if ! pts=$(rec points --kind "$kind" --points "$points_file"); then
	echo "bench-guest.sh: scripts/bench-points does not parse" >&2
	exit 2
fi
add_points <<<"$pts"
if has_part probe; then
	if ! pts=$(rec probe-points --configs "$probe_configs" --places "$probe_places"); then
		echo "bench-guest.sh: bad --configs or --places" >&2
		exit 2
	fi
	add_points <<<"$pts"
fi

points() { echo "${ids[$1]:-}"; }	# PART: this kernel's ids

# The tags of every line about a point, in T.
tags() {	# PART ID
	T=(--part "$1" --id "$2" --label "${label[$1/$2]}" --kernel "$kernel"
	   --config "${config[$1/$2]}" --placement "${place[$1/$2]}")
}

skip() {	# PART ID WHY [WHAT]: the point, or only WHAT of it, skipped
	tags "$1" "$2"
	rec skip "$results" "${T[@]}" --why "$3" ${4:+--what "$4"}
}

skip_part() {	# PART WHY: every point of the part
	local id
	for id in $(points "$1"); do
		skip "$1" "$id" "$2"
	done
}

fail_run() {	# PART ID REPEAT WHY
	tags "$1" "$2"
	rec error "$results" "${T[@]}" --repeat "$3" --why "$4"
	failed=1
}

# run_tool PART ID REPEAT [--tag K=V]... CMD...: run a tools/bench program
# with --duration and --json appended and record its JSON object.
run_tool() {
	local part=$1 id=$2 r=$3 extra=()
	shift 3
	while [ "${1:-}" = --tag ]; do extra+=("$1" "$2"); shift 2; done
	tags "$part" "$id"
	rec run "$results" "${T[@]}" --repeat "$r" "${extra[@]}" \
		--timeout $((4 * duration + 60)) -- "$@" --duration "$duration" --json ||
		failed=1
}

tool_missing() {	# NAME...: print why one is missing
	local t
	for t; do
		if [ -z "$bin" ] || [ ! -x "$bin/$t" ]; then
			echo "tools/bench/$t not built"
			return 0
		fi
	done
	return 1
}

# cfg PART ID REPEAT: set the point's configuration from the boot's
# snapshot. False when this kernel cannot run it, after a skip line in the
# first round. SWITCH is then "on" or "off".
switch=
cfg() {
	local out rc
	out=$(rec apply --kind "$kind" --state "$state" --root "${root:-/}" \
		--part "$1" -- "${config[$1/$2]}")
	rc=$?
	case $rc in
	0) switch=$out; return 0 ;;
	4)
		# Without the module, say why it is not there.
		case $out in *"$d"*) [ -z "$mod_why" ] || out=$mod_why ;; esac
		[ "$3" != 1 ] || skip "$1" "$2" "$out" ;;
	*) fail_run "$1" "$2" "$3" "configuration ${config[$1/$2]}: exit $rc" ;;
	esac
	return 1
}

restore() {	# every knob back to the snapshot's value
	rec restore --kind "$kind" --state "$state" --root "${root:-/}"
}

# ---- background load -------------------------------------------------------

# start_load PLACEMENT PREFIX... -- LOAD-ARGS...; stop_load.
start_load() {
	local where=$1 cg='' pre=()
	shift
	while [ "$1" != -- ]; do pre+=("$1"); shift; done
	shift
	# Its own --duration is a safety net only: it is stopped after the run.
	set -- "${pre[@]}" "$bin/load" "$@" --duration $((4 * duration + 120))
	if [ "$where" = cgroup ]; then
		cg=$(load_cgroup bench-load) ||
			{ echo "  warning: no cpu cgroup"; return 1; }
	fi
	(run_placed "$where" "$cg" "$@") >/dev/null 2>&1 &
	load_pid=$!
	sleep 1	# let the hogs and forkers spin up
}

# The load kills and reaps its children on SIGTERM; should it hang, they
# die with it (PR_SET_PDEATHSIG), so no straggler needs hunting down.
stop_load() {
	local _
	[ -n "$load_pid" ] || return 0
	kill -TERM "$load_pid" 2>/dev/null
	for _ in $(seq 1 50); do
		kill -0 "$load_pid" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$load_pid" 2>/dev/null; then
		echo "  warning: load ignored SIGTERM for 10 s; killed"
		kill -KILL "$load_pid" 2>/dev/null
	fi
	wait "$load_pid" 2>/dev/null
	load_pid=
}
trap 'stop_load; pg_cleanup; rm -rf "${state%/*}"' EXIT

# Bring the module in, once; MOD_WHY says why it is not there.
mod_why=
load_module() {
	if [ -z "$ko" ]; then
		mod_why="no sliceext module on this kernel ($kernel)"
	elif [ -d "$root/sys/module/sliceext" ]; then
		:
	elif [ ! -f "$ko" ]; then
		mod_why="sliceext.ko was not built"
	elif ! err=$(insmod "$ko" 2>&1); then
		mod_why="insmod failed: $err"
	fi
	if [ -z "$mod_why" ] && [ ! -d "$d" ] && [ -z "$root" ]; then
		grep -qs " /sys/kernel/debug " /proc/mounts ||
			mount -t debugfs debugfs /sys/kernel/debug
	fi
	[ -n "$mod_why" ] || [ -d "$d" ] || mod_why="no $d after loading the module"
	if [ -n "$mod_why" ]; then
		echo "== sliceext: $mod_why"
	else
		echo "== sliceext loaded: version $(cat "$d/version")"
		rec module "$results" --kernel "$kernel" --version "$(cat "$d/version")"
	fi
	return 0
}

# ---- d) hook overhead: hackbench, a syscall loop, a fork loop ---------------

overhead_state() {	# ID
	local id=$1 r why
	if [ "${config[overhead/$id]}" != - ]; then
		if [ -n "$mod_why" ]; then
			skip overhead "$id" "$mod_why"
			return
		fi
		cfg overhead "$id" 1 || return
	fi
	tags overhead "$id"
	for r in $(seq 1 "$repeat"); do
		# hackbench: 4 groups of 10 senders and 10 receivers over
		# sockets. It has no JSON: bench-record.py takes its "Time:".
		rec run "$results" "${T[@]}" --repeat "$r" --format hackbench \
			--timeout 600 -- hackbench -g 4 -l 200 || failed=1
		if why=$(tool_missing syscall_loop); then
			[ "$r" = 1 ] && skip overhead "$id" "$why" getppid
		else
			run_tool overhead "$id" "$r" "$bin/syscall_loop" --syscall getppid
		fi
		# A fork at the bottom of a deep chain: burst scoring's
		# inheritance walks up the tree, a bounded walk, so a fork
		# should cost the same with the module loaded or not
		# (docs/tools.md, fork_loop).
		if why=$(tool_missing fork_loop); then
			[ "$r" = 1 ] && skip overhead "$id" "$why" fork_loop
		else
			run_tool overhead "$id" "$r" "$bin/fork_loop" --depth "$fork_depth"
		fi
		# One wakeup and switch per millisecond, both threads on one
		# CPU and nothing else running: every hook on the path from a
		# futex wake to the woken thread back in user space, each cycle.
		if why=$(tool_missing wakeup_lat); then
			[ "$r" = 1 ] && skip overhead "$id" "$why" wakeup_lat
		else
			run_tool overhead "$id" "$r" taskset -c 0 "$bin/wakeup_lat" \
				"${pinned_wakeup[@]}"
		fi
	done
}

# ---- a) lock table, and the extension's histogram --------------------------

# lock_argv CLIENT-PREFIX EXT-FLAG: the lock_table command, in LOCK_ARGV.
# Every kernel runs the same binary on an rseq area it registered itself,
# as large as AT_RSEQ_FEATURE_SIZE asks: mainline serves only those.
lock_argv() {
	local pre ext=()
	read -ra pre <<<"$1"
	[ -n "$2" ] && ext=("$2")
	lock_argv=(env GLIBC_TUNABLES=glibc.pthread.rseq=0 "${pre[@]}"
		"$bin/lock_table" --clients "$lock_clients" --cs-us "$lock_cs_us"
		--outside-us "$lock_out_us" "${ext[@]}")
}

# The mutex rows: the same clients on a pthread mutex, as a program that
# was never changed, under glibc's own rseq registration (which the
# preload library uses), with LD_PRELOAD=LIBRARY or without.
mutex_argv() {	# [LIBRARY]
	lock_argv=(env ${1:+LD_PRELOAD=$1} "$bin/lock_table" --lock mutex
		--clients "$lock_clients" --cs-us "$lock_cs_us"
		--outside-us "$lock_out_us")
}

# The lock table's load shapes, by id: whose nice value or policy changes
# (the configuration says the rest). Rows placed "-" run alone.
lock_clients_prefix() {
	case $1 in
	nice_*) echo "nice -n -20" ;;
	batch) echo "chrt -b 0" ;;
	esac
}
lock_hogs_prefix() { case $1 in nice_19) echo "nice -n 19" ;; esac; }

part_lock() {
	local why pwhy r id hpre
	echo "== a) lock table: $lock_clients clients ($lock_cs_us µs inside," \
		"$lock_out_us µs outside the lock), $lock_hogs hogs, $ncpu CPUs; burst off"
	if why=$(tool_missing lock_table load); then
		skip_part lock "$why"
		return
	fi
	pwhy=
	[ -f "$bin/libsliceext-preload.so" ] ||
		pwhy="tools/preload/libsliceext-preload.so not built"
	# Round-robin over the rows, so drift over the boot hits them alike.
	for r in $(seq 1 "$repeat"); do
		for id in $(points lock); do
			cfg lock "$id" "$r" || continue
			case $id in
			mutex_*)
				if [ "$switch" = on ]; then
					if [ -n "$pwhy" ]; then
						[ "$r" = 1 ] && skip lock "$id" "$pwhy"
						continue
					fi
					mutex_argv "$bin/libsliceext-preload.so"
				else
					mutex_argv
				fi ;;
			*)
				lock_argv "$(lock_clients_prefix "$id")" \
					"$([ "$switch" = on ] && echo --ext)" ;;
			esac
			if [ "${place[lock/$id]}" != - ]; then
				read -ra hpre <<<"$(lock_hogs_prefix "$id")"
				start_load "${place[lock/$id]}" "${hpre[@]}" -- --hogs "$lock_hogs"
			fi
			run_tool lock "$id" "$r" "${lock_argv[@]}"
			stop_load
		done
	done
	restore
	part_hist
}

# Mainline's grants, seen through the hrtimer each one starts. Filtered
# on the timer's function, so that the ring buffer holds only these.
hist_trace() {	# start | stop FILE
	local fn
	case $1 in
	start)
		fn=$(awk '$3 == "rseq_slice_expired" { print "0x" $1; exit }' /proc/kallsyms)
		[ -n "$fn" ] || return 1
		trace-cmd reset >/dev/null 2>&1
		trace-cmd start -q -b 16384 \
			-e timer:hrtimer_start -f "function == $fn" \
			-e timer:hrtimer_expire_entry -f "function == $fn" \
			-e timer:hrtimer_cancel >/dev/null 2>&1 ;;
	stop)
		trace-cmd stop >/dev/null 2>&1
		trace-cmd extract -o "$2.dat" >/dev/null 2>&1 &&
			trace-cmd report -t -i "$2.dat" > "$2" 2>/dev/null
		local rc=$?
		trace-cmd reset >/dev/null 2>&1
		return $rc ;;
	esac
}

# One extra run per extension length, whose grants are counted by their
# length: sliceext's ext/hist, or mainline's hrtimer events (tracing
# costs time, so never during a measured row).
part_hist() {
	local why id tmp out rc
	[ -n "$(points hist)" ] || return 0
	echo "== e) extension used per grant: one run per length, $duration s"
	if why=$(tool_missing lock_table load); then
		skip_part hist "$why"
		return
	fi
	tmp=$(mktemp -d)
	for id in $(points hist); do
		cfg hist "$id" 1 || continue
		lock_argv "" --ext
		start_load "${place[hist/$id]}" -- --hogs "$lock_hogs"
		if [ "$kind" = mainline ]; then
			hist_trace start || { stop_load; skip hist "$id" "hrtimer trace events unavailable"; continue; }
		else
			cat "$d/ext/hist" > "$tmp/h0"; cat "$d/ext/stats" > "$tmp/s0"
		fi
		# Its own JSON is not the result: the grants it made are.
		timeout -k 5 $((4 * duration + 60)) "${lock_argv[@]}" \
			--duration "$duration" --json > "$tmp/run" 2>&1
		rc=$?
		if [ "$kind" = mainline ]; then
			hist_trace stop "$tmp/report"
			out=$("$py" "$here/bench-hist.py" trace "$tmp/report")
		else
			cat "$d/ext/hist" > "$tmp/h1"; cat "$d/ext/stats" > "$tmp/s1"
			out=$("$py" "$here/bench-hist.py" sliceext \
				"$tmp/h0" "$tmp/h1" "$tmp/s0" "$tmp/s1")
		fi
		stop_load
		if [ $rc != 0 ] || [ -z "$out" ]; then
			fail_run hist "$id" 1 "exit $rc: $(tail -n 2 "$tmp/run" | tr '\n' ' ')"
			continue
		fi
		tags hist "$id"
		rec record "$results" "${T[@]}" --repeat 1 --json "$out"
	done
	restore
	rm -rf "$tmp"
}

# ---- b) latency under load, c) compute under load --------------------------

# The load's shape, by id: nice 19 or SCHED_IDLE, or hogs only (what the
# forkers add across groups).
prefix_of() {
	case $1 in
	*_nice) echo "nice -n 19" ;;
	*_idle|idle) echo "chrt -i 0" ;;
	esac
}
forkers_of() { case $1 in *_hogs) echo 0 ;; *) echo "$load_forkers" ;; esac; }

# under_load PART ID REPEAT CMD...
under_load() {
	local part=$1 id=$2 r=$3 lpre
	read -ra lpre <<<"$(prefix_of "$id")"
	shift 3
	if ! start_load "${place[$part/$id]}" "${lpre[@]}" -- \
		--hogs "$load_hogs" --forkers "$(forkers_of "$id")"; then
		fail_run "$part" "$id" "$r" "could not place the load (${place[$part/$id]})"
		return
	fi
	run_tool "$part" "$id" "$r" "$@"
	stop_load
}

part_under_load() {	# PART CMD...
	local part=$1 r id
	shift
	for r in $(seq 1 "$repeat"); do
		for id in $(points "$part"); do
			cfg "$part" "$id" "$r" || continue
			if [ "${place[$part/$id]}" = - ]; then
				run_tool "$part" "$id" "$r" "$@"
			else
				under_load "$part" "$id" "$r" "$@"
			fi
		done
	done
	restore
}

part_latency() {
	local why
	echo "== b) wakeup latency under load: load --hogs $load_hogs" \
		"--forkers $load_forkers in the background"
	if why=$(tool_missing wakeup_lat load); then
		skip_part latency "$why"
		return
	fi
	part_under_load latency "$bin/wakeup_lat" --message-threads 2 \
		--workers 4 --work-us 300 --interval-us 2000
}

part_compute() {
	local why
	echo "== c) compute: one thread alone and under load --hogs $load_hogs" \
		"--forkers $load_forkers"
	if why=$(tool_missing compute load); then
		skip_part compute "$why"
		return
	fi
	part_under_load compute "$bin/compute" --threads 1
}

# ---- f) the wakeup probe ----------------------------------------------------

# The configurations of round R: with --order alternate, each runs first
# in every other round (a configuration's runs can depend on the one
# before them: docs/log/2026-12-07-burst-notebook.md).
round_configs() {	# R
	# shellcheck disable=SC2086 # a list of words
	if [ "$order" = alternate ] && [ $(($1 % 2)) -eq 0 ]; then
		printf '%s\n' $probe_configs | tac
	else
		printf '%s\n' $probe_configs
	fi
}

part_probe() {
	local why r pl c pos id
	echo "== f) wakeup probe: wakeup_lat ${probe_args[*]}${pin:+ pinned to CPU $pin}" \
		"beside load --hogs $probe_hogs; configurations $probe_configs; hogs" \
		"$probe_places; $order order"
	if why=$(tool_missing wakeup_lat load); then
		skip_part probe "$why"
		return
	fi
	for r in $(seq 1 "$repeat"); do
		for pl in $probe_places; do
			pos=0
			for c in $(round_configs "$r"); do
				pos=$((pos + 1))
				id=$pl:$c
				cfg probe "$id" "$r" || continue
				if ! start_load "$pl" -- --hogs "$probe_hogs"; then
					fail_run probe "$id" "$r" "could not place the hogs ($pl)"
					continue
				fi
				run_tool probe "$id" "$r" --tag "position=$pos" \
					${pin:+taskset -c "$pin"} "$bin/wakeup_lat" "${probe_args[@]}"
				stop_load
				# Hogs still running would load every run after.
				if pgrep -x load >/dev/null; then
					fail_run probe "$id" "$r" "hogs left running after the run; the probe stops here"
					restore
					return
				fi
			done
		done
	done
	restore
}

# ---- g) PostgreSQL under pgbench ---------------------------------------------

# pg_switch off|on: the server running with slice_extension so, restarted
# if it ran with the other; false if it does not start. The setting is
# the whole server's, auxiliary processes included.
pg_on=
pg_switch() {
	[ "$pg_on" = "$1" ] && return 0
	pg_stop
	pg_on=
	pg_start "${pg_env[@]}" "${pg_conf[@]}" -c "slice_extension=$1" || return 1
	pg_on=$1
}

pg_rows() {	# off|on: the rows of that switch, in the points file's order
	local id
	for id in $(points postgres); do
		[ "${config[postgres/$id]%%+*}" != "$1" ] || echo "$id"
	done
}

# pg_why: the last line of the setup's logs that says something.
pg_why() {
	cat "$PG_DIR/run/initdb.log" "$PG_DIR/run/server.log" \
		"$PG_DIR/run/init.log" 2>/dev/null |
		grep -vE '^$|DEBUG:' | tail -n 1
}

pgbench_run() {	# ID REPEAT
	local id=$1 r=$2 script=() stats=()
	case $id in *ro_*) script=(-S) ;; esac
	[ "$kind" != sliceext ] || stats=(--ext-stats "$d/ext/stats")
	# Each run starts from a checkpoint, so that the full-page writes
	# after one fall alike in every run.
	pg_as psql -h "$PG_DIR/run" -X -q -c CHECKPOINT postgres >/dev/null 2>&1
	if [ "${place[postgres/$id]}" != - ] &&
		! start_load "${place[postgres/$id]}" -- --hogs "$lock_hogs"; then
		fail_run postgres "$id" "$r" "could not place the hogs (${place[postgres/$id]})"
		return
	fi
	pg_argv pgbench -h "$PG_DIR/run" -c "$pg_clients" -j "$pg_threads" \
		-T "$duration" --log --log-prefix="$PG_DIR/run/pgbench" \
		"${script[@]}" postgres
	tags postgres "$id"
	rec run "$results" "${T[@]}" --repeat "$r" --format pgbench \
		--pgbench-log "$PG_DIR/run/pgbench" \
		--server-log "$PG_DIR/run/server.log" "${stats[@]}" \
		--timeout $((4 * duration + 120)) -- "${PG_ARGV[@]}" || failed=1
	stop_load
}

part_postgres() {
	local why r sw id switches
	echo "== g) PostgreSQL: pgbench -c $pg_clients -j $pg_threads, scale" \
		"$pg_scale, select-only and TPC-B-like, beside load --hogs $lock_hogs or alone"
	if [ -z "$pg" ] || [ ! -x "$pg/bin/postgres" ]; then
		skip_part postgres "PostgreSQL not built (tools/examples/postgresql/fetch-build.sh)"
		return
	fi
	if why=$(tool_missing load); then
		skip_part postgres "$why"
		return
	fi
	if ! pg_setup "$pg" "$(mktemp -d)" || ! pg_switch off ||
		! pg_as pgbench -h "$PG_DIR/run" -i -s "$pg_scale" -q postgres \
			> "$PG_DIR/run/init.log" 2>&1; then
		why="PostgreSQL did not start: $(pg_why)"
		for id in $(points postgres); do
			fail_run postgres "$id" 1 "$why"
		done
		pg_cleanup
		return
	fi
	# The server restarts only where the switch changes: one switch's rows
	# after the other's, each first in every other round.
	for r in $(seq 1 "$repeat"); do
		switches="off on"
		[ $((r % 2)) = 1 ] || switches="on off"
		for sw in $switches; do
			for id in $(pg_rows "$sw"); do
				cfg postgres "$id" "$r" || continue
				if ! pg_switch "$sw"; then
					fail_run postgres "$id" "$r" "the server did not restart: $(pg_why)"
					continue
				fi
				pgbench_run "$id" "$r"
			done
		done
	done
	pg_cleanup
	restore
}

# ---- main ------------------------------------------------------------------

mkdir -p "$(dirname "$results")"
part_set=()
if has_part probe; then
	part_set=(--set "probe_configs=$probe_configs" --set "probe_places=$probe_places"
		--set "probe_hogs=$probe_hogs" --set "probe_order=$order"
		--set "probe_cmd=${pin:+taskset -c $pin }wakeup_lat ${probe_args[*]}")
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

# The overhead part's rows without the module (configuration "-") run
# before it was ever loaded, the others after.
overhead_rows() {	# without | with
	local id
	for id in $(points overhead); do
		if [ "${config[overhead/$id]}" = - ]; then
			[ "$1" = without ] && echo "$id"
		else
			[ "$1" = with ] && echo "$id"
		fi
	done
	return 0
}
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
