#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-report.py on made-up results written as scripts/bench.sh
# wrote them before the probe joined it (they must stay readable): medians,
# spreads and ratios against the right base row, skipped and failed rows,
# the stock kernel's overhead row as base (and the fallback without it),
# and the notes every table must carry. Then the unit tests of the
# pipeline's Python, a file per module (tests/host/bench*_test.py:
# configurations, records, pooling, rank tests, docs/results.md, bad
# input). The benchmark scripts themselves parse (bash -n) and refuse bad
# options.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

for s in bench.sh bench-guest.sh demo.sh demo-guest.sh kernel.sh lib.sh; do
	check "bash -n scripts/$s" bash -n "$top/scripts/$s"
done
# What bench-guest.sh sources: bash -n of it does not read them.
for s in "$top"/scripts/bench-guest/*.sh; do
	check "bash -n scripts/bench-guest/${s##*/}" bash -n "$s"
done

f=$(mktemp)
t=$(mktemp -d)
# shellcheck disable=SC2064
trap "rm -rf '$f' '$f.2' '$t'" EXIT
cat > "$f" <<'EOF'
{"meta":"host","command":"make bench ARGS=\"--repeat 3\"","date":"d","cpu":"c","host_nproc":2,"qemu":"q"}
{"meta":"boot","kernel":"stock","uname":"6.12.0-stock","nproc":2,"repeat":3,"duration":5,"parts":"overhead","lock_clients":12,"lock_hogs":16,"load_hogs":4,"load_forkers":2,"fork_depth":1000,"pinned_wakeup":"taskset -c 0 wakeup_lat --workers 1"}
{"part":"overhead","point":"stock 6.12 (unpatched)","kernel":"stock","repeat":1,"tool":"hackbench","hackbench_s":2.0}
{"part":"overhead","point":"stock 6.12 (unpatched)","kernel":"stock","repeat":2,"tool":"hackbench","hackbench_s":4.0}
{"meta":"boot","kernel":"release","uname":"6.12.0-sliceext","nproc":2,"repeat":3,"duration":5,"parts":"lock,overhead","lock_clients":12,"lock_hogs":16,"load_hogs":4,"load_forkers":2,"fork_depth":1000,"pinned_wakeup":"taskset -c 0 wakeup_lat --workers 1"}
{"part":"overhead","point":"patched, module not loaded","kernel":"release","repeat":1,"tool":"hackbench","hackbench_s":6.0}
{"part":"overhead","point":"patched, module not loaded","kernel":"release","repeat":1,"tool":"fork_loop","depth":1000,"forks_per_s":500.0}
{"part":"overhead","point":"module loaded, burst on","kernel":"release","repeat":1,"tool":"fork_loop","depth":1000,"forks_per_s":450.0}
{"part":"overhead","point":"patched, module not loaded","kernel":"release","repeat":1,"tool":"wakeup_lat","lat_p50_us":5.0}
{"part":"overhead","point":"module loaded, idle","kernel":"release","repeat":1,"tool":"wakeup_lat","lat_p50_us":5.5}
{"part":"lock","point":"ext on, 5 µs","kernel":"release","repeat":1,"ops_per_s":300,"wait_p99_us":null,"granted":5,"ext_available":false}
{"part":"lock","point":"ext on, 5 µs","kernel":"release","repeat":2,"ops_per_s":100,"granted":7,"ext_available":true}
{"part":"lock","point":"ext on, 5 µs","kernel":"release","repeat":3,"ops_per_s":200,"granted":6,"ext_available":true}
{"part":"lock","point":"ext off","kernel":"release","repeat":1,"ops_per_s":100,"granted":0}
{"part":"lock","point":"ext off","kernel":"release","repeat":2,"error":"exit 124: timed out"}
{"part":"lock","point":"ext on, 50 µs","kernel":"release","skipped":"no knob"}
EOF
out=$("$py" "$top/scripts/bench-report.py" "$f" 2>&1)
echo "$out" | sed 's/^/# /'
row() { grep -F -- "$1" <<<"$out" | grep -F -- "$2" | head -n 1; }
check "the TCG caveat" grep -q "QEMU TCG emulation.*only ratios within one boot count" <<<"$out"
check "the command" grep -qF 'Command: `make bench ARGS="--repeat 3"`' <<<"$out"
check "cross-boot note for the overhead part" grep -q "compares two boots" <<<"$out"
check "lock base row" grep -qE '\| ext off +\| ops/s ↑ +\| 100 +\| 100–100 +\| 100–100 +\| base +\| +\| 1/2 ' <<<"$out"
check "median, IQR, spread, ratio and rank test of ext on" \
	grep -qE '\| ext on, 5 µs +\| ops/s ↑ +\| 200 +\| 150–250 +\| 100–300 +\| ×2\.00 +\| – +\| 3/3 ' <<<"$out"
check "grants shown where nonzero" grep -qE '\| +\| grants +\| 6 +\| [^|]+\| 5–7 ' <<<"$out"
check "a null metric is left out" test -z "$(row 'ext on, 5' 'wait p99')"
check "skipped row says why" grep -qE '\| ext on, 50 µs +\| skipped: no knob' <<<"$out"
check "rows in the documented order" \
	test "$(grep -nF 'ext on, 5 µs ' <<<"$out" | cut -d: -f1 | head -n 1)" -lt \
	"$(grep -nF 'ext on, 50 µs' <<<"$out" | cut -d: -f1 | head -n 1)"
check "ext_available=false warned" grep -q "ext_available=false in 1 run" <<<"$out"
check "failed run warned" grep -q "ext off: 1 run(s) failed" <<<"$out"
check "overhead ratio vs stock" \
	grep -qE '\| patched, module not loaded \[release\] +\| hackbench s ↓ +\| 6 +\| [^|]+\| [^|]+\| ×2\.00 ' <<<"$out"

check "fork rate beside the unloaded module" \
	grep -qE '\| module loaded, burst on \[release\] +\| forks/s, deep chain ↑ +\| 450 +\| [^|]+\| [^|]+\| ×0\.90 ' <<<"$out"
check "two tools in one repeat are one run" \
	grep -qE '\| patched, module not loaded \[release\] +\| hackbench s ↓ .*\| 1/1 +\|$' <<<"$out"
check "the overhead part names the fork loop's depth" \
	grep -qF -- "fork_loop --depth 1000" <<<"$out"
check "pinned wakeup of the idle module against unloaded" \
	grep -qE '\| module loaded, idle \[release\] +\| pinned wakeup p50 µs ↓ +\| 5\.50 +\| [^|]+\| [^|]+\| ×1\.10 ' <<<"$out"
check "the overhead part quotes the pinned wakeup its boot ran" \
	grep -qF -- "; taskset -c 0 wakeup_lat --workers 1, nothing else" <<<"$out"

sed 's/,"pinned_wakeup":"[^"]*"//' "$f" > "$f.2"
out=$("$py" "$top/scripts/bench-report.py" "$f.2" 2>&1)
check "results from before the boot line quoted it: no command made up" \
	grep -qF -- "; wakeup_lat pinned to one CPU, nothing else" <<<"$out"

grep -v '"stock' "$f" > "$f.2"
out=$("$py" "$top/scripts/bench-report.py" "$f.2" 2>&1)
check "without stock: base is the unloaded module" \
	grep -qE '\| patched, module not loaded \[release\] +\| hackbench s ↓ +\| 6 +\| [^|]+\| [^|]+\| base ' <<<"$out"

: > "$f.2"
check_fails "no results: exit status" "$py" "$top/scripts/bench-report.py" "$f.2"

# make bench's options: bad ones fail before anything is installed or built.
for bad in "--bogus" "--repeat x" "--duration 1.5" "--kernel stock"; do
	# shellcheck disable=SC2086
	err=$("$top/scripts/bench.sh" $bad 2>&1 >/dev/null)
	check_eq "bench.sh $bad: exit status 2" 2 "$?"
	check "bench.sh $bad: says why" grep -q "^bench.sh: " <<<"$err"
done
for bad in "--parts lock,bogus" "--repeat 0" "--out" "--parts bore"; do
	# shellcheck disable=SC2086
	err=$("$top/scripts/bench.sh" $bad 2>&1 >/dev/null)
	check_eq "bench.sh $bad: exit status 2" 2 "$?"
	check "bench.sh $bad: says why" grep -q "^bench.sh: " <<<"$err"
done
# The probe's options (the old scripts/burst-probe.sh's): bad ones fail
# before anything is installed or built, and say why.
for bad in "--pin x" "--cpus" "--cpus 0" "--cpus two" "--pin 2" \
	"--cpus 4 --pin 4" "--places bogus" "--configs ''" "--order" \
	"--order random" "--configs ndz" "--configs on+hrtick" \
	"--configs on,on" "--configs on+burst/x=1+burst/x=2" "--wakes" \
	"--wakes bad" "--wakes futex,Pipe" "--wakes ''" "--wakes pipe,pipe"; do
	err=$(eval "\"\$top/scripts/bench.sh\" $bad" 2>&1 >/dev/null)
	check_eq "bench.sh $bad: exit status 2" 2 "$?"
	check "bench.sh $bad: says why" grep -q "^bench.sh: " <<<"$err"
done
check "bench.sh --configs: a bad configuration is named" \
	grep -q "'ndz': starts with 'ndz', not off or on" \
	<<<"$("$top/scripts/bench.sh" --configs off,ndz 2>&1 >/dev/null)"
check_eq "bench.sh --wakes: a bad wake is named, with those there are" \
	"bench.sh: --configs, --places or --wakes: unknown wake 'bad' (futex, pipe)" \
	"$("$top/scripts/bench.sh" --wakes futex,bad 2>&1 >/dev/null)"
check "bench.sh --help lists every option" bash -c \
	'h=$("$1" --help); for o in --quick --icount --repeat --duration --parts --json --out --kernel --bin \
		--configs --places --wakes --pin --order --cpus --results-md probe on+burst/penalty_scale=40 \
		futex pipe same:on:pipe; do
		grep -q -- "$o" <<<"$h" || exit 1; done' _ "$top/scripts/bench.sh"
check "the burst probe is make bench's, not a script of its own" \
	test ! -e "$top/scripts/burst-probe.sh" -a ! -e "$top/scripts/burst-probe-guest.sh"

# The points file: seven fields, unique ids and labels per part, bases and
# kernels and placements that exist, configurations that parse.
check "scripts/bench-points is consistent" "$py" - "$top/scripts/bench-points" <<'PY'
import sys
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
import benchlib
parts = {}
for n, line in enumerate(open(sys.argv[1]), 1):
    if not line.strip() or line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    assert len(f) == 7, "line %d: %d fields" % (n, len(f))
    part, pid, kernel, base, place, config, label = f
    assert kernel in ("sliceext", "mainline", "stock", "bore"), "line %d" % n
    assert place in ("same", "autogroup", "cgroup", "-"), "line %d" % n
    benchlib.parse_config(config)
    parts.setdefault(part, []).append(f)
for part, rows in parts.items():
    ids = [r[1] for r in rows]
    labels = [r[6] for r in rows]
    assert len(set(ids)) == len(ids), "%s: duplicate id" % part
    assert len(set(labels)) == len(labels), "%s: duplicate label" % part
    for r in rows:
        for b in r[3].split("|"):
            assert b == "-" or b in ids, "%s/%s: no base %s" % (part, r[1], b)
PY

# Several boots and modes, each row against its own base, the histogram
# of both kernels, and a picture per part.
cat > "$t/r.jsonl" <<'EOF'
{"meta":"host","command":"make bench","date":"d","cpu":"c","host_nproc":2,"qemu":"q"}
{"meta":"boot","kernel":"release","mode":"tcg","uname":"6.12.0-sliceext","nproc":2,"repeat":2,"duration":5,"parts":"lock,latency","lock_clients":6,"lock_hogs":8,"lock_cs_us":2,"lock_outside_us":2,"load_hogs":4,"load_forkers":2}
{"part":"lock","point":"ext off","point_id":"ext_off","kernel":"release","repeat":1,"ops_per_s":100,"wait_cdf_us":[[0,1.0],[50,2.0],[99,30.0],[100,40.0]]}
{"part":"lock","point":"ext off","point_id":"ext_off","kernel":"release","repeat":2,"ops_per_s":100,"wait_cdf_us":[[0,1.0],[50,4.0],[99,50.0],[100,60.0]]}
{"part":"lock","point":"ext on, 5 µs","point_id":"ext_on_5","kernel":"release","repeat":1,"ops_per_s":150,"wait_cdf_us":[[0,1.0],[50,2.0],[99,9.0],[100,10.0]]}
{"part":"latency","point":"burst off, load in another cpu cgroup","point_id":"cg_off","kernel":"release","repeat":1,"lat_p50_us":400}
{"part":"latency","point":"burst on, load in another cpu cgroup","point_id":"cg_on","kernel":"release","repeat":1,"lat_p50_us":100}
{"part":"latency","point":"burst off","point_id":"off","kernel":"release","repeat":1,"lat_p50_us":1000}
{"part":"hist","point":"6.12 + sliceext, 5 µs","point_id":"ext_on_5","kernel":"release","repeat":1,"hist":[[1024,2047,3],[2048,4095,1]],"ends":4,"expired":0,"revoked":1}
{"meta":"boot","kernel":"mainline","mode":"icount","uname":"7.3.4-mainline","nproc":2,"repeat":2,"duration":5,"parts":"lock","lock_clients":6,"lock_hogs":8,"lock_cs_us":2,"lock_outside_us":2,"load_hogs":4,"load_forkers":2}
{"part":"lock","point":"mainline 7.3, ext off","point_id":"ml_off","kernel":"mainline","repeat":1,"ops_per_s":80}
{"part":"lock","point":"mainline 7.3, ext on, 5 µs","point_id":"ml_on_5","kernel":"mainline","repeat":1,"ops_per_s":120}
{"part":"hist","point":"mainline 7.3, 5 µs","point_id":"ml_on_5","kernel":"mainline","repeat":1,"hist":[[2048,4095,2]],"ends":2,"expired":1,"unended":3}
EOF
out=$("$py" "$top/scripts/bench-report.py" --svg "$t/svg" "$t/r.jsonl" 2>&1)
echo "$out" | sed 's/^/# /'
check "icount boots explained" grep -q "icount boots: .*instructions executed" <<<"$out"
check "each part says its modes" \
	grep -qF '**a) lock table** (multi-threaded TCG, icount)' <<<"$out"
check "mainline rows against mainline's own ext off" \
	grep -qE '\| mainline 7\.3, ext on, 5 µs +\| ops/s ↑ +\| 120 +\| [^|]+\| [^|]+\| ×1\.50 ' <<<"$out"
check "sliceext rows against sliceext's ext off" \
	grep -qE '\| ext on, 5 µs +\| ops/s ↑ +\| 150 +\| [^|]+\| [^|]+\| ×1\.50 ' <<<"$out"
check "a placement row against its placement's base" \
	grep -qE '\| burst on, load in another cpu cgroup +\| latency p50 µs ↓ +\| 100 +\| [^|]+\| [^|]+\| ×0\.25 ' <<<"$out"
check "the notes name every base" \
	grep -qF '"burst off, load in another cpu cgroup" for "burst on, load in another cpu cgroup"' <<<"$out"
check "histogram: a column per kernel and length" \
	grep -qE '\| used \(µs\) +\| 6\.12 \+ sliceext, 5 µs +\| mainline 7\.3, 5 µs +\|' <<<"$out"
check "histogram: shares and counts" \
	grep -qE '\| 1\.02–2\.05 +\| 75\.0% \(3\) +\| – +\|' <<<"$out"
check "histogram: revoked or unended" \
	grep -qE '\| revoked \(sliceext\) / no end seen \(mainline\) +\| 1 +\| 3 +\|' <<<"$out"
if "$py" -c 'import matplotlib' 2>/dev/null; then
	for p in lock latency hist; do
		check "picture bench-$p.svg" grep -q "<svg" "$t/svg/bench-$p.svg"
	done
	check "the lock picture has the wait distributions" \
		grep -q "lock wait" "$t/svg/bench-lock.svg"
	check "every picture says its mode and command" \
		grep -q "make bench" "$t/svg/bench-latency.svg"
else
	skip "pictures" "no python3-matplotlib (scripts/deps.sh installs it)"
fi

# Two boots' results pooled: every run counts, each kind of boot is named once.
sed -n '/"meta":"boot","kernel":"release"/,/"part":"hist"/p' "$t/r.jsonl" > "$t/boot2.jsonl"
out=$("$py" "$top/scripts/bench-report.py" "$t/r.jsonl" "$t/boot2.jsonl" 2>&1)
check "pooled boots: runs of both counted" \
	grep -qE '\| ext off +\| ops/s ↑ +\| 100 +\| 100–100 +\| 100–100 +\| base +\| +\| 4/4 ' <<<"$out"
check "pooled boots: one line for two alike" \
	grep -qF -- '- 2 boots: kernel `6.12.0-sliceext` (release, multi-threaded TCG)' <<<"$out"
check "pooled boots: a single one says Boot" \
	grep -qF -- '- Boot: kernel `7.3.4-mainline`' <<<"$out"

# bench-hist.py: ext/hist and ext/stats deltas, and mainline's hrtimer events.
printf '0 1 3\n1024 2047 5\n' > "$t/h0"
printf '0 1 3\n1024 2047 9\n4096 8191 1\n' > "$t/h1"
printf 'granted 1\nexpired 0\nrevoked 2\n' > "$t/s0"
printf 'granted 6\nexpired 1\nrevoked 2\n' > "$t/s1"
check_eq "bench-hist.py sliceext: the change over the run" \
	'{"hist": [[1024, 2047, 4], [4096, 8191, 1]], "ends": 5, "expired": 1, "revoked": 0, "granted": 5}' \
	"$("$py" "$top/scripts/bench-hist.py" sliceext "$t/h0" "$t/h1" "$t/s0" "$t/s1")"
cat > "$t/report" <<'EOF'
cpus=2
  lock_table-1 [001] 10.000001000: hrtimer_start: hrtimer=0xa function=rseq_slice_expired expires=1 softexpires=1 mode=ABS|PINNED|HARD was_armed=0
  lock_table-1 [001] 10.000003500: hrtimer_cancel: hrtimer=0xa
  lock_table-2 [000] 10.000010000: hrtimer_start: hrtimer=0xb function=rseq_slice_expired expires=1 softexpires=1 mode=ABS|PINNED|HARD was_armed=0
  lock_table-2 [000] 10.000011000: hrtimer_start: hrtimer=0xc function=tick_nohz_handler expires=1 softexpires=1 mode=ABS|PINNED|HARD was_armed=0
  lock_table-2 [000] 10.000011000: hrtimer_cancel: hrtimer=0xc
        <idle>-0 [000] 10.000015001: hrtimer_expire_entry: hrtimer=0xb function=rseq_slice_expired now=1
  lock_table-2 [000] 10.000020000: hrtimer_start: hrtimer=0xb function=rseq_slice_expired expires=1 softexpires=1 mode=ABS|PINNED|HARD was_armed=0
  lock_table-2 [000] 10.000030000: hrtimer_start: hrtimer=0xb function=rseq_slice_expired expires=1 softexpires=1 mode=ABS|PINNED|HARD was_armed=1
EOF
check_eq "bench-hist.py trace: cancels and expiries, re-armed ones unended" \
	'{"hist": [[2048, 4095, 1], [4096, 8191, 1]], "ends": 2, "expired": 1, "unended": 2}' \
	"$("$py" "$top/scripts/bench-hist.py" trace "$t/report")"
check_fails "bench-hist.py without arguments fails" "$py" "$top/scripts/bench-hist.py"
"$py" "$top/scripts/bench-hist.py" bogus >/dev/null 2>&1
check_eq "bench-hist.py bad usage: exit status 2" 2 "$?"

# The unit tests, a TAP line each.
for u in "$top"/tests/host/bench*_test.py; do
	"$py" "$u" || tap_failed=$((tap_failed + 1))
done
tap_done
