#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rt_guard: a waking SCHED_FIFO, SCHED_DEADLINE or stop-class task is
# never delayed by a grant; with the guard off, FIFO wakeups are granted
# and the delay stays bounded. rt_guard.c asserts it all.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

check "modprobe sliceext" modprobe sliceext
run_bin rt_guard
check_eq "rt_guard back on" 1 "$(cat /sys/kernel/debug/sliceext/ext/rt_guard)"
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
