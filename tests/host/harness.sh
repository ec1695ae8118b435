#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness itself: the splat scanner catches what must fail a run and
# passes a clean boot log; the summary counts what it is given.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
scan=$top/scripts/splat-scan.sh
d=$SLICEEXT_WORK/harness
mkdir -p "$d"

cat > "$d/clean.log" <<'LOG'
[    0.000000] Linux version 6.12.117-sliceext
[    0.120000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar
[    0.130000] ... MAX_LOCKDEP_SUBCLASSES:  8
[    2.000000] sliceext: version 0.1.0 loaded, hook ABI 1
LOG
check "clean boot log passes" "$scan" "$d/clean.log"

splat() { # NAME LINE
	{ cat "$d/clean.log"; echo "[    3.000000] $2"; } > "$d/$1.log"
	check_fails "splat scan catches $1" "$scan" "$d/$1.log"
}
splat warn "WARNING: CPU: 1 PID: 42 at kernel/sched/core.c:100 foo+0x1/0x2"
splat lockdep "WARNING: possible circular locking dependency detected"
splat atomic "BUG: sleeping function called from invalid context at mm/slab.c:1"
splat rcu "WARNING: suspicious RCU usage"
splat oops "Oops: general protection fault, probably for non-canonical address"
splat stall "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
check "a missing log is not a splat" "$scan" "$d/missing.log"

sum=$top/tests/lib/summary.sh
check_eq "summary counts pass, fail, skip" "2 passed, 1 failed, 1 skipped" \
	"$(printf 'ok 1 a\nok - b\nnot ok - c\nok - d # SKIP why\n' | "$sum" | tail -n1)"
check_fails "summary fails when a test failed" \
	sh -c "printf 'ok - a\nnot ok - b\n' | '$sum'"
check_fails "summary fails when nothing ran" sh -c "printf '# nothing\n' | '$sum'"
check "summary passes when all passed" sh -c "printf 'ok - a\n' | '$sum'"
tap_done
