#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run inside the test VM: every tests/guest/NN-*.sh in order (or
# 00-dkms.sh and the ones named), each introduced by a "# name" line.
# TAP lines pass through. A test gets 600 s, or what its "# timeout: S"
# line asks for.
cd "$(dirname "$0")" || exit 1

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=([0-9][0-9]-*.sh)
# Every other test loads the module that 00-dkms.sh installs.
[ "${tests[0]}" = 00-dkms.sh ] || tests=(00-dkms.sh "${tests[@]}")

rc=0
for t in "${tests[@]}"; do
	echo "# guest/$t"
	limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$t")
	start=$SECONDS
	timeout "${limit:-600}" "./$t"
	status=$?
	echo "# guest/$t took $((SECONDS - start)) s"
	case $status in
	0) ;;
	# Killed mid-way, it printed no failure of its own.
	124) echo "not ok - $t ran past its ${limit:-600} s limit"; rc=1 ;;
	*) rc=1 ;;
	esac
	# A test that died must not leave the module loaded for the next one.
	modprobe -r sliceext 2>/dev/null
done
exit $rc
