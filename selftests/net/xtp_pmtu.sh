#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Path MTU: 1 MB each way across a 1400-byte hop between two routers.
#
#   client 198.18.1.1 --1500-- r1 --1400-- r2 --1500-- 198.18.3.2 server
#
# Both ends start with 1448-byte payloads (1500-byte packets, DF set),
# which the 1400-byte hop cannot carry.  With ICMP, r1 and r2 answer
# fragmentation needed: each end counts PmtuReduced and goes on in
# smaller packets.  With the routers' ICMP dropped (a PMTU black hole),
# each end finds out from handshakes that its peer answers while its data
# gets nowhere, and counts PmtuBlackhole.  Before either was handled the
# transfer hung until CTIMEOUT.  Each run checks the sha256 of both
# directions and, from the routers' counters, that nothing was
# fragmented on the way.  With IP_MTU_DISCOVER set to IP_PMTUDISC_DONT
# at both ends (256 KB each way) the packets leave without DF: r1 and r2
# fragment them,
# and each end reassembles DATA packets whose data lies in an skb's
# fragment list, not in one buffer (the receive path keeps it there).
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/pmtu
mkdir -p "$OUT"

ktap_print_header
ktap_set_plan 13
modprobe xtp

trap hop_cleanup EXIT

# The routers send no fragmentation-needed: a black hole.
blackhole() {
	local ns

	for ns in "$NS_R1" "$NS_R2"; do
		ip netns exec "$ns" nft -f - <<-NFT || return 1
			table ip bh {
				chain out {
					type filter hook output priority 0;
					icmp type destination-unreachable icmp code frag-needed drop
				}
			}
		NFT
	done
}

head -c 1048576 /dev/urandom >"$OUT/up"
head -c 1048576 /dev/urandom >"$OUT/down"
up_sum=$(sha256sum <"$OUT/up")
down_sum=$(sha256sum <"$OUT/down")
# A quarter of each for the fragmenting hop (180 packets each way; the
# debug kernel's reassembly under KASAN took 200 s for 1 MB each way).
head -c 262144 "$OUT/up" >"$OUT/up.q"
head -c 262144 "$OUT/down" >"$OUT/down.q"

# run NAME COUNTER [SUFFIX]: one association, up$SUFFIX and down$SUFFIX
# each way (1 MB); sets $el (ms) and the counter's change at the client
# ($cc) and the server ($cs).
run() {
	local name=$1 counter=$2 up=$OUT/up${3:-} down=$OUT/down${3:-}
	local c0 s0 t0 srv

	c0=$(snmp_get "$counter" "$NS_C")
	s0=$(snmp_get "$counter" "$NS_S")
	# shellcheck disable=SC2086
	ip netns exec "$NS_S" "$PEER" server $PEER_OPTS -T 60 -r "$down" 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.srv.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$name.srv.err"
	t0=$(now_ms)
	# shellcheck disable=SC2086
	timeout 90 ip netns exec "$NS_C" "$PEER" client $PEER_OPTS -T 60 198.18.3.2 9999 \
		<"$up" >"$OUT/$name.cli" 2>"$OUT/$name.cli.err"
	el=$(($(now_ms) - t0))
	wait $srv
	cc=$(($(snmp_get "$counter" "$NS_C") - c0))
	cs=$(($(snmp_get "$counter" "$NS_S") - s0))
}

# Both routers met packets too big for the hop and dropped them whole
# (FragFails: DF set), fragmenting nothing.
hop_dropped() {
	r1f=$(ipstat "$NS_R1" FragFails)
	r2f=$(ipstat "$NS_R2" FragFails)
	frags=$(($(ipstat "$NS_R1" FragOKs) + $(ipstat "$NS_R2" FragOKs)))
	[ "$r1f" -ge 1 ] && [ "$r2f" -ge 1 ] && [ $frags = 0 ]
}

PEER_OPTS=
hop_setup 1500 || ktap_exit_fail_msg "namespace setup failed"
run icmp PmtuReduced
ktap_check "with ICMP: 1 MB client to server arrives intact ($el ms)" \
	'[ "$(sha256sum <"$OUT/icmp.srv")" = "$up_sum" ]'
ktap_check "with ICMP: 1 MB server to client arrives intact" \
	'[ "$(sha256sum <"$OUT/icmp.cli")" = "$down_sum" ]'
ktap_check "with ICMP: both ends lowered their packet size (PmtuReduced client +$cc, server +$cs)" \
	'[ $cc -ge 1 ] && [ $cs -ge 1 ]'
hop_dropped
ktap_check "with ICMP: the hop dropped big packets (r1 $r1f, r2 $r2f) and fragmented none ($frags)" \
	'[ $? -eq 0 ]'

hop_setup 1500 && blackhole || ktap_exit_fail_msg "black-hole setup failed"
run blackhole PmtuBlackhole
ktap_check "black hole: 1 MB client to server arrives intact ($el ms)" \
	'[ "$(sha256sum <"$OUT/blackhole.srv")" = "$up_sum" ]'
ktap_check "black hole: 1 MB server to client arrives intact" \
	'[ "$(sha256sum <"$OUT/blackhole.cli")" = "$down_sum" ]'
ktap_check "black hole: both ends found it (PmtuBlackhole client +$cc, server +$cs)" \
	'[ $cc -ge 1 ] && [ $cs -ge 1 ]'
hop_dropped
ktap_check "black hole: the hop dropped big packets (r1 $r1f, r2 $r2f) and fragmented none ($frags)" \
	'[ $? -eq 0 ]'
ktap_check "black hole: no ICMP reached the client (PmtuReduced $(snmp_get PmtuReduced "$NS_C"))" \
	'[ "$(snmp_get PmtuReduced "$NS_C")" = 0 ]'

PEER_OPTS=-F
hop_setup 1500 || ktap_exit_fail_msg "namespace setup failed"
run fragmented PmtuReduced .q
ktap_check "fragmenting hop: 256 KB client to server arrives intact ($el ms)" \
	'cmp -s "$OUT/fragmented.srv" "$OUT/up.q"'
ktap_check "fragmenting hop: 256 KB server to client arrives intact" \
	'cmp -s "$OUT/fragmented.cli" "$OUT/down.q"'
r1f=$(ipstat "$NS_R1" FragOKs)
r2f=$(ipstat "$NS_R2" FragOKs)
ktap_check "fragmenting hop: r1 and r2 fragmented packets (FragOKs $r1f, $r2f), no end lowered its size (PmtuReduced +$cc, +$cs)" \
	'[ "$r1f" -ge 1 ] && [ "$r2f" -ge 1 ] && [ $cc = 0 ] && [ $cs = 0 ]'
rs=$(ipstat "$NS_S" ReasmOKs)
rc=$(ipstat "$NS_C" ReasmOKs)
ktap_check "fragmenting hop: both ends reassembled (ReasmOKs server $rs, client $rc) and counted no bad packet (InCsumErrors $(snmp_get InCsumErrors "$NS_S"), $(snmp_get InCsumErrors "$NS_C"))" \
	'[ "$rs" -ge 150 ] && [ "$rc" -ge 150 ] &&
	 [ "$(snmp_get InCsumErrors "$NS_S")" = 0 ] &&
	 [ "$(snmp_get InCsumErrors "$NS_C")" = 0 ]'

ktap_finished
