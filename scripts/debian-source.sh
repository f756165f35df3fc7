#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch a Debian source package once, unpacked with Debian's patches in:
#
#   scripts/debian-source.sh PACKAGE VERSION DIR
#
# leaves DIR/PACKAGE-VERSION (and DIR/.fetched, so a second call does
# nothing).  The project's builds of tcpdump and ss start from there.
set -euo pipefail

pkg=$1 want=$2 dir=$3

[ -f "$dir/.fetched" ] && exit 0
rm -rf "$dir"
mkdir -p "$dir"
echo "$pkg: fetching the Debian source package (apt-get source $pkg)" >&2
# _apt cannot write into build/ when we run as root: download as root.
(cd "$dir" && apt-get source -q -o APT::Sandbox::User=root "$pkg" \
	>fetch.log 2>&1) || {
	cat "$dir/fetch.log" >&2
	echo "$pkg: apt-get source failed (is the deb-src entry of scripts/deps.sh installed?)" >&2
	exit 1
}
[ -d "$dir/$pkg-$want" ] || {
	echo "$pkg: the source package is not $pkg $want:" >&2
	ls "$dir" >&2
	exit 1
}
touch "$dir/.fetched"
