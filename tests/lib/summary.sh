#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Read TAP lines on stdin ("ok ...", "not ok ...", kselftest's numbered
# lines alike), pass everything through, and end with the summary line
# "N passed, N failed, N skipped". Exits 1 when anything failed or when no
# test ran at all.
awk '
/^ok / {
	if ($0 ~ /# [Ss][Kk][Ii][Pp]/) skipped++; else passed++
}
/^not ok / {
	if ($0 ~ /# [Ss][Kk][Ii][Pp]/) skipped++; else failed++
}
{ print; fflush() }
END {
	printf "%d passed, %d failed, %d skipped\n", passed, failed, skipped
	exit (failed > 0 || passed + failed == 0) ? 1 : 0
}'
