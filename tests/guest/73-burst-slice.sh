#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# burst/scored_slice_ns (patch 0011's slice_request hook), read from
# se.slice in /proc/PID/sched: off by default; set, a hog with a score
# gets it as its request while a task that sleeps keeps the base slice; a
# value below the base slice changes nothing; a custom slice set with
# sched_setattr() wins; burst scheduling off, the knob back at 0 or the
# module unloaded give the hog the base slice again.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
base=$(cat /sys/kernel/debug/sched/base_slice_ns)

# slice_of PID: se.slice of PID in ns.
slice_of() {
	awk '$1 == "se.slice" { print $3 }' "/proc/$1/sched" 2>/dev/null
}

# slice_is PID NS: whether PID's request is NS now.
slice_is() { [ "$(slice_of "$1")" = "$2" ]; }

# set_custom_slice PID NS: sched_setattr() with sched_runtime NS, the
# request a SCHED_NORMAL task may set for itself since 6.12.
set_custom_slice() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import ctypes, os, struct, sys
# struct sched_attr, SCHED_ATTR_SIZE_VER0: size, policy, flags, nice,
# priority, runtime, deadline, period.
attr = struct.pack("IIQiIQQQ", 48, 0, 0, 0, 0, int(sys.argv[2]), 0, 0)
buf = ctypes.create_string_buffer(attr, len(attr))
libc = ctypes.CDLL(None, use_errno=True)
SYS_sched_setattr = 314
if libc.syscall(SYS_sched_setattr, int(sys.argv[1]), buf, 0):
    sys.exit(os.strerror(ctypes.get_errno()))
PY
}

check "modprobe sliceext" modprobe sliceext
check "base slice known ($base ns)" test "$base" -gt 0

bash -c 'while :; do :; done' &
hog=$!
bash -c 'while :; do :; done' &
custom=$!
bash -c 'while :; do sleep 0.01; done' &
sleeper=$!

check "the hogs get a score" wait_until 10 eval "scored $hog && scored $custom"
check "the sleeper has none" unscored $sleeper
check "knob at 0 (default): the hog has the base slice" \
	wait_until 5 slice_is $hog "$base"

long=$((base * 3))
check "write $long" write_ok $d/scored_slice_ns $long
check "the hog's request becomes $long" wait_until 5 slice_is $hog $long
check "the sleeper keeps the base slice" wait_until 5 slice_is $sleeper "$base"
check_eq "the sleeper still has no score" 0 "$(burst_field $sleeper score)"

check "sched_setattr() gives the other hog a custom slice of 2 ms" \
	set_custom_slice $custom 2000000
sleep 0.5
check_eq "the custom slice wins over the knob" 2000000 "$(slice_of $custom)"

check "write $((base / 2)), below the base slice" \
	write_ok $d/scored_slice_ns $((base / 2))
check "the hog's request falls back to the base slice" \
	wait_until 5 slice_is $hog "$base"

write_ok $d/scored_slice_ns $long
check "the hog's request is $long again" wait_until 5 slice_is $hog $long
check "burst/enabled 0" write_ok $d/enabled 0
check "burst scheduling off: the hog has the base slice" \
	wait_until 5 slice_is $hog "$base"
check "burst/enabled 1" write_ok $d/enabled 1
check "burst scheduling back on: $long again" wait_until 10 slice_is $hog $long

check "write 0" write_ok $d/scored_slice_ns 0
check "knob at 0: the hog has the base slice" wait_until 5 slice_is $hog "$base"

write_ok $d/scored_slice_ns $long
check "the hog's request is $long before unloading" \
	wait_until 5 slice_is $hog $long
check "modprobe -r sliceext" modprobe -r sliceext
check "unloaded: the hog has the base slice" wait_until 5 slice_is $hog "$base"
check_eq "unloaded: the custom slice is kept" 2000000 "$(slice_of $custom)"

kill $hog $custom $sleeper
wait 2>/dev/null
tap_done
