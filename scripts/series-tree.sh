#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Work on the core series (patches/6.12/) as git commits, the way a
# kernel series is usually changed (docs/development.md, "Changing the
# core series"):
#
#   scripts/series-tree.sh apply DIR    Debian's 6.12 source in DIR as one
#                                       commit, tagged "base", with each
#                                       patch applied on it as a commit
#   scripts/series-tree.sh export DIR   patches/6.12/ written anew from the
#                                       commits base..HEAD of DIR
#
# Change the series in DIR with ordinary git (commit --fixup and rebase
# -i --autosquash, reword, a new commit for a new patch), then export.
# Commits are made with fixed committer data (the author's), so that
# applying and exporting an unchanged series reproduces every file
# byte for byte: "git diff patches/" shows only what was changed.
#
# Environment:
#   KSRC=/path  an unpatched 6.12 tree to start from instead of Debian's
#               /usr/src/linux-source-6.12.tar.xz (as scripts/kernel.sh)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
series=$top/patches/6.12
tarball=/usr/src/linux-source-6.12.tar.xz

usage() {
	echo "usage: $0 apply|export DIR" >&2
	exit 2
}

# The identity and date that make the base commit, and so every commit
# on it, the same on every machine.
base_env() {
	export GIT_AUTHOR_NAME="Debian linux-source-6.12"
	export GIT_AUTHOR_EMAIL="linux-source@debian.invalid"
	export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME
	export GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z"
	export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE
}

apply() {
	local dir=$1 p info

	if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
		echo "series-tree.sh: $dir exists and is not empty" >&2
		exit 1
	fi
	mkdir -p "$dir"
	if [ -n "${KSRC:-}" ]; then
		[ -f "$KSRC/Makefile" ] || { echo "series-tree.sh: KSRC=$KSRC is not a kernel tree" >&2; exit 1; }
		rsync -a --exclude=.git "$KSRC/" "$dir/"
	else
		"$top/scripts/deps.sh" build >&2
		tar -xf "$tarball" -C "$dir" --strip-components=1
	fi
	(
		cd "$dir"
		base_env
		git init -q
		# -f: Debian's top .gitignore ignores the whole tree ("/*").
		git add -A -f
		git commit -q -m "Debian linux-source-6.12 $(make -s kernelversion)"
		git tag base
		unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE
		for p in "$series"/*.patch; do
			# The author's name and date as the committer's: the
			# same commit, and so the same "From <hash>" line, each
			# time.
			info=$(git mailinfo /dev/null /dev/null < "$p")
			GIT_COMMITTER_NAME=$(sed -n 's/^Author: //p' <<<"$info")
			GIT_COMMITTER_EMAIL=$(sed -n 's/^Email: //p' <<<"$info")
			export GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
			git am -q --committer-date-is-author-date "$p"
		done
	)
	echo "series-tree.sh: $(git -C "$dir" rev-list --count base..HEAD) patches applied in $dir"
}

export_series() {
	local dir=$1

	git -C "$dir" rev-parse -q --verify base >/dev/null ||
		{ echo "series-tree.sh: $dir has no tag base (apply first)" >&2; exit 1; }
	rm -f "$series"/*.patch
	git -C "$dir" -c core.abbrev=9 format-patch -q -o "$series" base..HEAD
	echo "series-tree.sh: wrote $(ls "$series"/*.patch | wc -l) patches to patches/6.12/"
}

[ $# -eq 2 ] || usage
case $1 in
apply) apply "$2" ;;
export) export_series "$2" ;;
*) usage ;;
esac
