#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the Debian packages (make deb) with debian/ and Debian's tooling:
# sliceext-dkms_<version>_all.deb (the module's source for DKMS and the
# user ABI headers) and sliceext_<version>_<arch>.deb (the sliceext tool).
# The checkout is never written to: the package's files are copied to
# OUT/sliceext-<version>/ and built there, binary packages only.
#
# Usage: scripts/deb.sh [--out DIR] [--no-lintian]
#   --out DIR       where the packages go (default: build/deb)
#   --no-lintian    skip lintian (which otherwise fails the build on any
#                   error or warning)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/deb
lintian=1

while [ $# -gt 0 ]; do
	case $1 in
	--out) [ $# -ge 2 ] || { echo "deb.sh: --out needs a directory" >&2; exit 2; }
		out=$2; shift 2 ;;
	--no-lintian) lintian=0; shift ;;
	-h|--help) sed -n 's/^# \{0,1\}//; 3,13p' "$0"; exit 0 ;;
	*) echo "deb.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

"$top/scripts/deps.sh" package >&2

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/sliceext-$ver

# Only what the packages are built from: no build output of the checkout
# (objects, .ko, benchmark binaries) can end up in them.
rm -rf "$stage"
rm -f "$out"/sliceext*.deb "$out"/sliceext*.changes "$out"/sliceext*.buildinfo
mkdir -p "$stage/module" "$stage/tools/sliceext"
cp -r "$top/debian" "$top/uapi" "$stage/"
cp "$top/dkms.conf" "$top/Kbuild" "$top/Makefile" "$top/README.md" "$stage/"
cp "$top"/module/*.[ch] "$stage/module/"
cp "$top/tools/rseq_slice.h" "$stage/tools/"
cp "$top"/tools/sliceext/{*.[ch],sliceext.8,Makefile} "$stage/tools/sliceext/"

(cd "$stage" && dpkg-buildpackage -b -us -uc >&2)
rm -rf "$stage"

debs=("$out"/sliceext-dkms_"$ver"_all.deb "$out"/sliceext_"$ver"_*.deb)
if [ "$lintian" = 1 ]; then
	lintian --fail-on error,warning --display-info "${debs[@]}" >&2
fi
printf '%s\n' "${debs[@]}"
