#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libsliceext-preload.so (docs/preload.md) on a kernel that serves the
# extension: what it does to each thread's rseq area (preload_locks'
# harness tests), which lock kinds SLICEEXT_PRELOAD_LOCKS selects, that
# its requests reach the kernel and get granted under contention with
# CPU hogs, and that with the feature off (ext/enabled 0, module
# unloaded) programs run under it as before, without a word on stderr.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/ext
lib=$SLICEEXT_BIN/libsliceext-preload.so
bin=$SLICEEXT_BIN/preload_locks

# kinds [ENV=VALUE...]: "mutex M spin S rwlock R cond C enabled E", from
# a run of preload_locks kinds under the library; stderr goes to $err.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
kinds() {
	env LD_PRELOAD="$lib" "$@" "$bin" kinds 2>"$err" | xargs
}

check "modprobe sliceext" modprobe sliceext

echo "# preload_locks under LD_PRELOAD:"
LD_PRELOAD=$lib "$bin" || tap_failed=$((tap_failed + 1))

all="mutex 1 spin 1 rwlock 1 cond 1 enabled 1"
check_eq "without the library: no requests, never enabled" \
	"mutex 0 spin 0 rwlock 0 cond 0 enabled 0" "$("$bin" kinds 2>&1 | xargs)"
check_eq "default: every kind" "$all" "$(kinds)"
check_eq "default: nothing on stderr" "" "$(cat "$err")"
while read -r v want; do
	check_eq "SLICEEXT_PRELOAD_LOCKS=\"$v\"" "$want" \
		"$(kinds SLICEEXT_PRELOAD_LOCKS="$v")"
	check_eq "SLICEEXT_PRELOAD_LOCKS=\"$v\": nothing on stderr" "" "$(cat "$err")"
done <<EOF
all	$all
none	mutex 0 spin 0 rwlock 0 cond 0 enabled 0
mutex	mutex 1 spin 0 rwlock 0 cond 0 enabled 1
spin	mutex 0 spin 1 rwlock 0 cond 0 enabled 1
rwlock	mutex 0 spin 0 rwlock 1 cond 0 enabled 1
cond	mutex 0 spin 0 rwlock 0 cond 0 enabled 0
mutex,cond	mutex 1 spin 0 rwlock 0 cond 1 enabled 1
spin,rwlock	mutex 0 spin 1 rwlock 1 cond 0 enabled 1
rwlock,all	$all
EOF
for v in mutexx "mutex,,spin" "none,spin" "Mutex"; do
	check_eq "SLICEEXT_PRELOAD_LOCKS=\"$v\": the default" "$all" \
		"$(kinds SLICEEXT_PRELOAD_LOCKS="$v")"
	check_eq "SLICEEXT_PRELOAD_LOCKS=\"$v\": one line on stderr" 1 \
		"$(grep -c "^libsliceext-preload: SLICEEXT_PRELOAD_LOCKS=\"$v\": .*using the default, all$" "$err")"
done

# Two threads sharing a mutex on CPU 0 with two CPU hogs: the holder is
# preempted inside its section, and with the library the kernel sees a
# request there. 50 us extensions, so that some sections end inside
# theirs and yield.
echo 50000 > $d/slice_ext_nsec
echo 0 > $d/stats
res=$(LD_PRELOAD=$lib "$bin" work 3 2 2)
check_eq "contended run under the library exits 0" 0 "$?"
echo "$res" | sed 's/^/# /'
sed 's/^/#   /' $d/stats
check "requested increases" test "$(ext_stat requested)" -gt 0
check "granted increases" test "$(ext_stat granted)" -gt 0
check "yielded increases: the library gives granted time back" \
	test "$(ext_stat yielded)" -gt 0
check_eq "requested = granted + denied" "$(ext_stat requested)" \
	"$(( $(ext_stat granted) + $(ext_stat denied) ))"

echo 0 > $d/stats
res=$("$bin" work 2 2 2)
check_eq "without the library: no request" 0 "$(ext_stat requested)"
echo 0 > $d/stats
res=$(LD_PRELOAD=$lib SLICEEXT_PRELOAD_LOCKS=spin "$bin" work 2 2 2)
check_eq "SLICEEXT_PRELOAD_LOCKS=spin, mutex workload: no request" 0 \
	"$(ext_stat requested)"
echo 5000 > $d/slice_ext_nsec

# The feature off: each thread's prctl() fails, and the library stays
# out of the way.
echo 0 > $d/enabled
echo 0 > $d/stats
check_eq "ext/enabled 0: no request, not enabled" \
	"mutex 0 spin 0 rwlock 0 cond 0 enabled 0" "$(kinds)"
check_eq "ext/enabled 0: nothing on stderr" "" "$(cat "$err")"
res=$(LD_PRELOAD=$lib "$bin" work 1 2 1 2>"$err")
check_eq "ext/enabled 0: contended run exits 0" 0 "$?"
check "ext/enabled 0: contended run made progress" \
	test "$(out sections)" -gt 0
check_eq "ext/enabled 0: nothing on stderr" "" "$(cat "$err")"
check_eq "ext/enabled 0: no request reached the kernel" 0 "$(ext_stat requested)"
echo 1 > $d/enabled

check "modprobe -r sliceext" modprobe -r sliceext
check_eq "module unloaded: no request, prctl fails with ENOTSUPP" \
	"mutex 0 spin 0 rwlock 0 cond 0 enabled -524" "$(kinds)"
check_eq "module unloaded: nothing on stderr" "" "$(cat "$err")"
res=$(LD_PRELOAD=$lib "$bin" work 1 2 1 2>"$err")
check_eq "module unloaded: contended run exits 0" 0 "$?"
check "module unloaded: contended run made progress" \
	test "$(out sections)" -gt 0
check_eq "module unloaded: nothing on stderr" "" "$(cat "$err")"
tap_done
