#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/checkpatch.pl --strict over the core patch series and the module
# sources. Exits non-zero on any error, warning or check.
#
# Usage: scripts/checkpatch.sh    (KSRC=/path: kernel tree with checkpatch;
#                                  default: the cached test kernel's source)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=${KSRC:-$("$top/scripts/kernel.sh" test)/src}
# spdxcheck.py wants Debian's python3 (python3-ply), not a user one.
export PATH=/usr/bin:$PATH

# ENOTSUPP: the 7.0 slice extension ABI returns ENOTSUPP (524), as
# mainline's kernel/rseq.c does; checkpatch flags every use of it in a
# patch ("prefer EOPNOTSUPP"), which would change the user ABI.
cp=("$ksrc/scripts/checkpatch.pl" --strict --quiet --no-summary --color=never
    --ignore ENOTSUPP)
rc=0
for p in "$top"/patches/6.12/*.patch; do
	(cd "$ksrc" && "${cp[@]}" "$p") || rc=1
done
# Module files are not in the kernel tree: no MAINTAINERS lookups for them.
# Two files expand a list into declarations, which checkpatch takes for
# statement macros: knobs.c a module parameter per knob of knob_list.h
# (each ending in ";", some expansions leaving arguments out), hooks.h a
# prototype per hook of the core's sliceext-ops.h.
for f in "$top"/module/*.[ch] "$top"/Kbuild; do
	ignore=FILE_PATH_CHANGES
	case ${f##*/} in
	knobs.c) ignore+=,TRAILING_SEMICOLON,MACRO_ARG_UNUSED ;;
	hooks.h) ignore+=,COMPLEX_MACRO ;;
	esac
	(cd "$ksrc" && "${cp[@]}" --no-tree -f "$f" --ignore "$ignore") || rc=1
done
[ $rc = 0 ] && echo "checkpatch: clean"
exit $rc
