#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build everything, boot the 6.12 kernel in a VM, load XTP and
# MTP, show them registered and counting, and decode the captured XTP
# packets with tshark.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# `make check-debug` runs the demo on its debug kernel: XTP_KVER,
# XTP_KIMAGE and XTP_KTREE name that kernel, whose modules it has built.
if [ -z "${XTP_KIMAGE:-}" ]; then
	make -s deps modules selftests
fi
make -s -C tools
kver=${XTP_KVER:-$(ls /lib/modules | grep '^6\.12' | sort -V | tail -1)}
out=$top/${DEMO_OUT:-build/demo}
rm -rf "$out"
mkdir -p "$out"
scripts/vm/stage-modules.sh "$kver" "build/mod/$kver" "$out/stage" \
	${XTP_KTREE:-}
echo "Booting $kver under QEMU (TCG); this takes about a minute..."
scripts/vm/run.sh -k "$kver" ${XTP_KIMAGE:+-i "$XTP_KIMAGE"} -o "$out" \
	-t "${DEMO_TIMEOUT:-600}" -- \
	"$top/scripts/demo-guest.sh" "$out/stage" "$out" || {
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
	if [ -s "$out/demo-mtp.pcap" ]; then
		echo
		echo "== the MTP ping, decoded by our tcpdump (-nvv: every header field, the payload)"
		"$td" -nvv -r "$out/demo-mtp.pcap" 2>/dev/null || true
	fi
else
	echo
	echo "== our tcpdump did not build; see $out/tcpdump-build.log"
fi

count() { tcpdump -r "$1" -nn 2>/dev/null | grep -c .; }
if [ -s "$out/finger-xtp.pcap" ] && [ -n "${td:-}" ] && [ -x "$td" ]; then
	echo
	echo "== finger over XTP, decoded by our tcpdump: the query rides in the FIRST"
	"$td" -n -r "$out/finger-xtp.pcap" 2>/dev/null
	echo
	echo "== xft of 1000 bytes: the thesis' 3-packet FILETRANSFER exchange (Fig. 45)"
	"$td" -n -r "$out/xft.pcap" 2>/dev/null
	echo
	echo "== packets for the same finger query: XTP $(count "$out/finger-xtp.pcap"), TCP $(count "$out/finger-tcp.pcap")"
fi
