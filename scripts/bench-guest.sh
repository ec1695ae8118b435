#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of the benchmarks (scripts/bench.sh, and the short run at the
# end of "make demo"). Runs every point of the requested parts REPEAT
# times and appends one JSON object per run to RESULTS: the benchmark
# tool's own --json line plus "part", "point", "repeat" and "kernel".
# A point that cannot run here (no module, no knob, no tool) gets one
# {"skipped": "why"} line instead and is printed as "skipped: why".
# scripts/bench-report.py turns the file into the table.
#
# Usage: scripts/bench-guest.sh [options]
#   --ko PATH          sliceext.ko to insmod (none: a kernel without sliceext)
#   --bin DIR          the tools/bench binaries (lock_table, wakeup_lat, ...)
#   --parts LIST       comma list of lock,latency,compute,overhead (default all)
#   --repeat N         runs per point (default 5)
#   --duration S       seconds per run (default 5)
#   --kernel LABEL     release, stock or test: recorded with every run
#   --results FILE     where the JSON lines go (default /out/bench.jsonl)
#
# Exit status: 0, or 3 if a run failed (crashed, timed out, no JSON).
set -uo pipefail

ko='' bin='' parts=lock,latency,compute,overhead repeat=5 duration=5
kernel=unknown results=/out/bench.jsonl
while [ $# -gt 0 ]; do
	case $1 in
	--ko) ko=$2; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	--parts) parts=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--duration) duration=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--results) results=$2; shift 2 ;;
	*) echo "bench-guest.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

d=/sys/kernel/debug/sliceext
ncpu=$(nproc)
failed=0
load_pid=

# Scaled from the RFC's seed (300 clients, 400 hogs on 2 sockets): both
# far above the CPU count, 0.75 clients per hog.
lock_clients=$((6 * ncpu)) lock_hogs=$((8 * ncpu))
# Background for latency and compute: CPU hogs plus a build-like fork load.
load_hogs=$((2 * ncpu)) load_forkers=$ncpu

has_part() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }

json_str() {
	local s=${1//\\/\\\\}
	printf '"%s"' "${s//\"/\\\"}"
}

# Fields every line of this run carries: part, point, kernel.
tag() { printf '"part":%s,"point":%s,"kernel":%s' "$(json_str "$1")" \
	"$(json_str "$2")" "$(json_str "$kernel")"; }

skip() {	# PART POINT WHY [WHAT]: the point, or only WHAT of it, skipped
	echo "  $2${4:+ ($4)}: skipped: $3"
	printf '{%s,"skipped":%s%s}\n' "$(tag "$1" "$2")" "$(json_str "$3")" \
		"${4:+,\"what\":$(json_str "$4")}" >> "$results"
}

# record PART POINT REPEAT JSON: one run's result.
record() {
	local rest=${4#\{}
	[ "${rest#\}}" = "$rest" ] && rest=",$rest"
	printf '{%s,"repeat":%d%s\n' "$(tag "$1" "$2")" "$3" "$rest" >> "$results"
}

fail_run() {	# PART POINT REPEAT WHY
	echo "  $2 #$3: FAILED: $4"
	printf '{%s,"repeat":%d,"error":%s}\n' "$(tag "$1" "$2")" "$3" \
		"$(json_str "$4")" >> "$results"
	failed=1
}

# run_tool PART POINT REPEAT CMD...: run a tools/bench program (with
# --duration and --json appended) and record its JSON line.
run_tool() {
	local part=$1 point=$2 r=$3 out rc line
	shift 3
	out=$(timeout -k 5 $((4 * duration + 60)) "$@" --duration "$duration" --json 2>&1)
	rc=$?
	line=$(grep '^{' <<<"$out" | tail -n 1)
	if [ $rc != 0 ] || [ -z "$line" ]; then
		fail_run "$part" "$point" "$r" "exit $rc: $(tail -n 2 <<<"$out" | tr '\n' ' ')"
		return 1
	fi
	record "$part" "$point" "$r" "$line"
	echo "  $point #$r: $line"
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

# Background load: start_load PREFIX... -- LOAD-ARGS...; stop_load.
start_load() {
	local pre=()
	while [ "$1" != -- ]; do pre+=("$1"); shift; done
	shift
	# Its own --duration is a safety net only: it is stopped after the run.
	# Its own session, so that a straggler can be killed with its children.
	setsid "${pre[@]}" "$bin/load" "$@" --duration $((4 * duration + 120)) \
		>/dev/null 2>&1 &
	load_pid=$!
	sleep 1	# let the hogs and forkers spin up
}

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
	fi
	kill -KILL -- "-$load_pid" 2>/dev/null
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

# ---- d) hook overhead: hackbench and a syscall loop ------------------------

overhead_state() {	# POINT [WHY-SKIPPED]
	local point=$1 why=${2:-} r out t
	if [ -n "$why" ]; then
		skip overhead "$point" "$why"
		return
	fi
	for r in $(seq 1 "$repeat"); do
		# hackbench: 4 groups of 10 senders and 10 receivers over sockets.
		out=$(timeout -k 5 600 hackbench -g 4 -l 200 2>&1)
		t=$(sed -n 's/^Time: *\([0-9.]*\).*/\1/p' <<<"$out")
		if [ -n "$t" ]; then
			record overhead "$point" "$r" "{\"tool\":\"hackbench\",\"hackbench_s\":$t}"
			echo "  $point #$r: hackbench $t s"
		else
			fail_run overhead "$point" "$r" "hackbench: $(tail -n 1 <<<"$out")"
		fi
		if why=$(tool_missing syscall_loop); then
			[ "$r" = 1 ] && skip overhead "$point" "$why" getppid
		else
			run_tool overhead "$point" "$r" "$bin/syscall_loop" --syscall getppid
		fi
	done
}

# ---- a) lock table ---------------------------------------------------------

# lock_run POINT REPEAT CLIENT-PREFIX HOG-PREFIX EXT-FLAG
lock_run() {
	local point=$1 r=$2 ext=$5 cpre hpre
	read -ra cpre <<<"$3"
	read -ra hpre <<<"$4"
	start_load "${hpre[@]}" -- --hogs "$lock_hogs"
	# shellcheck disable=SC2086 # $ext is empty or --ext
	run_tool lock "$point" "$r" "${cpre[@]}" "$bin/lock_table" \
		--clients "$lock_clients" --cs-us 5 --outside-us 20 $ext
	stop_load
}

part_lock() {
	local why ewhy r
	echo "== a) lock table: $lock_clients clients (5 µs inside, 20 µs outside" \
		"the lock), $lock_hogs hogs, $ncpu CPUs; burst off"
	if why=$(tool_missing lock_table load); then
		for p in "ext off" "ext on, 5 µs" "ext on, 50 µs" \
			"clients nice -20, hogs nice 0" "clients nice -20, hogs nice 19" \
			"clients SCHED_BATCH"; do
			skip lock "$p" "$why"
		done
		return
	fi
	ewhy=$(knob_missing ext/enabled ext/slice_ext_nsec)
	if [ -n "$ewhy" ]; then
		skip lock "ext on, 5 µs" "$ewhy"
		skip lock "ext on, 50 µs" "$ewhy"
	fi
	# Round-robin over the rows, so drift over the boot hits them alike.
	for r in $(seq 1 "$repeat"); do
		knob burst/enabled 0
		knob ext/enabled 1
		knob ext/slice_ext_nsec 5000
		lock_run "ext off" "$r" "" "" ""
		if [ -z "$ewhy" ]; then
			knob ext/slice_ext_nsec 5000
			lock_run "ext on, 5 µs" "$r" "" "" --ext
			knob ext/slice_ext_nsec 50000
			lock_run "ext on, 50 µs" "$r" "" "" --ext
			knob ext/slice_ext_nsec 5000
		fi
		lock_run "clients nice -20, hogs nice 0" "$r" "nice -n -20" "" ""
		lock_run "clients nice -20, hogs nice 19" "$r" "nice -n -20" "nice -n 19" ""
		lock_run "clients SCHED_BATCH" "$r" "chrt -b 0" "" ""
	done
}

# ---- b) latency under load, c) compute under load --------------------------

# under_load PART POINT REPEAT BURST LOAD-PREFIX CMD...
under_load() {
	local part=$1 point=$2 r=$3 burst=$4 lpre
	read -ra lpre <<<"$5"
	shift 5
	knob burst/enabled "$burst"
	start_load "${lpre[@]}" -- --hogs "$load_hogs" --forkers "$load_forkers"
	run_tool "$part" "$point" "$r" "$@"
	stop_load
}

part_latency() {
	local why bwhy r cmd
	echo "== b) wakeup latency under load: load --hogs $load_hogs" \
		"--forkers $load_forkers in the background"
	cmd=("$bin/wakeup_lat" --message-threads 2 --workers 4 --work-us 300
	     --interval-us 2000)
	if why=$(tool_missing wakeup_lat load); then
		for p in "burst off" "burst on" "burst off, hogs nice 19" \
			"burst off, hogs SCHED_IDLE"; do
			skip latency "$p" "$why"
		done
		return
	fi
	bwhy=$(knob_missing burst/enabled)
	[ -n "$bwhy" ] && skip latency "burst on" "$bwhy"
	for r in $(seq 1 "$repeat"); do
		under_load latency "burst off" "$r" 0 "" "${cmd[@]}"
		[ -z "$bwhy" ] && under_load latency "burst on" "$r" 1 "" "${cmd[@]}"
		under_load latency "burst off, hogs nice 19" "$r" 0 "nice -n 19" "${cmd[@]}"
		under_load latency "burst off, hogs SCHED_IDLE" "$r" 0 "chrt -i 0" "${cmd[@]}"
	done
	knob burst/enabled 0
}

part_compute() {
	local why bwhy r cmd
	echo "== c) compute: one thread alone and under load --hogs $load_hogs" \
		"--forkers $load_forkers"
	cmd=("$bin/compute" --threads 1)
	if why=$(tool_missing compute load); then
		for p in "alone" "under load, burst off" "under load, burst on" \
			"under load, load SCHED_IDLE"; do
			skip compute "$p" "$why"
		done
		return
	fi
	bwhy=$(knob_missing burst/enabled)
	[ -n "$bwhy" ] && skip compute "under load, burst on" "$bwhy"
	for r in $(seq 1 "$repeat"); do
		knob burst/enabled 0
		run_tool compute "alone" "$r" "${cmd[@]}"
		under_load compute "under load, burst off" "$r" 0 "" "${cmd[@]}"
		[ -z "$bwhy" ] &&
			under_load compute "under load, burst on" "$r" 1 "" "${cmd[@]}"
		under_load compute "under load, load SCHED_IDLE" "$r" 0 "chrt -i 0" "${cmd[@]}"
	done
	knob burst/enabled 0
}

# ---- main ------------------------------------------------------------------

mkdir -p "$(dirname "$results")"
printf '{"meta":"boot","kernel":%s,"uname":%s,"nproc":%d,"repeat":%d,"duration":%d,"parts":%s,"lock_clients":%d,"lock_hogs":%d,"load_hogs":%d,"load_forkers":%d,"cmdline":%s}\n' \
	"$(json_str "$kernel")" "$(json_str "$(uname -r)")" "$ncpu" "$repeat" \
	"$duration" "$(json_str "$parts")" "$lock_clients" "$lock_hogs" \
	"$load_hogs" "$load_forkers" "$(json_str "$(cat /proc/cmdline)")" >> "$results"
echo "== $(uname -r) ($kernel), $ncpu CPUs: parts $parts," \
	"$repeat x ${duration}s per point"

# The overhead baseline runs before the module was ever loaded.
if has_part overhead; then
	echo "== d) hook overhead: hackbench -g 4 -l 200, syscall_loop getppid"
	if [ -z "$ko" ]; then
		overhead_state "stock 6.12 (unpatched)"
	else
		overhead_state "patched, module not loaded"
	fi
fi

if [ -n "$ko" ] || has_part lock || has_part latency || has_part compute; then
	load_module
fi

has_part lock && part_lock
has_part latency && part_latency
has_part compute && part_compute

if has_part overhead && [ -n "$ko" ]; then
	echo "== d) hook overhead, module loaded"
	why=$(knob_missing ext/enabled)
	if [ -z "$why" ]; then
		knob ext/enabled 1
		knob burst/enabled 0
	fi
	overhead_state "module loaded, idle" "$why"
	[ -z "$why" ] && why=$(knob_missing burst/enabled)
	[ -z "$why" ] && knob burst/enabled 1
	overhead_state "module loaded, burst on" "$why"
	knob burst/enabled 0
fi

sync
[ $failed = 0 ] || exit 3
exit 0
