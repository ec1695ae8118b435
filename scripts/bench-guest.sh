#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the benchmarks (scripts/bench.sh, and the short run at the
# end of "make demo"). Runs every point of the requested parts that belongs
# to this kernel (scripts/bench-points) REPEAT times and appends one JSON
# object per run to RESULTS: the benchmark tool's own --json line plus
# "part", "point", "point_id", "repeat" and "kernel". A point that cannot
# run here (no module, no knob, no tool) gets one {"skipped": "why"} line
# instead and is printed as "skipped: why". scripts/bench-report.py turns
# the file into the tables.
#
# Usage: scripts/bench-guest.sh [options]
#   --ko PATH          sliceext.ko to insmod (none: a kernel without sliceext)
#   --bin DIR          the tools/bench binaries (lock_table, wakeup_lat, ...)
#   --parts LIST       comma list of lock,latency,compute,overhead (default all)
#   --repeat N         runs per point (default 5)
#   --duration S       seconds per run (default 5)
#   --kernel LABEL     release, test (6.12 + sliceext), stock, mainline or
#                      bore (a kernel with BORE's patch, compared through
#                      its sched_bore sysctl): which points run, recorded
#                      with every run
#   --mode MODE        tcg or icount: how the VM runs (scripts/vm.sh),
#                      recorded with the boot (default tcg)
#   --results FILE     where the JSON lines go (default /out/bench.jsonl)
#
# Exit status: 0, or 3 if a run failed (crashed, timed out, no JSON).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

ko='' bin='' parts=lock,latency,compute,overhead repeat=5 duration=5
kernel=unknown mode=tcg results=/out/bench.jsonl
while [ $# -gt 0 ]; do
	case $1 in
	--ko) ko=$2; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	--parts) parts=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--duration) duration=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--mode) mode=$2; shift 2 ;;
	--results) results=$2; shift 2 ;;
	*) echo "bench-guest.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
case $kernel in
release|test) kind=sliceext ;;
stock|mainline|bore) kind=$kernel ;;
*) echo "bench-guest.sh: --kernel is release, test, stock, mainline or bore" >&2
   exit 2 ;;
esac

d=/sys/kernel/debug/sliceext
ml_knob=/sys/kernel/debug/rseq/slice_ext_nsec
ncpu=$(nproc)
failed=0
load_pid=

# The issue's lock table, scaled with the CPUs (6 clients and 8 hogs on
# 2): more clients than CPUs, more hogs than clients, a critical section
# as short as the work between two.
lock_clients=$((3 * ncpu)) lock_hogs=$((4 * ncpu)) lock_cs_us=2 lock_out_us=2
# Background for latency and compute: CPU hogs plus a build-like fork load.
load_hogs=$((2 * ncpu)) load_forkers=$ncpu
# The overhead part's fork loop runs this many processes down a chain.
fork_depth=1000
# Its pinned wakeup (run under taskset -c 0), as the boot's line records it.
pinned_wakeup=(--message-threads 1 --workers 1 --work-us 200 --interval-us 1000)

has_part() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }

# ---- the points (scripts/bench-points) -------------------------------------

declare -A label place
declare -A ids	# part -> this kernel's point ids, in file order
while IFS=$'\t' read -r p id k _ pl lab; do
	case $p in ''|'#'*) continue ;; esac
	label[$p/$id]=$lab
	place[$p/$id]=$pl
	[ "$k" = "$kind" ] && ids[$p]+="$id "
done < "$here/bench-points"

points() { echo "${ids[$1]:-}"; }	# PART: this kernel's ids

# Fields every line of this run carries: part, point, point_id, kernel.
tag() {
	printf '"part":%s,"point":%s,"point_id":%s,"kernel":%s' \
		"$(json_str "$1")" "$(json_str "${label[$1/$2]}")" \
		"$(json_str "$2")" "$(json_str "$kernel")"
}

skip() {	# PART ID WHY [WHAT]: the point, or only WHAT of it, skipped
	echo "  ${label[$1/$2]}${4:+ ($4)}: skipped: $3"
	printf '{%s,"skipped":%s%s}\n' "$(tag "$1" "$2")" "$(json_str "$3")" \
		"${4:+,\"what\":$(json_str "$4")}" >> "$results"
}

skip_part() {	# PART WHY: every point of the part
	local id
	for id in $(points "$1"); do
		skip "$1" "$id" "$2"
	done
}

# record PART ID REPEAT JSON: one run's result.
record() {
	local rest=${4#\{}
	[ "${rest#\}}" = "$rest" ] && rest=",$rest"
	printf '{%s,"repeat":%d%s\n' "$(tag "$1" "$2")" "$3" "$rest" >> "$results"
}

fail_run() {	# PART ID REPEAT WHY
	echo "  ${label[$1/$2]} #$3: FAILED: $4"
	printf '{%s,"repeat":%d,"error":%s}\n' "$(tag "$1" "$2")" "$3" \
		"$(json_str "$4")" >> "$results"
	failed=1
}

# run_tool PART ID REPEAT CMD...: run a tools/bench program (with
# --duration and --json appended) and record its JSON line.
run_tool() {
	local part=$1 id=$2 r=$3 out rc line
	shift 3
	out=$(timeout -k 5 $((4 * duration + 60)) "$@" --duration "$duration" --json 2>&1)
	rc=$?
	line=$(grep '^{' <<<"$out" | tail -n 1)
	if [ $rc != 0 ] || [ -z "$line" ]; then
		fail_run "$part" "$id" "$r" "exit $rc: $(tail -n 2 <<<"$out" | tr '\n' ' ')"
		return 1
	fi
	record "$part" "$id" "$r" "$line"
	echo "  ${label[$part/$id]} #$r: $(cut -c1-300 <<<"$line")"
}

# Where a knob cannot be set the point is skipped; the caller says which.
knob_missing() {	# FILE...: print why: no module, or the first missing knob
	local f
	[ -n "$mod_why" ] && { echo "$mod_why"; return 0; }
	for f; do
		[ -w "$d/$f" ] || { echo "no $d/$f"; return 0; }
	done
	return 1
}

knob() {	# FILE VALUE; a missing file is fine (checked by the caller)
	[ -e "$d/$1" ] || return 0
	echo "$2" > "$d/$1" || echo "  warning: could not write $2 to $d/$1"
}

# Burst scheduling on (1) or off (0): sliceext's knob, or on a BORE
# kernel its sysctl, so that the same points compare the two.
bore_sysctl=/proc/sys/kernel/sched_bore
burst_missing() {	# print why it cannot be switched
	if [ "$kind" = bore ]; then
		[ -w "$bore_sysctl" ] && return 1
		echo "no $bore_sysctl on this kernel ($kernel)"
		return 0
	fi
	knob_missing burst/enabled
}

burst_set() {
	if [ "$kind" = bore ]; then
		echo "$1" > "$bore_sysctl" ||
			echo "  warning: could not write $1 to $bore_sysctl"
	else
		knob burst/enabled "$1"
	fi
}

# The extension's length, on either kernel.
slice_ns() {
	if [ "$kind" = mainline ]; then
		echo "$1" > "$ml_knob" || echo "  warning: could not write $1 to $ml_knob"
	else
		knob ext/slice_ext_nsec "$1"
	fi
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
trap 'stop_load' EXIT

# Bring the module in, once; MOD_WHY says why it is not there.
mod_why=
load_module() {
	if [ -z "$ko" ]; then
		mod_why="no sliceext module on this kernel ($kernel)"
	elif [ -d /sys/module/sliceext ]; then
		:
	elif [ ! -f "$ko" ]; then
		mod_why="sliceext.ko was not built"
	elif ! err=$(insmod "$ko" 2>&1); then
		mod_why="insmod failed: $err"
	fi
	if [ -z "$mod_why" ] && [ ! -d "$d" ]; then
		grep -qs " /sys/kernel/debug " /proc/mounts ||
			mount -t debugfs debugfs /sys/kernel/debug
		[ -d "$d" ] || mod_why="no $d after loading the module"
	fi
	[ -n "$mod_why" ] && echo "== sliceext: $mod_why"
	[ -z "$mod_why" ] && echo "== sliceext loaded: version $(cat "$d/version")"
	return 0
}

# ---- d) hook overhead: hackbench, a syscall loop, a fork loop ---------------

overhead_state() {	# ID [WHY-SKIPPED]
	local id=$1 why=${2:-} r out t
	if [ -n "$why" ]; then
		skip overhead "$id" "$why"
		return
	fi
	for r in $(seq 1 "$repeat"); do
		# hackbench: 4 groups of 10 senders and 10 receivers over sockets.
		out=$(timeout -k 5 600 hackbench -g 4 -l 200 2>&1)
		t=$(sed -n 's/^Time: *\([0-9.]*\).*/\1/p' <<<"$out")
		if [ -n "$t" ]; then
			record overhead "$id" "$r" "{\"tool\":\"hackbench\",\"hackbench_s\":$t}"
			echo "  ${label[overhead/$id]} #$r: hackbench $t s"
		else
			fail_run overhead "$id" "$r" "hackbench: $(tail -n 1 <<<"$out")"
		fi
		if why=$(tool_missing syscall_loop); then
			[ "$r" = 1 ] && skip overhead "$id" "$why" getppid
		else
			run_tool overhead "$id" "$r" "$bin/syscall_loop" --syscall getppid
		fi
		# A fork at the bottom of a deep chain: burst scoring's
		# inheritance walks up the tree, bounded (issue: within 10%).
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

# lock_run ID REPEAT CLIENT-PREFIX HOG-PREFIX EXT-FLAG; lock_argv made
# by the caller when CLIENT-PREFIX is "-". Rows placed "-" run alone.
lock_run() {
	local id=$1 r=$2 hpre
	read -ra hpre <<<"$4"
	[ "$3" = - ] || lock_argv "$3" "$5"
	if [ "${place[lock/$id]}" != - ]; then
		start_load "${place[lock/$id]}" "${hpre[@]}" -- --hogs "$lock_hogs"
	fi
	run_tool lock "$id" "$r" "${lock_argv[@]}"
	stop_load
}

# Why this kernel cannot run "ext on" rows, or nothing.
ext_missing() {
	if [ "$kind" = mainline ]; then
		[ -w "$ml_knob" ] || echo "no $ml_knob (CONFIG_RSEQ_SLICE_EXTENSION, debugfs)"
	else
		knob_missing ext/enabled ext/slice_ext_nsec ext/hist ext/stats
	fi
}

# The scheduler feature that ends a fair slice on time: 7.x turns HRTICK
# on by default, 6.12 leaves it off and ends slices at the next tick. The
# hrtick_* and ml_nohrtick_* rows (lock, latency, hist) run each kernel
# with the other's setting; every other row runs with the kernel's own.
sched_features=/sys/kernel/debug/sched/features
feat_state() {	# NAME: print NAME or NO_NAME, as the kernel has it now
	grep -ow "NO_$1\|$1" "$sched_features" 2>/dev/null
}
hrtick_default() { feat_state HRTICK; }

sched_feat() {	# NAME: write it to the scheduler's features
	echo "$1" > "$sched_features" ||
		echo "  warning: could not write $1 to $sched_features"
}

# hrtick_for PART ID REPEAT DEFAULT: before a row, HRTICK as the row asks
# (hrtick_*: on, ml_nohrtick_*: off), DEFAULT (hrtick_default's) for any
# other row. Fails, after a skip line, for an HRTICK row on a kernel
# without the features file.
hrtick_for() {
	case $2 in
	hrtick_*|ml_nohrtick_*) ;;
	*) [ -z "$4" ] || sched_feat "$4"; return 0 ;;
	esac
	if [ -z "$4" ]; then
		[ "$3" = 1 ] && skip "$1" "$2" "no $sched_features"
		return 1
	fi
	case $2 in
	hrtick_*) sched_feat HRTICK ;;
	*) sched_feat NO_HRTICK ;;
	esac
}

part_lock() {
	local why ewhy pwhy r id hrtick
	echo "== a) lock table: $lock_clients clients ($lock_cs_us µs inside," \
		"$lock_out_us µs outside the lock), $lock_hogs hogs, $ncpu CPUs; burst off"
	if why=$(tool_missing lock_table load); then
		skip_part lock "$why"
		return
	fi
	ewhy=$(ext_missing)
	pwhy=
	[ -f "$bin/libsliceext-preload.so" ] ||
		pwhy="tools/preload/libsliceext-preload.so not built"
	hrtick=$(hrtick_default)
	# Round-robin over the rows, so drift over the boot hits them alike.
	for r in $(seq 1 "$repeat"); do
		knob burst/enabled 0
		knob ext/enabled 1
		slice_ns 5000
		for id in $(points lock); do
			hrtick_for lock "$id" "$r" "$hrtick" || continue
			case $id in
			*on_5|*on_50)
				if [ -n "$ewhy" ]; then
					[ "$r" = 1 ] && skip lock "$id" "$ewhy"
					continue
				fi
				slice_ns $(( ${id##*_} * 1000 ))
				lock_run "$id" "$r" "" "" --ext
				slice_ns 5000 ;;
			ext_off|ml_off|hrtick_off|ml_nohrtick_off)
				lock_run "$id" "$r" "" "" "" ;;
			nice_0) lock_run "$id" "$r" "nice -n -20" "" "" ;;
			nice_19) lock_run "$id" "$r" "nice -n -20" "nice -n 19" "" ;;
			batch) lock_run "$id" "$r" "chrt -b 0" "" "" ;;
			mutex_off|mutex_alone)
				mutex_argv
				lock_run "$id" "$r" - "" "" ;;
			mutex_lib_*|mutex_alone_lib_*)
				if [ -n "$ewhy" ] || [ -n "$pwhy" ]; then
					[ "$r" = 1 ] && skip lock "$id" "${ewhy:-$pwhy}"
					continue
				fi
				slice_ns $(( ${id##*_} * 1000 ))
				mutex_argv "$bin/libsliceext-preload.so"
				lock_run "$id" "$r" - "" ""
				slice_ns 5000 ;;
			*) skip lock "$id" "bench-guest.sh does not know this point" ;;
			esac
		done
	done
	[ -z "$hrtick" ] || sched_feat "$hrtick"
	part_hist "$ewhy"
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
part_hist() {	# WHY-NOT
	local id tmp out rc hrtick
	[ -n "$(points hist)" ] || return 0
	echo "== e) extension used per grant: one run per length, $duration s"
	if [ -n "$1" ]; then
		skip_part hist "$1"
		return
	fi
	tmp=$(mktemp -d)
	knob burst/enabled 0
	hrtick=$(hrtick_default)
	for id in $(points hist); do
		hrtick_for hist "$id" 1 "$hrtick" || continue
		slice_ns $(( ${id##*_} * 1000 ))
		lock_argv "" --ext
		start_load "${place[hist/$id]}" -- --hogs "$lock_hogs"
		if [ "$kind" = mainline ]; then
			hist_trace start || { stop_load; skip hist "$id" "hrtimer trace events unavailable"; continue; }
		else
			cat "$d/ext/hist" > "$tmp/h0"; cat "$d/ext/stats" > "$tmp/s0"
		fi
		timeout -k 5 $((4 * duration + 60)) "${lock_argv[@]}" \
			--duration "$duration" --json > "$tmp/run" 2>&1
		rc=$?
		if [ "$kind" = mainline ]; then
			hist_trace stop "$tmp/report"
			out=$(/usr/bin/python3 "$here/bench-hist.py" trace "$tmp/report")
		else
			cat "$d/ext/hist" > "$tmp/h1"; cat "$d/ext/stats" > "$tmp/s1"
			out=$(/usr/bin/python3 "$here/bench-hist.py" sliceext \
				"$tmp/h0" "$tmp/h1" "$tmp/s0" "$tmp/s1")
		fi
		stop_load
		if [ $rc != 0 ] || [ -z "$out" ]; then
			fail_run hist "$id" 1 "exit $rc: $(tail -n 2 "$tmp/run" | tr '\n' ' ')"
			continue
		fi
		record hist "$id" 1 "$out"
		echo "  ${label[hist/$id]}: $out"
	done
	[ -z "$hrtick" ] || sched_feat "$hrtick"
	slice_ns 5000
	rm -rf "$tmp"
}

# BORE 6.5's kernel sets a base slice of 2 ms, rounded up to a whole tick
# (4 ms at HZ=250) and not scaled with the CPUs. The *_boreslice rows run
# sliceext with it, the one of BORE's settings around its scores that
# lowers the workers' tail within one group (docs/burst.md). Two others,
# placement for group entities and no wakeup preemption rule, sliceext
# fixes the other way (docs/log/2026-12-07-burst-knob-review.md).
base_slice=/sys/kernel/debug/sched/base_slice_ns
bore_base_slice_ns=4000000

# BORE's kernel shows its base slice read-only: write only a change.
base_slice_set() {
	[ "$(cat "$base_slice" 2>/dev/null)" = "$1" ] && return 0
	echo "$1" > "$base_slice" ||
		echo "  warning: could not write $1 to $base_slice"
}

# boreslice_for PART ID REPEAT DEFAULT-NS: before a row, the kernel's own
# base slice (DEFAULT-NS, empty without the file), or BORE's for a
# *_boreslice row. Fails, after a skip line, for such a row without it.
boreslice_for() {
	[ -z "$4" ] || base_slice_set "$4"
	case $2 in *_boreslice) ;; *) return 0 ;; esac
	if [ -z "$4" ]; then
		[ "$3" = 1 ] && skip "$1" "$2" "no $base_slice"
		return 1
	fi
	base_slice_set "$bore_base_slice_ns"
}

# ---- b) latency under load, c) compute under load --------------------------

# under_load PART ID REPEAT BURST LOAD-PREFIX CMD...
under_load() {
	local part=$1 id=$2 r=$3 burst=$4 lpre
	read -ra lpre <<<"$5"
	shift 5
	burst_set "$burst"
	if ! start_load "${place[$part/$id]}" "${lpre[@]}" -- \
		--hogs "$load_hogs" --forkers "$(forkers_of "$id")"; then
		fail_run "$part" "$id" "$r" "could not place the load (${place[$part/$id]})"
		return
	fi
	run_tool "$part" "$id" "$r" "$@"
	stop_load
}

# The knobs the point needs and the prefix for its load.
burst_of() {
	case $1 in on|*_on|*on_no*|*_on_hogs|*_boreslice) echo 1 ;;
	*) echo 0 ;;
	esac
}
# A "hogs only" row leaves the forkers out: what they add across groups.
forkers_of() { case $1 in *_hogs) echo 0 ;; *) echo "$load_forkers" ;; esac; }

# The burst/ knobs a point may flip, each by a suffix of its id: to 0, or
# to 1 for a knob off by default. Their defaults where not 1: every other
# point runs with the default.
declare -A knob_suffix=([wakeup_half_slice]=_nohalfslice
			[half_lag_clamp]=_nolagclamp [inherit_type]=_noinherit
			[group_keep]=_nogroupkeep)
declare -A knob_default=([inherit_type]=2)

# point_knobs PART ID REPEAT: set the knobs for the point; false (and the
# point skipped, once) if one it sets is missing.
point_knobs() {
	local k why
	for k in "${!knob_suffix[@]}"; do
		case $2 in *"${knob_suffix[$k]}") ;; *) continue ;; esac
		why=$(knob_missing "burst/$k") || continue
		[ "$3" = 1 ] && skip "$1" "$2" "$why"
		return 1
	done
	for k in "${!knob_suffix[@]}"; do
		case $2 in
		*"${knob_suffix[$k]}")
			knob "burst/$k" "$((!${knob_default[$k]:-1}))" ;;
		*) knob "burst/$k" "${knob_default[$k]:-1}" ;;
		esac
	done
}

knobs_default() {
	local k
	for k in "${!knob_suffix[@]}"; do
		knob "burst/$k" "${knob_default[$k]:-1}"
	done
}
prefix_of() {
	case $1 in
	*_nice) echo "nice -n 19" ;;
	*_idle|idle) echo "chrt -i 0" ;;
	esac
}

part_latency() {
	local why bwhy r id cmd hrtick slice
	echo "== b) wakeup latency under load: load --hogs $load_hogs" \
		"--forkers $load_forkers in the background"
	cmd=("$bin/wakeup_lat" --message-threads 2 --workers 4 --work-us 300
	     --interval-us 2000)
	if why=$(tool_missing wakeup_lat load); then
		skip_part latency "$why"
		return
	fi
	bwhy=$(burst_missing)
	hrtick=$(hrtick_default)
	slice=$(cat "$base_slice" 2>/dev/null)
	for r in $(seq 1 "$repeat"); do
		for id in $(points latency); do
			if [ "$(burst_of "$id")" = 1 ] && [ -n "$bwhy" ]; then
				[ "$r" = 1 ] && skip latency "$id" "$bwhy"
				continue
			fi
			point_knobs latency "$id" "$r" || continue
			hrtick_for latency "$id" "$r" "$hrtick" || continue
			boreslice_for latency "$id" "$r" "$slice" || continue
			under_load latency "$id" "$r" "$(burst_of "$id")" \
				"$(prefix_of "$id")" "${cmd[@]}"
		done
	done
	[ -z "$hrtick" ] || sched_feat "$hrtick"
	boreslice_for latency - 0 "$slice"
	knobs_default
	burst_set 0
}

part_compute() {
	local why bwhy r id cmd
	echo "== c) compute: one thread alone and under load --hogs $load_hogs" \
		"--forkers $load_forkers"
	cmd=("$bin/compute" --threads 1)
	if why=$(tool_missing compute load); then
		skip_part compute "$why"
		return
	fi
	bwhy=$(burst_missing)
	for r in $(seq 1 "$repeat"); do
		for id in $(points compute); do
			if [ "$(burst_of "$id")" = 1 ] && [ -n "$bwhy" ]; then
				[ "$r" = 1 ] && skip compute "$id" "$bwhy"
				continue
			fi
			point_knobs compute "$id" "$r" || continue
			if [ "${place[compute/$id]}" = - ]; then
				burst_set 0
				run_tool compute "$id" "$r" "${cmd[@]}"
			else
				under_load compute "$id" "$r" "$(burst_of "$id")" \
					"$(prefix_of "$id")" "${cmd[@]}"
			fi
		done
	done
	knobs_default
	burst_set 0
}

# ---- main ------------------------------------------------------------------

mkdir -p "$(dirname "$results")"
printf '{"meta":"boot","kernel":%s,"mode":%s,"uname":%s,"nproc":%d,"repeat":%d,"duration":%d,"parts":%s,"lock_clients":%d,"lock_hogs":%d,"lock_cs_us":%s,"lock_outside_us":%s,"load_hogs":%d,"load_forkers":%d,"fork_depth":%d,"pinned_wakeup":%s,"cmdline":%s}\n' \
	"$(json_str "$kernel")" "$(json_str "$mode")" "$(json_str "$(uname -r)")" \
	"$ncpu" "$repeat" "$duration" "$(json_str "$parts")" "$lock_clients" \
	"$lock_hogs" "$lock_cs_us" "$lock_out_us" "$load_hogs" "$load_forkers" \
	"$fork_depth" "$(json_str "taskset -c 0 wakeup_lat ${pinned_wakeup[*]}")" \
	"$(json_str "$(cat /proc/cmdline)")" >> "$results"
echo "== $(uname -r) ($kernel, $mode), $ncpu CPUs: parts $parts," \
	"$repeat x ${duration}s per point"

# The overhead baseline runs before the module was ever loaded.
if has_part overhead; then
	echo "== d) hook overhead: hackbench -g 4 -l 200, syscall_loop getppid," \
		"fork_loop --depth $fork_depth, wakeup_lat pinned to CPU 0"
	case $kind in
	stock) overhead_state stock ;;
	sliceext) overhead_state unloaded ;;
	esac
fi

if [ "$kind" = sliceext ]; then
	load_module
fi

has_part lock && part_lock
has_part latency && [ -n "$(points latency)" ] && part_latency
has_part compute && [ -n "$(points compute)" ] && part_compute

if has_part overhead && [ "$kind" = sliceext ]; then
	echo "== d) hook overhead, module loaded"
	# Loaded and idle: the extension available, nobody using it, no
	# burst scoring.
	why=$(knob_missing ext/enabled burst/enabled)
	if [ -z "$why" ]; then
		knob ext/enabled 1
		knob burst/enabled 0
	fi
	overhead_state idle "$why"
	[ -z "$why" ] && knob burst/enabled 1
	overhead_state burst "$why"
	knob burst/enabled 0
fi

sync
[ $failed = 0 ] || exit 3
exit 0
