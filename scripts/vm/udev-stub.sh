#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stands in for udevd and udevadm in our VMs: scripts/vm/run.sh
# bind-mounts it over the host's udevadm, which systemd-udevd links to, in
# the mount namespace whose root QEMU exports to the guest.
# virtme-ng-init starts "udevd --daemon", then "udevadm trigger" and
# "udevadm settle": the coldplug that took 16 s of each boot of Debian's
# kernel and 80-300 s of the debug kernel's.  Of all that the guest needs
# only the names of the virtio ports its script's I/O goes through, so
# --daemon links them and every other call does nothing.
case " $* " in
*" --daemon "*)
	mkdir -p /dev/virtio-ports
	for port in /sys/class/virtio-ports/*; do
		[ -r "$port/name" ] || continue
		read -r name <"$port/name"
		[ -n "$name" ] && ln -sf "/dev/${port##*/}" "/dev/virtio-ports/$name"
	done
	;;
esac
exit 0
