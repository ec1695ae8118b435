# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shell helpers shared by sliceext's scripts. Source it, do not run it:
#
#	. "$top/scripts/lib.sh"
#
# It sets nothing but the functions below and never changes shell options.

# sliceext_cache: where kernels, runs and downloads live (SLICEEXT_CACHE,
# default ~/.cache/sliceext). Not under /tmp: the guest mounts its own
# tmpfs there.
sliceext_cache() {
	echo "${SLICEEXT_CACHE:-${HOME:-/root}/.cache/sliceext}"
}

# json_str STRING: STRING as a JSON string literal, quotes included.
# Control characters become \uXXXX, so any command output is safe.
json_str() {
	local s=$1 out='' c i

	s=${s//\\/\\\\}
	s=${s//\"/\\\"}
	case $s in
	*[[:cntrl:]]*)
		for ((i = 0; i < ${#s}; i++)); do
			c=${s:i:1}
			case $c in
			[[:cntrl:]]) printf -v c '\\u%04x' "'$c" ;;
			esac
			out+=$c
		done
		s=$out ;;
	esac
	printf '"%s"' "$s"
}

# sliceext_version TOP: the package version (dkms.conf's PACKAGE_VERSION),
# which the module's SLICEEXT_VERSION must match (tests/host/version.sh).
sliceext_version() {
	sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$1/dkms.conf"
}

# stage_module TOP DEST: copy what building the module needs (and what
# "dkms add" copies) into DEST, so that kbuild's output never lands in the
# checkout: M=DEST builds sliceext.ko there.
stage_module() {
	local top=$1 dest=$2 f

	mkdir -p "$dest"
	for f in dkms.conf Kbuild Makefile module uapi; do
		[ -e "$top/$f" ] && cp -r "$top/$f" "$dest/"
	done
	return 0
}

# debian_uri: the URIs of the Debian archives the system's apt sources
# name, one a line, in the order apt reads them. Callers pick the one they
# need; no mirror host is ever written into the tree.
debian_uri() {
	local f

	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -e "$f" ] || continue
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' "$f"
	done
}

# debian_main_uri: the first of them that is the main archive (.../debian,
# not debian-security); empty if there is none.
debian_main_uri() {
	debian_uri | grep -E '/debian/?$' | head -n 1
}

# apt_private_download SUITE PACKAGE DIR: download PACKAGE from SUITE of
# the system's Debian mirror into DIR and print the .deb's path, through
# an apt configuration of its own under DIR (sources, lists, caches), so
# that a suite the system does not list (trixie-backports on Debian 12)
# never reaches its apt sources, and apt upgrades nothing from it. The
# Release file is checked against Debian's archive keyring as usual.
apt_private_download() {
	local suite=$1 pkg=$2 dir=$3 uri deb apt_opts

	uri=$(debian_main_uri)
	if [ -z "$uri" ]; then
		echo "no Debian archive in the system's apt sources" >&2
		return 1
	fi
	mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/cache"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" "$suite" > "$dir/$suite.sources"
	apt_opts=(-o "Dir::Etc::sourcelist=$dir/$suite.sources"
		-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$dir/lists"
		-o "Dir::Cache=$dir/cache" -o "Dir::Cache::archives=$dir/archives"
		-o Dir::State::status=/dev/null -o Debug::NoLocking=1
		-o APT::Sandbox::User=root -o Acquire::Retries=3)
	apt-get -qq "${apt_opts[@]}" update >&2 || return 1
	(cd "$dir" && apt-get -qq "${apt_opts[@]}" download "$pkg") >&2 || return 1
	# shellcheck disable=SC2012 # Debian package names have no blanks
	deb=$(ls -t "$dir/${pkg}_"*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || return 1
	echo "$deb"
}

# apt_private_source DIR PACKAGE SUITE...: download the source package
# PACKAGE (its .dsc and the files it names) into DIR, the newest version
# that SUITEs of the system's Debian mirror hold, and print the .dsc's
# path. Like apt_private_download, through an apt configuration of its
# own under DIR (deb-src entries, lists, caches), so the system's sources
# and lists stay as they are. Files already in DIR are checked, not
# fetched again. Nothing is unpacked.
apt_private_source() {
	local dir=$1 pkg=$2 uri dsc apt_opts
	shift 2

	uri=$(debian_main_uri)
	if [ -z "$uri" ]; then
		echo "no Debian archive in the system's apt sources" >&2
		return 1
	fi
	mkdir -p "$dir/lists/partial" "$dir/cache"
	printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$uri" "$*" > "$dir/sources.sources"
	apt_opts=(-o "Dir::Etc::sourcelist=$dir/sources.sources"
		-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$dir/lists"
		-o "Dir::Cache=$dir/cache" -o Dir::State::status=/dev/null
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root
		-o Acquire::Retries=3)
	apt-get -qq "${apt_opts[@]}" update >&2 || return 1
	# --print-uris names the files without fetching them: 'URI' FILE SIZE HASH
	dsc=$(apt-get -qq "${apt_opts[@]}" --print-uris source "$pkg" |
		awk '$2 ~ /\.dsc$/ { print $2; exit }')
	if [ -z "$dsc" ]; then
		echo "no source package $pkg in $*" >&2
		return 1
	fi
	(cd "$dir" && apt-get -qq "${apt_opts[@]}" --download-only source "$pkg") >&2 ||
		return 1
	[ -f "$dir/$dsc" ] || return 1
	echo "$dir/$dsc"
}

# The mainline kernel whose slice extension sliceext is compared with
# (scripts/kernel.sh mainline) and checked against (its rseq selftests).
SLICEEXT_MAINLINE_PKG=linux-source-7.3

# mainline_deb CACHE: Debian's linux-source-7.3 package from
# trixie-backports, downloaded once into CACHE/apt-trixie; prints its path.
mainline_deb() {
	local apt=$1/apt-trixie pkg=$SLICEEXT_MAINLINE_PKG deb

	# shellcheck disable=SC2012 # Debian package names have no blanks
	deb=$(ls -t "$apt/${pkg}_"*_all.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		echo "fetching $pkg from trixie-backports (private apt configuration in $apt)" >&2
		deb=$(apt_private_download trixie-backports "$pkg" "$apt") ||
			{ echo "could not download $pkg" >&2; return 1; }
	fi
	echo "$deb"
}

# In the guest, where a background load runs relative to the task measured
# beside it (the benchmark's placements, docs/development.md): "same" (the caller's group),
# "autogroup" (a session of its own, setsid) or "cgroup" (a cpu cgroup of
# its own under cgroup v2, mounted and given +cpu here if need be).

# load_cgroup NAME: create the cpu cgroup NAME under the root; its path.
load_cgroup() {
	local root=/sys/fs/cgroup
	grep -qs "^[^ ]* $root cgroup2 " /proc/mounts ||
		mount -t cgroup2 none "$root" 2>/dev/null || return 1
	grep -qw cpu "$root/cgroup.subtree_control" ||
		echo +cpu > "$root/cgroup.subtree_control" 2>/dev/null || return 1
	mkdir -p "$root/$1" && echo "$root/$1"
}

# run_placed PLACEMENT CGROUP CMD...: exec CMD in PLACEMENT, CGROUP being
# the directory load_cgroup made for "cgroup" (made once, by the caller,
# who then sees it fail). Replaces the shell: run it in a subshell,
#	(run_placed cgroup "$cg" "$bin/load" --hogs 4) &
run_placed() {
	local where=$1 cg=$2
	shift 2
	case $where in
	same) exec "$@" ;;
	autogroup) exec setsid "$@" ;;
	cgroup) echo "$BASHPID" > "$cg/cgroup.procs" && exec "$@" ;;
	esac
	echo "run_placed: unknown placement '$where'" >&2
	return 1
}

# In the guest, tools/examples/postgresql's server for the tests and the
# benchmark: the build of fetch-build.sh (its install directory), run as
# nobody, since PostgreSQL refuses root, on a cluster on the guest's tmpfs.
# The build sits in the cache under the host's home, which only root may
# enter (/root is 0700), so pg_setup bind-mounts it into a directory of
# its own, DIR: DIR/pg the build, DIR/data the cluster, DIR/run the
# socket, the server's log (server.log) and whatever pgbench writes. They
# set PG_DIR, PG_PID (the server's) and PG_ARGV.

# pg_argv [NAME=VALUE...] PROGRAM [ARG...]: the command that runs the
# build's PROGRAM as nobody, with these variables, in PG_ARGV, for callers
# that run it their own way (in the background, under bench-record.py).
pg_argv() {
	local vars=()
	while [[ $1 == [A-Za-z_]*=* ]]; do
		vars+=("$1")
		shift
	done
	PG_ARGV=(setpriv --reuid=65534 --regid=65534 --clear-groups --
		env -C "$PG_DIR/run" HOME="$PG_DIR/run"
		LD_LIBRARY_PATH="$PG_DIR/pg/lib" "${vars[@]}"
		"$PG_DIR/pg/bin/$1" "${@:2}")
}

# pg_as [NAME=VALUE...] PROGRAM [ARG...]: run it.
pg_as() {
	pg_argv "$@"
	"${PG_ARGV[@]}"
}

# pg_setup INSTALL DIR: DIR (made if need be) laid out as above, and a
# new cluster in DIR/data whose superuser is nobody, trusted on the socket.
pg_setup() {
	PG_DIR=$2 PG_PID=
	mkdir -p "$PG_DIR/pg" "$PG_DIR/data" "$PG_DIR/run" &&
		chmod 755 "$PG_DIR" &&
		chown 65534:65534 "$PG_DIR/data" "$PG_DIR/run" &&
		mount --bind "$1" "$PG_DIR/pg" &&
		pg_as initdb -D "$PG_DIR/data" --auth=trust --no-sync \
			> "$PG_DIR/run/initdb.log" 2>&1
}

# pg_start [NAME=VALUE...] [SERVER-ARG...]: start the server with these
# variables and arguments (-c NAME=VALUE), on the socket in DIR/run only,
# and wait until it accepts connections (2 minutes at most). Started from
# here, not by pg_ctl, which would give it a session, and so an autogroup,
# of its own: the server runs where its caller does.
pg_start() {
	local vars=() end=$((SECONDS + 120))
	while [[ ${1:-} == [A-Za-z_]*=* ]]; do
		vars+=("$1")
		shift
	done
	pg_argv "${vars[@]}" postgres -D "$PG_DIR/data" -k "$PG_DIR/run" \
		-c listen_addresses= "$@"
	"${PG_ARGV[@]}" >> "$PG_DIR/run/server.log" 2>&1 &
	PG_PID=$!
	until pg_as pg_isready -q -h "$PG_DIR/run" -d postgres; do
		if ! kill -0 "$PG_PID" 2>/dev/null || [ $SECONDS -ge $end ]; then
			pg_stop
			return 1
		fi
		sleep 0.5
	done
}

# gone_within PID SECONDS: true once PID has exited, false if it still
# runs after SECONDS (polled every 0.2 s).
gone_within() {
	local _
	for _ in $(seq 1 $(($2 * 5))); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.2
	done
	! kill -0 "$1" 2>/dev/null
}

# pg_stop: stop the server, if it runs: a fast shutdown (2 minutes at
# most), else an immediate one. False if it needed more than the first.
pg_stop() {
	local rc=0
	[ -n "${PG_PID:-}" ] || return 0
	kill -INT "$PG_PID" 2>/dev/null
	if ! gone_within "$PG_PID" 120; then
		rc=1
		kill -QUIT "$PG_PID" 2>/dev/null
		sleep 5
		kill -KILL "$PG_PID" 2>/dev/null
	fi
	wait "$PG_PID" 2>/dev/null
	PG_PID=
	return $rc
}

# pg_cleanup: stop the server and remove DIR, the build's mount first (and
# never what lies under it: --one-file-system).
pg_cleanup() {
	[ -n "${PG_DIR:-}" ] || return 0
	pg_stop
	if mountpoint -q "$PG_DIR/pg"; then
		umount "$PG_DIR/pg" || return 1
	fi
	rm -rf --one-file-system "$PG_DIR"
	PG_DIR=
}
