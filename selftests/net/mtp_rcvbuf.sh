#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP receive-buffer autotuning (mtp.rst, "Client"): a client socket
# whose receive queue fills with data waiting behind holes doubles its
# buffer up to net.mtp.rmem_max, unless the application set SO_RCVBUF.
#
#  - No loss, 20 ms RTT: 2m arrives and nothing grows (no holes).
#  - 10% loss each way: 2m arrives sha256-equal and the buffer grew
#    (RcvbufGrows), at most five times (212992 doubles past 4 MB in
#    five steps).
#  - The same with SO_RCVBUF set (mtpget -b): nothing grows.
#  - The same with net.mtp.rmem_max at the default buffer: nothing grows.
#  Those are the loss-driven window's (net.mtp.cc 1), which grows the
#  buffer for holes only.  The delivery-rate model (net.mtp.cc 2) grows it
#  with a reader that keeps up (mtp_cc.sh checks how far):
#  - Model, no loss: the buffer grew, at most five times.
#  - Model, net.mtp.rmem_max at the default buffer: nothing grows.
#  (mtp_options checks that a namespace cannot raise rmem_max above the
#  initial namespace's value.)
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-rcvbuf
S=198.18.0.1
PORT=8080

cleanup() {
	mtp_ns_cleanup
	rm -rf "$out"
}
trap cleanup EXIT

port_open() { mtp_port_open "$@"; }
same() { [ "$(sha256sum <"$out/files/2m")" = "$(sha256sum <"$out/got/2m")" ]; }

# fetch [MTPGET-ARGS...]: 2m into got/; the growths in $grew
fetch() {
	local g0

	g0=$(csnmp RcvbufGrows)
	rm -f "$out/got/2m"
	stats=$(ns_c timeout 300 "$B/mtpget" -e 60000 "$@" -p $PORT \
		-o "$out/got/2m" $S 2m 2>&1)
	rc=$?
	echo "# $stats"
	grew=$(($(csnmp RcvbufGrows) - g0))
}

ktap_print_header
ktap_set_plan 8

mkdir -p "$out/files" "$out/got"
head -c 2097152 /dev/urandom >"$out/files/2m"
mtp_ns_setup mtprb
ip netns exec "$MTP_SRV" "$B/mtpd" -q -p $PORT "$out/files" &
wait_for 20 port_open $PORT
ktap_check "mtpd listens on UDP port $PORT" 'port_open $PORT'

ns_c sysctl -qw net.mtp.cc=1
mtp_netem_both delay 10ms
fetch
ktap_check "no loss: 2m arrives sha256-equal, the buffer grew $grew times" \
	'[ $rc -eq 0 ] && same && [ "$grew" -eq 0 ]'

mtp_netem_both delay 10ms loss 10%
fetch
ktap_check "10% loss each way: 2m arrives sha256-equal, the buffer grew $grew times (1-5)" \
	'[ $rc -eq 0 ] && same && [ "$grew" -ge 1 ] && [ "$grew" -le 5 ]'

fetch -b 212992
ktap_check "SO_RCVBUF set: 2m arrives sha256-equal, the buffer grew $grew times" \
	'[ $rc -eq 0 ] && same && [ "$grew" -eq 0 ]'

def=$(ns_c cat /proc/sys/net/core/rmem_default)
ns_c sysctl -qw net.mtp.rmem_max="$def"
fetch
ktap_check "rmem_max $def: 2m arrives sha256-equal, the buffer grew $grew times" \
	'[ $rc -eq 0 ] && same && [ "$grew" -eq 0 ]'

init=$(cat /proc/sys/net/mtp/rmem_max)
ns_c sysctl -qw net.mtp.rmem_max="$init"
fetch
ktap_check "rmem_max back at $init: 2m arrives sha256-equal, the buffer grew $grew times (1-5)" \
	'[ $rc -eq 0 ] && same && [ "$grew" -ge 1 ] && [ "$grew" -le 5 ]'

ns_c sysctl -qw net.mtp.cc=2
mtp_netem_both delay 10ms
fetch
ktap_check "model, no loss: 2m arrives sha256-equal, the buffer grew $grew times (1-5)" \
	'[ $rc -eq 0 ] && same && [ "$grew" -ge 1 ] && [ "$grew" -le 5 ]'

ns_c sysctl -qw net.mtp.rmem_max="$def"
fetch
ktap_check "model, rmem_max $def: 2m arrives sha256-equal, the buffer grew $grew times" \
	'[ $rc -eq 0 ] && same && [ "$grew" -eq 0 ]'

ktap_finished
