#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# burst/scored_slice_ns (patch 0011's slice_request hook): the request a
# task group's entity takes while every task queued in it has a score,
# read from se->slice in /sys/kernel/debug/sched/debug; the tasks keep
# their own requests (se.slice in /proc/PID/sched). Off by default; set,
# a hog's cpu cgroup, the cgroup above it and a hog's autogroup get it,
# a value below the base slice changes nothing, a task with a custom
# slice set with sched_setattr() caps its groups at that slice, and
# burst scheduling off, the knob back at 0 or the module unloaded give
# the groups the base slice again.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst
base=$(cat /sys/kernel/debug/sched/base_slice_ns)
cpu=1

# slice_of PID: se.slice of PID in ns.
slice_of() {
	awk '$1 == "se.slice" { print $3 }' "/proc/$1/sched" 2>/dev/null
}

# slice_is PID NS: whether PID's own request is NS now.
slice_is() { [ "$(slice_of "$1")" = "$2" ]; }

# group_slice PATH: the request (se->slice, ns) of task group PATH's
# entity on CPU $cpu, as the scheduler's debug file prints it (ms.ns).
group_slice() {
	awk -v want="cfs_rq[$cpu]:$1" '
		/^cfs_rq\[/ { hit = ($0 == want) }
		hit && $1 == ".se->slice" {
			split($3, t, "."); print t[1] * 1000000 + t[2]; exit
		}' /sys/kernel/debug/sched/debug
}

# group_is PATH NS: whether group PATH's entity on CPU $cpu asks for NS.
group_is() { [ "$(group_slice "$1")" = "$2" ]; }

# groups_are NS PATH...: whether every group PATH asks for NS.
groups_are() {
	local ns=$1 g
	shift
	for g; do group_is "$g" "$ns" || return 1; done
}

# set_custom_slice PID NS: sched_setattr() with sched_runtime NS, the
# request a SCHED_NORMAL task may set for itself since 6.12.
set_custom_slice() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import ctypes, os, struct, sys
# struct sched_attr, SCHED_ATTR_SIZE_VER0: size, policy, flags, nice,
# priority, runtime, deadline, period.
attr = struct.pack("IIQiIQQQ", 48, 0, 0, 0, 0, int(sys.argv[2]), 0, 0)
buf = ctypes.create_string_buffer(attr, len(attr))
libc = ctypes.CDLL(None, use_errno=True)
SYS_sched_setattr = 314
if libc.syscall(SYS_sched_setattr, int(sys.argv[1]), buf, 0):
    sys.exit(os.strerror(ctypes.get_errno()))
PY
}

check "modprobe sliceext" modprobe sliceext
check "base slice known ($base ns)" test "$base" -gt 0
echo 1 > /proc/sys/kernel/sched_autogroup_enabled

cg=$(load_cgroup sliceext-slice)
check "a cpu cgroup with a nested one" eval \
	'[ -n "$cg" ] && echo +cpu > "$cg/cgroup.subtree_control" &&
	 mkdir -p "$cg/inner"'
cgpath=/sliceext-slice inner=/sliceext-slice/inner

# Two hogs on CPU $cpu: one in the nested cgroup (so with two group
# entities above it), one in a session of its own.
(echo $BASHPID > "$cg/inner/cgroup.procs" && exec taskset -c $cpu \
	bash -c 'while :; do :; done') &
cghog=$!
setsid taskset -c $cpu bash -c 'while :; do :; done' &
aghog=$!
# A script's background job leads no process group, so setsid does not
# fork: $aghog is the hog.
sleep 0.2
ag=$(awk '{ print $1 }' "/proc/$aghog/autogroup" 2>/dev/null)
check "the setsid hog has an autogroup of its own ($ag)" own_autogroup $aghog
groups="$cgpath $inner $ag"

check "the hogs get a score" wait_until 10 eval \
	"scored $cghog && scored $aghog"
check "knob at 0 (default): every group asks for the base slice" \
	wait_until 5 groups_are "$base" $groups

long=$((base * 3))
check "write $long" write_ok $d/scored_slice_ns $long
check "the nested cgroup, the one above it and the autogroup ask for $long" \
	wait_until 5 groups_are $long $groups
for p in $cghog $aghog; do
	check "hog $p keeps the base slice as its own request" \
		slice_is $p "$base"
done

bash -c 'while :; do :; done' &
custom=$!
check "sched_setattr() gives another hog a custom slice of 2 ms" \
	set_custom_slice $custom 2000000
check "it joins the nested cgroup on CPU $cpu" eval \
	"taskset -pc $cpu $custom >/dev/null && echo $custom > $cg/inner/cgroup.procs"
check "a custom slice of 2 ms caps its cgroups' requests" \
	wait_until 5 groups_are 2000000 $inner $cgpath
check_eq "the custom slice is the task's own request" 2000000 \
	"$(slice_of $custom)"
kill $custom
check "it gone, they ask for $long again" \
	wait_until 5 groups_are $long $inner $cgpath

check "write $((base / 2)), below the base slice" \
	write_ok $d/scored_slice_ns $((base / 2))
check "the groups fall back to the base slice" \
	wait_until 5 groups_are "$base" $groups

write_ok $d/scored_slice_ns $long
check "the groups ask for $long again" wait_until 5 groups_are $long $groups
check "burst/enabled 0" write_ok $d/enabled 0
check "burst scheduling off: the groups ask for the base slice" \
	wait_until 5 groups_are "$base" $groups
check "burst/enabled 1" write_ok $d/enabled 1
check "burst scheduling back on: $long again" \
	wait_until 10 groups_are $long $groups

check "write 0" write_ok $d/scored_slice_ns 0
check "knob at 0: the groups ask for the base slice" \
	wait_until 5 groups_are "$base" $groups

write_ok $d/scored_slice_ns $long
check "the groups ask for $long before unloading" \
	wait_until 5 groups_are $long $groups
check "modprobe -r sliceext" modprobe -r sliceext
check "unloaded: the groups ask for the base slice" \
	wait_until 5 groups_are "$base" $groups

kill $cghog $aghog 2>/dev/null
wait 2>/dev/null
check "cgroups removed" wait_until 5 cgroups_removed "$cg/inner" "$cg"
tap_done
