#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Packets injected into a live association, addressed with the
# responder's key taken from the capture of its setup:
# - the EDGE rule: a control packet answers a DATA packet whose EDGE bit
#   differs from the last one seen, nothing answers a repeated value;
# - a RETURN key from an address that is not the peer's is dropped;
# - a duplicate FIRST of the live association gets its TCNTL again and
#   opens nothing;
# the ATM cap (net.xtp.atm_max) refuses associations beyond it; and a
# namespace cannot raise atm_max or msl_ms above the initial namespace's.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/edge
EDGE=0x20000000
mkdir -p "$OUT"

out_pkts() { snmp_get OutPkts "$NS_S"; }
in_pkts() { snmp_get InPkts "$NS_S"; }

# inject SEQ OPTIONS: one DATA packet of 4 bytes for the responder
inject() {
	ip netns exec "$NS_C" "$XTP_BINDIR/xtpinject" -t data -k "0x$KEY" -R \
		-q "$1" -o "$2" 198.18.0.2 >/dev/null
}

ktap_print_header
ktap_set_plan 8
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap 'kill $srv $cli 2>/dev/null; xtp_ns_cleanup' EXIT

start_capture "$NS_S" veth-s "$OUT/setup.pcap"
# -S: the server writes what it reads at once, so $OUT/srv shows what
# the injected packets put into the stream while the association lives.
# Both ends wait up to 600 s for data (-T): the association must outlive
# every check, which take over 60 s on the debug kernel.
ip netns exec "$NS_S" "$PEER" server -S -T 600 9999 >"$OUT/srv" \
	2>"$OUT/srv.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv.err"
ip netns exec "$NS_C" "$PEER" client -H -T 600 198.18.0.2 9999 \
	>/dev/null 2>&1 &
cli=$!
wait_for 30 bash -c "[ \"\$(ip netns exec $NS_S awk '\$1==\"XtpPassiveOpens\"{print \$2}' /proc/net/xtp/snmp)\" = 1 ]"
# The FIRST and the TCNTL must be in the file before the capture stops.
wait_for 30 bash -c "[ \$(tcpdump -r '$OUT/setup.pcap' 2>/dev/null | grep -c .) -ge 2 ]"
stop_capture
KEY=$("$XTP_BINDIR/xtp_pcap" "$OUT/setup.pcap" 198.18.0.1 keys |
	sed -n 's/^keys A=[0-9a-f]* B=\([0-9a-f]*\).*/\1/p')
ktap_check "the setup capture names the responder's key ($KEY)" '[ -n "$KEY" ]'
# The client sends nothing after its FIRST, so 3 s after accepting it the
# responder asks it once to show its address (CNTL with SREQ, validate.c)
# and its answer validates it.  Let that exchange happen before the
# counted injections, not among them: OutPkts TCNTL + CNTL, InPkts FIRST
# + answer.
validated() { [ "$(in_pkts)" = 2 ]; }
wait_for 30 validated

o0=$(out_pkts)
i0=$(in_pkts)
inject 24 $EDGE
ktap_check "EDGE toggled 0 -> 1: one control packet" \
	'wait_for 30 bash -c "[ \$(ip netns exec $NS_S awk '"'"'\$1==\"XtpOutPkts\"{print \$2}'"'"' /proc/net/xtp/snmp) -ge $((o0 + 1)) ]"'
inject 28 $EDGE
inject 32 0
wait_for 30 bash -c "[ \$(ip netns exec $NS_S awk '\$1==\"XtpInPkts\"{print \$2}' /proc/net/xtp/snmp) -ge $((i0 + 3)) ]"
wait_for 30 bash -c "[ \$(ip netns exec $NS_S awk '\$1==\"XtpOutPkts\"{print \$2}' /proc/net/xtp/snmp) -ge $((o0 + 2)) ]"
ktap_check "EDGE unchanged: no answer; toggled back: one (out $(( $(out_pkts) - o0 )))" \
	'[ "$(out_pkts)" = $((o0 + 2)) ]'
# Each injected DATA packet carries "data": three in sequence make the
# server read exactly "datadatadata".
srv_has() { [ "$(stat -c %s "$OUT/srv")" -ge "$1" ]; }
wait_for 30 srv_has 12
ktap_check "the injected data reached the stream in order ($(stat -c %s "$OUT/srv") bytes: $(head -c 40 "$OUT/srv" | tr -c '[:print:]' .))" \
	'[ "$(cat "$OUT/srv")" = datadatadata ] &&
	 [ "$(snmp_get RcvbufErrors "$NS_S")" = 0 ] && [ "$(in_pkts)" = $((i0 + 3)) ]'
snmp_is() { [ "$(snmp_get "$1" "$NS_S")" = "$2" ]; }

# A RETURN key is only good from the context's peer.
ip -n "$NS_C" addr add 198.18.0.3/24 dev veth-c
o0=$(out_pkts)
i0=$(in_pkts)
b0=$(snmp_get InBadPeer "$NS_S")
ip netns exec "$NS_C" "$XTP_BINDIR/xtpinject" -t data -k "0x$KEY" -R -q 36 \
	-o $EDGE -S 198.18.0.3 198.18.0.2 >/dev/null
wait_for 30 snmp_is InPkts $((i0 + 1))
ktap_check "RETURN key from another address: dropped, counted, unanswered" \
	'snmp_is InBadPeer $((b0 + 1)) && [ "$(out_pkts)" = "$o0" ] &&
	 [ "$(cat "$OUT/srv")" = datadatadata ]'

# The FIRST again while its association lives.
"$XTP_BINDIR/xtp_pcap" "$OUT/setup.pcap" 198.18.0.1 1 "$OUT/first" >/dev/null
d0=$(snmp_get InDupFirst "$NS_S")
ip netns exec "$NS_C" "$XTP_BINDIR/xtpinject" -f "$OUT/first" 198.18.0.2 \
	>/dev/null
wait_for 30 snmp_is InDupFirst $((d0 + 1))
ktap_check "duplicate FIRST of a live association: TCNTL again, no new context" \
	'snmp_is InDupFirst $((d0 + 1)) && [ "$(out_pkts)" = $((o0 + 1)) ] && snmp_is PassiveOpens 1'

# One ATM entry at most: a second association cannot start.
ip netns exec "$NS_S" sysctl -qw net.xtp.atm_max=1
ip netns exec "$NS_C" "$PEER" client -H -C 3000 198.18.0.2 9999 \
	>/dev/null 2>"$OUT/cli2.err"
ktap_check "beyond net.xtp.atm_max the FIRST is dropped (AtmFull $(snmp_get AtmFull "$NS_S"))" \
	'grep -q "timed out" "$OUT/cli2.err" && [ "$(snmp_get AtmFull "$NS_S")" -ge 1 ]'

# A namespace cannot raise the ATM's limits above the initial one's.
init_atm=$(cat /proc/sys/net/xtp/atm_max)
init_msl=$(cat /proc/sys/net/xtp/msl_ms)
ip netns exec "$NS_S" sysctl -qw net.xtp.atm_max=$((init_atm + 1)) 2>/dev/null
r1=$?
ip netns exec "$NS_S" sysctl -qw net.xtp.msl_ms=$((init_msl + 1)) 2>/dev/null
r2=$?
ip netns exec "$NS_S" sysctl -qw net.xtp.atm_max="$init_atm"
r3=$?
ktap_check "atm_max and msl_ms cannot go above the initial namespace's ($init_atm, $init_msl): $r1 $r2, equal: $r3" \
	'[ $r1 != 0 ] && [ $r2 != 0 ] && [ $r3 = 0 ] &&
	 [ "$(ip netns exec "$NS_S" cat /proc/sys/net/xtp/atm_max)" = "$init_atm" ] &&
	 [ "$(ip netns exec "$NS_S" cat /proc/sys/net/xtp/msl_ms)" = "$init_msl" ]'
ktap_finished
