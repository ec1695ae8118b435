#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sliceext trace system: every event is listed by trace-cmd, can be
# enabled and recorded, and disappears with the module.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

events="sliceext_grant sliceext_deny sliceext_expire sliceext_yield
	sliceext_abort sliceext_revoke sliceext_burst_score sliceext_reweight"
t=/sys/kernel/tracing

check "modprobe sliceext" modprobe sliceext
listed=$(trace-cmd list -e sliceext 2>&1)
for e in $events; do
	check "trace-cmd lists $e" grep -qx "sliceext:$e" <<<"$listed"
done
check_eq "no other sliceext events" "$(echo $events | wc -w)" \
	"$(grep -c '^sliceext:' <<<"$listed")"

dat=/tmp/sliceext-trace.dat
check "trace-cmd record -e sliceext" \
	trace-cmd record -q -e sliceext -o $dat sleep 1
# The recording carries the format of each event it enabled.
formats=$(trace-cmd dump --events -i $dat 2>&1)
for e in $events; do
	check "recording has the $e format" grep -q "name: $e\$" <<<"$formats"
done
check_eq "events disabled again after recording" "0" \
	"$(cat $t/events/sliceext/enable)"

check "modprobe -r sliceext" modprobe -r sliceext
check_fails "trace system gone after unload" test -e $t/events/sliceext
tap_done
