#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build xtp.ko, mtp.ko and the selftest helper modules against one kernel,
# out of the source tree: build/mod/KVER mirrors the sources as symlinks so
# builds for several kernels never share object files.
#
#   tools/build-modules.sh KVER
#
# Fails if the build fails or prints a warning (W=1).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=$1
kdir=/lib/modules/$kver/build
out=$top/build/mod/$kver
log=$out/build.log

[ -d "$kdir" ] || { echo "build: no headers for $kver in $kdir" >&2; exit 2; }
mkdir -p "$out"
find "$out" -type l -delete
# Sources only: objects of an in-tree build (make -C ... M=$PWD) must not
# leak into the mirror.
(cd "$top" && find Kbuild net include selftests/net/modules \
	-name '*.[ch]' -o -name Makefile -o -name Kbuild) |
while read -r f; do
	mkdir -p "$out/$(dirname "$f")"
	ln -s "$top/$f" "$out/$f"
done

set +e
{
	make -C "$kdir" M="$out" W=1 modules &&
	make -C "$kdir" M="$out/selftests/net/modules" W=1 modules
} >"$log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ] || grep -qE 'warning:|error:' "$log"; then
	grep -E 'warning:|error:|Error' "$log" | head -30 >&2
	exit 1
fi
ls "$out/net/xtp/xtp.ko" "$out/net/mtp/mtp.ko" >/dev/null
