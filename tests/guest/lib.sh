# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the in-guest tests. The runner exports:
#   SLICEEXT_VERSION     module version (from dkms.conf)
#   SLICEEXT_HOOK_ABI    hook ABI version of the patched kernel
#   DKMS_OPTS            --dkmstree/--sourcetree of the prepared DKMS tree
#   SLICEEXT_BADABI_KO   a module built for a mismatched hook ABI

# Run a command as an unprivileged user.
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

# Whether the kernel log has a line containing the fixed string $1.
dmesg_has() {
	dmesg | grep -qF -- "$1"
}
