#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The docs against module/knob_list.h, the one list the module and the
# tool build their knobs from: sliceext(8)'s KNOBS table has the same
# knobs with the same range and default, and README.md names every knob,
# by its debugfs file and by its module parameter. Nothing is generated
# from the list for the docs, so only this catches a knob added or
# changed without them.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
man=$top/tools/sliceext/sliceext.8
readme=$top/README.md

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

# Both of a knob's names, each as a whole word: ext/enabled is not
# burst/enabled's tail.
readme_names() {
	local rc=0

	grep -qE "(^|[^[:alnum:]_/])$1([^[:alnum:]_]|\$)" "$readme" ||
		{ echo "no $1"; rc=1; }
	grep -qw -- "$2" "$readme" || { echo "no $2"; rc=1; }
	return $rc
}
while read -r knob _; do
	check "README.md names $knob and its parameter ${knob/\//_}" \
		readme_names "$knob" "${knob/\//_}"
done <<<"$want"

tap_done
