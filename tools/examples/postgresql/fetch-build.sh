#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1 OR MIT
#
# fetch-build.sh - PostgreSQL 15 with slice-extension.patch, built in the cache
#
#	tools/examples/postgresql/fetch-build.sh [--source-only | --configure-only]
#
# Downloads Debian 12's postgresql-15 source package from the Debian mirror
# the system's apt sources already use, through an apt configuration of
# its own (scripts/lib.sh: apt_private_source), unpacks it without Debian's
# packaging patches, applies slice-extension.patch, then configures, builds
# and installs PostgreSQL under
#
#	$SLICEEXT_CACHE/postgresql/VERSION-KEY/	(default ~/.cache/sliceext)
#		src/ build/ build.log install/bin/
#
# KEY is a hash of the patch and the configure options, so a second run
# with the same source version and patch reuses the build, and a changed
# patch gets a build of its own. Nothing is written into the checkout or
# the system's apt configuration. Without the network, the newest source
# package downloaded before is used.
#
# Reports on stderr what the patch changes and where everything is; the
# one line on stdout is the directory of the binaries (postgres, initdb,
# pg_ctl, pgbench, psql), for scripts: bin=$(.../fetch-build.sh).
#
# --source-only stops once the source is unpacked and patched, and prints
# its directory (to read it, or to change the patch: edit, then diff
# against a copy unpacked with dpkg-source --skip-patches -x).
# --configure-only stops after configure, nothing compiled, and prints the
# build directory (to compile a file: make -C BUILD/src/backend
# generated-headers, then make -C BUILD/src/backend/storage/lmgr lwlock.o).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
. "$top/scripts/lib.sh"

# Debian 12's PostgreSQL, from the release itself (not bookworm-security,
# whose newer versions some mirrors lack).
SUITE=bookworm
PKG=postgresql-15
patch=$here/slice-extension.patch
# Small: no ICU, readline or zlib. Binaries keep their rpath into install/,
# which the guest sees at the same path (scripts/vm.sh shares / read-only).
configure_opts=(--without-icu --without-readline --without-zlib)

stop=
case ${1:-} in
'') ;;
--source-only) stop=source ;;
--configure-only) stop=configure ;;
*)
	echo "usage: $0 [--source-only | --configure-only]" >&2
	exit 2 ;;
esac

say() { echo "postgresql: $*" >&2; }
die() { say "$*"; exit 1; }

for c in apt-get dpkg-source patch make gcc git flock; do
	command -v "$c" >/dev/null || die "$c is missing (scripts/deps.sh installs the build tools)"
done

base=$(sliceext_cache)/postgresql
mkdir -p "$base"
exec 9>"$base/lock"
flock 9		# one run at a time: runs share the apt directory and builds

# ---- fetch -------------------------------------------------------------------

if dsc=$(apt_private_source "$base/apt" "$PKG" "$SUITE"); then
	say "source package: $dsc"
else
	# shellcheck disable=SC2012 # Debian file names have no blanks
	dsc=$(ls "$base/apt/${PKG}_"*.dsc 2>/dev/null | sort -V | tail -n 1)
	[ -n "$dsc" ] || die "could not download $PKG from $SUITE"
	say "could not reach the mirror; using $dsc, fetched before"
fi
version=$(sed -n 's/^Version: //p' "$dsc")
[ -n "$version" ] || die "$dsc names no version"

key=$( { cat "$patch"; echo "${configure_opts[*]}"; } | sha256sum | cut -c1-12)
dir=$base/$version-$key
src=$dir/src
build=$dir/build
prefix=$dir/install

# ---- unpack and patch --------------------------------------------------------

say "$PKG $version with slice-extension.patch (key $key), changing:"
git apply --stat "$patch" | sed 's/^/  /' >&2

if [ -d "$src" ]; then
	say "source: $src (unpacked and patched before)"
else
	rm -rf "$src.new"
	mkdir -p "$dir"
	# Debian's patches only move files and sockets to where the packaged
	# layout wants them (/usr/lib/postgresql/15, /var/run/postgresql): no
	# use for a build that stays under one prefix, and none touches locks.
	# The download was checked against the archive's signed Release file.
	dpkg-source --skip-patches -x "$dsc" "$src.new" >/dev/null 2>"$dir/unpack.log" ||
		{ cat "$dir/unpack.log" >&2; die "could not unpack $dsc"; }
	patch -d "$src.new" -p1 --forward --batch < "$patch" >&2 ||
		die "slice-extension.patch does not apply to $PKG $version"
	mv "$src.new" "$src"
	say "source: $src (unpacked and patched)"
fi
if [ "$stop" = source ]; then
	echo "$src"
	exit 0
fi

# ---- configure ---------------------------------------------------------------

if [ -f "$build/.configured" ]; then
	say "configured before: $build"
else
	rm -rf "$build"
	mkdir -p "$build"
	say "configuring in $build: --prefix=$prefix ${configure_opts[*]}"
	(cd "$build" && "$src/configure" --prefix="$prefix" "${configure_opts[@]}") \
		> "$dir/configure.log" 2>&1 ||
		{ tail -n 20 "$dir/configure.log" >&2; die "configure failed: $dir/configure.log"; }
	touch "$build/.configured"
fi

if [ "$stop" = configure ]; then
	echo "$build"
	exit 0
fi

# ---- build and install -------------------------------------------------------

if [ -f "$dir/.installed" ] && [ -x "$prefix/bin/postgres" ]; then
	say "built before: $prefix"
else
	say "building (log: $dir/build.log)"
	{ make -C "$build" -j"$(nproc)" && make -C "$build" install; } \
		> "$dir/build.log" 2>&1 ||
		{ tail -n 30 "$dir/build.log" >&2; die "build failed: $dir/build.log"; }
	touch "$dir/.installed"
fi

for b in postgres initdb pg_ctl pgbench psql; do
	[ -x "$prefix/bin/$b" ] || die "$prefix/bin/$b is missing"
done
say "binaries: $prefix/bin (postgres, initdb, pg_ctl, pgbench, psql)"
say "turn the extension off with: postgres -c slice_extension=off (or in postgresql.conf)"
echo "$prefix/bin"
