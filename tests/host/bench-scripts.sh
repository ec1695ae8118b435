#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The shell plumbing under the benchmarks, without booting anything:
# scripts/lib.sh's helpers, scripts/vm.sh --icount (against a stand-in
# QEMU that records its arguments), and scripts/kernel.sh mainline's
# private apt configuration (against a stand-in apt-get): it must never
# write the system's apt sources.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3

t=$(mktemp -d)
# shellcheck disable=SC2064
trap "rm -rf '$t'" EXIT
. "$top/scripts/lib.sh"

# ---- lib.sh ----------------------------------------------------------------

for s in 'plain' 'a "quoted" \back\slash' $'tab\there, line\nend' 'µs ✓'; do
	check_eq "json_str round-trips: $(printf %q "$s")" "$s" \
		"$("$py" -c 'import json,sys; print(json.loads(sys.argv[1]), end="")' \
			"$(json_str "$s")")"
done
check_eq "sliceext_version is dkms.conf's" \
	"$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")" \
	"$(sliceext_version "$top")"
check_eq "sliceext_cache follows SLICEEXT_CACHE" /x/y \
	"$(SLICEEXT_CACHE=/x/y sliceext_cache)"
check_eq "sliceext_cache defaults under HOME" /h/.cache/sliceext \
	"$(unset SLICEEXT_CACHE; HOME=/h sliceext_cache)"
stage_module "$top" "$t/stage"
check "stage_module copies what kbuild and dkms need" \
	test -f "$t/stage/Kbuild" -a -f "$t/stage/dkms.conf" -a \
	-f "$t/stage/module/sliceext.h" -a -d "$t/stage/uapi"
check_eq "stage_module copies no tests or tools" "" \
	"$(ls -d "$t/stage/tests" "$t/stage/tools" 2>/dev/null)"
# shellcheck disable=SC2016 # for the inner shell
(run_placed same x sh -c 'echo $$' > "$t/placed") &
pid=$!
wait $pid
check_eq "run_placed same execs: its PID is the command's" "$pid" "$(cat "$t/placed")"
# shellcheck disable=SC2016 # for the inner shell
read -r pid sid < <( (run_placed autogroup x sh -c \
	'read -r _ _ _ _ _ sid _ < /proc/$$/stat; echo "$$ $sid"') )
check_eq "run_placed autogroup: the command leads a session of its own" "$pid" "$sid"
mkdir "$t/cg"
# shellcheck disable=SC2016 # for the inner shell
pid=$( (run_placed cgroup "$t/cg" sh -c 'echo $$') )
check_eq "run_placed cgroup: the command's own PID joins the cgroup" \
	"$pid" "$(cat "$t/cg/cgroup.procs")"
check_fails "run_placed refuses an unknown placement" run_placed elsewhere x true
check_eq "and says which" "run_placed: unknown placement 'elsewhere'" \
	"$(run_placed elsewhere x true 2>&1)"
uri=$(debian_main_uri)
if [ -n "$uri" ]; then
	check "debian_main_uri is a Debian archive, not security" \
		grep -qvE 'security' <<<"$uri"
else
	skip "debian_main_uri" "no Debian archive in this host's apt sources"
fi

# ---- vm.sh --icount, against a QEMU that records its arguments -------------

mkdir -p "$t/bin" "$t/kdir"
cat > "$t/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo "QEMU emulator version 10.0.2"; exit 0; }
echo "$*" > "$QEMU_ARGS"
# A console log, as a guest that died at once leaves.
for a; do
	[ "$prev" = -serial ] && : > "${a#file:}"
	prev=$a
done
EOF
chmod +x "$t/bin/qemu-system-x86_64"
printf 'KVER=x\nBZIMAGE=/nonexistent\nKBUILD=/nonexistent\nMODROOT=/nonexistent\n' \
	> "$t/kdir/env"
vm() { PATH="$t/bin:$PATH" QEMU_ARGS="$t/args" "$top/scripts/vm.sh" "$@"; }

vm --icount "$t/kdir" -- true >/dev/null 2>&1
check_eq "vm.sh: a guest that leaves no result is reported (125)" 125 "$?"
check "vm.sh --icount: instruction counting" \
	grep -qE -- '-icount shift=0,sleep=off( |$)' "$t/args"
check "vm.sh --icount: single-threaded TCG" \
	grep -qE -- '-accel tcg,thread=single ' "$t/args"
vm "$t/kdir" -- true >/dev/null 2>&1
check_fails "vm.sh without --icount: no instruction counting" \
	grep -q -- '-icount' "$t/args"
check "vm.sh without --icount: multi-threaded TCG" \
	grep -qE -- '-accel tcg ' "$t/args"
rm -f "$t/args"
vm --icount=1 "$t/kdir" -- true >/dev/null 2>"$t/err"
check_eq "vm.sh --icount=1: exit status 2" 2 "$?"
check "vm.sh --icount=1: says why, boots nothing" \
	sh -c "grep -q 'unknown option' '$t/err' && test ! -e '$t/args'"

# ---- bench.sh --parts bore: only the BORE kernel ---------------------------

# A copy of scripts/ whose kernel.sh, deps.sh and vm.sh record their calls.
mkdir -p "$t/top"
cp -r "$top/scripts" "$t/top/"
for s in kernel deps vm; do
	printf '#!/bin/sh\necho "%s $*" >> "$CALLS"\n' "$s" > "$t/top/scripts/$s.sh"
done
echo 'echo /nonexistent/kernel' >> "$t/top/scripts/kernel.sh"
mkdir -p "$t/bore" "$t/benchbin"
printf 'KVER=6.12.0-bore\n' > "$t/bore/env"
SLICEEXT_CACHE=$t/cache SLICEEXT_BORE_KDIR=$t/bore CALLS=$t/calls \
	"$t/top/scripts/bench.sh" --parts bore --bin "$t/benchbin" \
	--out "$t/bench-out" >/dev/null 2>&1
check_eq "bench.sh --parts bore: builds no kernel of its own" "" \
	"$(grep '^kernel ' "$t/calls")"
check_eq "bench.sh --parts bore: boots the BORE kernel, once" 1 \
	"$(grep -c "^vm .* $t/bore -- " "$t/calls")"
check_eq "bench.sh --parts bore: boots nothing else" 1 \
	"$(grep -c '^vm ' "$t/calls")"
: > "$t/calls"
: > "$t/bore.patch"
SLICEEXT_CACHE=$t/cache SLICEEXT_BORE_PATCH=$t/bore.patch CALLS=$t/calls \
	"$t/top/scripts/bench.sh" --parts bore --bin "$t/benchbin" \
	--out "$t/bench-out" >/dev/null 2>&1
check_eq "bench.sh --parts bore with SLICEEXT_BORE_PATCH: builds the bore kernel, only" \
	"kernel bore" "$(grep '^kernel ' "$t/calls")"
check_eq "bench.sh --parts bore with SLICEEXT_BORE_PATCH: boots it, once" 1 \
	"$(grep -c '^vm .* /nonexistent/kernel -- ' "$t/calls")"
: > "$t/calls"
SLICEEXT_CACHE=$t/cache CALLS=$t/calls "$t/top/scripts/bench.sh" \
	--parts bore --bin "$t/benchbin" --out "$t/bench-out" >/dev/null 2>"$t/err"
check_eq "bench.sh --parts bore with no BORE kernel or patch: exit status 2" 2 "$?"
check "and says what it needs" grep -q 'SLICEEXT_BORE_PATCH' "$t/err"
check_eq "and builds and boots nothing" "" "$(cat "$t/calls")"
: > "$t/calls"
SLICEEXT_CACHE=$t/cache CALLS=$t/calls "$t/top/scripts/bench.sh" \
	--parts latency --bin "$t/benchbin" --out "$t/bench-out" >/dev/null 2>&1
check_eq "bench.sh --parts latency: asks kernel.sh for the release kernel" \
	"kernel release" "$(grep '^kernel ' "$t/calls")"

# ---- bench.sh: the probe's options reach the guest; the run's records -------

# A vm.sh that records its call and leaves, as a guest would, a boot line
# and one run in its --out directory.
cat > "$t/top/scripts/vm.sh" <<'EOF'
#!/bin/sh
echo "vm $*" >> "$CALLS"
while [ $# -gt 0 ]; do
	[ "$1" = --out ] && out=$2
	shift
done
mkdir -p "$out"
cat > "$out/bench.jsonl" <<'EOT'
{"meta": "boot", "schema": 2, "kernel": "release", "mode": "tcg", "uname": "6.12.0-x", "nproc": 2, "repeat": 1, "duration": 1, "parts": "probe"}
{"part": "probe", "point": "off, hogs in its session", "point_id": "same:off", "kernel": "release", "repeat": 1, "config": "off", "placement": "same", "tool": "wakeup_lat", "lat_p99_us": 100.0}
EOT
EOF
: > "$t/calls"
mkdir -p "$t/rel"
printf 'KVER=6.12.0-x\nKBUILD=/nonexistent\n' > "$t/rel/env"
ln -s "$top/patches" "$t/top/patches"
SLICEEXT_CACHE=$t/cache SLICEEXT_KDIR=$t/rel CALLS=$t/calls \
	"$t/top/scripts/bench.sh" --parts probe --bin "$t/benchbin" \
	--configs 'off on+burst/penalty_scale=40' --places same,cgroup --pin 1 \
	--wakes futex,pipe --order given --cpus 3 --repeat 1 --duration 1 \
	--out "$t/bench-out" --results-md "$t/docs/results.md" >/dev/null 2>"$t/err"
check_eq "bench.sh --parts probe: exit 0" 0 "$?"
sed 's/^/# /' "$t/err" | tail -n 5
check_eq "bench.sh --parts probe: one boot, of the release kernel" 1 \
	"$(grep -c "^vm .* $t/rel -- " "$t/calls")"
check "the boot has the vCPUs asked for" grep -q -- "--cpus 3 " "$t/calls"
check "the guest gets the probe's part and options" grep -qE -- \
	"--parts probe .*--configs off on\+burst/penalty_scale=40 --places same cgroup --wakes futex pipe --order given --pin 1" \
	"$t/calls"
# 2 configurations x 2 placements x 2 wakes: 8 points of 1 run of 1 s,
# 600 + 2 x 8 x (1 + 10) s.
check "its timeout counts a point per configuration, placement and wake" \
	grep -q -- "--timeout 776 " "$t/calls"
check "results.jsonl starts with the host line, schema 2, the series" \
	"$py" -c 'import json, sys; h = json.loads(open(sys.argv[1]).readline())
assert h["meta"] == "host" and h["schema"] == 2, h
assert len(h["series_hash"]) == 12 and h["series_patches"] > 0, h
assert h["kernels"] == {"release": "rel"}, h
assert h["command"] == "scripts/bench.sh --parts probe --bin " + sys.argv[2] + \
	" --configs off\\ on+burst/penalty_scale=40 --places same,cgroup --pin 1" \
	" --wakes futex,pipe --order given --cpus 3 --repeat 1 --duration 1 --out " + sys.argv[3] + \
	" --results-md " + sys.argv[4], h["command"]' \
	"$t/bench-out/results.jsonl" "$t/benchbin" "$t/bench-out" "$t/docs/results.md"
check "the table in report.md" grep -q "off, hogs in its session" "$t/bench-out/report.md"
check "--results-md: the probe's section" grep -q "^## Wakeup probe" "$t/docs/results.md"

# ---- bench.sh --parts postgres: PostgreSQL built, both kernels booted ------

# A fetch-build.sh that records its call and names a build (or fails).
mkdir -p "$t/top/tools/examples/postgresql" "$t/ml"
cat > "$t/top/tools/examples/postgresql/fetch-build.sh" <<'EOF'
#!/bin/sh
echo "fetch-build $*" >> "$CALLS"
[ -z "$PG_FAIL" ] || exit 1
echo /cache/postgresql/15.18-x/install/bin
EOF
chmod +x "$t/top/tools/examples/postgresql/fetch-build.sh"
printf 'KVER=7.3.4-mainline\nKBUILD=/nonexistent\n' > "$t/ml/env"
pg_bench() {
	: > "$t/calls"
	SLICEEXT_CACHE=$t/cache SLICEEXT_KDIR=$t/rel SLICEEXT_MAINLINE_KDIR=$t/ml \
		CALLS=$t/calls "$t/top/scripts/bench.sh" --parts postgres \
		--bin "$t/benchbin" --repeat 1 --duration 1 --out "$t/bench-out" \
		>/dev/null 2>"$t/err"
}
pg_bench
check_eq "bench.sh --parts postgres: exit 0" 0 "$?"
check_eq "bench.sh --parts postgres: builds PostgreSQL, once" "fetch-build " \
	"$(grep '^fetch-build' "$t/calls")"
check_eq "it boots the release kernel and mainline 7.3, once each" \
	"$t/rel $t/ml" "$(sed -n 's/^vm .* \([^ ]*\) -- .*/\1/p' "$t/calls" | xargs)"
check_eq "both boots run the postgres part, and only it, with the build" 2 \
	"$(grep -c -- "--parts postgres .*--postgres /cache/postgresql/15.18-x/install\( \|$\)" \
		"$t/calls")"
PG_FAIL=1 pg_bench
check "a build that fails: a warning" grep -q "PostgreSQL did not build" "$t/err"
check_eq "and the boots get no build, their rows skipped there" 0 \
	"$(grep -c -- "--postgres" "$t/calls")"

# ---- bench-guest.sh against a made-up kernel -------------------------------

# Its knobs and features under a tree of our own (SLICEEXT_BENCH_ROOT:
# nothing under / is read or written), tools that print the knobs they
# ran under, and a points file of a few rows.
g=$t/guest
R=$g/root
dbg=$R/sys/kernel/debug
mkdir -p "$R/sys/module/sliceext" "$dbg/sliceext/burst" "$dbg/sliceext/ext" \
	"$dbg/sched" "$g/bin"
for k in burst/enabled=1 burst/penalty_scale=1536 burst/wakeup_half_slice=1 \
	ext/enabled=1 ext/slice_ext_nsec=5000; do
	echo "${k#*=}" > "$dbg/sliceext/${k%%=*}"
done
echo 1.2.3 > "$dbg/sliceext/version"
printf '0 1 3\n' > "$dbg/sliceext/ext/hist"
printf 'granted 1\n' > "$dbg/sliceext/ext/stats"
echo "GENTLE NO_HRTICK" > "$dbg/sched/features"
# wakeup_lat names its worker's metrics for --wake pipe (pipe_p99_us).
for tool in lock_table wakeup_lat compute syscall_loop fork_loop; do
	cat > "$g/bin/$tool" <<EOF
#!/bin/sh
echo "$tool: human text"
case " \$* " in *" --wake pipe "*) lat=pipe ;; *) lat=lat ;; esac
printf '{"tool": "$tool", "args": "%s", "burst": %s, "scale": %s, "slice": %s, "features": "%s", "%s_p99_us": 1.0}\n' \
	"\$*" "\$(cat $dbg/sliceext/burst/enabled)" \
	"\$(cat $dbg/sliceext/burst/penalty_scale)" \
	"\$(cat $dbg/sliceext/ext/slice_ext_nsec)" "\$(cat $dbg/sched/features)" \
	"\$lat"
EOF
done
printf '#!/bin/sh\ntrap "exit 0" TERM\nsleep 30 & wait\n' > "$g/bin/load"
printf '#!/bin/sh\necho "Time: 0.25"\n' > "$g/bin/hackbench"
chmod +x "$g"/bin/*
printf '%s\n' \
	"lock	ext_off	sliceext	-	same	off	ext off" \
	"lock	hrtick_on_50	sliceext	ext_off	same	on+ext/slice_ext_nsec=50000+sched/features=HRTICK	HRTICK on, ext on, 50 µs" \
	"latency	on_nope	sliceext	-	same	on+burst/nope=0	burst on, nope 0" \
	"overhead	unloaded	sliceext	-	-	-	patched, module not loaded" \
	"overhead	burst	sliceext	unloaded	-	on	module loaded, burst on" \
	"hist	ext_on_5	sliceext	-	same	on+ext/slice_ext_nsec=5000	6.12 + sliceext, 5 µs" \
	> "$g/points"
guest() {
	PATH="$g/bin:$PATH" SLICEEXT_BENCH_ROOT=${R:?} SLICEEXT_BENCH_POINTS=$g/points \
		"$top/scripts/bench-guest.sh" --ko "$g/sliceext.ko" --bin "$g/bin" \
		--kernel release --repeat 2 --duration 1 --results "$g/out.jsonl" "$@"
}
guest --parts lock,latency,overhead,probe --configs off,on+burst/penalty_scale=40 \
	--places same > "$g/log" 2>&1
rc=$?
check_eq "bench-guest.sh on a made-up kernel: exit 0" 0 "$rc"
[ "$rc" = 0 ] || sed 's/^/# /' "$g/log" | grep -iv '^# *[a-z].* #[0-9]*: {' | head -n 20
# q PYTHON-CONDITION: holds for the records r (a list) of out.jsonl.
q() {
	"$py" -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
def one(part, pid, n=1, **kw):
    return [x for x in r if x.get("part") == part and x.get("point_id") == pid
            and x.get("repeat") == n and all(x.get(k) == v for k, v in kw.items())][0]
assert eval(sys.argv[2]), sys.argv[2]' "$g/out.jsonl" "$1"
}
check "every line is JSON; the boot line first" q 'r[0]["meta"] == "boot" and r[0]["schema"] == 2'
check "the module's version recorded" q '{"meta": "module", "kernel": "release", "version": "1.2.3"} in r'
check "every record has its configuration and placement" \
	q 'all("config" in x and "placement" in x for x in r if "part" in x)'
check "ext off: no --ext, burst off" \
	q 'one("lock", "ext_off")["burst"] == 0 and "--ext" not in one("lock", "ext_off")["args"]'
check "HRTICK, ext on, 50 µs: --ext, the length and the feature set" \
	q '"--ext" in (x := one("lock", "hrtick_on_50"))["args"] and x["slice"] == 50000 and x["features"] == "HRTICK"'
check "the next point starts from the snapshot" \
	q '(x := one("lock", "ext_off", 2))["slice"] == 5000 and x["features"] == "NO_HRTICK"'
check "a missing knob: the point skipped, once, saying which" \
	q '[x["skipped"] for x in r if x.get("point_id") == "on_nope"] == ["no /sys/kernel/debug/sliceext/burst/nope"]'
check "the histogram run recorded bench-hist.py's object" \
	q 'one("hist", "ext_on_5")["hist"] == [] and one("hist", "ext_on_5")["config"] == "on+ext/slice_ext_nsec=5000"'
check "hackbench's time, through bench-record.py" \
	q 'one("overhead", "unloaded", tool="hackbench")["hackbench_s"] == 0.25'
check "overhead, burst on: burst on for its tools" \
	q 'one("overhead", "burst", tool="fork_loop")["burst"] == 1'
check "probe: the futex and timer probe, its arguments" \
	q 'one("probe", "same:off")["args"].startswith("--message-threads 1 --workers 1 --work-us 200 --interval-us 1000 ")'
check "probe: on+burst/penalty_scale=40 sets both" \
	q '(x := one("probe", "same:on+burst/penalty_scale=40"))["burst"] == 1 and x["scale"] == 40'
check "probe: off after it starts from the snapshot" \
	q '(x := one("probe", "same:off", 2))["burst"] == 0 and x["scale"] == 1536'
check "probe: alternate order, each configuration first once" \
	q '[one("probe", "same:off", n)["position"] for n in (1, 2)] == [1, 2]'
check "the boot line records the probe" \
	q 'r[0]["probe_configs"] == "off on+burst/penalty_scale=40" and r[0]["probe_hogs"] == 4'
# Both wakes by default: futex's points as they always were, the tool
# without --wake; pipe's beside them, named for it, with --wake pipe.
check "probe: futex rows keep their ids and labels, no --wake" \
	q '(x := one("probe", "same:off"))["point"] == "off, hogs in its session" and x["wake"] == "futex" and "--wake" not in x["args"]'
check "probe: pipe rows: their own ids and labels, --wake pipe" \
	q '(x := one("probe", "same:on+burst/penalty_scale=40:pipe"))["point"] == "on+burst/penalty_scale=40, hogs in its session, pipe-woken" and x["wake"] == "pipe" and x["args"].endswith(" --wake pipe --duration 1 --json") and x["burst"] == 1'
check "probe: 2 configurations x 2 wakes x 2 rounds, each run once" \
	q 'sorted((x["point_id"], x["repeat"]) for x in r if x.get("part") == "probe") == sorted((i, n) for i in ("same:off", "same:on+burst/penalty_scale=40", "same:off:pipe", "same:on+burst/penalty_scale=40:pipe") for n in (1, 2))'
check "probe: alternate order within each wake" \
	q '[one("probe", "same:off:pipe", n)["position"] for n in (1, 2)] == [1, 2]'
check "the boot line records the wakes and the command for each" \
	q 'r[0]["probe_wakes"] == "futex pipe" and r[0]["probe_cmd"] == "wakeup_lat --message-threads 1 --workers 1 --work-us 200 --interval-us 1000 [--wake pipe]"'
check_eq "the knobs as they were at the end" "1 1536 5000 NO_HRTICK" \
	"$(cat "$dbg/sliceext/burst/enabled" "$dbg/sliceext/burst/penalty_scale" \
		"$dbg/sliceext/ext/slice_ext_nsec" "$dbg/sched/features" | xargs)"
out=$("$py" "$top/scripts/bench-report.py" --points "$g/points" "$g/out.jsonl" 2>&1)
check_eq "bench-report.py reads what it wrote" 0 "$?"
check "and shows the pipe rows with their own metric" grep -qE \
	'\| off, hogs in its session, pipe-woken +\| pipe wakeup p99 µs ↓ +\| 1 +\| ' <<<"$out"
: > "$g/out.jsonl"
guest --parts probe --configs off --places same --wakes pipe > "$g/log" 2>&1
check_eq "bench-guest.sh --wakes pipe: exit 0" 0 "$?"
check "only pipe rows, the boot line says so" \
	q '{x["point_id"] for x in r if "part" in x} == {"same:off:pipe"} and r[0]["probe_wakes"] == "pipe" and r[0]["probe_cmd"].endswith(" --interval-us 1000 --wake pipe")'
for bad in "--configs off,ndz" "--wakes futex,bad" "--wakes pipe,pipe"; do
	: > "$g/out.jsonl"
	# shellcheck disable=SC2086 # options
	guest --parts probe $bad > "$g/log" 2>&1
	check_eq "bench-guest.sh $bad: exit status 2" 2 "$?"
	check_eq "and writes nothing" "" "$(cat "$g/out.jsonl")"
done
printf 'postgres\tro_off\tsliceext\t-\tsame\toff\tselect-only, ext off\n' \
	>> "$g/points"
guest --parts postgres > "$g/log" 2>&1
check_eq "bench-guest.sh --parts postgres without --postgres: exit 0" 0 "$?"
check "its rows skipped, saying why" q '[x["skipped"] for x in r if
	x.get("part") == "postgres"] == ["PostgreSQL not built (tools/examples/postgresql/fetch-build.sh)"]'
check "the boot line records the part's shape" \
	q 'r[0]["pg_clients"] == 4 * r[0]["nproc"] and r[0]["pg_scale"] == 10 and r[0]["pg_build"] == ""'

# ---- kernel.sh bore --------------------------------------------------------

for patch in '' "$t/missing.patch"; do
	SLICEEXT_CACHE=$t/cache SLICEEXT_BORE_PATCH=$patch \
		"$top/scripts/kernel.sh" bore >/dev/null 2>"$t/err"
	check_eq "kernel.sh bore, SLICEEXT_BORE_PATCH '${patch##*/}': exit status 2" 2 "$?"
	check "and says what it needs" grep -q 'SLICEEXT_BORE_PATCH' "$t/err"
done
check_eq "kernel.sh bore without its patch: no kernel directory made" "" \
	"$(ls "$t/cache/kernels" 2>/dev/null)"

# ---- kernel.sh mainline ----------------------------------------------------

KSRC=/nonexistent "$top/scripts/kernel.sh" mainline >/dev/null 2>"$t/err"
check_eq "kernel.sh mainline with KSRC: exit status 2" 2 "$?"
check "kernel.sh mainline with KSRC: says why" grep -q "KSRC" "$t/err"
"$top/scripts/kernel.sh" mainlne >/dev/null 2>"$t/err"
check_eq "kernel.sh with an unknown flavour: exit status 2" 2 "$?"
check "kernel.sh usage names mainline" grep -q "mainline" "$t/err"

# apt_private_download, against an apt-get that records its options and
# "downloads" a package: private lists and caches, no system sources, the
# suite from the mirror the system already uses.
cat > "$t/bin/apt-get" <<'EOF'
#!/bin/sh
echo "$*" >> "$APT_LOG"
for a; do last=$a; done
case " $* " in *" download "*) : > "${last}_7.3.4-1_all.deb" ;; esac
EOF
chmod +x "$t/bin/apt-get"
if [ -n "$uri" ]; then
	before=$(find /etc/apt -newer "$t/kdir/env" 2>/dev/null | wc -l)
	deb=$(PATH="$t/bin:$PATH" APT_LOG="$t/apt.log" \
		apt_private_download trixie-backports linux-source-7.3 "$t/apt")
	check_eq "apt_private_download prints the package" \
		"$t/apt/linux-source-7.3_7.3.4-1_all.deb" "$deb"
	check "its sources: trixie-backports from the system's mirror, signed" \
		grep -qzE "URIs: ${uri//./\\.}
Suites: trixie-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" \
		"$t/apt/trixie-backports.sources"
	for o in "Dir::Etc::sourcelist=$t/apt/trixie-backports.sources" \
		Dir::Etc::sourceparts=- "Dir::State::Lists=$t/apt/lists" \
		"Dir::Cache=$t/apt/cache" Dir::State::status=/dev/null; do
		check "apt-get update and download with -o ${o%%=*}" \
			test "$(grep -cF -- "-o $o " "$t/apt.log")" = 2
	done
	check_eq "nothing under /etc/apt changed" "$before" \
		"$(find /etc/apt -newer "$t/kdir/env" 2>/dev/null | wc -l)"
else
	skip "apt_private_download" "no Debian archive in this host's apt sources"
fi

# apt_private_source (tools/examples/postgresql/fetch-build.sh), against an
# apt-get that names a source package and "downloads" its .dsc: deb-src
# entries of its own for the system's mirror, nothing unpacked.
mkdir -p "$t/srcbin"
cat > "$t/srcbin/apt-get" <<'EOF'
#!/bin/sh
echo "$*" >> "$APT_LOG"
dsc=postgresql-15_15.18-0+deb12u1.dsc
case " $* " in
*" --print-uris source "*) echo "'http://mirror/$dsc' $dsc 3942 SHA256:00" ;;
*" --download-only source "*) : > "$dsc" ;;
esac
EOF
chmod +x "$t/srcbin/apt-get"
if [ -n "$uri" ]; then
	before=$(find /etc/apt -newer "$t/kdir/env" 2>/dev/null | wc -l)
	dsc=$(PATH="$t/srcbin:$PATH" APT_LOG="$t/apt-src.log" \
		apt_private_source "$t/apt-src" postgresql-15 bookworm)
	check_eq "apt_private_source prints the .dsc" \
		"$t/apt-src/postgresql-15_15.18-0+deb12u1.dsc" "$dsc"
	check "its sources: deb-src of bookworm from the system's mirror, signed" \
		grep -qzE "Types: deb-src
URIs: ${uri//./\\.}
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" \
		"$t/apt-src/sources.sources"
	for o in "Dir::Etc::sourcelist=$t/apt-src/sources.sources" \
		Dir::Etc::sourceparts=- "Dir::State::Lists=$t/apt-src/lists" \
		"Dir::Cache=$t/apt-src/cache" Dir::State::status=/dev/null; do
		check "apt-get update, --print-uris and --download-only with -o ${o%%=*}" \
			test "$(grep -cF -- "-o $o " "$t/apt-src.log")" = 3
	done
	check_eq "apt_private_source unpacks nothing" "" \
		"$(find "$t/apt-src" -mindepth 1 -maxdepth 1 -type d ! -name lists ! -name cache)"
	check_eq "nothing under /etc/apt changed by apt_private_source" "$before" \
		"$(find /etc/apt -newer "$t/kdir/env" 2>/dev/null | wc -l)"
else
	skip "apt_private_source" "no Debian archive in this host's apt sources"
fi
tap_done
