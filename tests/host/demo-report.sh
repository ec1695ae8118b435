#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/demo-report.py on made-up results: medians, spreads and ratios
# to the first row of each part, a row without results, a file that is
# not JSON, the SVG it draws, and its refusals (no directory, no results).
# The demo scripts parse (bash -n).
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
report=$top/scripts/demo-report.py

for s in demo.sh demo-guest.sh; do
	check "bash -n scripts/$s" bash -n "$top/scripts/$s"
done

t=$(mktemp -d)
# shellcheck disable=SC2064
trap "rm -rf '$t'" EXIT
mkdir "$t/r"
for r in 1 2 3; do
	echo "{\"ops_per_s\": $((1000000 + r * 100000))}" > "$t/r/lock-off-$r.json"
	echo "{\"ops_per_s\": $((2000000 + r * 100000))}" > "$t/r/lock-on_50us-$r.json"
	echo "{\"lat_p99_us\": $((1000 * r))}" > "$t/r/latency-burst_off-$r.json"
	echo "{\"lat_p99_us\": $((100 * r))}" > "$t/r/latency-burst_on-$r.json"
done
echo "not json" > "$t/r/lock-on_5us-1.json"

out=$(python3 "$report" --kernel "K1" --svg "$t/d.svg" "$t/r" 2>"$t/err")
check_eq "exit status with results" 0 $?
check "heading names the kernel" grep -q "^sliceext demo on K1$" <<<"$out"
check "lock off: median 1200 k/s, 1100-1300" \
	grep -q "extension off .* 1200 k/s (1100-1300)$" <<<"$out"
check "lock on at 50 us: ×1.83 of off (2200/1200)" \
	grep -q "on, 50 µs .* 2200 k/s (2100-2300)  ×1.83$" <<<"$out"
check "a row whose only file is not JSON has no result" \
	grep -q "on, 5 µs .*no result" <<<"$out"
check "and the bad file is named on stderr" grep -q "lock-on_5us-1.json" "$t/err"
check "burst on: median 200 us, ×0.10 of burst off" \
	grep -q "burst on .* 200 µs (100-300)  ×0.10$" <<<"$out"
check "the SVG is well-formed XML" python3 -c \
	"import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$t/d.svg"
check_eq "the SVG has a bar per row with results" 4 \
	"$(grep -c '<rect' "$t/d.svg")"
check_fails "no such directory: refused" python3 "$report" "$t/none"
mkdir "$t/empty"
check_fails "no results at all: refused" python3 "$report" "$t/empty"
tap_done
