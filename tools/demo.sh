#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build everything, boot the 6.12 kernel in a VM, load XTP and
# MTP, show them registered and counting, and decode the captured XTP
# packets with tshark.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make -s deps modules selftests
make -s -C tools
kver=$(ls /lib/modules | grep '^6\.12' | sort -V | tail -1)
out=$top/build/demo
rm -rf "$out"
mkdir -p "$out"
tools/vm/stage-modules.sh "$kver" "build/mod/$kver" "$out/stage"
echo "Booting $kver under QEMU (TCG); this takes about a minute..."
tools/vm/run.sh -k "$kver" -o "$out" -t 600 -- \
	"$top/tools/demo-guest.sh" "$out/stage" "$out" || {
	echo "demo: the VM run failed; see $out/console.log" >&2
	exit 1
}
cat "$out/demo.txt"

echo
echo "== the capture, decoded by tshark's XTP dissector"
tshark -r "$out/demo.pcap" -o ip.check_checksum:FALSE 2>/dev/null
echo
echo "== the FIRST packet in detail"
tshark -r "$out/demo.pcap" -c 1 -O xtp 2>/dev/null | sed -n '/Xpress Transport/,$p'
