#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build tcpdump 4.99 from Debian's source package with the project's XTP
# (and, once it exists, MTP) printers wired in.
#
#   build.sh [normal|asan]
#
# Everything happens under build/tcpdump/ of the repository:
#   src/                 `apt-get source tcpdump` (fetched once), patched
#                        in place by patch-tree.sh on every run
#   tcpdump-4.99.3/      the normal build: build/tcpdump/tcpdump-4.99.3/tcpdump
#   asan/                AddressSanitizer + UBSan build: build/tcpdump/asan/tcpdump
# A second run only recompiles what changed (our printers, normally).
# Prints the path of the binary on the last line.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
variant=${1:-normal}
base=$top/build/tcpdump
want=4.99.3
jobs=${JOBS:-2}

log() { echo "tcpdump: $*" >&2; }

# 1. Source: Debian's package, unpacked with Debian's patches applied.
"$top/scripts/debian-source.sh" tcpdump "$want" "$base/src"
src=$base/src/tcpdump-$want

# 2. Our printers and the edits that call them.
"$here/patch-tree.sh" "$src"

# 3. Configure (out of tree, once per set of flags) and build.
case $variant in
normal)
	obj=$base/tcpdump-$want
	cflags="-O2 -g"
	ldflags=""
	;;
asan)
	obj=$base/asan
	cflags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
	ldflags="-fsanitize=address,undefined"
	;;
*)
	echo "usage: build.sh [normal|asan]" >&2
	exit 2
	;;
esac
conf=(--without-crypto --disable-smb --disable-local-libpcap
      "CFLAGS=$cflags" "LDFLAGS=$ldflags")
mkdir -p "$obj"
if [ ! -f "$obj/Makefile" ] || [ "$(cat "$obj/.conf" 2>/dev/null)" != "${conf[*]}" ] ||
   [ "$src/Makefile.in" -nt "$obj/Makefile" ]; then
	log "configuring $variant build in ${obj#$top/}"
	(cd "$obj" && "$src/configure" -q "${conf[@]}" >configure.out 2>&1) || {
		tail -30 "$obj/configure.out" >&2
		exit 1
	}
	echo "${conf[*]}" >"$obj/.conf"
	# tcpdump's Makefile does not track headers: start from scratch.
	make -C "$obj" -s clean >/dev/null 2>&1 || true
fi
log "building ${obj#$top/}/tcpdump (make -j$jobs)"
make -C "$obj" -s -j"$jobs" tcpdump >"$obj/make.out" 2>&1 || {
	grep -v '^make' "$obj/make.out" | tail -40 >&2
	exit 1
}
echo "$obj/tcpdump"
