#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark programs (tools/bench, docs/tools.md) build without a
# warning and behave on a host without the slice extension: --help names
# every flag, bad arguments exit 2 with a message, --json prints one
# object with the documented keys and sane values, --ext runs on without
# kernel support, and no load process outlives its tool. Short runs; no
# timing is asserted beyond "> 0".
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

if [ -n "${SLICEEXT_WORK:-}" ]; then
	b=$SLICEEXT_WORK/bench
	mkdir -p "$b"
else
	b=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$b'" EXIT
fi
d=$b/out
mkdir -p "$d"
# The distribution's python3 (scripts/deps.sh installs it): a version
# manager's shim earlier on PATH can cost a second per call.
py=/usr/bin/python3
[ -x "$py" ] || py=python3

tools="lock_table wakeup_lat compute syscall_loop load fork_loop"
declare -A flags=(
	[lock_table]="--clients --cs-us --outside-us --ext --hogs --duration --json --help"
	[wakeup_lat]="--message-threads --workers --work-us --interval-us --wake --hogs --forkers --duration --json --help"
	[compute]="--threads --duration --json --help"
	[syscall_loop]="--syscall --threads --duration --json --help"
	[load]="--hogs --forkers --duration --verbose --json --help"
	[fork_loop]="--depth --forks --duration --json --help"
)

# The flags are those of the Makefile's default; an inherited CFLAGS must
# not drop -Werror.
if ! out=$(make -s -C "$top/tools/bench" O="$b" \
	CFLAGS="-O2 -Wall -Wextra -Werror" 2>&1); then
	not_ok "bench tools build with -O2 -Wall -Wextra -Werror" "$out"
	tap_done
	exit
fi
check_eq "bench tools build with -O2 -Wall -Wextra -Werror" "" "$out"

# --help: usage on stdout, exit 0, every flag named.
for t in $tools; do
	help=$("$b/$t" --help 2>/dev/null)
	check_eq "$t --help exits 0" 0 "$?"
	missing=
	for f in ${flags[$t]}; do
		grep -qE -- "(^|[[:space:]])$f([[:space:]=,]|\$)" <<<"$help" ||
			missing="$missing $f"
	done
	check_eq "$t --help mentions every flag" "" "$missing"
done

# usage_error TOOL ARGS...: exit 2, a message on stderr, nothing on stdout.
usage_error() {
	local t=$1 out err rc
	shift
	out=$("$b/$t" "$@" 2>"$d/err")
	rc=$?
	err=$(cat "$d/err")
	if [ "$rc" = 2 ] && [ -n "$err" ] && [ -z "$out" ]; then
		ok "$t $*: exit 2 with a message"
	else
		not_ok "$t $*: exit 2 with a message" "exit status $rc" \
			"stdout: $out" "stderr: $err"
	fi
}
for t in $tools; do
	usage_error "$t" --bogus
	usage_error "$t" --duration -1
	usage_error "$t" --duration abc
	usage_error "$t" stray-argument
	usage_error "$t" --duration
done
usage_error lock_table --clients 0 --duration 0.3
usage_error lock_table --clients 2x --duration 0.3
usage_error lock_table --cs-us 0 --duration 0.3
usage_error lock_table --outside-us -1 --duration 0.3
usage_error lock_table --hogs -1 --duration 0.3
usage_error lock_table --lock rwlock --duration 0.3
usage_error lock_table --lock --duration 0.3
usage_error wakeup_lat --work-us abc --duration 0.3
usage_error wakeup_lat --workers 0 --duration 0.3
usage_error wakeup_lat --message-threads 0 --duration 0.3
usage_error wakeup_lat --interval-us -5 --duration 0.3
usage_error wakeup_lat --forkers x --duration 0.3
usage_error wakeup_lat --wake foo --duration 0.3
usage_error wakeup_lat --wake --duration 0.3
check "wakeup_lat --wake foo: names what it takes" grep -qx \
	"wakeup_lat: --wake: 'foo' is not futex or pipe" \
	<<<"$("$b/wakeup_lat" --wake foo 2>&1)"
usage_error compute --threads 0 --duration 0.3
usage_error compute --threads 1.5 --duration 0.3
usage_error syscall_loop --syscall foo --duration 0.3
usage_error syscall_loop --threads 0 --duration 0.3
usage_error load --hogs -1 --duration 0.3
usage_error load --forkers abc --duration 0.3
usage_error load --duration 0.3		# nothing to run
usage_error fork_loop --depth -1 --duration 0.3
usage_error fork_loop --depth 100001 --duration 0.3
usage_error fork_loop --forks 1.5 --duration 0.3

# json_ok FILE "KEY..." CONDITION...: one line of JSON with every KEY,
# and each Python CONDITION on the object d holds.
json_ok() {
	"$py" - "$@" <<'PY'
import json, sys
path, keys, conds = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
text = open(path).read()
if len(text.splitlines()) != 1:
    sys.exit("not one line: %r" % text)
d = json.loads(text)
missing = [k for k in keys if k not in d]
if missing:
    sys.exit("missing keys %s in %s" % (missing, text))
for c in conds:
    if not eval(c, {}, {"d": d}):
        sys.exit("does not hold: %s\n%s" % (c, text))
PY
}

# run_json NAME TOOL ARGS...: run with --json into $d/NAME.json; exit 0,
# output that json.load() parses.
run_json() {
	local name=$1 t=$2 rc
	shift 2
	"$b/$t" --json "$@" >"$d/$name.json" 2>"$d/$name.err"
	rc=$?
	check_eq "$name: exit 0" 0 "$rc"
	[ "$rc" = 0 ] || sed 's/^/# /' "$d/$name.err"
	check "$name: --json parses" \
		sh -c "'$py' -c 'import json,sys; json.load(sys.stdin)' < '$d/$name.json'"
}

lt_keys="tool clients hogs cs_us outside_us lock ext ext_available rseq_area
	rseq_len duration_s ops_per_s wait_p50_us wait_p99_us wait_max_us
	holder_stalled holder_stalled_frac granted denied calib_iters
	wait_cdf_us"
lt_sane=('d["tool"] == "lock_table"' 'd["ops_per_s"] > 0'
	'd["clients"] >= 1' 'd["calib_iters"] >= 1' 'd["duration_s"] > 0'
	'0 <= d["wait_p50_us"] <= d["wait_p99_us"] <= d["wait_max_us"]'
	'0 <= d["holder_stalled"]' '0 <= d["holder_stalled_frac"] <= 1'
	'd["granted"] is None or d["granted"] >= 0'
	'd["denied"] is None or d["denied"] >= 0'
	'[p for p, _ in d["wait_cdf_us"]] == sorted(p for p, _ in d["wait_cdf_us"])'
	'[v for _, v in d["wait_cdf_us"]] == sorted(v for _, v in d["wait_cdf_us"])'
	'd["wait_cdf_us"][-1][1] == d["wait_max_us"]')

run_json lock_table lock_table --duration 0.5
check "lock_table: documented keys, sane values" json_ok "$d/lock_table.json" \
	"$lt_keys" "${lt_sane[@]}" 'd["ext"] is False' 'd["cs_us"] == 5' \
	'd["outside_us"] == 20' 'd["rseq_area"] == "glibc"' \
	'd["rseq_len"] is None' 'd["lock"] == "spin"'

# --lock mutex: the same table under a pthread mutex; the table's sum,
# checked by the tool, proves the mutex excluded.
run_json lock_table-mutex lock_table --lock mutex --clients 3 --cs-us 2 \
	--outside-us 2 --duration 0.3
check "lock_table --lock mutex: documented keys, sane values" \
	json_ok "$d/lock_table-mutex.json" "$lt_keys" "${lt_sane[@]}" \
	'd["lock"] == "mutex"' 'd["clients"] == 3'

# Without glibc's registration each client registers its own area, as
# large as AT_RSEQ_FEATURE_SIZE asks, and at least the original 32 bytes.
feature=$(LD_SHOW_AUXV=1 /bin/true | sed -n 's/^AT_RSEQ_FEATURE_SIZE: *//p')
want=$(( ${feature:-0} > 32 ? ${feature:-0} : 32 ))
GLIBC_TUNABLES=glibc.pthread.rseq=0 run_json lock_table-own lock_table \
	--clients 3 --cs-us 2 --outside-us 2 --duration 0.3
check "lock_table without glibc's rseq: its own area of $want bytes" \
	json_ok "$d/lock_table-own.json" "$lt_keys" "${lt_sane[@]}" \
	'd["rseq_area"] == "own"' "d[\"rseq_len\"] == $want"
out=$(GLIBC_TUNABLES=glibc.pthread.rseq=0 "$b/lock_table" --clients 2 \
	--duration 0.2 2>/dev/null)
check "lock_table table names the rseq area" \
	grep -q "rseq area: own, $want bytes per thread" <<<"$out"

# Without sliceext loaded (a host), --ext must run on without requests.
run_json lock_table-ext lock_table --ext --clients 3 --cs-us 2 \
	--outside-us 10 --duration 0.5
if grep -q '^sliceext ' /proc/modules 2>/dev/null; then
	skip "lock_table --ext: ext_available false" "sliceext is loaded here"
else
	check "lock_table --ext: ext_available false, still runs" \
		json_ok "$d/lock_table-ext.json" "$lt_keys" "${lt_sane[@]}" \
		'd["ext"] is True' 'd["ext_available"] is False' \
		'd["clients"] == 3'
	check "lock_table --ext: says slice extension unavailable" \
		grep -q "slice extension unavailable" "$d/lock_table-ext.err"
	out=$("$b/lock_table" --ext --clients 2 --duration 0.3 2>/dev/null)
	check "lock_table --ext table says slice extension unavailable" \
		grep -q "slice extension unavailable" <<<"$out"
fi

run_json wakeup_lat wakeup_lat --duration 0.5
check "wakeup_lat: documented keys, sane values" json_ok "$d/wakeup_lat.json" \
	"tool message_threads workers wake work_us samples lat_p50_us lat_p90_us
	 lat_p99_us lat_p999_us lat_max_us lat_over_500us_pct lat_crossed_pct
	 run_delay_per_switch_us lat_cdf_us timer_samples timer_p50_us
	 timer_p90_us timer_p99_us timer_max_us duration_s" \
	'd["tool"] == "wakeup_lat"' 'd["samples"] > 0' \
	'd["wake"] == "futex"' 'not [k for k in d if k.startswith("pipe")]' \
	'd["message_threads"] == 2 and d["workers"] == 4' \
	'd["work_us"] == 300' 'd["duration_s"] > 0' \
	'0 <= d["lat_p50_us"] <= d["lat_p90_us"] <= d["lat_p99_us"] <= d["lat_p999_us"] <= d["lat_max_us"]' \
	'd["run_delay_per_switch_us"] is None or d["run_delay_per_switch_us"] >= 0' \
	'dict(d["lat_cdf_us"])[50] == d["lat_p50_us"]' \
	'dict(d["lat_cdf_us"])[99] == d["lat_p99_us"]' \
	'0 <= d["lat_over_500us_pct"] <= 100' \
	'0 <= d["lat_crossed_pct"] <= 100' \
	'(d["lat_p99_us"] <= 500) == (d["lat_over_500us_pct"] <= 1)' \
	'(d["lat_max_us"] <= 500) == (d["lat_over_500us_pct"] == 0)' \
	'[v for _, v in d["lat_cdf_us"]] == sorted(v for _, v in d["lat_cdf_us"])' \
	'd["timer_samples"] > 0' \
	'd["samples"] == d["workers"] * d["timer_samples"]' \
	'0 <= d["timer_p50_us"] <= d["timer_p90_us"] <= d["timer_p99_us"] <= d["timer_max_us"]'
# On one CPU no wakeup can cross to another.
taskset -c 0 "$b/wakeup_lat" --json --duration 0.3 >"$d/wakeup_lat-pinned.json"
check "wakeup_lat pinned to one CPU: lat_crossed_pct 0" \
	json_ok "$d/wakeup_lat-pinned.json" "lat_crossed_pct samples" \
	'd["samples"] > 0' 'd["lat_crossed_pct"] == 0'

# --wake pipe, the probe's shape for a second: a round is the 1 ms sleep,
# the wake and 100 us of work, so at most one per ms and, on any host
# that runs the suite, at least a tenth of that. The worker's metrics
# are named for the pipe, none of the futex's is printed.
run_json wakeup_lat-pipe wakeup_lat --wake pipe --message-threads 1 \
	--workers 1 --work-us 100 --interval-us 1000 --duration 1
check "wakeup_lat --wake pipe: the pipe's keys, sane values" \
	json_ok "$d/wakeup_lat-pipe.json" \
	"tool message_threads workers wake work_us pipe_samples pipe_p50_us
	 pipe_p90_us pipe_p99_us pipe_p999_us pipe_max_us pipe_over_500us_pct
	 pipe_crossed_pct run_delay_per_switch_us pipe_cdf_us timer_samples
	 timer_p50_us timer_p90_us timer_p99_us timer_max_us duration_s" \
	'd["wake"] == "pipe"' \
	'not [k for k in d if k == "samples" or k.startswith("lat_")]' \
	'100 <= d["pipe_samples"] <= 1000 * d["duration_s"] + 1' \
	'd["pipe_samples"] == d["timer_samples"]' \
	'0 < d["pipe_p50_us"] <= d["pipe_p90_us"] <= d["pipe_p99_us"] <= d["pipe_p999_us"] <= d["pipe_max_us"]' \
	'0 < d["timer_p50_us"] <= d["timer_p99_us"] <= d["timer_max_us"]' \
	'dict(d["pipe_cdf_us"])[99] == d["pipe_p99_us"]' \
	'[v for _, v in d["pipe_cdf_us"]] == sorted(v for _, v in d["pipe_cdf_us"])' \
	'0 <= d["pipe_over_500us_pct"] <= 100' '0 <= d["pipe_crossed_pct"] <= 100'
taskset -c 0 "$b/wakeup_lat" --wake pipe --json --duration 0.3 \
	>"$d/wakeup_lat-pipe-pinned.json"
check "wakeup_lat --wake pipe pinned to one CPU: pipe_crossed_pct 0" \
	json_ok "$d/wakeup_lat-pipe-pinned.json" "pipe_crossed_pct pipe_samples" \
	'd["pipe_samples"] > 0' 'd["pipe_crossed_pct"] == 0'
# Every wake the benchmark scripts know (scripts/benchlib.py's WAKES, the
# one list of them) is one the tool takes, its metrics named as
# benchlib.wake_metric() says.
for w in $("$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import benchlib
print(" ".join(benchlib.WAKES))' "$top/scripts"); do
	"$b/wakeup_lat" --wake "$w" --workers 1 --message-threads 1 \
		--interval-us 500 --work-us 10 --json --duration 0.2 \
		>"$d/wakeup_lat-$w.json" 2>"$d/wakeup_lat-$w.err"
	check "wakeup_lat --wake $w: benchlib's names for its metrics" \
		"$py" - "$top/scripts" "$w" "$d/wakeup_lat-$w.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import benchlib
w, d = sys.argv[2], json.load(open(sys.argv[3]))
assert d["wake"] == w, d
for k in ("samples", "lat_p99_us", "lat_over_500us_pct", "lat_crossed_pct",
          "lat_cdf_us"):
    assert benchlib.wake_metric(k, w) in d, (k, sorted(d))
assert d[benchlib.wake_metric("samples", w)] > 0, d
PY
done
out=$("$b/wakeup_lat" --wake pipe --duration 0.3 2>/dev/null)
check "wakeup_lat --wake pipe: the table's heading says so" \
	grep -q '^wakeup_lat: .* woken by pipe, ' <<<"$out"
check "wakeup_lat --wake pipe: the table's rows say so" \
	grep -q '^pipe latency p99 (us) ' <<<"$out"

for n in 1 2; do
	run_json "compute-$n" compute --threads "$n" --duration 0.3
	check "compute --threads $n: documented keys, sane values" \
		json_ok "$d/compute-$n.json" "tool threads rounds_per_s duration_s" \
		'd["tool"] == "compute"' "d[\"threads\"] == $n" \
		'd["rounds_per_s"] > 0' 'd["duration_s"] > 0'
done
out=$("$b/compute" --duration 0.3 2>&1)
check_eq "compute: exit 0 with the prime count checked" 0 "$?"
check "compute: reports 78498 primes below 1000000" \
	grep -q "78498 primes below 1000000 per round (checked)" <<<"$out"

for s in getppid yield rseq_yield; do
	run_json "syscall_loop-$s" syscall_loop --syscall "$s" --threads 2 \
		--duration 0.3
	check "syscall_loop --syscall $s: documented keys, sane values" \
		json_ok "$d/syscall_loop-$s.json" \
		"tool syscall threads calls_per_s ns_per_call duration_s" \
		'd["tool"] == "syscall_loop"' "d[\"syscall\"] == \"$s\"" \
		'd["threads"] == 2' 'd["calls_per_s"] > 0' \
		'd["ns_per_call"] > 0' 'd["duration_s"] > 0'
done
# 471 is rseq_slice_yield only from 7.0 on (or 6.12 + sliceext).
if json_ok "$d/syscall_loop-rseq_yield.json" "enosys" 'd["enosys"]'; then
	check "syscall_loop rseq_yield: reports ENOSYS" \
		grep -q ENOSYS "$d/syscall_loop-rseq_yield.err"
else
	ok "syscall_loop rseq_yield: served by this kernel"
fi

# The chain is built: the forking process sits DEPTH levels below the
# tool, so each child it forks is its parent's only child, DEPTH + 1 deep.
run_json fork_loop-count fork_loop --depth 20 --forks 30
check "fork_loop --forks 30: documented keys, exactly 30 forks" \
	json_ok "$d/fork_loop-count.json" \
	"tool depth forks forks_per_s us_per_fork duration_s" \
	'd["tool"] == "fork_loop"' 'd["depth"] == 20' 'd["forks"] == 30' \
	'd["forks_per_s"] > 0' \
	'abs(d["us_per_fork"] * d["forks_per_s"] - 1e6) < 1e6 * 0.01'
run_json fork_loop-time fork_loop --duration 0.3
check "fork_loop --duration 0.3: runs about that long" \
	json_ok "$d/fork_loop-time.json" "depth forks duration_s" \
	'd["depth"] == 0' 'd["forks"] > 0' '0.3 <= d["duration_s"] < 3'
# chain_depth PID: how many single-child links hang below PID.
chain_depth() {
	local pid=$1 n=0 kids
	while kids=$(pgrep -P "$pid") && [ "$(wc -l <<<"$kids")" = 1 ]; do
		pid=$kids n=$((n + 1))
	done
	echo "$n"
}
"$b/fork_loop" --depth 5 --duration 2 >/dev/null &
fl=$!
sleep 0.5
# The bottom's own short-lived child may be caught too: 5 or 6 links.
n=$(chain_depth "$fl")
check "fork_loop --depth 5: the forking process is 5 levels down ($n)" \
	test "$n" -ge 5 -a "$n" -le 6
wait "$fl"
check_eq "fork_loop --depth 5: the chain exits 0 with its bottom" 0 "$?"
# Killed at the top (as bench-guest.sh's timeout does), the whole chain
# goes, not only its first process.
# shellcheck disable=SC2016
setsid sh -c 'echo $$ > "$1"; exec "$2" --depth 20 --duration 30' sh \
	"$d/fl-sid" "$b/fork_loop" >/dev/null 2>&1 &
sleep 0.5
kill -KILL "$(cat "$d/fl-sid")"
# Level by level, each woken to die: give a busy host 10 s of the 30.
for _ in $(seq 100); do
	pgrep -s "$(cat "$d/fl-sid")" >/dev/null || break
	sleep 0.1
done
check_eq "fork_loop killed at the top: no process of the chain left" "" \
	"$(pgrep -s "$(cat "$d/fl-sid")")"

# The default output is the table, not JSON.
for t in "lock_table --clients 2" wakeup_lat compute syscall_loop fork_loop; do
	read -ra cmd <<<"$t"
	out=$("$b/${cmd[0]}" "${cmd[@]:1}" --duration 0.3 2>/dev/null)
	if [ -n "$out" ] && [ "${out:0:1}" != "{" ]; then
		ok "${cmd[0]}: table by default"
	else
		not_ok "${cmd[0]}: table by default" "$out"
	fi
done

# load_pid FILE: the pid from the "load: pid N" line of --verbose, within 5 s.
load_pid() {
	local pid
	for _ in $(seq 50); do
		pid=$(sed -n 's/^load: pid \([0-9]*\),.*/\1/p' "$1")
		[ -n "$pid" ] && { echo "$pid"; return; }
		sleep 0.1
	done
}

# In a session of its own, so that "nothing left" covers grandchildren.
setsid -w "$b/load" --hogs 2 --forkers 1 --duration 1 --verbose \
	>"$d/load.out" 2>"$d/load.err" &
spid=$!
lpid=$(load_pid "$d/load.err")
check_eq "load --verbose prints its pid and 3 children" \
	"load: pid $lpid, 2 hogs, 1 forkers, 3 child processes" \
	"$(head -n1 "$d/load.err")"
check_eq "load runs 2 hogs and 1 forker as its children" 3 \
	"$(pgrep -P "${lpid:-0}" | wc -l)"
wait "$spid"
check_eq "load --duration 1: exit 0" 0 "$?"
check_eq "load --duration 1: no process left in its session" "" \
	"$(pgrep -s "${lpid:-0}")"

setsid -w "$b/load" --hogs 1 --forkers 2 --verbose --json \
	>"$d/load-term.json" 2>"$d/load-term.err" &
spid=$!
lpid=$(load_pid "$d/load-term.err")
sleep 0.3
kill -TERM "${lpid:-0}"
wait "$spid"
check_eq "load stops on SIGTERM with exit 0" 0 "$?"
check "load on SIGTERM: JSON says so" json_ok "$d/load-term.json" \
	"tool hogs forkers forks duration_s" 'd["stopped_by"] == "SIGTERM"' \
	'd["hogs"] == 1 and d["forkers"] == 2' 'd["forks"] >= 0'
check_eq "load on SIGTERM: no process left in its session" "" \
	"$(pgrep -s "${lpid:-0}")"

# The tools' own --hogs/--forkers: gone when the tool exits.
for t in "lock_table --clients 2 --hogs 2" "wakeup_lat --hogs 1 --forkers 1"; do
	read -ra cmd <<<"$t"
	# The shell notes its pid, the session id, then becomes the tool.
	# shellcheck disable=SC2016
	setsid -w sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$d/sid" \
		"$b/${cmd[0]}" "${cmd[@]:1}" --duration 0.3 >/dev/null 2>&1
	check_eq "$t: exit 0" 0 "$?"
	check_eq "$t: no load process left" "" "$(pgrep -s "$(cat "$d/sid")")"
done
tap_done
