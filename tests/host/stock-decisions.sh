#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# With no module registered, the patched kernel makes stock 6.12's
# decisions where the core series' call sites are: a reweight of a
# running task, a fork with NEXT_BUDDY, and the throttling of a cpu
# cgroup that holds a task with a custom slice (tests/stock/). The
# release kernel and the stock kernel (the same source and configuration
# without the series) each play the scenarios under icount, where guest
# time counts instructions, so that both see the same timeline; their
# sched_switch sequences over the first 100 ms must be the same, switch
# for switch, but that one may end a switch or a few earlier
# (tests/stock/decisions.sh says why not longer). The stock boot plays
# them again with three EEVDF features off and a longer base slice, to
# show that the comparison sees a change of decisions.
#
# Needs both kernels built (make bench builds them, or scripts/kernel.sh
# release and stock); skipped otherwise, as building them would double
# make check's time.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

release=$("$top/scripts/kernel.sh" release --cached 2>/dev/null)
stock=$("$top/scripts/kernel.sh" stock --cached 2>/dev/null)
if [ -z "$release" ] || [ -z "$stock" ]; then
	skip "patched kernel decides as stock 6.12" \
		"release and stock kernels not built (scripts/kernel.sh release, stock)"
	tap_done
	exit
fi

work=$SLICEEXT_WORK/stock-decisions
mkdir -p "$work"
check "build sched_scenario" gcc -O2 -Wall -static \
	-o "$work/sched_scenario" "$top/tests/stock/sched_scenario.c"

play() {	# KERNEL_DIR OUT [--perturb]
	"$top/scripts/vm.sh" --icount --cpus 2 --timeout 900 "$1" -- \
		"$top/tests/stock/decisions.sh" "$work/sched_scenario" ${3:+"$3"} \
		> "$2" 2> "$2.err"
}

# section FILE NAME: the switches printed under "== NAME".
section() {
	awk -v want="== $2" '/^== / { on = ($0 == want); next } on' "$1"
}

# prefix_diff A B: the first lines where A and B differ, nothing if one
# is a prefix of the other (a kernel a few instructions slower may fit
# a switch fewer into the window; the decisions it made are the same).
prefix_diff() {
	local a b
	a=$(wc -l < "$1")
	b=$(wc -l < "$2")
	[ "$b" -lt "$a" ] && a=$b
	diff <(head -n "$a" "$1") <(head -n "$a" "$2") | head -n 20
}

check "play the scenarios on the patched kernel, no module loaded" \
	play "$release" "$work/patched"
check "play the scenarios on stock 6.12" play "$stock" "$work/stock" --perturb

for s in reweight fork throttle; do
	section "$work/stock" "$s" > "$work/$s.stock"
	section "$work/patched" "$s" > "$work/$s.patched"
	section "$work/stock" "$s perturbed" > "$work/$s.perturbed"
	n=$(grep -c . "$work/$s.stock")
	if [ "$n" -lt 10 ]; then
		not_ok "$s: the scenario's tasks switch" "$n switches traced on stock"
		continue
	fi
	check_eq "$s: the patched kernel's switches are stock's ($n)" "" \
		"$(prefix_diff "$work/$s.stock" "$work/$s.patched")"
	if [ -z "$(prefix_diff "$work/$s.stock" "$work/$s.perturbed")" ]; then
		not_ok "$s: on stock with other settings, the decisions differ" \
			"the same switches: this scenario cannot tell decisions apart"
	else
		ok "$s: on stock with other settings, the decisions differ"
	fi
done
tap_done
