# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: sliceext.ko loaded, once, or why not.

# Bring the module in, once; MOD_WHY says why it is not there.
mod_why=
load_module() {
	if [ -z "$ko" ]; then
		mod_why="no sliceext module on this kernel ($kernel)"
	elif [ -d "$root/sys/module/sliceext" ]; then
		:
	elif [ ! -f "$ko" ]; then
		mod_why="sliceext.ko was not built"
	elif ! err=$(insmod "$ko" 2>&1); then
		mod_why="insmod failed: $err"
	fi
	if [ -z "$mod_why" ] && [ ! -d "$d" ] && [ -z "$root" ]; then
		grep -qs " /sys/kernel/debug " /proc/mounts ||
			mount -t debugfs debugfs /sys/kernel/debug
	fi
	[ -n "$mod_why" ] || [ -d "$d" ] || mod_why="no $d after loading the module"
	if [ -n "$mod_why" ]; then
		echo "== sliceext: $mod_why"
	else
		echo "== sliceext loaded: version $(cat "$d/version")"
		rec module "$results" --kernel "$kernel" --version "$(cat "$d/version")"
	fi
	return 0
}
