#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the patched 6.12 kernel that sliceext's tests boot, into a cache
# outside the repository keyed by source version, config and patch
# series. A second call with nothing changed does no work.
#
# Usage: scripts/kernel.sh [test|release|stock|bore|mainline] [--cached]
#   test     lockdep, DEBUG_ATOMIC_SLEEP and friends (default)
#   release  the same kernel without the debug options, for benchmarks
#            (guest.config and release.config)
#   stock    release's source and config without the patch series (so
#            without CONFIG_SCHED_SLICEEXT): the benchmarks' baseline
#   bore     release's source and config with a BORE patch instead of the
#            series, and CONFIG_SCHED_BORE=y: what --parts bore compares
#            burst scheduling with (needs SLICEEXT_BORE_PATCH)
#   mainline Debian's linux-source-7.3 (trixie-backports) with release's
#            fragments and mainline's own CONFIG_RSEQ_SLICE_EXTENSION=y:
#            the slice extension as merged, for side-by-side benchmarks
#
# Environment:
#   KSRC=/path       unpatched 6.12 tree to start from (default: Debian's
#                    /usr/src/linux-source-6.12.tar.xz; not for mainline)
#   SLICEEXT_CACHE   cache directory (default: ~/.cache/sliceext)
#   SLICEEXT_BORE_PATCH=FILE  for bore: BORE's patch for 6.12, as its
#                    authors publish it (it is not in Debian), e.g.
#                    0001-linux6.12.37-bore-6.5.6.patch
#
# --cached builds nothing: it prints the directory if that kernel is
# built, and exits 3 if not.
#
# Prints the kernel's directory in the cache; its file "env" holds KVER,
# BZIMAGE, KBUILD (the tree to build modules against) and MODROOT.
set -euo pipefail

flavour=${1:-test}
cached_only=0
case ${2:-} in
'') ;;
--cached) cached_only=1 ;;
*) echo "usage: $0 [test|release|stock|bore|mainline] [--cached]" >&2; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
cache=$(sliceext_cache)
tarball=/usr/src/linux-source-6.12.tar.xz
series=6.12

log() { echo "kernel.sh: $*" >&2; }

case $flavour in
test) fragments="$top/scripts/kconfig/guest.config $top/scripts/kconfig/debug.config" ;;
release|stock|bore|mainline)
	fragments="$top/scripts/kconfig/guest.config $top/scripts/kconfig/release.config" ;;
*) echo "usage: $0 [test|release|stock|bore|mainline]" >&2; exit 2 ;;
esac
if [ "$flavour" = stock ] || [ "$flavour" = mainline ]; then
	patches=
elif [ "$flavour" = bore ]; then
	if [ ! -f "${SLICEEXT_BORE_PATCH:-}" ]; then
		log "bore needs SLICEEXT_BORE_PATCH, BORE's patch for 6.12" \
			"(${SLICEEXT_BORE_PATCH:-not set})"
		exit 2
	fi
	patches=$(realpath "$SLICEEXT_BORE_PATCH")
else
	patches=$(ls "$top"/patches/6.12/*.patch)
fi

# Mainline 7.3 comes from Debian 13's backports, which a Debian 12 host
# does not list: scripts/lib.sh's apt_private_download fetches it without
# touching the system's apt sources. A package already downloaded is
# reused (remove it from the cache to fetch a newer one).
mainline_pkg=$SLICEEXT_MAINLINE_PKG

if [ "$flavour" = mainline ]; then
	[ -z "${KSRC:-}" ] || { log "KSRC is for the 6.12 flavours, not mainline"; exit 2; }
	"$top/scripts/deps.sh" kernel >&2
	deb=$(mainline_deb "$cache") || exit 1
	src_id="deb:$mainline_pkg:$(dpkg-deb -f "$deb" Version)"
	series=7.3
elif [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/Makefile" ] || { log "KSRC=$KSRC is not a kernel tree"; exit 1; }
	src_id="tree:$(make -s -C "$KSRC" kernelversion 2>/dev/null)"
	src_id="$src_id:$(cd "$KSRC" && find . -path ./.git -prune -o -type f \
		-newer Makefile -print 2>/dev/null | wc -l)"
else
	"$top/scripts/deps.sh" kernel >&2
	src_id="deb:$(dpkg-query -W -f='${Version}' linux-source-6.12)"
fi

# The key covers everything that changes the built kernel. Bump recipe
# when the build steps below change what ends up in the cache.
recipe=1
# The steps of stock, bore and mainline alone (the fragment filters
# below) are keyed separately, so changing one never changes the key, and
# the cache, of test and release.
case $flavour in
stock|bore|mainline) recipe="$recipe $flavour=1" ;;
esac
key=$( { echo "$src_id recipe=$recipe"; cat $fragments $patches; } |
	sha256sum | cut -c1-16)
dir=$cache/kernels/$series-$flavour-$key
mkdir -p "$cache/kernels"

if [ $cached_only = 1 ]; then
	[ -f "$dir/env" ] || exit 3
	echo "$dir"
	exit 0
fi

exec 9>"$dir.lock"
flock 9

if [ -f "$dir/env" ]; then
	log "up to date: $dir"
	echo "$dir"
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
log "building $flavour kernel in $dir"

# A private copy of the source, so that the caller's tree stays clean and
# every cached kernel keeps the exact source it was built from.
if [ "$flavour" = mainline ]; then
	mkdir -p "$dir/src"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$mainline_pkg.tar.xz" |
		tar -xJ -C "$dir/src" --strip-components=1
elif [ -n "${KSRC:-}" ]; then
	rsync -a --exclude=.git "$KSRC/" "$dir/src/"
else
	mkdir -p "$dir/src"
	tar -xf "$tarball" -C "$dir/src" --strip-components=1
fi
for p in $patches; do
	patch -d "$dir/src" -p1 -s --forward < "$p"
done

# stock and bore: a tree without the series has no CONFIG_SCHED_SLICEEXT,
# so that line is dropped (it could never stick), and the release string
# says what the kernel is; every other line is release's. bore also asks
# for BORE (its Kconfig default), so that the check below fails where the
# patch did not apply rather than build a stock kernel under BORE's name.
if [ "$flavour" = stock ] || [ "$flavour" = bore ]; then
	sed -e '/^CONFIG_SCHED_SLICEEXT=/d' \
		-e '/^# CONFIG_SCHED_SLICEEXT is not set/d' \
		-e "s/^CONFIG_LOCALVERSION=.*/CONFIG_LOCALVERSION=\"-$flavour\"/" \
		$fragments > "$dir/$flavour.config"
	if [ "$flavour" = bore ]; then
		echo CONFIG_SCHED_BORE=y >> "$dir/$flavour.config"
	fi
	fragments=$dir/$flavour.config
fi

# mainline: the same two fragments, with what 7.3 spells differently or
# no longer has, each on purpose:
# - CONFIG_SCHED_SLICEEXT is sliceext's; mainline's own slice extension
#   is CONFIG_RSEQ_SLICE_EXTENSION (on by default at boot: its static key
#   starts true, rseq_slice_ext=0 turns it off).
# - CONFIG_PREEMPT_VOLUNTARY: x86 has lazy preemption since 6.13, and 7.x
#   offers only "full" and "lazy" there (kernel/Kconfig.preempt,
#   sched_dynamic_mode()). LAZY is mainline's default and the closest to
#   voluntary for user space: a woken fair task preempts at the next tick
#   rather than at once. The 6.12 kernels keep voluntary.
# - CONFIG_SCHED_DEBUG was removed in 6.16 (its code is always built).
# - CONFIG_PROC_SYSCTL was folded into CONFIG_SYSCTL (fs/proc/Makefile).
if [ "$flavour" = mainline ]; then
	sed -e '/^CONFIG_SCHED_SLICEEXT=/d' \
		-e 's/^CONFIG_PREEMPT_VOLUNTARY=y$/CONFIG_PREEMPT_LAZY=y/' \
		-e '/^CONFIG_SCHED_DEBUG=/d' -e '/^CONFIG_PROC_SYSCTL=/d' \
		-e 's/^CONFIG_LOCALVERSION=.*/CONFIG_LOCALVERSION="-mainline"/' \
		$fragments > "$dir/mainline.config"
	echo CONFIG_RSEQ_SLICE_EXTENSION=y >> "$dir/mainline.config"
	fragments=$dir/mainline.config
fi

export CCACHE_DIR=$cache/ccache
# Every kernel lives at kernels/<name>/{src,build}: with this base the
# compiler sees the same relative paths, so ccache hits across kernels.
export CCACHE_BASEDIR=$cache/kernels
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
export CCACHE_NOHASHDIR=1
mk() { make -s -C "$dir/src" O="$dir/build" CC="ccache gcc" "$@"; }

mk allnoconfig >/dev/null
"$dir/src/scripts/kconfig/merge_config.sh" -m -O "$dir/build" \
	"$dir/build/.config" $fragments >/dev/null
mk olddefconfig >/dev/null

# merge_config.sh only warns when a symbol does not stick; a kernel
# without a requested option would fail much later and less clearly.
bad=0
for f in $fragments; do
	while IFS= read -r line; do
		case $line in
		CONFIG_*=n)
			# Off, or not even visible: both are fine.
			! grep -q "^${line%=n}=" "$dir/build/.config" && continue ;;
		CONFIG_*)
			grep -qxF -- "$line" "$dir/build/.config" && continue ;;
		*) continue ;;
		esac
		log "option did not stick: $line ($(basename "$f"))"
		bad=1
	done < "$f"
done
if { [ "$flavour" = stock ] || [ "$flavour" = bore ]; } &&
	grep -q '^CONFIG_SCHED_SLICEEXT=' "$dir/build/.config"; then
	log "$flavour kernel has CONFIG_SCHED_SLICEEXT: its source is patched"
	bad=1
fi
[ $bad = 0 ] || exit 1

# One kernel build at a time: two at once on a small machine take longer
# than one after the other, and starve the test VMs of CPU.
exec 7>"$cache/kernels/build.lock"
flock 7
mk -j"$(nproc)" bzImage modules
mk INSTALL_MOD_PATH="$dir/modroot" modules_install >/dev/null
kver=$(mk kernelrelease)
ln -sfn "$dir/build" "$dir/modroot/lib/modules/$kver/build"

cat > "$dir/env.tmp" <<EOT
KVER=$kver
BZIMAGE=$dir/build/arch/x86/boot/bzImage
KBUILD=$dir/build
MODROOT=$dir/modroot
EOT
mv "$dir/env.tmp" "$dir/env"
log "built $kver"

# Keep the two newest built kernels of this flavour (each takes about
# 2 GiB) and drop builds of it that died half way. Other flavours are never
# touched, so a release or stock build does not evict the test kernel; a
# kernel whose lock is held (being built, or waited for) is left alone.
prune() {
	local old n=0

	# shellcheck disable=SC2045 # cache names have no blanks
	for old in $(ls -dt "$cache/kernels/$series-$flavour-"*/ 2>/dev/null); do
		old=${old%/}
		[ "$old" = "$dir" ] && continue
		if [ -f "$old/env" ]; then
			n=$((n + 1))
			[ $n -lt 2 ] && continue
		fi
		(
			flock -n 8 || exit 0
			log "pruning $old"
			rm -rf "$old"
			rm -f "$old.lock"
		) 8>>"$old.lock"
	done
}
prune
echo "$dir"
