#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Which listener a FIRST reaches, and what an unreachable one says.
#
# ICMP errors for a handshake: a destination that refuses the FIRST for
# good makes connect() fail at once with TCP's errno, instead of after the
# handshake's retries (about 42 s).  The server's namespace answers XTP
# with nft's reject: protocol unreachable, as a host without XTP would
# (ENOPROTOOPT, as TCP's connect() gives for it), then port unreachable
# (ECONNREFUSED).
#
# SO_BINDTODEVICE: a listener bound to lo does not take a FIRST that came
# in on veth (the client is refused, ECONNREFUSED from the DIAG reply);
# one bound to veth-s does.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/reach
mkdir -p "$OUT"

ktap_print_header
ktap_set_plan 7
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

icmp0=$(snmp_get InIcmpErrors "$NS_C")

# try TYPE ERRNO_TEXT: reject XTP with icmp TYPE, connect, and check the
# error, the time it took (ms in $el) and the packets the client sent
# ($sent: the FIRST alone, no retransmission after the first WTIMER).
# The packet count is what shows the error ended the handshake; the time,
# which counts starting the client under ip netns exec, is bounded at
# 20 s, half the retries' 42 s (the debug kernel once took 5129 ms).
try() {
	local type=$1 want=$2 t0 out0

	ip netns exec "$NS_S" nft -f - <<-NFT
		flush ruleset
		table ip rej {
			chain in {
				type filter hook input priority 0;
				ip protocol 36 reject with icmp type $type
			}
		}
	NFT
	out0=$(snmp_get OutPkts "$NS_C")
	t0=$(now_ms)
	timeout 60 ip netns exec "$NS_C" "$PEER" client -T 60 198.18.0.2 9999 \
		</dev/null >"$OUT/$type.out" 2>&1
	el=$(($(now_ms) - t0))
	sent=$(($(snmp_get OutPkts "$NS_C") - out0))
	grep -q "error: connect: $want" "$OUT/$type.out"
}

try prot-unreachable "Protocol not available"
ktap_check "protocol unreachable: connect() fails with ENOPROTOOPT in $el ms after $sent packet ($(cat "$OUT/prot-unreachable.out"))" \
	'[ $? -eq 0 ] && [ $el -lt 20000 ] && [ $sent -eq 1 ]'
try port-unreachable "Connection refused"
ktap_check "port unreachable: connect() fails with ECONNREFUSED in $el ms after $sent packet ($(cat "$OUT/port-unreachable.out"))" \
	'[ $? -eq 0 ] && [ $el -lt 20000 ] && [ $sent -eq 1 ]'
ktap_check "both counted in InIcmpErrors (+$(($(snmp_get InIcmpErrors "$NS_C") - icmp0)))" \
	'[ "$(snmp_get InIcmpErrors "$NS_C")" -ge $((icmp0 + 2)) ]'

# Without the rule the same connect works: the errors were the rule's.
ip netns exec "$NS_S" nft flush ruleset
ip netns exec "$NS_S" "$PEER" server 9999 >/dev/null 2>"$OUT/srv.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv.err"
echo hello | ip netns exec "$NS_C" "$PEER" client 198.18.0.2 9999 \
	>"$OUT/ok.out" 2>&1
ktap_check "without the rule the association works" '[ $? -eq 0 ]'
wait $srv

# bound LISTEN_DEV: a listener on LISTEN_DEV; one client; its output.
# The listener's accept() waits up to 60 s: it was 5 s, and on the debug
# kernel the client (ip netns exec, then connect) once came later.
bound() {
	ip netns exec "$NS_S" "$PEER" server -T 60 -B "$1" 9999 >/dev/null \
		2>"$OUT/srv-$1.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/srv-$1.err"
	echo hello | timeout 60 ip netns exec "$NS_C" "$PEER" client -T 30 \
		198.18.0.2 9999 >"$OUT/dev-$1.out" 2>&1
	local rc=$?

	kill $srv 2>/dev/null
	wait $srv 2>/dev/null
	return $rc
}
bound lo
ktap_check "a listener bound to lo does not take a FIRST from veth-s ($(cat "$OUT/dev-lo.out"))" \
	'grep -q "error: connect: Connection refused" "$OUT/dev-lo.out"'
bound veth-s
rc=$?
ktap_check "a listener bound to veth-s takes it (client exit $rc: $(tr '\n' ' ' <"$OUT/dev-veth-s.out"))" \
	'[ $rc -eq 0 ]'
ktap_check "no context is left" 'wait_for 30 xtp_ns_idle "$NS_C"'
ktap_finished
