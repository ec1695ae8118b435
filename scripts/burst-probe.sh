#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Issue 13's wakeup probe (docs/design.md, "Alternatives rejected"): a
# task woken every millisecond for 200 us of work beside CPU hogs (two
# per vCPU: four on the default two), in the hogs' three placements, per
# scheduler configuration, on
# the release kernel under QEMU. Prints every run, then per point the
# runs, how many had p99 <= 40 us (the fast pattern, docs/development.md),
# the mean share of wakeups that waited more than 500 us, and in how many
# runs most wakeups crossed to another CPU than the waker's.
#
# Usage: scripts/burst-probe.sh [--icount] [--reps N] [--duration S]
#                               [--configs "off on ..."]
#                               [--places "same autogroup cgroup"]
#                               [--pin CPU] [--cpus N]
#                               [--order alternate|given]
#   configs: "+" lists of off, on, ndz, nrtp, hrtick, s4, KNOB=VALUE
#            (scripts/burst-probe-guest.sh says what each is)
#   order:   alternate (the default) runs the configurations in the order
#            given in odd rounds and reversed in even ones, so that each
#            runs first as often: a configuration's runs can depend on
#            the one before them (docs/design.md). given keeps the order.
#
# Environment: SLICEEXT_KDIR=DIR probes this kernel directory (laid out as
# scripts/kernel.sh's) instead of building the release kernel; a kernel
# with BORE's patch instead of sliceext's runs with "on" and "off" as its
# sched_bore sysctl, and one with neither (the stock kernel) with "off"
# alone.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"

usage() {
	echo "burst-probe.sh: $*" >&2
	sed -n '/^# Usage/,/^$/p' "$0" >&2
	exit 2
}
# need OPTION COUNT: the option has a value.
need() { [ "$2" -ge 2 ] || usage "$1 needs a value"; }
posint() { [[ $2 =~ ^[1-9][0-9]*$ ]] || usage "$1: '$2' is not a positive integer"; }

vmopt=() reps=5 dur=2 cfgs="off on" places="same autogroup cgroup" pin=''
cpus=2 order=alternate
while [ $# -gt 0 ]; do
	case $1 in
	--icount) vmopt+=(--icount); shift; continue ;;
	--reps|--duration|--configs|--places|--pin|--cpus|--order) need "$1" $# ;;
	*) usage "unknown option $1" ;;
	esac
	case $1 in
	--reps) posint "$1" "$2"; reps=$2 ;;
	--duration) posint "$1" "$2"; dur=$2 ;;
	--configs) cfgs=$2 ;;
	--places) places=$2 ;;
	--pin) [[ $2 =~ ^[0-9]+$ ]] || usage "--pin: '$2' is not a CPU number"
		pin=$2 ;;
	--cpus) posint "$1" "$2"; cpus=$2 ;;
	--order) [[ $2 =~ ^(alternate|given)$ ]] ||
			usage "--order: '$2' is not alternate or given"
		order=$2 ;;
	esac
	shift 2
done
[ -n "${cfgs// /}" ] || usage "--configs is empty"
[ -z "$pin" ] || [ "$pin" -lt "$cpus" ] || usage "--pin $pin: the guest has CPUs 0-$((cpus - 1))"
# Two hogs per CPU: the issue's load on each CPU, whatever their number.
hogs=$((2 * cpus))
[ -n "${places// /}" ] || usage "--places is empty"
for pl in $places; do
	case $pl in
	same|autogroup|cgroup) ;;
	*) usage "--places: unknown placement '$pl'" ;;
	esac
done

cache=$(sliceext_cache)
kdir=${SLICEEXT_KDIR:-$("$top/scripts/kernel.sh" release)}
. "$kdir/env"
mkdir -p "$cache/runs"
work=$(mktemp -d "$cache/runs/probe.XXXXXX")
# shellcheck disable=SC2064
trap "rm -rf '$work'" EXIT

# A kernel without the core patch (a BORE kernel built for comparison,
# the stock kernel) runs the probe without the module.
if grep -q '^CONFIG_SCHED_SLICEEXT=y' "$KBUILD/.config"; then
	stage_module "$top" "$work/mod"
	make -s -C "$KBUILD" M="$work/mod" modules >&2
fi
make -s -C "$top/tools/bench" O="$work/bin" >&2
# The guest reads its script as it runs: give it a copy that an edit of
# the checkout cannot change under it.
cp "$top/scripts/burst-probe-guest.sh" "$top/scripts/lib.sh" "$work/"

"$top/scripts/vm.sh" "${vmopt[@]}" --cpus "$cpus" --timeout 3600 --out "$work/out" "$kdir" -- \
	env KO="$work/mod/sliceext.ko" BIN="$work/bin" CFGS="$cfgs" \
	PLACES="$places" ORDER="$order" REPS="$reps" DUR="$dur" PIN="$pin" HOGS="$hogs" \
	"$work/burst-probe-guest.sh" | tee "$work/res"

echo
echo "mode: ${vmopt[*]:-multi-threaded TCG}, $cpus vCPUs, $hogs hogs; $reps runs of $dur s per point, configurations in $order order${pin:+; probe pinned to CPU $pin}"
awk '$1 == "RES" {
	k = $2 " " $3; split($7, p99, "="); split($9, ov, "=")
	split($10, ap, "=")
	runs[k] = runs[k] " " p99[2]; n[k]++; over[k] += ov[2]
	if (p99[2] <= 40) fast[k]++
	if (ap[2] > 50) apart[k]++
}
END {
	for (k in n)
		printf "%-28s p99 (us):%s  fast: %d of %d  over 500 us: %.2f%%  apart: %d\n",
		       k, runs[k], fast[k], n[k], over[k] / n[k], apart[k]
}' "$work/res" | sort
