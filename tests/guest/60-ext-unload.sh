#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load and unload 50 times while threads keep requesting extensions (the
# runner fails the run on any kernel splat); the requesting programs must
# survive every unload without a signal, and no grant may stay visible.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

rounds=${SLICEEXT_UNLOAD_ROUNDS:-50}
modprobe sliceext
"$SLICEEXT_BIN/ext_grant" yield 3600 > /tmp/unload-yield.out 2>&1 &
p1=$!
"$SLICEEXT_BIN/ext_grant" expire 3600 > /tmp/unload-expire.out 2>&1 &
p2=$!
sleep 1

bad=0
for i in $(seq "$rounds"); do
	modprobe -r sliceext || { bad=$i; break; }
	modprobe sliceext || { bad=$i; break; }
	sleep 0.1
done
check_eq "$rounds unload/load rounds with requesters running" 0 "$bad"
check "requesters still alive" kill -0 $p1 $p2
kill $p1 $p2
wait $p1; rc1=$?
wait $p2; rc2=$?
# SIGTERM (143) is ours; SIGSEGV (139) would be the module's.
check_eq "yield requester ended by our SIGTERM only" 143 "$rc1"
check_eq "expire requester ended by our SIGTERM only" 143 "$rc2"
check "modprobe -r sliceext" modprobe -r sliceext
check_fails "no debugfs tree left" test -e /sys/kernel/debug/sliceext

# What threads find in their own rseq area after an unload. One that
# runs clears it itself on its way back to user space (no status bit, no
# granted byte); one blocked in the kernel is not waited for, and its
# memory is not written from outside: an execve() or an rseq
# unregistration could have handed that address to someone else.
modprobe sliceext
GLIBC_TUNABLES=glibc.pthread.rseq=0 "$SLICEEXT_BIN/unload_probe" running > /tmp/probe-running.out 2>&1 &
pr=$!
GLIBC_TUNABLES=glibc.pthread.rseq=0 "$SLICEEXT_BIN/unload_probe" blocked > /tmp/probe-blocked.out 2>&1 &
pb=$!
wait_until 10 grep -q ready /tmp/probe-running.out /tmp/probe-blocked.out
sleep 1
grants=$(ext_stat granted)
check "the running probe was being granted before the unload" test "$grants" -gt 0
dmesg -C
modprobe -r sliceext
sleep 0.5
kill -USR1 $pr $pb
wait $pr $pb
run=$(grep '^flags=' /tmp/probe-running.out)
blk=$(grep '^flags=' /tmp/probe-blocked.out)
echo "# after unload: running: $run; blocked: $blk"
check "running thread: no status bits left" grep -q '^flags=0 ' <<<"$run"
check "running thread: no granted byte left" \
	test $(( $(sed 's/.*slice_ctrl=//' <<<"$run") & 0xff00 )) = 0
check_eq "blocked thread: its area untouched by the unload" \
	"flags=0x30 slice_ctrl=0" "$blk"
check "the unload says how many threads kept their status bits" \
	dmesg_has "1 threads blocked in the kernel keep the slice extension status bits"
tap_done
