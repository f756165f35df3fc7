#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The /proc/net/xtp/snmp counters that no other test moves: each event is
# produced on purpose between two namespaces (client $NS_C 198.18.0.1,
# server $NS_S 198.18.0.2) and the counter's change is checked, exactly
# where the event is exact.
#
#   AtmEntries      3 FIRSTs to a listener: the gauge is 3 while their
#                   associations wait in the accept queue; when the
#                   listener goes they turn into replay entries (a FIRST
#                   again counts InReplayFirst) and leave no sooner than
#                   2 x net.xtp.msl_ms after their FIRSTs (15 s: their
#                   peer never answers, so each context may end 6 s
#                   after its FIRST, validate.c, before the listener
#                   goes; the window must hold the debug kernel's delays)
#   ListenOverflow  backlog 1, nothing accepted: 2 FIRSTs are queued (a
#                   backlog of N holds N + 1, as TCP's), the next 3 are
#                   counted
#   ActiveOpens     +1 for a connect() (refused: no listener)
#   OutDiags        +3 for 3 injected FIRSTs to a port without listener
#   InIcmpErrors    +3: nftables rejects 3 XTP packets with ICMP
#                   admin-prohibited
#   InEarly         +8 and InBadState +1: 9 DATA for an initiator still
#                   in SYN_SENT (the server's XTP input dropped; the key
#                   from a capture): it holds 8 for the TCNTL, drops the 9th
#   InDupData       +1: the same DATA injected twice into an association
#   Handshakes      +1 and HandshakeFails +1: the server goes silent after
#                   the setup, the client's data starts the handshake and
#                   CTIMEOUT (2 s) ends it with ETIMEDOUT
#   OutEcntls, EcntlLosses, RetransSegs
#                   200 KB under netem loss 10% on the client's egress:
#                   all > 0, EcntlLosses <= RetransSegs, the data arrives
#   SpuriousRtx     +1: a scripted receiver (xtp_ctrpeer spurious) makes
#                   the client retransmit d1 and acknowledges it at once
#                   (also RetransSegs +1, EcntlLosses +1)
#   InNoMem         +1 and no child: failslab fails the listener's
#                   sk_clone_lock() once; skipped without
#                   /sys/kernel/debug/failslab (CONFIG_FAILSLAB)
# and at the end no context of the test is left in either namespace.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
OUT=${XTP_OUT:-/tmp}/xtp_counters
mkdir -p "$OUT"
PIDS=

sc() { snmp_get "$1" "$NS_C"; }
ss() { snmp_get "$1" "$NS_S"; }
# snmp_is NS NAME VALUE
snmp_is() { [ "$(snmp_get "$2" "$1")" = "$3" ]; }
snmp_ge() { [ "$(snmp_get "$2" "$1")" -ge "$3" ]; }
inject() { ip netns exec "$NS_C" "$B/xtpinject" "$@" >/dev/null; }
bg() { "$@" & PIDS="$PIDS $!"; }
stop() { kill "$@" 2>/dev/null; wait "$@" 2>/dev/null; }

# nft_xtp NS VERDICT: VERDICT for every XTP packet NS receives; without
# VERDICT the table goes.
nft_xtp() {
	ip netns exec "$1" nft delete table ip xtpctr 2>/dev/null
	[ $# -gt 1 ] || return 0
	ip netns exec "$1" nft -f - <<-NFT
	table ip xtpctr {
		chain in {
			type filter hook input priority 0;
			ip protocol $IPPROTO_XTP $2
		}
	}
	NFT
}

# pcap_key PCAP NAME: the key xtp_pcap names NAME (A, B, ...) in PCAP.
pcap_key() {
	"$B/xtp_pcap" "$1" 198.18.0.1 keys |
		sed -n "s/^keys .*$2=\([0-9a-f]*\).*/\1/p"
}

ktap_print_header
ktap_set_plan 19
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
cleanup() {
	# shellcheck disable=SC2086
	stop $PIDS
	failslab_off >/dev/null
	xtp_ns_cleanup
}
trap cleanup EXIT
ip netns exec "$NS_S" sysctl -qw net.xtp.msl_ms=15000

# --- InNoMem first, while no other XTP context of this test exists ------
if ! failslab_ready; then
	ktap_test_skip "InNoMem: no $FAILSLAB (kernel without CONFIG_FAILSLAB)"
else
	bg ip netns exec "$NS_S" "$B/xtp_ctrpeer" listen 7010 4 2>"$OUT/nomem.err"
	wait_for 30 grep -q listening "$OUT/nomem.err"
	m0=$(ss InNoMem); p0=$(ss PassiveOpens); i0=$(ss InPkts)
	# Fail only allocations made below xtp_listen_first() (or, if it
	# was inlined, the function it was inlined into).
	failslab_below xtp xtp_listen_first xtp_backlog_rcv
	armed=$?
	inject -t first -k 3001 -p 7010 198.18.0.2
	wait_for 30 snmp_ge "$NS_S" InPkts $((i0 + 1))
	left=$(failslab_off)
	ktap_check "InNoMem +1 when the clone for a FIRST fails, no child ($(ss InNoMem) vs $m0, failslab times left $left)" \
		'[ $armed = 0 ] && [ "$left" = 0 ] && snmp_is $NS_S InNoMem $((m0 + 1)) && snmp_is $NS_S PassiveOpens $p0 && snmp_is $NS_S AtmEntries 0'
	stop $PIDS
	PIDS=
fi

# --- AtmEntries ---------------------------------------------------------
a0=$(ss AtmEntries)
bg ip netns exec "$NS_S" "$B/xtp_ctrpeer" listen 7003 8 2>"$OUT/atm.err"
wait_for 30 grep -q listening "$OUT/atm.err"
p0=$(ss PassiveOpens)
t0=$(now_ms)
for k in 2001 2002 2003; do
	inject -t first -k $k -p 7003 198.18.0.2
done
wait_for 30 snmp_is "$NS_S" PassiveOpens $((p0 + 3))
ktap_check "AtmEntries: $a0 -> $(ss AtmEntries) with 3 associations queued" \
	'[ "$a0" = 0 ] && snmp_is $NS_S AtmEntries 3'
r0=$(ss InReplayFirst)
stop $PIDS
PIDS=
inject -t first -k 2001 -p 7003 198.18.0.2
wait_for 30 snmp_is "$NS_S" InReplayFirst $((r0 + 1))
ktap_check "AtmEntries: the entries outlive their associations (a FIRST again, $(($(now_ms) - t0)) ms after, is a replay)" \
	'snmp_is $NS_S InReplayFirst $((r0 + 1))'
wait_for 60 snmp_is "$NS_S" AtmEntries 0
dt=$(($(now_ms) - t0))
ktap_check "AtmEntries: back to 0 ${dt} ms after the FIRSTs, not before 2 x msl_ms (30000)" \
	'snmp_is $NS_S AtmEntries 0 && [ $dt -ge 30000 ]'

# --- ListenOverflow -----------------------------------------------------
bg ip netns exec "$NS_S" "$B/xtp_ctrpeer" listen 7002 1 2>"$OUT/ovf.err"
wait_for 30 grep -q listening "$OUT/ovf.err"
p0=$(ss PassiveOpens); o0=$(ss ListenOverflow); i0=$(ss InPkts)
for k in 1001 1002; do
	inject -t first -k $k -p 7002 198.18.0.2
done
wait_for 30 snmp_is "$NS_S" PassiveOpens $((p0 + 2))
for k in 1003 1004 1005; do
	inject -t first -k $k -p 7002 198.18.0.2
done
wait_for 30 snmp_is "$NS_S" InPkts $((i0 + 5))
ktap_check "ListenOverflow: +$(($(ss ListenOverflow) - o0)) for 3 FIRSTs beyond backlog 1 (2 queued)" \
	'snmp_is $NS_S ListenOverflow $((o0 + 3)) && snmp_is $NS_S PassiveOpens $((p0 + 2))'
stop $PIDS
PIDS=

# --- ActiveOpens, OutDiags ----------------------------------------------
a0=$(sc ActiveOpens)
ip netns exec "$NS_C" "$B/xtp_ctrpeer" send -C 10000 198.18.0.2 7001 1 \
	2>"$OUT/refused.err"
ktap_check "ActiveOpens: +$(($(sc ActiveOpens) - a0)) for one connect() (refused)" \
	'grep -q "connect: ECONNREFUSED" "$OUT/refused.err" && snmp_is $NS_C ActiveOpens $((a0 + 1))'
d0=$(ss OutDiags); n0=$(ss InNoContext)
for k in 4001 4002 4003; do
	inject -t first -k $k -p 7001 198.18.0.2
done
wait_for 30 snmp_is "$NS_S" InNoContext $((n0 + 3))
ktap_check "OutDiags: +$(($(ss OutDiags) - d0)) for 3 FIRSTs to a port without listener" \
	'snmp_is $NS_S OutDiags $((d0 + 3))'

# --- InIcmpErrors -------------------------------------------------------
ip netns exec "$NS_S" sysctl -qw net.ipv4.icmp_ratelimit=0
nft_xtp "$NS_S" "reject with icmp type admin-prohibited" ||
	echo "# nft reject rule failed"
e0=$(sc InIcmpErrors)
for k in 5001 5002 5003; do
	inject -t first -k $k -p 7001 198.18.0.2
done
wait_for 30 snmp_is "$NS_C" InIcmpErrors $((e0 + 3))
ktap_check "InIcmpErrors: +$(($(sc InIcmpErrors) - e0)) for 3 XTP packets rejected with ICMP" \
	'snmp_is $NS_C InIcmpErrors $((e0 + 3))'

# --- InEarly, InBadState: DATA for an initiator in SYN_SENT --------------
nft_xtp "$NS_S" drop
start_capture "$NS_C" veth-c "$OUT/synsent.pcap"
bg ip netns exec "$NS_C" "$B/xtp_ctrpeer" send -C 30000 198.18.0.2 7005 1 \
	2>"$OUT/synsent.err"
wait_for 30 bash -c "[ \$(tcpdump -r '$OUT/synsent.pcap' 2>/dev/null | grep -c .) -ge 1 ]"
stop_capture
KEY=$(pcap_key "$OUT/synsent.pcap" A)
b0=$(sc InBadState); e0=$(sc InEarly); i0=$(sc InPkts)
for i in $(seq 9); do
	ip netns exec "$NS_S" "$B/xtpinject" -t data -k "0x$KEY" -R -q 24 \
		198.18.0.1 >/dev/null
done
wait_for 30 snmp_is "$NS_C" InPkts $((i0 + 9))
ktap_check "InEarly: +$(($(sc InEarly) - e0)) for 9 DATA to an initiator in SYN_SENT (key $KEY)" \
	'[ -n "$KEY" ] && snmp_is $NS_C InEarly $((e0 + 8))'
ktap_check "InBadState: +$(($(sc InBadState) - b0)): the 9th is beyond the 8 held" \
	'[ -n "$KEY" ] && snmp_is $NS_C InBadState $((b0 + 1))'
stop $PIDS
PIDS=
nft_xtp "$NS_S"

# --- InDupData ----------------------------------------------------------
start_capture "$NS_S" veth-s "$OUT/dup.pcap"
p0=$(ss PassiveOpens)
bg ip netns exec "$NS_S" "$B/xtp_peer" server 7006 >/dev/null 2>"$OUT/dup.srv"
wait_for 30 grep -q listening "$OUT/dup.srv"
bg ip netns exec "$NS_C" "$B/xtp_peer" client -H -T 60 198.18.0.2 7006
wait_for 30 snmp_is "$NS_S" PassiveOpens $((p0 + 1))
wait_for 30 bash -c "[ \$(tcpdump -r '$OUT/dup.pcap' 2>/dev/null | grep -c .) -ge 2 ]"
stop_capture
KEY=$(pcap_key "$OUT/dup.pcap" B)
u0=$(ss InDupData); i0=$(ss InPkts)
for n in 1 2; do
	inject -t data -k "0x$KEY" -R -q 24 198.18.0.2
	wait_for 30 snmp_is "$NS_S" InPkts $((i0 + n))
done
ktap_check "InDupData: +$(($(ss InDupData) - u0)) for one DATA sent twice (key $KEY)" \
	'[ -n "$KEY" ] && snmp_is $NS_S InDupData $((u0 + 1))'
stop $PIDS
PIDS=

# --- Handshakes, HandshakeFails -----------------------------------------
p0=$(ss PassiveOpens)
# CTIMEOUT 2 s on the server too: once killed, its teardown gets no
# answer and would otherwise hold the context (and the module) for 42 s.
bg ip netns exec "$NS_S" "$B/xtp_peer" server -C 2000 7007 >/dev/null 2>"$OUT/hs.srv"
wait_for 30 grep -q listening "$OUT/hs.srv"
rm -f "$OUT/hs.go"
# The client writes once hs.go exists (the output folder may take no FIFO).
ip netns exec "$NS_C" "$B/xtp_ctrpeer" send -g -C 2000 198.18.0.2 7007 1000 \
	< <(wait_for 60 test -e "$OUT/hs.go"; echo go) \
	>"$OUT/hs.cli" 2>"$OUT/hs.cli.err" &
PIDS="$PIDS $!"
wait_for 30 grep -q connected "$OUT/hs.cli.err"
wait_for 30 snmp_is "$NS_S" PassiveOpens $((p0 + 1))
h0=$(sc Handshakes); f0=$(sc HandshakeFails)
nft_xtp "$NS_S" drop
touch "$OUT/hs.go"
wait_for 30 grep -q "^end:" "$OUT/hs.cli"
ktap_check "Handshakes: +$(($(sc Handshakes) - h0)) when the peer went silent" \
	'snmp_is $NS_C Handshakes $((h0 + 1))'
ktap_check "HandshakeFails: +$(($(sc HandshakeFails) - f0)), the association ends: $(cat "$OUT/hs.cli")" \
	'grep -q "end: ETIMEDOUT" "$OUT/hs.cli" && snmp_is $NS_C HandshakeFails $((f0 + 1))'
stop $PIDS
PIDS=
nft_xtp "$NS_S"

# --- OutEcntls, EcntlLosses, RetransSegs under loss --------------------
head -c 200000 /dev/urandom >"$OUT/in.200k"
e0=$(ss OutEcntls); l0=$(sc EcntlLosses); r0=$(sc RetransSegs)
bg ip netns exec "$NS_S" "$B/xtp_peer" server 7008 >"$OUT/loss.out" 2>"$OUT/loss.srv"
wait_for 30 grep -q listening "$OUT/loss.srv"
xtp_netem "$NS_C" veth-c loss 10%
ip netns exec "$NS_C" timeout 120 "$B/xtp_peer" client -T 60 198.18.0.2 7008 \
	<"$OUT/in.200k" >/dev/null 2>"$OUT/loss.cli"
rc=$?
xtp_netem "$NS_C" veth-c
wait_for 30 bash -c "! kill -0 ${PIDS##* } 2>/dev/null"
e1=$(($(ss OutEcntls) - e0)); l1=$(($(sc EcntlLosses) - l0)); r1=$(($(sc RetransSegs) - r0))
echo "# loss 10%: OutEcntls +$e1 (receiver), EcntlLosses +$l1 RetransSegs +$r1 (sender)"
ktap_check "loss: 200 KB arrive intact" \
	'[ $rc -eq 0 ] && cmp -s "$OUT/in.200k" "$OUT/loss.out"'
ktap_check "OutEcntls: the receiver answered with spans (+$e1)" '[ $e1 -gt 0 ]'
ktap_check "EcntlLosses: the sender found losses from the spans (+$l1)" '[ $l1 -gt 0 ]'
ktap_check "RetransSegs: +$r1, at least EcntlLosses (+$l1)" \
	'[ $r1 -gt 0 ] && [ $r1 -ge $l1 ]'
stop $PIDS
PIDS=

# --- SpuriousRtx: d1 acknowledged at once after it was sent again -------
nft_xtp "$NS_S" drop
s0=$(sc SpuriousRtx); r0=$(sc RetransSegs); l0=$(sc EcntlLosses)
bg ip netns exec "$NS_S" "$B/xtp_ctrpeer" spurious -d 500 veth-s 2>"$OUT/spur.peer"
peer=${PIDS##* }
wait_for 30 grep -q listening "$OUT/spur.peer"
bg ip netns exec "$NS_C" "$B/xtp_ctrpeer" send -m 100 -C 5000 198.18.0.2 7009 200 \
	>/dev/null 2>"$OUT/spur.cli"
wait_for 40 bash -c "! kill -0 $peer 2>/dev/null"
wait "$peer"
prc=$?
sed 's/^/# peer: /' "$OUT/spur.peer"
ktap_check "SpuriousRtx: +$(($(sc SpuriousRtx) - s0)) (RetransSegs +$(($(sc RetransSegs) - r0)), EcntlLosses +$(($(sc EcntlLosses) - l0)))" \
	'[ $prc -eq 0 ] && snmp_is $NS_C SpuriousRtx $((s0 + 1)) && snmp_is $NS_C RetransSegs $((r0 + 1)) && snmp_is $NS_C EcntlLosses $((l0 + 1))'
stop $PIDS
PIDS=
nft_xtp "$NS_S"

# Every context of the test ends (orphans within their CTIMEOUT, 5 s).
wait_for 60 xtp_ns_idle "$NS_C"
wait_for 60 xtp_ns_idle "$NS_S"
ktap_check "no XTP context is left (CurrSockets $(sc CurrSockets) and $(ss CurrSockets))" \
	'xtp_ns_idle $NS_C && xtp_ns_idle $NS_S'
ktap_finished
