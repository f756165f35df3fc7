#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP on a hostile network: amplification and reflection.  Requests with a
# forged source (a raw socket in the client namespace; the forged address
# is routed back to that namespace, which drops what it is not the
# destination of, so nobody answers for the victim) and requests to a
# broadcast address get at most 3x their bytes from the server (nft counts
# what leaves the server for the victim); the kernel's PING answers are
# rate-limited; a real client fetches 1 MiB sha256-equal; a
# single-datagram transaction is one datagram each way, two each way when
# the answer waits for the client's token (the first after the module
# loaded), one again for the next socket, which holds that token; a
# server with two addresses answers each from the one asked.
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
ktap_set_plan 11

mkdir -p "$out/files" "$out/got"
head -c 1048576 /dev/urandom >"$out/files/1m"

# A fresh module, for section 0: its token key is drawn on first use.
reloaded=no
modprobe -r mtp 2>/dev/null && reloaded=yes
modprobe mtp || ktap_exit_fail_msg "modprobe mtp"
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

# 0. Single answers that do not fit in 3x the request: the kernel's
# 200-byte IDSTR, then an application's 600-byte one, the first tokens
# since the module loaded.  The server holds the first answer and sends
# its token (OutValidate); the client repeats with it at once and gets
# the answer: two datagrams each way (three when the token key changed
# under the first token).  The second, from another socket, shows that
# token at once (hosts.c keeps it for MTP_TOKEN_KEEP): one datagram
# each way.
ns_s "$B/mtp_rawreq" -L 8082 -i 200 &
ns_s "$B/mtp_rawreq" -L 8083 -j 600 &
wait_for 20 port_open 8082 && wait_for 20 port_open 8083
for p in 8082 8083; do
	len=$([ $p = 8082 ] && echo 200 || echo 600)
	n=$([ $p = 8082 ] && echo 4 || echo 2)
	v=$([ $p = 8082 ] && echo 1 || echo 0)
	want=$(awk -v n=$len 'BEGIN { for (i = 0; i < n; i++)
		printf "%c", 97 + i % 26 }')
	ov0=$(sn OutValidate)
	rm -f "$out/big.pcap"
	ns_c tcpdump -nn -U -i vc -w "$out/big.pcap" udp port $p \
		>"$out/tcpdump.log" 2>&1 &
	tpid=$!
	wait_for 20 grep -q listening "$out/tcpdump.log"
	t0=$(now_ms)
	o=$(ns_c "$B/mtping" $S $p 2>&1)
	t1=$(now_ms)
	wait_for 20 pcap_has "$n" "$out/big.pcap"
	kill $tpid; wait $tpid 2>/dev/null
	tcpdump -nn -r "$out/big.pcap" 2>/dev/null | sed 's/^/# /'
	got=$(echo "$o" | sed -n 2p | sed 's/.*): //')
	ktap_check "$len-byte single answer (port $p, module reloaded: $reloaded): ${#got} bytes after $(echo "$o" | sed -n 's/.*after \([0-9]*\) repeats.*/\1/p') repeats in $((t1 - t0)) ms, $(pcap_n "$out/big.pcap") datagrams, OutValidate +$(($(sn OutValidate) - ov0))" \
		'[ "$got" = "$want" ] && [ "$(pcap_n "$out/big.pcap")" = "$n" ] &&
		 [ "$(ssnmp OutValidate)" = $((ov0 + v)) ]'
done

# 1. A real client fetches 1 MiB sha256-equal, validated from its first
# request by the token the namespace holds: no answer cut.
sv0=$(sn SrvValidated) al0=$(sn SrvAmpLimited)
stats=$(ns_c timeout 120 "$B/mtpget" -e 60000 -p $PORT -o "$out/got/1m" $S 1m 2>&1)
rc=$?
echo "# $stats"
ktap_check "client fetches 1 MiB sha256-equal with the token it holds; SrvValidated +$(($(sn SrvValidated) - sv0)), SrvAmpLimited +$(($(sn SrvAmpLimited) - al0))" \
	'[ $rc -eq 0 ] && same 1m && [ "$(ssnmp SrvValidated)" -gt "$sv0" ] &&
	 [ "$(sn SrvAmpLimited)" = "$al0" ]'

# 2. One spoofed request for the whole 1 MiB object (256 datagrams of
# 16 KiB asked for, no limit), then three spoofed subrequests that the
# kernel's copy of the answer would serve.
out0=$(srv_out)
in1=$(rawreq -s $V -r 0x5f000001 -f 1m $S)
wait_for 60 grep -q "request 5f000001 1m .*ok" "$out/mtpd.log"
in2=$(rawreq -s $V -r 0x5f000001 -A 16384 -n 3 -f 1m $S)
wait_for 30 all_left
sent=$(victim bytes)
inb=$((in1 + in2))
ktap_check "spoofed request + 3 subrequests for 1 MiB ($inb bytes): $sent bytes ($(victim pkts) datagrams) to $V, at most 3x; SrvAmpLimited $(ssnmp SrvAmpLimited)" \
	'[ -n "$in1" ] && [ -n "$in2" ] && [ "$sent" -gt 0 ] &&
	 [ "$sent" -le $((3 * inb)) ] && [ "$(ssnmp SrvAmpLimited)" -gt 0 ]'

# 3. The same through the subnet's broadcast address, and a broadcast
# PING: not unicast, so dropped before anything answers.
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

# 4. A token that is not ours does not validate (InBadToken): the answer
# stays within 3x.
v0=$(victim bytes) out0=$(srv_out) b0=$(sn InBadToken)
inb=$(rawreq -s $V -r 0x5f000004 -t 0x0123456789abcdef -f 1m $S)
wait_for 30 grep -q "request 5f000004 1m .*ok" "$out/mtpd.log"
wait_for 30 all_left
sent=$(($(victim bytes) - v0))
ktap_check "spoofed request with a forged token ($inb bytes): InBadToken +$(($(sn InBadToken) - b0)), $sent bytes to $V" \
	'[ -n "$inb" ] && [ "$(ssnmp InBadToken)" = $((b0 + 1)) ] &&
	 [ "$sent" -gt 0 ] && [ "$sent" -le $((3 * inb)) ]'

# 5. The kernel's PING answers: at most net.mtp.kping_rate a second.
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

# 6. A single-datagram transaction whose answer fits in 3x the request
# is one datagram each way (the kernel's IDSTR answer).
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

# 7. A second address on the server: requests to it are answered from
# it, by the kernel (IDSTR) and by the application (1 MiB through
# mtpd); the route's own choice, the first address, would be no answer
# to the client.
S2=198.18.0.11
ns_s ip addr add $S2/24 dev vs
o=$(ns_c timeout 20 "$B/mtping" $S2 $PORT 2>&1)
rm -f "$out/got/1m"
stats=$(ns_c timeout 60 "$B/mtpget" -e 20000 -p $PORT -o "$out/got/1m" $S2 1m 2>&1)
rc=$?
echo "# $stats"
ktap_check "server's second address $S2: IDSTR ($(echo "$o" | sed -n 2p)) and 1 MiB sha256-equal answered from it" \
	'echo "$o" | sed -n 2p | grep -q "Response after 0 repeats" &&
	 [ $rc -eq 0 ] && same 1m'

sed 's/^/# server: /' <(ns_s cat /proc/net/mtp/snmp)
ktap_finished
