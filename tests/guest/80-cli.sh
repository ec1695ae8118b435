#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sliceext tool (tools/sliceext, sliceext(8)) against the loaded
# module: every subcommand, every refusal (exit status, message, nothing
# written), its knob table against the module's ranges, and stat's rates
# against the counters it read.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext
s=$SLICEEXT_BIN/sliceext
# Scratch space nobody can reach too (the binaries live under /root).
tmp=$(mktemp -d /run/sliceext-cli.XXXXXX)
chmod 755 "$tmp"
cp "$s" "$tmp/sliceext"
trap 'rm -rf "$tmp"' EXIT

# refused NAME STATUS PATTERN CMD...: CMD exits STATUS, prints nothing on
# stdout and a message matching PATTERN (grep -E) on stderr.
refused() {
	local name=$1 want=$2 pat=$3 rc=0 out
	shift 3
	out=$("$@" 2>"$tmp/err") || rc=$?
	if [ "$rc" = "$want" ] && [ -z "$out" ] && grep -qE -- "$pat" "$tmp/err"; then
		ok "$name"
	else
		not_ok "$name" "command: $*" "exit $rc (want $want)" "stdout: $out" \
			"stderr: $(cat "$tmp/err")"
	fi
}

# Every knob's value, to show that a refused command wrote nothing.
knob_values() {
	local k
	for k in $knobs; do
		printf '%s=%s\n' "$k" "$(cat "$d/$k")"
	done
}

# Conditions for wait_until, evaluated at every try.
granted_above() { [ "$(ext_stat granted)" -gt "$1" ]; }
threads() { [ "$(ls "/proc/$1/task" | wc -l)" = "$2" ]; }
state() { awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null; }
exited() { [ ! -e "/proc/$1" ] || [ "$(state "$1")" = Z ]; }

# All of ext/stats and ext/hist as "name value" lines.
counters() {
	cat $d/ext/stats
	awk '{ print "hist_" $1, $3 }' $d/ext/hist
}

check "modprobe sliceext" modprobe sliceext

check_eq "--version" "sliceext $SLICEEXT_VERSION" "$("$s" --version)"
check "--help lists every command" \
	bash -c "'$s' --help | grep -q status && '$s' --help | grep -q 'stat \[' &&
		 '$s' --help | grep -q 'top \[' && '$s' --help | grep -q 'set KNOB'"

# status
st=$("$s" status)
check_eq "status exits 0" 0 $?
echo "$st" | sed 's/^/# /'
check "status: module version and hook ABI" grep -qx \
	"module       loaded: version $SLICEEXT_VERSION, hook ABI $SLICEEXT_HOOK_ABI" <<<"$st"
check "status: the kernel has the core patch" \
	grep -q '^core patch   yes (prctl(PR_RSEQ_SLICE_EXTENSION) answers ENOTSUPP\|^core patch   yes (prctl(PR_RSEQ_SLICE_EXTENSION) served' <<<"$st"
check "status: debugfs mounted" grep -qx "debugfs      mounted at /sys/kernel/debug" <<<"$st"
# The knob rows: "name value min-max default".
rows=$(awk '/^KNOB/ { t = 1; next } t && NF == 4' <<<"$st")
knobs=$(awk '{ print $1 }' <<<"$rows")
check_eq "status lists every knob file of the module" \
	"$(cd $d && find ext burst -type f -perm 0644 ! -name stats ! -name hist | sort)" \
	"$(sort <<<"$knobs")"

# The tool's table against the module: fresh defaults, the range ends
# accepted, one past them refused by the module itself.
while read -r k val range def; do
	min=${range%-*} max=${range#*-}
	check_eq "$k: status shows the value" "$(cat "$d/$k")" "$val"
	check_eq "$k: default $def as loaded" "$def" "$(cat "$d/$k")"
	check "$k: module takes min $min" write_ok "$d/$k" "$min"
	check "$k: module takes max $max" write_ok "$d/$k" "$max"
	[ "$min" -gt 0 ] && check_eq "$k: module refuses $((min - 1))" \
		"Invalid argument" "$(write_err "$d/$k" $((min - 1)))"
	check_eq "$k: module refuses $((max + 1))" "Invalid argument" \
		"$(write_err "$d/$k" $((max + 1)))"
	write_ok "$d/$k" "$def"
done <<<"$rows"

# set
check_eq "set prints old and new value" "ext/slice_ext_nsec: 5000 -> 50000" \
	"$("$s" set ext/slice_ext_nsec 50000)"
check_eq "set wrote the knob" 50000 "$(cat $d/ext/slice_ext_nsec)"
check "status shows the new value" \
	bash -c "'$s' status | grep -qE '^ext/slice_ext_nsec +50000 '"
check "set burst/penalty_offset 0 (range start)" "$s" set burst/penalty_offset 0
check_eq "burst/penalty_offset is 0" 0 "$(cat $d/burst/penalty_offset)"
check "set burst/cache_lifetime_ns 1000000000 (range end)" \
	"$s" set burst/cache_lifetime_ns 1000000000
"$s" set ext/slice_ext_nsec 5000 >/dev/null
"$s" set burst/penalty_offset 24 >/dev/null
"$s" set burst/cache_lifetime_ns 75000000 >/dev/null

before=$(knob_values)
refused "set: unknown knob" 2 "unknown knob 'ext/nosuch'" "$s" set ext/nosuch 1
refused "set: unknown knob lists the knobs" 2 "burst/penalty_scale +0-4095" \
	"$s" set slice_ext_nsec 5000
refused "set: above range names the range" 2 \
	"ext/slice_ext_nsec: 50001 is out of range 5000-50000" \
	"$s" set ext/slice_ext_nsec 50001
refused "set: below range names the range" 2 "out of range 5000-50000" \
	"$s" set ext/slice_ext_nsec 4999
refused "set: burst/penalty_offset 64" 2 "out of range 0-63" \
	"$s" set burst/penalty_offset 64
refused "set: far above range" 2 "out of range 5000-50000" \
	"$s" set ext/slice_ext_nsec 99999999999999999999999
for v in abc 1x -1 "" " 5" 0x10 5e3 1.5; do
	refused "set: malformed $(printf %q "$v")" 2 "not a decimal number; the range is 5000-50000" \
		"$s" set ext/slice_ext_nsec "$v"
done
refused "set: missing value" 2 "usage: sliceext set KNOB VALUE" "$s" set ext/enabled
refused "set: extra argument" 2 "usage: sliceext set KNOB VALUE" "$s" set ext/enabled 1 2
refused "set: not root" 3 "must be root" as_nobody "$tmp/sliceext" set ext/slice_ext_nsec 20000
check_eq "refused sets wrote nothing" "$before" "$(knob_values)"

# Not root: status still shows the parameters; debugfs is root's.
out=$(as_nobody "$tmp/sliceext" status)
check_eq "status as nobody exits 0" 0 $?
check "status as nobody: knob values from the parameters" \
	grep -qE '^burst/penalty_scale +1536 ' <<<"$out"
check "status as nobody: hook ABI unknown, says why" \
	grep -q "hook ABI unknown (debugfs is for root only)" <<<"$out"
refused "stat as nobody" 3 "debugfs is for root only" as_nobody "$tmp/sliceext" stat -n 1
refused "top as nobody" 3 "debugfs is for root only" as_nobody "$tmp/sliceext" top -n 1

# Bad options of each command.
refused "stat -i 0" 2 "'0' is not a number of seconds" "$s" stat -i 0
refused "stat -i abc" 2 "'abc' is not a number of seconds" "$s" stat -i abc
refused "stat -n 0" 2 "'0' is not a whole number" "$s" stat -n 0
refused "stat -i without value" 2 "option '-i' needs a value" "$s" stat -i
refused "stat --bogus" 2 "unknown option '--bogus'" "$s" stat --bogus
refused "stat extra argument" 2 "unexpected argument 'x'" "$s" stat x
refused "top -p 0" 2 "'0' is not a whole number" "$s" top -p 0
refused "top -p of no process" 2 "no process 999999" "$s" top -p 999999
refused "top -d x" 2 "'x' is not a number of seconds" "$s" top -d x
refused "status extra argument" 2 "unexpected argument" "$s" status x
refused "unknown command" 2 "unknown command 'stats'" "$s" stats

# stat, text: a header, then one line per interval, as many fields.
echo 0 > $d/ext/stats
out=$("$s" stat -i 0.2 -n 2)
check_eq "stat -n 2 exits 0" 0 $?
echo "$out" | sed 's/^/# /'
check_eq "stat -n 2: header and two lines" 3 "$(wc -l <<<"$out")"
check "stat header names every counter, then grant%" \
	test "$(head -n1 <<<"$out")" = "$(printf '%-8s' time; for l in req/s grant/s deny/s disabl/s rtwait/s exitwk/s fault/s expire/s revoke/s yield/s abort/s; do printf ' %9s' "$l"; done; printf ' %7s' 'grant%')"
check "stat lines: time, 11 rates of 0.0, grant% '-' (no activity)" \
	test "$(tail -n +2 <<<"$out" | awk '{ $1 = ""; print }' | sort -u)" = \
	" 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 -"
out=$("$s" stat --hist -i 0.2 -n 1)
check "stat --hist with nothing ended says so" \
	grep -q "(no extension ended in this interval)" <<<"$out"

# stat --json while nothing runs: every rate 0, counters still 0.
json=$("$s" stat --json -i 0.5 -n 1)
echo "# $json"
check "stat --json, idle: all zero, ratio null" /usr/bin/python3 - "$json" <<'PY'
import json, sys
j = json.loads(sys.argv[1])
assert set(j) == {"time", "interval_s", "rates", "deltas", "grant_ratio"}, j
assert list(j["rates"]) == list(j["deltas"]), j
assert all(v == 0 for v in j["rates"].values()), j
assert all(v == 0 for v in j["deltas"].values()), j
assert j["grant_ratio"] is None and j["interval_s"] > 0, j
PY
check_eq "stat --json keys are ext/stats' counters" \
	"$(awk '{ print $1 }' $d/ext/stats | paste -sd,)" \
	"$(/usr/bin/python3 -c 'import json,sys; print(",".join(json.loads(sys.argv[1])["rates"]))' "$json")"
check "counters still 0 after the idle interval" \
	test -z "$(awk '$2 != 0' $d/ext/stats)"

# stat --json, exact: stat is stopped inside its interval's sleep (so it
# has read its first sample), a requester runs to completion, then stat
# reads its second sample. Nothing else requests, so its deltas must be
# exactly the counters' change, and rate x interval must give them back.
in_sleep() {
	local nr
	read -r nr _ < "/proc/$1/syscall" 2>/dev/null || return 1
	[ "$nr" = 230 ] || [ "$nr" = 35 ]	# clock_nanosleep, nanosleep
}
is_stopped() { [ "$(state "$1")" = T ]; }
stopped_in_sleep() { wait_until 10 is_stopped "$1" && in_sleep "$1"; }

b=$(counters)
"$s" stat --json --hist -i 10 -n 1 > "$tmp/json" &
spid=$!
check "stat sleeps in its interval" wait_until 30 in_sleep $spid
kill -STOP $spid
check "stat stopped inside the sleep" stopped_in_sleep $spid
# shellcheck disable=SC2034 # read by out()
res=$("$SLICEEXT_BIN/ext_grant" yield 1)
a=$(counters)
kill -CONT $spid
wait $spid
check_eq "stat --json -i 10 -n 1 exits 0" 0 $?
echo "# $(cat "$tmp/json")"
check "the requester was granted" test "$(out yields)" -gt 0
check "stat --json deltas are the counters' change, exactly" \
	/usr/bin/python3 - "$tmp/json" "$b" "$a" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def parse(s):
    return {k: int(v) for k, v in (l.split() for l in s.splitlines())}
b, a = parse(sys.argv[2]), parse(sys.argv[3])
want = {k: a[k] - b.get(k, 0) for k in a if not k.startswith("hist_")}
assert j["deltas"] == want, (j["deltas"], want)
assert want["granted"] > 0, want
for k, d in want.items():
    # rates carry 3 decimals, the interval 6: well inside 0.5
    assert round(j["rates"][k] * j["interval_s"]) == d, (k, j["rates"][k], d)
assert abs(j["grant_ratio"] - want["granted"] / want["requested"]) < 1e-5, j
hist = {"hist_%d" % h["low_ns"]: h["count"] for h in j["hist"]}
want = {k: a[k] - b.get(k, 0) for k in a if k.startswith("hist_")}
assert hist == {k: v for k, v in want.items() if v}, (hist, want)
PY

# stat --json while a requester runs through the whole interval: the
# counters may move between stat's reads and ours, so each delta lies
# between 0 and our change, and rate x interval gives it back.
"$SLICEEXT_BIN/ext_grant" yield 3600 > /dev/null &
wpid=$!
check "the requester gets grants" wait_until 60 granted_above "$(ext_stat granted)"
b=$(counters)
"$s" stat --json -i 1 -n 1 > "$tmp/json"
a=$(counters)
"$s" stat --hist -i 1 -n 1 > "$tmp/hist"
kill $wpid
wait $wpid 2>/dev/null
echo "# $(cat "$tmp/json")"
check "stat --json under load: rate x interval <= counters' change" \
	/usr/bin/python3 - "$tmp/json" "$b" "$a" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
def parse(s):
    return {k: int(v) for k, v in (l.split() for l in s.splitlines())}
b, a = parse(sys.argv[2]), parse(sys.argv[3])
for k, d in j["deltas"].items():
    assert 0 <= d <= a[k] - b[k], (k, d, a[k] - b[k])
    assert round(j["rates"][k] * j["interval_s"]) == d, (k, j["rates"][k], d)
assert j["deltas"]["granted"] > 0 and j["grant_ratio"] > 0, j
PY
sed 's/^/# /' "$tmp/hist"
check "stat --hist draws bars" grep -qE '^ +[0-9.]+[mun]?s - +[0-9.]+[mun]?s +[0-9]+ \|#+ *\|$' "$tmp/hist"
check "stat --hist: header line, then a stat line" \
	test "$(sed -n 1p "$tmp/hist" | awk '{ print $1, $2 }')" = "time req/s"

# top
bash -c 'while :; do :; done' &
hog=$!
check "a CPU hog gets a burst score" wait_until 60 scored $hog
out=$("$s" top -n 1)
check_eq "top -n 1 exits 0" 0 $?
echo "$out" | sed 's/^/# /'
check "top: title line" grep -qE '^sliceext top - [0-9:]{8} - [0-9]+ fair tasks, [0-9]+ with a burst score$' <<<"$out"
check_eq "top: column header" "    PID COMM             SCORE PENALTY     BURST_MS  WEIGHT" \
	"$(sed -n 2p <<<"$out")"
rows=$(tail -n +3 <<<"$out")
check "top: at most 20 rows" test "$(wc -l <<<"$rows")" -le 20
check "top: sorted by score, highest first" \
	bash -c 'awk "{ print \$(NF - 3) }" | sort -c -n -r' <<<"$rows"
check "top: the hog is listed with a score" \
	awk -v p=$hog '$1 == p && $(NF - 3) > 0 { f = 1 } END { exit !f }' <<<"$rows"
out=$("$s" top -p $hog -n 1)
check_eq "top -p: only the hog" "$hog bash" \
	"$(tail -n +3 <<<"$out" | awk '{ print $1, $2 }')"
check "top -p: weight below nice 0's 1024 with a score" \
	awk 'NR == 3 && $NF < 1024 { f = 1 } END { exit !f }' <<<"$out"
kill $hog
wait $hog 2>/dev/null

"$SLICEEXT_BIN/ext_grant" yield 3600 > /dev/null &
wpid=$!
wait_until 10 threads $wpid 2
out=$("$s" top -p $wpid -n 1)
check_eq "top -p: every thread of a process" \
	"$(ls /proc/$wpid/task | sort -n | paste -sd' ')" \
	"$(tail -n +3 <<<"$out" | awk '{ print $1 }' | sort -n | paste -sd' ')"
kill $wpid
wait $wpid 2>/dev/null

out=$("$s" top -n 2 -d 0.2)
check "top -n 2 (batch): two refreshes, an empty line between" \
	test "$(grep -c '^sliceext top - ' <<<"$out")" = 2 -a "$(grep -c '^$' <<<"$out")" = 1
sleep 3600 &
sl=$!
"$s" top -p $sl -d 0.1 > "$tmp/top" 2> "$tmp/top.err" &
tpid=$!
check "top -p runs" wait_until 60 grep -q '^sliceext top' "$tmp/top"
kill $sl
wait $sl 2>/dev/null
check "top -p ends when the process exits" wait_until 60 exited $tpid
wait $tpid
check_eq "top -p then exits 0" 0 $?
check "top -p says the process exited" grep -q "process $sl has exited" "$tmp/top.err"

# debugfs unmounted: every command refuses, nothing is written.
before=$(knob_values)
umount /sys/kernel/debug 2>/dev/null || umount -l /sys/kernel/debug
refused "status without debugfs" 3 "debugfs is not mounted" \
	bash -c "'$s' status > /dev/null"
check "status without debugfs still prints the report" \
	bash -c "'$s' status 2>/dev/null | grep -q '^debugfs      not mounted'"
refused "stat without debugfs" 3 "debugfs is not mounted" "$s" stat -n 1
refused "top without debugfs" 3 "debugfs is not mounted" "$s" top -n 1
refused "set without debugfs" 3 "debugfs is not mounted" "$s" set ext/slice_ext_nsec 20000
mount -t debugfs debugfs /sys/kernel/debug
check "debugfs remounted, the tree is back" test -f $d/version
check_eq "nothing written without debugfs" "$before" "$(knob_values)"

# Module unloaded: every command refuses.
check "modprobe -r sliceext" modprobe -r sliceext
refused "status without the module" 3 "module is not loaded \(modprobe sliceext\)" \
	bash -c "'$s' status > /dev/null"
check "status without the module still shows ranges and defaults" \
	bash -c "'$s' status 2>/dev/null | grep -qE '^ext/slice_ext_nsec +- +5000-50000 +5000$'"
refused "stat without the module" 3 "module is not loaded" "$s" stat -n 1
refused "top without the module" 3 "module is not loaded" "$s" top -n 1
refused "set without the module" 3 "module is not loaded" "$s" set ext/enabled 1
check "status still sees the core patch" \
	bash -c "'$s' status 2>/dev/null | grep -q '^core patch   yes (prctl(PR_RSEQ_SLICE_EXTENSION) answers ENOTSUPP'"
tap_done
