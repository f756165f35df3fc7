#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install everything the build, the VM runner and the tests need on a
# Debian 12 (bookworm) machine.  Idempotent: a second run only checks.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
venv="$top/.venv"
stamp="$top/.deps-stamp"

pkgs=(
	build-essential bc kmod flex bison libelf-dev libssl-dev
	clang llvm libclang-rt-14-dev
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	linux-headers-amd64 linux-source-6.12
	# the 6.1 kernel that linux-headers-amd64 builds for, booted by make check
	linux-image-amd64
	qemu-system-x86 iproute2 tcpdump tshark
	python3-venv python3-pip busybox-static patch
	xz-utils ethtool
	# scripted packet drops in the congestion-control tests
	nftables
	# perf counts the xtp tracepoints in xtp_trace.sh
	linux-perf
	dpkg-dev libpcap0.8-dev
	# unmodified programs for the ported-program tests (withxtp, finger)
	finger fingerd netcat-openbsd socat openbsd-inetd
)

# Packages need root: use sudo when we are not root.
sudo=
need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || {
			echo "deps: need root (or sudo) to install packages" >&2
			exit 1
		}
		sudo=sudo
	fi
}

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

src=/etc/apt/sources.list.d/xtp-deb-src.sources
if [ ! -f "$src" ]; then
	need_root
	$sudo tee "$src" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	missing+=(apt-update)
fi

if [ ${#missing[@]} -gt 0 ]; then
	need_root
	echo "deps: installing ${missing[*]}"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
	pk=()
	for p in "${missing[@]}"; do [ "$p" = apt-update ] || pk+=("$p"); done
	if [ ${#pk[@]} -gt 0 ]; then
		$sudo env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends "${pk[@]}"
	fi
fi

if [ ! -x "$venv/bin/vng" ]; then
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q --disable-pip-version-check 'virtme-ng==1.42'
fi
# Our patch to virtme-ng's bash init: VM_NO_UDEV=1 (scripts/vm/run.sh).
guest=$("$venv/bin/python3" -c \
	'import os, virtme; print(os.path.dirname(virtme.__file__))')/guest
grep -q virtme_no_udev "$guest/virtme-init" ||
	patch -s -N "$guest/virtme-init" "$top/scripts/vm/virtme-init-no-udev.patch"

touch "$stamp"
echo "deps: ok ($(ls /lib/modules | grep -c '^6\.12') 6.12 kernel(s), vng $("$venv/bin/vng" --version 2>/dev/null | head -1))"
