#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (or find cached) the debug kernel of `make check-debug`: Debian's
# linux-source-6.12 configured with x86_64_defconfig + debug.config.
#
#   scripts/debug-kernel/build.sh        prints the tree's path on stdout
#
# The tree lives outside the clone, in $XTP_CACHE (default
# ~/.cache/xtp), under a key made of the source tarball's name, the
# fragment's hash and the compiler's version, so that a later clone on the
# same machine reuses it and any change to the configuration rebuilds it.
# build/debug-kernel in the clone (ignored) links to it.  A build takes
# about 20 minutes on 2 cores; the log goes to <tree>/build.log.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
frag=$top/scripts/debug-kernel/debug.config
cache=${XTP_CACHE:-$HOME/.cache/xtp}
tarball=$(ls /usr/src/linux-source-6.12*.tar.* 2>/dev/null | sort -V | tail -1)
[ -n "$tarball" ] || { "$top/scripts/deps.sh" >&2; \
	tarball=$(ls /usr/src/linux-source-6.12*.tar.* | sort -V | tail -1); }

key=$( { basename "$tarball"; stat -c %s "$tarball"; cat "$frag";
	 gcc --version | head -1; } | sha256sum | cut -c1-16)
tree=$cache/debug-kernel/$key
mkdir -p "$top/build" "$cache/debug-kernel"
ln -sfn "$tree" "$top/build/debug-kernel"

# scripts/check.sh starts a build in the background while the production
# tier runs; the debug tier's own call then waits for it here.
exec 8>"$tree.lock"
flock 8
if [ -f "$tree/.done" ]; then
	echo "$tree"
	exit 0
fi

log() { echo "debug-kernel: $*" >&2; }
rm -rf "$tree"
mkdir -p "$tree"
log "unpacking $(basename "$tarball") into $tree"
tar -xf "$tarball" -C "$tree" --strip-components=1
cd "$tree"

make -s x86_64_defconfig >build.log 2>&1
scripts/kconfig/merge_config.sh -m .config "$frag" >>build.log 2>&1
make -s olddefconfig >>build.log 2>&1

# merge_config.sh only warns when a symbol did not take: the checkers
# must all be there or the tier proves nothing.
for sym in KASAN KASAN_GENERIC PROVE_LOCKING DEBUG_ATOMIC_SLEEP \
	   DEBUG_KMEMLEAK DEBUG_OBJECTS_TIMERS SLUB_DEBUG KUNIT UBSAN \
	   FAILSLAB FAULT_INJECTION_STACKTRACE_FILTER \
	   NET_NS VETH NET_SCH_NETEM NET_SCH_TBF IFB BRIDGE NF_TABLES \
	   NFT_NUMGEN NET_UDP_TUNNEL NET_IPIP NET_IPGRE VXLAN \
	   NET_ACT_MIRRED NET_CLS_MATCHALL \
	   9P_FS VIRTIO_PCI OVERLAY_FS; do
	grep -q "^CONFIG_$sym=y" .config ||
		{ log "CONFIG_$sym did not take (see $tree/build.log)"; exit 1; }
done

log "building bzImage and modules ($(nproc) jobs, ~20 min; log in $tree/build.log)"
start=$(date +%s)
make -j"$(nproc)" bzImage modules >>build.log 2>&1 ||
	{ tail -30 build.log >&2; exit 1; }
make -s modules_prepare >>build.log 2>&1
# Out-of-tree modules link against Module.symvers; the modules target
# wrote it (vmlinux.symvers is the fallback when none were built).
[ -s Module.symvers ] || cp vmlinux.symvers Module.symvers
log "built in $(( $(date +%s) - start )) s"
touch .done
echo "$tree"
