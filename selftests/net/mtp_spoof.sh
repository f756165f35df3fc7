#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP on a hostile network: amplification and reflection.  Requests with a
# forged source (a raw socket in the client namespace; the forged address
# is routed back to that namespace, which drops what it is not the
# destination of, so nobody answers for the victim) sent to a broadcast
# address get at most 3x their bytes from the server (nft counts what
# leaves the server for the victim); the kernel's PING answers are
# rate-limited; a real client still fetches 1 MiB sha256-equal, and a
# single-datagram transaction is still one datagram each way.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-spoof
S=198.18.0.1
C=198.18.0.2
V=198.18.1.99		# the victim: forged source, routed to nowhere
BCAST=198.18.0.255
PORT=8080

cleanup() {
	mtp_ns_cleanup
	rm -rf "$out/files" "$out/got"
}
trap cleanup EXIT

port_open() { mtp_port_open "$@"; }
# sn NAME: a server counter, 0 if the module does not have it.
sn() {
	local v

	v=$(ssnmp "$1")
	echo "${v:-0}"
}
same() { [ "$(sha256sum <"$out/files/$1")" = "$(sha256sum <"$out/got/$1")" ]; }
# victim pkts|bytes: what the server sent the victim (nft counter).
victim() {
	ns_s nft list counter ip spoof victim |
		sed -n "s/.*packets \([0-9]*\) bytes \([0-9]*\).*/\1 \2/p" |
		awk -v f="$1" '{ print f == "pkts" ? $1 : $2 }'
}
# Datagrams the server's MTP has queued: answers, pending and validate
# replies.  Once the nft counter has seen as many, all of them have left.
srv_out() {
	echo $(($(ssnmp OutResponses) + $(ssnmp OutPending) + \
		$(sn OutValidate)))
}
all_left() { [ "$(victim pkts)" -ge $(($(srv_out) - out0)) ]; }
rawreq() { ns_c "$B/mtp_rawreq" "$@"; }
pcap_n() { tcpdump -nn -r "$1" 2>/dev/null | wc -l; }
pcap_has() { [ "$(pcap_n "$2")" -ge "$1" ]; }

ktap_print_header
ktap_set_plan 6

mkdir -p "$out/files" "$out/got"
head -c 1048576 /dev/urandom >"$out/files/1m"

mtp_ns_setup spf &&
ip -n "$MTP_SRV" route add 198.18.1.0/24 via $C &&
ns_s nft -f - <<-EOF
	table ip spoof {
		counter victim { }
		chain out {
			type filter hook output priority 0; policy accept;
			ip daddr $V counter name victim
		}
	}
EOF
ktap_check "namespaces, victim $V routed to the client namespace, nft counter" \
	'[ $? -eq 0 ] && [ "$(victim bytes)" = 0 ]'

ns_s "$B/mtpd" -p $PORT "$out/files" >"$out/mtpd.log" 2>&1 &
wait_for 20 port_open $PORT
ktap_check "mtpd listens on UDP port $PORT" 'port_open $PORT'

# 1. A spoofed request for the whole 1 MiB object (256 datagrams of
# 16 KiB asked for, no limit) and a PING, both to the subnet's broadcast
# address: not unicast, so dropped before anything answers.
v0=$(victim bytes) out0=$(srv_out) k0=$(ssnmp KernelReplies)
u0=$(sn InNotUnicast)
inb=$(rawreq -b -s $V -r 0x5f000002 -f 1m $BCAST)
inp=$(rawreq -b -s $V -r 0x5f000003 -a 0 $BCAST)
bcast_seen() {
	grep -q "request 5f000002" "$out/mtpd.log" ||
		[ "$(sn InNotUnicast)" -ge $((u0 + 2)) ]
}
wait_for 60 bcast_seen
wait_for 30 all_left
sent=$(($(victim bytes) - v0))
ktap_check "broadcast request for 1 MiB and PING ($((inb + inp)) bytes): $sent bytes to $V, at most 3x; InNotUnicast +$(($(sn InNotUnicast) - u0))" \
	'[ -n "$inb" ] && [ "$sent" -le $((3 * (inb + inp))) ] &&
	 [ "$(ssnmp InNotUnicast)" = $((u0 + 2)) ] &&
	 [ "$(ssnmp KernelReplies)" = "$k0" ]'

# 2. The kernel's PING answers: at most net.mtp.kping_rate a second.
RATE=5
N=40
ns_s sysctl -qw net.mtp.kping_rate=$RATE
v0=$(victim bytes) out0=$(srv_out)
k0=$(ssnmp KernelReplies) d0=$(sn KernelRateDrops)
t0=$(now_ms)
inb=$(rawreq -s $V -r 0x5f100000 -N -a 0 -n $N $S)
t1=$(now_ms)
pings_done() {
	[ $(($(ssnmp KernelReplies) - k0 + $(sn KernelRateDrops) - d0)) -ge $N ]
}
wait_for 30 pings_done
wait_for 30 all_left
dk=$(($(ssnmp KernelReplies) - k0))
dd=$(($(sn KernelRateDrops) - d0))
# A 1-second window lets RATE through in each second the burst touched.
most=$((RATE * ((t1 - t0) / 1000 + 2)))
sent=$(($(victim bytes) - v0))
ktap_check "$N spoofed PINGs in $((t1 - t0)) ms at kping_rate $RATE: $dk answered (at most $most), KernelRateDrops +$dd, $sent bytes to $V of $inb" \
	'[ $((dk + dd)) = $N ] && [ $dk -ge 1 ] && [ $dk -le $most ] &&
	 [ "$sent" -le $((3 * inb)) ]'
ns_s sysctl -qw net.mtp.kping_rate=1000

# 3. A real client: 1 MiB sha256-equal.
stats=$(ns_c timeout 120 "$B/mtpget" -e 60000 -p $PORT -o "$out/got/1m" $S 1m 2>&1)
rc=$?
echo "# $stats"
ktap_check "client fetches 1 MiB sha256-equal" '[ $rc -eq 0 ] && same 1m'

# 4. A single-datagram transaction is one datagram each way (the
# kernel's IDSTR answer).
ns_c tcpdump -nn -U -i vc -w "$out/single.pcap" udp port $PORT \
	>"$out/tcpdump.log" 2>&1 &
tpid=$!
wait_for 20 grep -q listening "$out/tcpdump.log"
o=$(ns_c "$B/mtping" $S $PORT 2>&1)
wait_for 20 pcap_has 2 "$out/single.pcap"
kill $tpid; wait $tpid 2>/dev/null
tcpdump -nn -r "$out/single.pcap" 2>/dev/null | sed 's/^/# /'
ktap_check "single-datagram IDSTR: 1 request + 1 response ($(pcap_n "$out/single.pcap")): $(echo "$o" | sed -n 2p)" \
	'[ "$(pcap_n "$out/single.pcap")" = 2 ] &&
	 echo "$o" | sed -n 2p | grep -q "Response after 0 repeats (Version 48/0): Linux MTP$"'

sed 's/^/# server: /' <(ns_s cat /proc/net/mtp/snmp)
ktap_finished
