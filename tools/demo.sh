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

# Our tcpdump's XTP printer (tools/tcpdump), on the same capture.
if td=$(tools/tcpdump/build.sh normal 2>"$out/tcpdump-build.log" | tail -1) &&
   [ -x "$td" ]; then
	echo
	echo "== the capture, decoded by our tcpdump (${td#"$top"/} -n)"
	"$td" -n -r "$out/demo.pcap" 2>/dev/null || true
	echo
	echo "== the same with -vv (checksums verified, every segment field)"
	"$td" -nvv -r "$out/demo.pcap" 2>/dev/null || true
else
	echo
	echo "== our tcpdump did not build; see $out/tcpdump-build.log"
fi
