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

# A thread that keeps a request up through the unload: afterwards it must
# see no grant and no status bits, and its request is its own business.
modprobe sliceext
"$SLICEEXT_BIN/ext_grant" expire 30 > /tmp/unload-state.out 2>&1 &
p=$!
sleep 2
grants=$(awk '$1 == "granted" { print $2 }' /sys/kernel/debug/sliceext/ext/stats)
check "the requester was being granted before the unload" test "$grants" -gt 0
modprobe -r sliceext
sleep 0.5
kill -USR1 $p
sleep 1
kill $p; wait $p
state=$(grep '^state' /tmp/unload-state.out | tail -n 1)
echo "# after unload: $state"
check "no granted byte left after unload" grep -q "granted=0 " <<<"$state"
check "no status bits left after unload" grep -q "status=0$" <<<"$state"
tap_done
