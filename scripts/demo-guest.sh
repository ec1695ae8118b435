#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of "make demo": load the module, show "sliceext status",
# record a few seconds of its trace events, then two small side-by-side
# measurements, each run alternating between its rows:
#   lock table (2 us inside, 2 us outside the lock, 3 clients per CPU,
#     4 hogs per CPU): the slice extension off, on at 5 us, on at 50 us;
#   wakeup latency (wakeup_lat under 2 hogs and 1 forker per CPU): burst
#     off and on.
# Each run writes the tool's --json to OUT/PART-ROW-N.json, which
# scripts/demo-report.py reads on the host (OUT under /out, the share
# scripts/vm.sh gives back).
#
# Usage: scripts/demo-guest.sh KO BIN OUT [RUNS] [SECONDS]
#   BIN holds ext_grant, sliceext, lock_table, wakeup_lat and load.
set -euo pipefail

ko=$1 bin=$2 out=$3 runs=${4:-3} secs=${5:-3}
d=/sys/kernel/debug/sliceext
ncpu=$(nproc)
mkdir -p "$out"

echo "== $(uname -r): insmod sliceext.ko"
insmod "$ko"
dmesg | grep 'sliceext:' | tail -n 1

echo "== sliceext status"
"$bin/sliceext" status

echo "== trace-cmd record -e sliceext, 2 s of a thread asking for extensions"
trace-cmd record -q -e sliceext -o /tmp/demo.dat "$bin/ext_grant" yield 2 \
	> /dev/null
trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep 'sliceext_' > /tmp/demo.txt || :
sed -n 1,8p /tmp/demo.txt
echo "($(wc -l < /tmp/demo.txt) sliceext events in 2 s)"

knob() { echo "$2" > "$d/$1"; }

# The background load runs beside one measurement and is stopped with it.
load_pid=
start_load() {
	"$bin/load" "$@" --duration $((secs + 60)) > /dev/null &
	load_pid=$!
	sleep 1
}
stop_load() {
	kill -TERM "$load_pid" 2>/dev/null || :
	wait "$load_pid" 2>/dev/null || :
}

lock_row() {	# ROW RUN [--ext]
	start_load --hogs $((4 * ncpu))
	GLIBC_TUNABLES=glibc.pthread.rseq=0 "$bin/lock_table" --json \
		--clients $((3 * ncpu)) --cs-us 2 --outside-us 2 \
		--duration "$secs" ${3:+"$3"} > "$out/lock-$1-$2.json"
	stop_load
}

latency_row() {	# ROW RUN
	start_load --hogs $((2 * ncpu)) --forkers "$ncpu"
	"$bin/wakeup_lat" --json --message-threads 2 --workers 4 \
		--work-us 300 --interval-us 2000 --duration "$secs" \
		> "$out/latency-$1-$2.json"
	stop_load
}

echo "== lock table, $runs runs of $secs s per row"
knob burst/enabled 0
knob ext/enabled 1
for r in $(seq "$runs"); do
	lock_row off "$r"
	knob ext/slice_ext_nsec 5000
	lock_row on_5us "$r" --ext
	knob ext/slice_ext_nsec 50000
	lock_row on_50us "$r" --ext
	knob ext/slice_ext_nsec 5000
done

echo "== wakeup latency, $runs runs of $secs s per row"
for r in $(seq "$runs"); do
	knob burst/enabled 0
	latency_row burst_off "$r"
	knob burst/enabled 1
	latency_row burst_on "$r"
done
knob burst/enabled 1

rmmod sliceext
echo "== rmmod sliceext: $d $([ -e $d ] && echo "still there" || echo gone)"
