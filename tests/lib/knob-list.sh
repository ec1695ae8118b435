#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print module/knob_list.h, the one list of sliceext's knobs, as the
# module's read-only "knobs" file words it, less the current value:
# "dir/name min max default", a line per knob, in the list's order. The
# tests compare the module, the tool and the docs with this.
#
# The preprocessor, not a pattern, reads the list, so that any layout the
# compiler takes is read the same; -undef: no predefined macro ("linux",
# "unix") may rename a knob.
set -euo pipefail
list=$(dirname "$0")/../../module/knob_list.h
${CC:-cc} -E -P -undef -x c \
	-D'SLICEEXT_KNOB(dir, name, def, min, max, on_change, desc)=knob: dir name min max def;' \
	"$list" | tr ';' '\n' | sed -n 's/^[[:space:]]*knob:[[:space:]]*//p' |
	awk 'NF != 5 { print "knob-list.sh: bad knob: " $0 > "/dev/stderr"; exit 1 }
	     { print $1 "/" $2, $3, $4, $5 }'
