#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build iproute2's ss and nstat from Debian's source package with the patch
# series in tools/iproute2/patches (ss --xtp and --mtp, nstat reading
# /proc/net/{xtp,mtp}/snmp), as a maintainer would send it.
#
#   build.sh
#
# Everything happens under build/iproute2/ of the repository:
#   src/        `apt-get source iproute2` (fetched once, Debian's patches in)
#   tree/       a copy of it with our series applied, rebuilt whenever the
#               series or include/uapi/linux/xtp.h changes
#   ss, nstat   the binaries
# The uapi header is copied in as iproute2 syncs kernel headers, apart
# from the series.  Prints the path of ss on the last line.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
base=$top/build/iproute2
want=6.1.0
jobs=${JOBS:-2}

log() { echo "iproute2: $*" >&2; }

"$top/scripts/debian-source.sh" iproute2 "$want" "$base/src"

stamp=$(cat "$here"/patches/*.patch "$top/include/uapi/linux/xtp.h" |
	sha256sum | cut -c1-16)
tree=$base/tree
if [ "$(cat "$tree/.series" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$tree"
	cp -a "$base/src/iproute2-$want" "$tree"
	cp "$top/include/uapi/linux/xtp.h" "$tree/include/uapi/linux/xtp.h"
	for p in "$here"/patches/*.patch; do
		patch -s -p1 -d "$tree" <"$p" || {
			log "$(basename "$p") does not apply"
			exit 1
		}
	done
	log "configuring"
	(cd "$tree" && ./configure >configure.out 2>&1) || {
		tail -20 "$tree/configure.out" >&2
		exit 1
	}
	echo "$stamp" >"$tree/.series"
fi
log "building ss and nstat (make -j$jobs)"
# The top-level Makefile sets the include paths: build lib and misc only.
make -C "$tree" -j"$jobs" SUBDIRS="lib misc" >"$tree/make.out" 2>&1 || {
	grep -E 'error|warning' "$tree/make.out" | head -30 >&2
	exit 1
}
# Our changes compile without warnings.
if grep -E '^(ss|nstat)\.c:.*warning' "$tree/make.out" >&2; then
	log "ss.c or nstat.c has warnings"
	exit 1
fi
cp "$tree/misc/nstat" "$base/nstat"
cp "$tree/misc/ss" "$base/ss"
echo "$base/ss"
