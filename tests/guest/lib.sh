# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the in-guest tests. The runner exports:
#   SLICEEXT_VERSION     module version (from dkms.conf)
#   SLICEEXT_HOOK_ABI    hook ABI version of the patched kernel
#   DKMS_OPTS            --dkmstree/--sourcetree of the prepared DKMS tree
#   SLICEEXT_BADABI_KO   a module built for a mismatched hook ABI
#   SLICEEXT_BIN         the C test programs, built on the host

# Run a command as an unprivileged user.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

# Whether the kernel log has a line containing the fixed string $1.
dmesg_has() {
	dmesg | grep -qF -- "$1"
}

# Run a C test from $SLICEEXT_BIN with glibc's own rseq registration off,
# so that the test can register its own area; its TAP passes through.
run_bin() {
	local bin=$SLICEEXT_BIN/$1
	if [ ! -x "$bin" ]; then
		not_ok "$1" "missing test binary $bin"
		return
	fi
	GLIBC_TUNABLES=glibc.pthread.rseq=0 "$bin" || tap_failed=$((tap_failed + 1))
}
