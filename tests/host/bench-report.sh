#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-report.py on made-up results: medians, spreads and ratios
# against the right base row, skipped and failed rows, the stock kernel's
# overhead row as base (and the fallback without it), and the notes every
# table must carry. The benchmark scripts themselves parse (bash -n).
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

for s in bench.sh bench-guest.sh demo.sh demo-guest.sh kernel.sh; do
	check "bash -n scripts/$s" bash -n "$top/scripts/$s"
done

f=$(mktemp)
# shellcheck disable=SC2064
trap "rm -f '$f' '$f.2'" EXIT
cat > "$f" <<'EOF'
{"meta":"host","command":"make bench ARGS=\"--repeat 3\"","date":"d","cpu":"c","host_nproc":2,"qemu":"q"}
{"meta":"boot","kernel":"stock","uname":"6.12.0-stock","nproc":2,"repeat":3,"duration":5,"parts":"overhead","lock_clients":12,"lock_hogs":16,"load_hogs":4,"load_forkers":2}
{"part":"overhead","point":"stock 6.12 (unpatched)","kernel":"stock","repeat":1,"tool":"hackbench","hackbench_s":2.0}
{"part":"overhead","point":"stock 6.12 (unpatched)","kernel":"stock","repeat":2,"tool":"hackbench","hackbench_s":4.0}
{"meta":"boot","kernel":"release","uname":"6.12.0-sliceext","nproc":2,"repeat":3,"duration":5,"parts":"lock,overhead","lock_clients":12,"lock_hogs":16,"load_hogs":4,"load_forkers":2}
{"part":"overhead","point":"patched, module not loaded","kernel":"release","repeat":1,"tool":"hackbench","hackbench_s":6.0}
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
check "lock base row" grep -qE '\| ext off +\| ops/s ↑ +\| 100 +\| 100–100 +\| base +\| 1/2 ' <<<"$out"
check "median, spread and ratio of ext on" \
	grep -qE '\| ext on, 5 µs +\| ops/s ↑ +\| 200 +\| 100–300 +\| ×2\.00 +\| 3/3 ' <<<"$out"
check "grants shown where nonzero" grep -qE '\| +\| grants +\| 6 +\| 5–7 ' <<<"$out"
check "a null metric is left out" test -z "$(row 'ext on, 5' 'wait p99')"
check "skipped row says why" grep -qE '\| ext on, 50 µs +\| skipped: no knob' <<<"$out"
check "rows in the documented order" \
	test "$(grep -nF 'ext on, 5 µs ' <<<"$out" | cut -d: -f1 | head -n 1)" -lt \
	"$(grep -nF 'ext on, 50 µs' <<<"$out" | cut -d: -f1 | head -n 1)"
check "ext_available=false warned" grep -q "ext_available=false in 1 run" <<<"$out"
check "failed run warned" grep -q "ext off: 1 run(s) failed" <<<"$out"
check "overhead ratio vs stock" \
	grep -qE '\| patched, module not loaded \[release\] +\| hackbench s ↓ +\| 6 +\| [^|]+\| ×2\.00 ' <<<"$out"

grep -v '"stock' "$f" > "$f.2"
out=$("$py" "$top/scripts/bench-report.py" "$f.2" 2>&1)
check "without stock: base is the unloaded module" \
	grep -qE '\| patched, module not loaded \[release\] +\| hackbench s ↓ +\| 6 +\| [^|]+\| base ' <<<"$out"

: > "$f.2"
check_fails "no results: exit status" "$py" "$top/scripts/bench-report.py" "$f.2"

# make bench's options: bad ones fail before anything is installed or built.
for bad in "--bogus" "--repeat x" "--duration 1.5" "--kernel stock"; do
	# shellcheck disable=SC2086
	err=$("$top/scripts/bench.sh" $bad 2>&1 >/dev/null)
	check_eq "bench.sh $bad: exit status 2" 2 "$?"
	check "bench.sh $bad: says why" grep -q "^bench.sh: " <<<"$err"
done
check "bench.sh --help lists every option" bash -c \
	'h=$("$1" --help); for o in --quick --repeat --duration --parts --json --kernel --bin; do
		grep -q -- "$o" <<<"$h" || exit 1; done' _ "$top/scripts/bench.sh"
tap_done
