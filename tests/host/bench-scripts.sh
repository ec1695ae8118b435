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
tap_done
