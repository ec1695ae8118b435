#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build mainline's own rseq selftests (slice_test among them) from
# Debian's linux-source-7.3, at test time: they are never copied into this
# tree. Only tools/ and the few scripts they need are unpacked, once, into
# the cache.
#
# Usage: scripts/mainline-selftests.sh OUT HEADERS
#   OUT      where the test programs go
#   HEADERS  user headers to build against (the patched kernel's
#            headers_install, which has the 7.0 slice extension ABI)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
[ $# = 2 ] || { echo "usage: $0 OUT HEADERS" >&2; exit 2; }
out=$1 headers=$2
cache=$(sliceext_cache)
pkg=$SLICEEXT_MAINLINE_PKG

deb=$(mainline_deb "$cache")
src=$cache/src/$pkg-$(dpkg-deb -f "$deb" Version)
if [ ! -f "$src/.unpacked" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" |
		tar -xJ -C "$src" --strip-components=1 \
			"$pkg/tools/testing/selftests" "$pkg/tools/include" \
			"$pkg/tools/arch/x86/include" "$pkg/scripts/subarch.include"
	touch "$src/.unpacked"
fi
mkdir -p "$out"
make -s -C "$src/tools/testing/selftests/rseq" OUTPUT="$out" \
	KHDR_INCLUDES="-isystem $headers"
echo "$out"
