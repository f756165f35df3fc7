#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The FIRST packet hazard (thesis §5.2.6): a FIRST with data, captured and
# replayed after its association ended, must not open a new association
# or deliver its data again.  The ATM replay timer drops it; with the timer
# off (XTPSOCK_NO_ATMAP_TIMER) the thesis' Fig. 20 hazard comes back.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/replay
mkdir -p "$OUT"

# round NAME "SERVER OPTS": one SDT request, then its FIRST again.  The
# server takes up to two associations; it waits 5 s for the second (15 s
# on a debug kernel, where the capture, its decoding and the injection
# between the two took longer than 5 s).
round() {
	local name=$1 sopts=$2 srv

	printf 'REQUEST-ONCE' >"$OUT/$name.in"
	start_capture "$NS_S" veth-s "$OUT/$name.pcap" || return 1
	ip netns exec "$NS_S" "$PEER" server -n 2 -T $((5 * $(slow_factor))) \
		$sopts 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$name.err"
	ip netns exec "$NS_C" "$PEER" client -m sendto -W 198.18.0.2 9999 \
		<"$OUT/$name.in" >/dev/null 2>&1
	wait_for 30 xtp_ns_idle "$NS_C"
	stop_capture
	"$XTP_BINDIR/xtp_pcap" "$OUT/$name.pcap" 198.18.0.1 1 \
		"$OUT/$name.first" >"$OUT/$name.txt"
	REPLAY0=$(snmp_get InReplayFirst "$NS_S")
	ip netns exec "$NS_C" "$XTP_BINDIR/xtpinject" -f "$OUT/$name.first" \
		198.18.0.2 >/dev/null
	wait $srv
}

ktap_print_header
ktap_set_plan 5
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

round atm ""
ktap_check "the captured packet is the FIRST with the request" \
	'grep -q "^c>s F kyA dl36 sy1 sq90000 EOM WCL SRQ" "$OUT/atm.txt"'
ktap_check "replayed FIRST is dropped and counted by the ATM" \
	'[ "$(snmp_get InReplayFirst "$NS_S")" = $((REPLAY0 + 1)) ]'
ktap_check "the request reached the application once" \
	'[ "$(cat "$OUT/atm.srv")" = REQUEST-ONCE ]'

round hazard "-A"
ktap_check "without the ATM timer the replay opens a new association" \
	'[ "$(snmp_get InReplayFirst "$NS_S")" = "$REPLAY0" ]'
ktap_check "... and delivers the request twice (Fig. 20 hazard)" \
	'[ "$(cat "$OUT/hazard.srv")" = REQUEST-ONCEREQUEST-ONCE ]'
ktap_finished
