# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the in-guest tests. The runner exports:
#   SLICEEXT_VERSION     module version (from dkms.conf)
#   SLICEEXT_HOOK_ABI    hook ABI version of the patched kernel
#   DKMS_OPTS            --dkmstree/--sourcetree of the prepared DKMS tree
#   SLICEEXT_BADABI_KO   a module built for a mismatched hook ABI
#   SLICEEXT_BIN         the C test programs, built on the host
#   SLICEEXT_DEB         the Debian packages (scripts/deb.sh), for 82-deb.sh
#   SLICEEXT_POSTGRES    tools/examples/postgresql's build (its install
#                        directory), for 86-postgresql.sh; empty if none

# load_cgroup NAME (a cpu cgroup under cgroup v2, mounting it and enabling
# +cpu if need be) and run_placed come from the scripts' helpers, which the
# benchmark uses in the guest too: one way to make a cpu cgroup.
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

# Run a command as an unprivileged user.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

# Whether the kernel log has a line containing the fixed string $1.
dmesg_has() {
	dmesg | grep -qF -- "$1"
}

# Run a C test from $SLICEEXT_BIN with glibc's own rseq registration off,
# so that the test can register its own area; its TAP passes through.
run_bin() {
	local bin=$SLICEEXT_BIN/$1
	if [ ! -x "$bin" ]; then
		not_ok "$1" "missing test binary $bin"
		return
	fi
	GLIBC_TUNABLES=glibc.pthread.rseq=0 "$bin" || tap_failed=$((tap_failed + 1))
}

# Write $2 to file $1 as root; print the error text (empty on success).
write_err() {
	bash -c "printf '%s' '$2' > '$1'" 2>&1 | sed 's/.*: //'
}

write_ok() {
	[ -z "$(write_err "$1" "$2")" ]
}

# check_knob NAME DEFAULT MIN MAX: a knob under /sys/kernel/debug/sliceext
# (NAME may be "dir/file" relative to ext/ or absolute): default, range,
# bad input and permissions.
check_knob() {
	local name=$1 def=$2 min=$3 max=$4 f v
	case $name in
	/*) f=$name ;;
	*) f=/sys/kernel/debug/sliceext/ext/$name ;;
	esac
	check_eq "$name: default $def" "$def" "$(cat "$f")"
	check_eq "$name: mode 0644" 644 "$(stat -c %a "$f")"
	for v in $'\n' abc " " "1x" "-1" "0x1" "1.5" "$((min - 1))" "$((max + 1))" \
		 "99999999999999999999999"; do
		if [ "$v" = "$((min - 1))" ] && [ "$min" = 0 ]; then
			continue	# same as "-1"
		fi
		check_eq "$name: write $(printf %q "$v") fails with EINVAL" "Invalid argument" \
			"$(write_err "$f" "$v")"
	done
	check_eq "$name: value kept after bad writes" "$def" "$(cat "$f")"
	check "$name: write min $min" write_ok "$f" "$min"
	check_eq "$name: reads back $min" "$min" "$(cat "$f")"
	check "$name: write max $max with newline" write_ok "$f" "$max
"
	check_eq "$name: reads back $max" "$max" "$(cat "$f")"
	check_eq "$name: non-root write refused" "Permission denied" \
		"$(as_nobody bash -c "echo $min > $f" 2>&1 | sed 's/.*: //')"
	check_eq "$name: value kept after non-root write" "$max" "$(cat "$f")"
	write_ok "$f" "$def"
}

# ext_stat NAME: a counter from ext/stats.
ext_stat() {
	awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/sliceext/ext/stats
}

# burst_stat NAME: a counter from burst/stats.
burst_stat() {
	awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/sliceext/burst/stats
}

# burst_counted NAME: whether burst/stats counter NAME is above 0.
burst_counted() { [ "$(burst_stat "$1")" -gt 0 ]; }

# A task that runs a millisecond and sleeps another, for ever; it scores
# 0 once its 1 ms bursts outweigh Python's start-up:
#	python3 -c "$short_bursts_py" &
short_bursts_py='
import time
while True:
    end = time.monotonic() + 0.001
    while time.monotonic() < end:
        pass
    time.sleep(0.001)'

# cgroups_removed DIR...: rmdir each cgroup; whether none is left (for
# wait_until, while their tasks exit).
cgroups_removed() {
	local c
	rmdir "$@" 2>/dev/null
	for c; do
		[ ! -d "$c" ] || return 1
	done
}

# own_autogroup PID: whether PID sits in another autogroup than the
# calling script (a setsid placement took effect).
own_autogroup() {
	local a
	a=$(cut -d' ' -f1 "/proc/$1/autogroup" 2>/dev/null) && [ -n "$a" ] &&
		[ "$a" != "$(cut -d' ' -f1 /proc/$$/autogroup)" ]
}

# out KEY: the value of a "key value" line in $res, a test program's output.
out() {
	awk -v k="$1" '$1 == k { print $2 }' <<<"$res"
}

# burst_field PID FIELD: score, penalty or burst_ns of PID in burst/tasks.
burst_field() {
	awk -v pid="$1" -v f="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = NF - i }
		NR > 1 && $1 == pid { print $(NF - col[f]) }' \
		/sys/kernel/debug/sliceext/burst/tasks
}

# scored PID [MIN]: whether PID's burst score is at least MIN (default 1).
# False, not an error, once PID has left burst/tasks.
scored() { [ "$(burst_field "$1" score)" -ge "${2:-1}" ] 2>/dev/null; }
# unscored PID: whether PID is in burst/tasks with score 0.
unscored() { [ "$(burst_field "$1" score)" = 0 ]; }

# Threads whose load weight is not the stock one for their nice level and
# policy, as "tid weight expected" lines; nothing when every task is stock.
# One process that forks nothing does the scan and leaves itself out: a
# scan runs long enough to get a burst score, and children would inherit it.
weight_mismatches() {
	/usr/bin/python3 - <<'PY'
import glob, os

# sched_prio_to_weight[] of kernel/sched/core.c, nice -20 .. 19
W = [88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
     9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
     1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
     110, 87, 70, 56, 45, 36, 29, 23, 18, 15]
for d in glob.glob("/proc/[0-9]*/task/[0-9]*"):
    tid = int(d.rsplit("/", 1)[1])
    if tid == os.getpid():
        continue
    try:
        # After the comm: field 19 (nice) is word 16, 41 (policy) 38.
        f = open(d + "/stat").read().rsplit(")", 1)[1].split()
        weight = next(int(l.split(":")[1]) for l in open(d + "/sched")
                      if l.startswith("se.load.weight"))
    except (OSError, StopIteration, IndexError, ValueError):
        continue
    expected = 3072 if f[38] == "5" else W[int(f[16]) + 20] << 10
    if weight != expected:
        print(tid, weight, expected)
PY
}

# wait_until SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

# stale_weights: "pid weight expected" for every task of burst/tasks whose
# se.load.weight is not sched_prio_to_weight[nice + 20 + score] << 10 (or
# SCHED_IDLE's). Nice and policy are read before and after burst/tasks,
# and a task whose changed meanwhile is left out; and the whole is read
# twice, 50 ms apart, so that a reweight caught half way through one
# reading does not count.
stale_weights() {
	/usr/bin/python3 - /sys/kernel/debug/sliceext/burst/tasks <<'PY'
import sys, time
W = [88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
     9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
     1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
     110, 87, 70, 56, 45, 36, 29, 23, 18, 15]
def nice_policy(pids):
    out = {}
    for pid in pids:
        try:
            st = open("/proc/%s/stat" % pid).read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(st[16]), st[38])
    return out
def scan():
    pids = [l.split()[0] for l in open(sys.argv[1]).read().splitlines()[1:]]
    before = nice_policy(pids)
    lines = open(sys.argv[1]).read().splitlines()[1:]
    after = nice_policy(pids)
    bad = {}
    for l in lines:
        f = l.split()
        pid, score, weight = f[0], int(f[-4]), int(f[-1])
        if pid not in before or before[pid] != after.get(pid):
            continue
        nice, policy = before[pid]
        exp = 3072 if policy == "5" else W[min(39, max(0, nice + 20 + score))] << 10
        if weight != exp:
            bad[pid] = (weight, exp)
    return bad
first = scan()
time.sleep(0.05)
again = scan()
for pid in first:
    if pid in again:
        print(pid, *again[pid])
PY
}
