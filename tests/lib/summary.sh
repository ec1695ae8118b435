#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Read TAP lines on stdin ("ok ...", "not ok ...", kselftest's numbered
# lines alike), pass everything through as it comes, and end with the
# summary line "N passed, N failed, N skipped". Exits 1 when anything
# failed or when no test ran at all.
passed=0 failed=0 skipped=0
skip_re='# [Ss][Kk][Ii][Pp]'
while IFS= read -r line; do
	printf '%s\n' "$line"
	case $line in
	"ok "*)
		if [[ $line =~ $skip_re ]]; then
			skipped=$((skipped + 1))
		else
			passed=$((passed + 1))
		fi ;;
	"not ok "*)
		if [[ $line =~ $skip_re ]]; then
			skipped=$((skipped + 1))
		else
			failed=$((failed + 1))
		fi ;;
	esac
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ $((passed + failed)) -gt 0 ]
