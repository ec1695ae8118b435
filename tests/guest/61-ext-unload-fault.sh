#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unloading does not wait for a user page fault, and an rseq area that
# cannot be faulted in fails prctl(SET) with EFAULT. A thread whose rseq
# area is registered with a userfaultfd that never serves it is inside
# prctl(PR_RSEQ_SLICE_EXTENSION, SET), whose hook writes the area. The
# hooks take no fault; the core faults the area in outside the SRCU read
# side that unloading waits for (unload_fault.c).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

out=/tmp/unload-fault.out
check "modprobe sliceext" modprobe sliceext

# An area that cannot be faulted in: prctl(SET) fails with EFAULT. rseq's
# own update on the way back to user space, after a context switch, would
# kill the program first with SIGSEGV: try again then.
for try in 1 2 3; do
	res=$(GLIBC_TUNABLES=glibc.pthread.rseq=0 "$SLICEEXT_BIN/unload_fault" readonly 2>&1)
	grep -q '^prctl' <<<"$res" && break
	echo "# try $try: ${res:-killed}"
done
check_eq "prctl SET on a read-only area: EFAULT" "prctl -1 14" "$res"

# A context switch between the drop and prctl lets rseq's own update
# on the way back to user space take the fault first: try again then.
for try in 1 2 3; do
	GLIBC_TUNABLES=glibc.pthread.rseq=0 "$SLICEEXT_BIN/unload_fault" > $out 2>&1 &
	prog=$!
	wait_until 10 grep -q '^faulting' $out
	grep -q '^faulting prctl' $out && break
	echo "# try $try: $(head -n 1 $out)"
	kill -USR1 $prog
	wait $prog
done
check "the thread waits for the userfaultfd inside prctl" grep -q '^faulting prctl' $out

# Not in the foreground: without the fix delete_module() waits for ever,
# and only serving the fault ends it.
start=$(date +%s%N)
modprobe -r sliceext &
rm_pid=$!
wait_until 20 sh -c "! kill -0 $rm_pid 2>/dev/null"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
unloaded=yes
kill -0 $rm_pid 2>/dev/null && unloaded=no
kill -USR1 $prog
wait $rm_pid
rm_rc=$?
wait $prog
check_eq "modprobe -r returns while the fault waits (${ms} ms)" "yes 0" "$unloaded $rm_rc"
check "the module is gone" test ! -d /sys/module/sliceext
# Served after the unload, the fault ends and prctl finds no module.
check_eq "prctl, its fault served after the unload: ENOTSUPP" \
	"prctl -1 524" "$(grep '^prctl' $out)"
tap_done
