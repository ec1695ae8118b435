#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel-deb.sh (make kernel-deb) without its hour-long build: bad
# arguments, and the configuration step (--config-only) from the test
# kernel's configuration with CONFIG_SCHED_SLICEEXT taken out, which must
# come back; from one without CONFIG_RSEQ, where it cannot, the script
# must fail and say so.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
kd=$top/scripts/kernel-deb.sh
work=$SLICEEXT_WORK/kernel-deb
out=$work/out
mkdir -p "$work"

check "--help exits 0 and documents --config-only" \
	bash -c "'$kd' --help | grep -q -- --config-only"

echo "CONFIG_FOO=y" > "$work/ok.config"
for args in "--bogus" "--config" "--config $work/none" "--config /etc/hostname" \
	    "--config $work/ok.config -j x" "--config $work/ok.config -j 0" \
	    "--config $work/ok.config --localversion A/B" "--config $work/ok.config extra"; do
	rc=0
	# shellcheck disable=SC2086 # $args is a word list
	msg=$("$kd" --out "$out" $args 2>&1 >/dev/null) || rc=$?
	check_eq "kernel-deb.sh $args: exit 2" 2 "$rc"
	check "kernel-deb.sh $args: says why" test -n "$msg"
done
check_fails "bad arguments unpacked nothing" test -e "$out"

# The configuration step starts from the test kernel's configuration,
# which tests/run provides.
if [ ! -f "${KBUILD:-}/.config" ]; then
	skip "--config-only" "no test kernel configuration (KBUILD; run from tests/run)"
	tap_done
	exit
fi

# Debian's own configurations name certificates only its build tree has.
sed -e '/SCHED_SLICEEXT/d' -e '/^CONFIG_SYSTEM_TRUSTED_KEYS=/d' "$KBUILD/.config" \
	> "$work/in.config"
echo 'CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"' >> "$work/in.config"
cp "$work/in.config" "$work/in.config.orig"
rc=0
cfg=$("$kd" --config "$work/in.config" --out "$out" --localversion -hosttest \
	--config-only 2>"$work/log") || rc=$?
sed 's/^/# /' "$work/log"
check_eq "--config-only exits 0" 0 "$rc"
check_eq "--config-only prints the configuration" "$out/linux-6.12/.config" "$cfg"
check "CONFIG_SCHED_SLICEEXT=y added" grep -qx 'CONFIG_SCHED_SLICEEXT=y' "$cfg"
check "--localversion set" grep -qx 'CONFIG_LOCALVERSION="-hosttest"' "$cfg"
check "missing Debian certificates cleared" \
	grep -q 'SYSTEM_TRUSTED_KEYS: debian/certs/.* cleared' "$work/log"
check_fails "... and named nowhere" grep -q 'debian/certs' "$cfg"
check "the patch series is applied" \
	test -f "$out/linux-6.12/include/linux/sched/sliceext.h"
check "the release is reported" grep -q 'configured 6\.12\.[0-9]*-hosttest from' "$work/log"
check "the user's configuration is left alone" cmp "$work/in.config" "$work/in.config.orig"
check_fails "no packages built" compgen -G "$out/*.deb"

# RSEQ off (only EXPERT can turn it off): SCHED_SLICEEXT cannot be
# enabled. The tree is reused.
sed -e 's/^CONFIG_RSEQ=y/# CONFIG_RSEQ is not set/' \
	-e 's/^# CONFIG_EXPERT is not set/CONFIG_EXPERT=y/' \
	"$work/in.config" > "$work/norseq.config"
rc=0
msg=$("$kd" --config "$work/norseq.config" --out "$out" --config-only 2>&1 >/dev/null) || rc=$?
check_eq "a configuration without CONFIG_RSEQ fails (exit 1)" 1 "$rc"
check "... and names CONFIG_RSEQ" grep -q 'CONFIG_RSEQ' <<<"$msg"
check_fails "... without unpacking again" grep -q unpacking <<<"$msg"

rm -rf "$work"
tap_done
