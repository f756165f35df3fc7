#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run COMMAND (virtme-ng) in a mount namespace of its own, with the two
# boot services of the host that only slow the guest down stubbed out:
# QEMU exports the guest's root from this namespace, so the guest sees the
# stubs and nothing on the host changes.
#
#  - udev: scripts/vm/udev-stub.sh over the host's udevadm (which
#    systemd-udevd links to) skips the coldplug.
#  - systemd-tmpfiles: true.  It took 3 s of each boot of Debian's kernel
#    and 36-46 s of the debug kernel's, populating a /run and /var that no
#    test reads: the tests make their own directories.
#
# A bind mount that fails leaves that service as it was.
#
#   unshare -m --propagation private scripts/vm/stub-boot-exec.sh COMMAND...
set -u
stub=$(cd "$(dirname "$0")" && pwd)/udev-stub.sh
real=$(readlink -f /usr/lib/systemd/systemd-udevd)
mount --bind "$stub" "$real" ||
	echo "vm: could not stand udev-stub.sh in for $real; booting with udev" >&2
tmpfiles=$(type -P systemd-tmpfiles)
if [ -n "$tmpfiles" ]; then
	mount --bind "$(type -P true)" "$(readlink -f "$tmpfiles")" ||
		echo "vm: could not stub $tmpfiles out; it runs at boot" >&2
fi
exec "$@"
