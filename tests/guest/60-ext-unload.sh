#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What unloading leaves in the rseq areas of threads that opted in (the
# load/unload rounds under load are boot-unload-stress.sh's).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

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
GLIBC_TUNABLES=glibc.pthread.rseq=0 "$SLICEEXT_BIN/unload_probe" registered > /tmp/probe-registered.out 2>&1 &
pa=$!
wait_until 10 grep -q ready /tmp/probe-running.out /tmp/probe-blocked.out \
	/tmp/probe-registered.out
sleep 1
grants=$(ext_stat granted)
check "the running probe was being granted before the unload" test "$grants" -gt 0
dmesg -C
modprobe -r sliceext
sleep 0.5
kill -USR1 $pr $pb $pa
wait $pr $pb $pa
run=$(grep '^flags=' /tmp/probe-running.out)
blk=$(grep '^flags=' /tmp/probe-blocked.out)
reg=$(grep '^flags=' /tmp/probe-registered.out)
echo "# after unload: running: $run; blocked: $blk; registered: $reg"
check "running thread: no status bits left" grep -q '^flags=0 ' <<<"$run"
check_eq "running thread that never opted in: no AVAILABLE bit left" \
	"flags=0 slice_ctrl=0" "$reg"
check "running thread: no granted byte left" \
	test $(( $(sed 's/.*slice_ctrl=//' <<<"$run") & 0xff00 )) = 0
check_eq "blocked thread: its area untouched by the unload" \
	"flags=0x30 slice_ctrl=0" "$blk"
# Not only the blocked probe: every thread that registered rseq while
# the module was loaded (glibc registers one for each) has the AVAILABLE
# bit, and those of them blocked in the kernel keep it.
check "the unload says how many threads kept their status bits" \
	grep -qE "sliceext: [1-9][0-9]* threads blocked in the kernel keep the slice extension status bits" \
	<<<"$(dmesg)"
tap_done
