#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Repeated load/unload leaves no debugfs entries, trace events or module
# references behind (the runner also fails the run on any kernel splat).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

rounds=20
bad=0
for i in $(seq $rounds); do
	modprobe sliceext || { bad=$i; break; }
	cat /sys/kernel/debug/sliceext/version >/dev/null || { bad=$i; break; }
	modprobe -r sliceext || { bad=$i; break; }
done
check_eq "$rounds load/unload rounds" 0 "$bad"
check_fails "no debugfs tree left" test -e /sys/kernel/debug/sliceext
check_fails "no trace system left" test -e /sys/kernel/tracing/events/sliceext
check_fails "module not loaded" grep -q '^sliceext ' /proc/modules
tap_done
