#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP between two network namespaces over a veth pair: mtping's output,
# a single-datagram transaction on the wire (tcpdump), files fetched with
# mtpget from mtpd arriving sha256-equal without loss (32 MB), under
# netem loss and delay, and with duplicated and reordered datagrams.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-xfer
S=198.18.0.1
C=198.18.0.2
PORT=8080
# loss%:size pairs, netem loss on both ends and 25 ms delay each way.
# The default run has the 1k and 1m cases at each loss rate and 5:16m
# for a many-chunk object under loss (20:16m and 40:16m stay out: they
# made the worst case 506 s against the 600 s per-test timeout; 40:16m
# alone took 178 s with one busy loop); all nine cases of the issue are
#   MTP_CASES="5:1k 5:1m 5:16m 20:1k 20:1m 20:16m 40:1k 40:1m 40:16m"
# Measured under TCG, seconds (idle host; host loaded with two busy
# loops in brackets):
#   5:1k 0-1 [1]    5:1m 1-4 [2-3]   5:16m 17-18 [31]
#  20:1k 0-6 [2-3] 20:1m 2-4 [4-10] 20:16m 27 [48, one busy loop]
#  40:1k 2-3 [1-4] 40:1m 4-10 [6-7] 40:16m 58 [178, one busy loop]
# The default MTP tests took 158 s of VM time idle, 506 s loaded, with
# 20:16m; without it mtp_xfer.sh took 102 s with a kernel build running
# on the host.
# 64m without loss: 11-22 s idle, 42-54 s loaded (mtp.rst, "Testing");
# 32m (32768 requests) asks as much of the pending-reply checks below and
# saves CI a quarter of this test's time with the hashing.
CASES=${MTP_CASES:-5:1k 5:1m 20:1k 20:1m 40:1k 40:1m 5:16m}
BIG=${MTP_BIG:-32m}

cleanup() {
	mtp_ns_cleanup
	rm -rf "$out/files" "$out/got"
}
trap cleanup EXIT

snmp() { csnmp "$@"; }
port_open() { mtp_port_open "$@"; }
netem() { # netem ARGS...: the same qdisc on both ends
	ns_s tc qdisc replace dev vs root netem "$@" &&
	ns_c tc qdisc replace dev vc root netem "$@"
}
nonetem() {
	ns_s tc qdisc del dev vs root 2>/dev/null
	ns_c tc qdisc del dev vc root 2>/dev/null
	true
}

# fetch NAME: mtpget NAME into got/, stats line in $stats, time in $secs
fetch() {
	local t0=$SECONDS

	rm -f "$out/got/$1"
	stats=$(ns_c timeout 1800 "$B/mtpget" -b 4194304 -e 60000 -p $PORT \
		-o "$out/got/$1" $S "$1" 2>&1)
	rc=$?
	secs=$((SECONDS - t0))
	echo "# $stats"
}
pcap_has() { [ "$(tcpdump -nn -r "$2" 2>/dev/null | wc -l)" -ge "$1" ]; }
# The originals are hashed once, as they are written.
same() { [ "$(cat "$out/files/$1.sha")" = "$(sha256sum <"$out/got/$1")" ]; }
field() { echo "$stats" | sed -n "s/.* $1 \([0-9]*\).*/\1/p"; }

ktap_print_header
ncases=$(echo $CASES | wc -w)
ktap_set_plan $((10 + ncases * 2 + 5))

mkdir -p "$out/files" "$out/got"
for s in $(echo $CASES | tr ' ' '\n' | cut -d: -f2 | sort -u) 1m $BIG; do
	case $s in
	*k) n=$((${s%k} * 1024)) ;;
	*m) n=$((${s%m} * 1048576)) ;;
	esac
	head -c $n /dev/urandom >"$out/files/$s"
	sha256sum <"$out/files/$s" >"$out/files/$s.sha"
done

mtp_ns_setup mtp
ktap_check "two namespaces joined by a veth pair" '[ $? -eq 0 ]'

ip netns exec "$MTP_SRV" "$B/mtpd" -q -p $PORT "$out/files" &
dpid=$!
wait_for 20 port_open $PORT
ktap_check "mtpd listens on UDP port $PORT" 'port_open $PORT'

# mtping against the kernel's own IDSTR answer, then against mtping -s.
o=$(ns_c "$B/mtping" $S $PORT 2>&1)
echo "$o" | sed 's/^/# /'
ktap_check "mtping prints the Appendix B lines (kernel answer)" \
	'[ "$(echo "$o" | sed -n 1p)" = "Sending ACT_IDSTR to $S" ] &&
	 echo "$o" | sed -n 2p | grep -qE "^Response after 0 repeats \(Version 48/0\): Linux MTP$"'
ip netns exec "$MTP_SRV" "$B/mtping" -s 8081 >"$out/mtping-s.log" 2>&1 &
ppid_=$!
wait_for 20 port_open 8081
o=$(ns_c "$B/mtping" $S 8081 2>&1)
echo "$o" | sed 's/^/# /'
wait_for 10 grep -q Payload "$out/mtping-s.log"
sed 's/^/# /' "$out/mtping-s.log"
# The request may go twice: the repeat timer follows the host's RTT,
# which the kernel's answer above just measured, and a program's answer
# under TCG can take longer than that (seen once in CI: "after 1
# repeats", one request received).
ktap_check "mtping -s answers and prints the request" \
	'echo "$o" | grep -qE "^Response after [0-3] repeats \(Version 48/0\): mtping - Linux MTP$" &&
	 grep -qE "^Received Message [0-9a-f]{8} from $C\.[0-9]+$" "$out/mtping-s.log" &&
	 grep -qP "^\tAction: 1\tFlag: 0\tChannel: 00000000$" "$out/mtping-s.log" &&
	 grep -qP "^\tPayload 0 bytes$" "$out/mtping-s.log"'
kill $ppid_ 2>/dev/null
wait $ppid_ 2>/dev/null
ppid_=
# Nothing listens on 8081: the kernel's ICMP port unreachable ends the
# transaction at once (InUnreach).  With the datagrams dropped silently
# instead, it expires after its repeats.
o=$(ns_c "$B/mtping" $S 8081 2>&1)
echo "$o" | sed 's/^/# /'
ktap_check "mtping reports a port that refuses (ICMP port unreachable)" \
	'echo "$o" | grep -q "^Ping failed: Server address is not valid" &&
	 echo "$o" | grep -qP "^\tafter 0 repeats$"'
ns_s nft -f - <<-EOF
	table ip silent {
		chain in {
			type filter hook input priority 0;
			udp dport 8081 drop
		}
	}
EOF
o=$(ns_c "$B/mtping" $S 8081 2>&1)
ns_s nft delete table ip silent
echo "$o" | sed 's/^/# /'
ktap_check "mtping reports a server that does not answer" \
	'echo "$o" | grep -q "^Ping failed: Request expired without valid response" &&
	 echo "$o" | grep -qP "^\tafter [1-9][0-9]* repeats$"'

# A single-datagram transaction is one datagram each way.
ip netns exec "$MTP_CLI" tcpdump -nn -U -i vc -w "$out/single.pcap" udp port $PORT \
	>"$out/tcpdump.log" 2>&1 &
tpid=$!
wait_for 20 grep -q listening "$out/tcpdump.log"
ns_c "$B/mtping" $S $PORT >/dev/null 2>&1
wait_for 20 pcap_has 2 "$out/single.pcap"
kill $tpid; wait $tpid 2>/dev/null
npk=$(tcpdump -nn -r "$out/single.pcap" 2>/dev/null | wc -l)
tcpdump -nn -r "$out/single.pcap" 2>/dev/null | sed 's/^/# /'
ktap_check "single-datagram transaction: 1 request + 1 response ($npk)" \
	'[ "$npk" = 2 ] && [ "$(tcpdump -nn -r "$out/single.pcap" 2>/dev/null | grep -c "length 28")" = 1 ]'

# A request the server has no memory for (failslab on the debug kernel)
# is dropped and counted, and the client's repeat brings the object.
head -c 1024 /dev/urandom >"$out/files/nomem"
sha256sum <"$out/files/nomem" >"$out/files/nomem.sha"
if ! failslab_ready; then
	ktap_test_skip "InNoMem: no $FAILSLAB (kernel without CONFIG_FAILSLAB)"
else
	m0=$(ssnmp InNoMem) d0=$(ssnmp SrvDrops)
	failslab_below mtp mtp_server_rcv mtp_input mtp_encap_rcv
	armed=$?
	fetch nomem
	left=$(failslab_off)
	ktap_check "InNoMem +$(($(ssnmp InNoMem) - m0)), SrvDrops +$(($(ssnmp SrvDrops) - d0)) for a request without memory; the repeat brings it (repeats $(field repeats), failslab left $left)" \
		'[ $armed = 0 ] && [ "$left" = 0 ] && [ $rc -eq 0 ] && same nomem &&
		 [ "$(ssnmp InNoMem)" = $((m0 + 1)) ] &&
		 [ "$(ssnmp SrvDrops)" = $((d0 + 1)) ] && [ "$(field repeats)" -ge 1 ]'
fi

# Without loss: the big object.
fetch $BIG
ktap_check "$BIG object arrives sha256-equal, no loss (${secs}s)" \
	'[ $rc -eq 0 ] && same $BIG'
ktap_check "cache answered subrequests without mtpd" \
	'[ "$(ssnmp CacheHits)" -gt 0 ]'
# Without loss the server drops no subrequest: those that reach it while
# mtpd reads the next chunk wait, merged, for its answer, and the server
# tells the client so (pending replies), which then neither repeats them
# after one repeat interval nor takes them for lost when answers from the
# kernel's copy overtake them.  Measured: 49 repeats in 64098 requests
# (0.08%; before the pending replies 180 in 73051); bounded loosely, as
# TCG under contention stalls the guest past a repeat interval.  The
# debug kernel (KASAN and lockdep under TCG, several times slower) stalls
# past a repeat interval more often: 1.2% and 1.5% of 16 MiB in two runs,
# 3.6% (601 of 16696) in stop 25's CI, 6.1% (1048 of 17124) with a
# module build running on the host, so its tier sets MTP_REPEAT_PCT=10.
# Debian's kernel, 32m, the debug kernel building at SCHED_IDLE on the
# host as in make check (2026-12-03): 215 of 32306 (0.67%) and 392 of
# 31873 (1.23%), so 2%.
PCT=${MTP_REPEAT_PCT:-2}
r=$(field repeats)
q=$(field requests)
ktap_check "$BIG without loss: no pending drops ($(ssnmp SrvPendDrops)), pending replies $(ssnmp OutPending)/$(snmp InPending), repeats $r of $q requests (at most $PCT%)" \
	'[ -n "$r" ] && [ "$(ssnmp SrvPendDrops)" = 0 ] &&
	 [ $((r * 100)) -le $((q * PCT)) ]'

for c in $CASES; do
	loss=${c%:*}
	s=${c#*:}
	netem delay 25ms loss $loss%
	or0=$(snmp OutRepeats)
	oq0=$(snmp OutRequests)
	fetch $s
	r=$(field repeats)
	q=$(field requests)
	dr=$(($(snmp OutRepeats) - or0))
	dq=$(($(snmp OutRequests) - oq0))
	ktap_check "loss $loss% delay 50ms RTT: $s sha256-equal (${secs}s)" \
		'[ $rc -eq 0 ] && same $s'
	if [ $s = 1k ]; then
		# One datagram: no subrequests; every request after the first
		# is a repeat of it.  Whether one is lost is chance (at 40%
		# both ways, none is lost 36% of the time), so the check is
		# that mtpget's count is the kernel's: the transaction's
		# requests and repeats are the client's OutRequests and
		# OutRepeats deltas, and requests = 1 + repeats.
		ktap_check "loss $loss%: $s repeats counted ($r of $q requests; OutRepeats +$dr, OutRequests +$dq)" \
			'[ -n "$r" ] && [ -n "$q" ] && [ "$r" = "$dr" ] &&
			 [ "$q" = "$dq" ] && [ "$q" = $((r + 1)) ]'
	else
		ktap_check "loss $loss%: $s repeats and losses counted (repeats $r losses $(field losses))" \
			'[ "${r:-0}" -gt 0 ] && [ "$(field losses)" -gt 0 ]'
	fi
done
nonetem

# Duplicates and reordering must not corrupt or duplicate data.
netem delay 10ms 5ms duplicate 20% reorder 25% 50%
d0=$(snmp InDuplicates)
fetch 1m
ktap_check "duplicated and reordered: 1m sha256-equal and same size" \
	'[ $rc -eq 0 ] && same 1m && [ "$(stat -c %s "$out/got/1m")" = 1048576 ]'
ktap_check "duplicates were seen and dropped ($(snmp InDuplicates))" \
	'[ "$(snmp InDuplicates)" -gt "$d0" ]'
nonetem

sed 's/^/# client: /' <(ns_c cat /proc/net/mtp/snmp)
sed 's/^/# server: /' <(ns_s cat /proc/net/mtp/snmp)
ktap_check "client counted repeats and losses" \
	'[ "$(snmp OutRepeats)" -gt 0 ] && [ "$(snmp Losses)" -gt 0 ]'
ktap_check "no transaction left behind" \
	'[ "$(snmp TxnStarted)" = $(( $(snmp TxnDone) + $(snmp TxnFailed) )) ]'
ktap_finished
