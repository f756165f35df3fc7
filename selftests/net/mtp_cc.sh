#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP congestion control between two namespaces, from the client's
# counters (mtp.rst, "Congestion control"): whether a loss halves the
# destination's window (CongCuts) or is taken as random (RandomLosses)
# depends on whether the path queued before it dropped.
#
#  - A bottleneck that queues: netem at 2 Mbit/s with a 40-packet queue
#    and 10 ms delay, no random loss.  Every loss is an overflow of a
#    queue the RTT saw building: at least one cut, no random loss.  (At
#    8 Mbit/s the debug kernel, moving MTP at 3.8, never filled it.)
#  - A lossy path that does not queue: 25 ms delay each way and 5% loss,
#    no rate limit.  Most losses are random; the window is cut far less
#    often than it is spared.
#  - Pacing: 100 ms of delay on the server's side, no loss, and two
#    512 KiB objects fetched in turn on one socket.  The second
#    transaction starts with the host's RTT known, and its first window
#    of subrequests (everything it sends before the first of them is
#    answered) is spread at the pacing rate, not sent in one burst:
#    over at least a tenth of the RTT (mtp_pace.py reads the client's
#    capture; 31 ms measured, 0.1-0.2 ms before pacing).
#  - The delivery-rate model (net.mtp.cc = 2): 2m through 10 ms delay
#    each way and 10% loss each way arrives with the loss-based window
#    and with the model (times printed: make bench compares them over
#    several runs); the model moves no loss-based window (CongCuts and
#    RandomLosses stay).  Through a 4 Mbit/s bottleneck with a queue of
#    one BDP it moves 2m at 60% of the rate at least.  At 50 ms RTT
#    without loss the kernel's receive buffer grows with the reader and
#    the window passes 256 datagrams; a buffer set with SO_RCVBUF does
#    not grow and bounds the window.
#  - Every object arrives sha256-equal.
#  The first three are the loss-based window's (net.mtp.cc 1), pinned
#  here whatever the default is.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-cc
S=198.18.0.1
PORT=8080

cleanup() {
	mtp_ns_cleanup
	rm -rf "$out"
}
trap cleanup EXIT

port_open() { mtp_port_open "$@"; }
# A fresh qdisc each time, not "replace": a netem changed in place keeps
# the rate of its earlier setting when the new one names none (the first
# section's 2 Mbit/s stayed for the rest).
netem() { mtp_netem_both "$@"; }
same() { [ "$(sha256sum <"$out/files/$1")" = "$(sha256sum <"$out/got/$1")" ]; }

# fetch NAME [RCVBUF]: mtpget NAME into got/ with SO_RCVBUF RCVBUF (4 MiB;
# 0 for none: the kernel's buffer, which grows); the counters' deltas in
# $cuts, $rand, $grows
fetch() {
	local c0 r0 g0 b=${2:-4194304}

	c0=$(csnmp CongCuts) r0=$(csnmp RandomLosses) g0=$(csnmp RcvbufGrows)
	rm -f "$out/got/$1"
	stats=$(ns_c timeout 300 "$B/mtpget" -b "$b" -e 60000 -p $PORT \
		-o "$out/got/$1" $S "$1" 2>&1)
	rc=$?
	echo "# $stats"
	cuts=$(($(csnmp CongCuts) - c0))
	rand=$(($(csnmp RandomLosses) - r0))
	grows=$(($(csnmp RcvbufGrows) - g0))
}
# The transaction's largest window, from mtpget's "window MIN..MAX".
winmax() { sed -n 's/.* window [0-9]*\.\.\([0-9]*\) .*/\1/p' <<<"$stats"; }

ktap_print_header
ktap_set_plan 14

mkdir -p "$out/files" "$out/got"
head -c 2097152 /dev/urandom >"$out/files/2m"
head -c 1048576 /dev/urandom >"$out/files/1m"
head -c 524288 /dev/urandom >"$out/files/a"
head -c 524288 /dev/urandom >"$out/files/b"
mtp_ns_setup mtpcc
ns_c sysctl -qw net.mtp.cc=1
ip netns exec "$MTP_SRV" "$B/mtpd" -q -p $PORT "$out/files" &
wait_for 20 port_open $PORT
ktap_check "mtpd listens on UDP port $PORT" 'port_open $PORT'

netem delay 10ms rate 2mbit limit 40
fetch 2m
ktap_check "bottleneck: 2m arrives sha256-equal" '[ $rc -eq 0 ] && same 2m'
ktap_check "bottleneck: losses cut the window ($cuts cuts, $rand random)" \
	'[ "$cuts" -ge 1 ] && [ "$rand" -eq 0 ]'

netem delay 25ms loss 5%
fetch 1m
ktap_check "5% loss, no queue: 1m arrives sha256-equal" \
	'[ $rc -eq 0 ] && same 1m'
ktap_check "5% loss, no queue: losses mostly random ($rand random, $cuts cuts)" \
	'[ "$rand" -ge 3 ] && [ "$rand" -gt $((2 * cuts)) ]'

ns_c tc qdisc del dev vc root
ns_s tc qdisc del dev vs root
ns_s tc qdisc add dev vs root netem delay 100ms
# not through ns_c: a function run in the background ignores SIGINT
ip netns exec "$MTP_CLI" tcpdump -i vc --immediate-mode -U \
	-w "$out/pace.pcap" "udp dst port $PORT" 2>"$out/pace.err" &
cap=$!
wait_for 30 grep -q listening "$out/pace.err"
stats=$(ns_c timeout 120 "$B/mtpget" -b 4194304 -e 60000 -p $PORT \
	-o "$out/got" $S a b 2>&1)
rc=$?
echo "# ${stats//$'\n'/ / }"
kill -INT $cap
wait $cap
read -r n span < <(python3 "$(dirname "$0")/mtp_pace.py" "$out/pace.pcap" 2 100)
ktap_check "pacing: two objects on one socket arrive sha256-equal" \
	'[ $rc -eq 0 ] && same a && same b'
ktap_check "pacing: the second one's first window, $n subrequests, is spread over $span ms" \
	'[ "$n" -ge 3 ] && [ "${span%.*}" -ge 10 ]'

# The delivery-rate model against the window, 10% loss each way.
ns_c tc qdisc replace dev vc root netem delay 10ms loss 10%
ns_s tc qdisc replace dev vs root netem delay 10ms loss 10%
secs() { sed -n 's/.* bytes in \([0-9.]*\) s .*/\1/p' <<<"$stats"; }
ns_c sysctl -qw net.mtp.cc=1
fetch 2m
rc1=$rc tw=$(secs)
ok1=no
same 2m && ok1=yes
ns_c sysctl -qw net.mtp.cc=2
fetch 2m
tb=$(secs)
ktap_check "10% loss each way: 2m arrives sha256-equal with the window ($ok1, $tw s) and the model ($tb s)" \
	'[ $rc1 -eq 0 ] && [ $ok1 = yes ] && [ $rc -eq 0 ] && same 2m'
ktap_check "10% loss each way: the model keeps no loss-based window ($cuts cuts, $rand random)" \
	'[ "$cuts" -eq 0 ] && [ "$rand" -eq 0 ]'
# A 4 Mbit/s bottleneck with a queue of one BDP (about 12 datagrams at
# 20 ms): the model finds and fills it.
ns_c tc qdisc replace dev vc root netem delay 10ms
ns_s tc qdisc replace dev vs root netem delay 10ms rate 4mbit limit 12
fetch 2m
tq=$(secs)
# A speed bound: the debug kernel's CPU, not the model, sets its pace
# there (9.2 s seen under KASAN), so it stretches by slow_factor.
sf=$(slow_factor)
ktap_check "4 Mbit/s bottleneck: the model moves 2m sha256-equal at >= 60% of it ($tq s, 2m at 4 Mbit/s takes 4.2 s; bound x$sf)" \
	'[ $rc -eq 0 ] && same 2m &&
	 awk -v t="$tq" -v f="$sf" "BEGIN { exit !(t != \"\" && t <= f * 4.2 / 0.6) }"'

# The model's window is flow control alone, bounded by the receive
# buffer, which grows with a reader that keeps up (mtp_rx_autotune()):
# at 50 ms RTT without loss it passes the loss-driven window's 256
# datagrams; a buffer the application set stays as it is and bounds it.
netem delay 25ms
fetch 2m 0
wa=$(winmax) ga=$grows
ktap_check "model, 50 ms RTT, the kernel's buffer: 2m sha256-equal" \
	'[ $rc -eq 0 ] && same 2m'
ktap_check "model: the buffer grew ($ga times) and the window passed 256 datagrams ($wa bytes)" \
	'[ "$ga" -ge 1 ] && [ -n "$wa" ] && [ "$wa" -gt $((256 * 1024)) ]'
fetch 2m 65536
wb=$(winmax) gb=$grows
ktap_check "model, SO_RCVBUF 64 KiB: 2m sha256-equal" \
	'[ $rc -eq 0 ] && same 2m'
ktap_check "model, SO_RCVBUF 64 KiB: no growth ($gb), the window within 64 KiB ($wb bytes)" \
	'[ "$gb" -eq 0 ] && [ -n "$wb" ] && [ "$wb" -le 65536 ]'
ns_c sysctl -qw net.mtp.cc=1

ktap_finished
