#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run COMMAND (virtme-ng) with scripts/vm/udev-stub.sh in place of the
# host's udevadm, in a mount namespace of its own: the guest, whose root
# QEMU exports from this namespace, boots without udev's coldplug, and
# nothing on the host changes.  Should the bind mount fail, COMMAND runs
# all the same, with udev.
#
#   unshare -m --propagation private scripts/vm/no-udev-exec.sh COMMAND...
set -u
stub=$(cd "$(dirname "$0")" && pwd)/udev-stub.sh
real=$(readlink -f /usr/lib/systemd/systemd-udevd)
mount --bind "$stub" "$real" ||
	echo "vm: could not stand udev-stub.sh in for $real; booting with udev" >&2
exec "$@"
