#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel under QEMU/TCG with virtme-ng and run one command in it.
#
#   scripts/vm/run.sh [-k KVER] [-i IMAGE] [-o OUTDIR] [-t SECONDS] -- COMMAND...
#
# IMAGE defaults to Debian's /boot/vmlinuz-KVER; `make check-debug` boots
# its own bzImage.  VM_APPEND adds kernel parameters.
# The host's file system is visible read-only; OUTDIR (default build/vm)
# is writable and appears at the same path in the guest, /lib/modules is a
# writable overlay so the guest can install modules for modprobe.  The
# whole console goes to OUTDIR/console.log.  The guest boots without
# udev's coldplug (see below).  Exit status: the command's, 124 on
# timeout.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${KVER:-}
out="$top/build/vm"
tmo=${VM_TIMEOUT:-1500}
img=

while getopts k:i:o:t: opt; do
	case $opt in
	k) kver=$OPTARG ;;
	i) img=$OPTARG ;;
	o) out=$OPTARG ;;
	t) tmo=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [-k KVER] [-i IMAGE] [-o DIR] [-t SEC] -- CMD" >&2; exit 2; }

[ -n "$kver" ] || kver=$(ls /lib/modules | grep '^6\.12' | sort -V | tail -1)
[ -n "$img" ] || img=/boot/vmlinuz-$kver
[ -f "$img" ] || { echo "vm: no kernel image $img (make deps)" >&2; exit 2; }
export PATH="$top/.venv/bin:$PATH"
command -v vng >/dev/null || { echo "vm: vng missing (make deps)" >&2; exit 2; }

append=${VM_APPEND:-}
init=()
wrap=()
# udev's coldplug took 16 s of each boot of Debian's kernel and 80-300 s
# of the debug kernel's, and no test needs udev (guest-suite.sh stops
# it): as root, virtme-ng's own init boots with a udev that does nothing
# (udev-stub.sh) and without systemd-tmpfiles (stub-boot-exec.sh).
# Otherwise VM_NO_UDEV=1 boots virtme-ng's bash init,
# patched to skip udev, which spent ~200 s of a debug-kernel boot in its
# ~140 processes; VM_UDEV=1 keeps the real udev.
if [ "${VM_UDEV:-0}" != 1 ] && [ -e /usr/lib/systemd/systemd-udevd ] &&
   unshare -m --propagation private true 2>/dev/null; then
	wrap=(unshare -m --propagation private
	      "$top/scripts/vm/stub-boot-exec.sh")
elif [ "${VM_NO_UDEV:-0}" = 1 ]; then
	append="${append:+$append }virtme_no_udev"
	init=(--no-virtme-ng-init)
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
# virtme-ng wants a terminal-less run to have stdin closed.
set +e
timeout --kill-after=30 "$tmo" \
	"${wrap[@]}" vng --run "$img" --disable-kvm --cpus 2 --memory 2G --verbose \
	--rwdir "$out" --overlay-rwdir /lib/modules "${init[@]}" \
	${append:+--append "$append"} \
	--exec "$*" </dev/null >"$out/console.log" 2>&1
rc=$?
set -e
[ $rc -eq 124 ] && echo "vm: timed out after ${tmo}s" >&2
exit $rc
