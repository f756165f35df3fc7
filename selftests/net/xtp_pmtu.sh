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
# fragmented on the way.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/pmtu
mkdir -p "$OUT"

ktap_print_header
ktap_set_plan 9
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

# run NAME COUNTER: one association, 1 MB each way; sets $el (ms) and
# the counter's change at the client ($cc) and the server ($cs).
run() {
	local name=$1 counter=$2 c0 s0 t0 srv

	c0=$(snmp_get "$counter" "$NS_C")
	s0=$(snmp_get "$counter" "$NS_S")
	ip netns exec "$NS_S" "$PEER" server -T 60 -r "$OUT/down" 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.srv.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$name.srv.err"
	t0=$(now_ms)
	timeout 90 ip netns exec "$NS_C" "$PEER" client -T 60 198.18.3.2 9999 \
		<"$OUT/up" >"$OUT/$name.cli" 2>"$OUT/$name.cli.err"
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

ktap_finished
