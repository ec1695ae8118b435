#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The docs against module/knob_list.h, the one list the module and the
# tool build their knobs from: sliceext(8)'s KNOBS table and the knob
# table of docs/user-guide.md have the same knobs with the same range and
# default, and the user guide's gives each knob's module parameter as
# the module names it, <dir>_<name>. Nothing is generated from the list
# for the docs, so only this catches a knob added or changed without
# them.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
man=$top/tools/sliceext/sliceext.8
guide=$top/docs/user-guide.md

# The same from the man page's table, found by its header row. Its
# numbers are troff: 0\(en63 is a range, 10\(ha9 a power of ten; what
# is not understood is printed as it is, to show up in the comparison.
man_knobs() {
	awk -F '\t' '
	# Literal troff escapes: index(), not regular expressions, whose
	# backslashes each awk reads its own way.
	function num(s,    i, b, e, v) {
		if (s ~ /^[0-9]+$/)
			return s
		i = index(s, "\\(ha")
		b = substr(s, 1, i - 1)
		e = substr(s, i + 4)
		if (i && b ~ /^[0-9]+$/ && e ~ /^[0-9]+$/) {
			for (v = 1; e > 0; e--)
				v *= b
			return sprintf("%.0f", v)
		}
		return "?" s
	}
	function range(s, r,    i, n) {
		n = 4
		if (!(i = index(s, "\\(en"))) {
			n = 2
			if (!(i = index(s, "\\-"))) {
				n = 1
				i = index(s, "-")
			}
		}
		r[1] = i ? substr(s, 1, i - 1) : s
		r[2] = i ? substr(s, i + n) : ""
	}
	/^\.SH / { in_knobs = $0 ~ /^\.SH KNOBS/; next }
	!in_knobs { next }
	/^\.TS/ { in_table = 1; next }
	/^\.TE/ { in_table = 0; next }
	!in_table || /^\./ || /^[_=]$/ || /\.$/ && !have_header { next }
	!have_header {
		for (i = 1; i <= NF; i++)
			col[$i] = i
		have_header = 1
		next
	}
	{
		range($col["RANGE"], r)
		print $col["KNOB"], num(r[1]), num(r[2]), num($col["DEFAULT"])
	}' "$man"
}

if ! want=$("$top/tests/lib/knob-list.sh" 2>&1) || [ -z "$want" ]; then
	not_ok "module/knob_list.h lists knobs" "$want"
	tap_done
	exit
fi
want=$(sort <<<"$want")
ok "module/knob_list.h lists $(wc -l <<<"$want") knobs"

got=$(man_knobs | sort)
if [ "$want" = "$got" ]; then
	ok "sliceext.8's KNOBS table: the list's knobs, ranges and defaults"
else
	not_ok "sliceext.8's KNOBS table: the list's knobs, ranges and defaults" \
		"< module/knob_list.h, > sliceext.8 (dir/name min max default):" \
		"$(diff <(echo "$want") <(echo "$got") | grep '^[<>]')"
fi

# The same from the user guide's knob table, found by its header row
# (a markdown table whose columns include knob, parameter, default and
# range), as "dir/name min max default parameter". Backticks are dropped;
# a range is MIN-MAX with a hyphen or an en dash. What is not understood
# is printed as it is, to show up in the comparison.
guide_knobs() {
	awk -F '|' '
	function cell(s) {
		gsub(/`/, "", s)
		gsub(/^[ \t]+|[ \t]+$/, "", s)
		return s
	}
	!in_table && /^\|/ {
		split("", col)
		for (i = 2; i < NF; i++)
			col[tolower(cell($i))] = i
		if (("knob" in col) && ("parameter" in col) &&
		    ("default" in col) && ("range" in col)) {
			in_table = 1
			tables++
		}
		next
	}
	in_table && !/^\|/ { in_table = 0; next }
	!in_table || /^\|[-: |]+$/ { next }
	{
		range = cell($col["range"])
		sub(/\xe2\x80\x93/, "-", range)
		if (split(range, r, "-") != 2)
			r[1] = "?" range
		print cell($col["knob"]), r[1], r[2], cell($col["default"]),
		      cell($col["parameter"])
	}
	END { if (tables != 1) print "found " tables + 0 " knob tables" }' "$guide"
}

got=$(guide_knobs | sort)
# "dir/name min max default dir_name" from the list, for the comparison.
want_params=$(awk '{ p = $1; sub("/", "_", p); print $0, p }' <<<"$want" | sort)
if [ "$want_params" = "$got" ]; then
	ok "docs/user-guide.md's knob table: the list's knobs, parameters, ranges and defaults"
else
	not_ok "docs/user-guide.md's knob table: the list's knobs, parameters, ranges and defaults" \
		"< module/knob_list.h, > docs/user-guide.md (dir/name min max default parameter):" \
		"$(diff <(echo "$want_params") <(echo "$got") | grep '^[<>]')"
fi

tap_done
