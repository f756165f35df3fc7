#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The responder's TCNTL overtaken by its first DATA and CNTL.  A responder
# sends its answer right after the TCNTL; on another path, or from another
# CPU's backlog on one host, the answer can arrive first.  The initiator
# holds what overtook the TCNTL (InEarly) and takes it when the TCNTL
# comes, instead of dropping it (InBadState) and waiting a WTIMER for the
# responder to send again (RetransSegs).
#
# The server's veth delays its TCNTLs only (a u32 filter on PFORMAT 5 into
# an HTB class with netem); xtpperf's crr sends a request in a FIRST and
# checks the length of each answer.
set -u
. "$(dirname "$0")/lib.sh"

X=$XTP_BINDIR/xtpperf
OUT=${XTP_OUT:-/tmp}/xtp_early
N=5
mkdir -p "$OUT"
SRV=

cleanup() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	xtp_ns_cleanup
}

# delay_tcntl MS: the server's TCNTLs leave MS later than the rest, through
# an HTB class of their own (HTB: the debug kernel has no prio qdisc).
# The XTP header follows a 20-byte IP header; PFORMAT is the low 5 bits
# of the COMMAND word's last byte, at offset 20 + 8 + 3.
delay_tcntl() {
	local t="tc -n $NS_S"

	$t qdisc add dev veth-s root handle 1: htb default 10 &&
	$t class add dev veth-s parent 1: classid 1:10 htb rate 10gbit &&
	$t class add dev veth-s parent 1: classid 1:20 htb rate 10gbit &&
	$t qdisc add dev veth-s parent 1:20 handle 30: netem delay "${1}ms" &&
	$t filter add dev veth-s parent 1: protocol ip prio 1 u32 \
		match ip protocol 36 0xff match u8 0x05 0x1f at 31 flowid 1:20
}

# field NAME: a number of the client's JSON object.
field() {
	sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" "$OUT/crr.json"
}

ktap_print_header
ktap_set_plan 5
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap cleanup EXIT
delay_tcntl 200 || ktap_exit_fail_msg "tc setup failed"

ip netns exec "$NS_S" "$X" -s -P xtp -p 5201 -w 4 2>"$OUT/srv.err" &
SRV=$!
wait_for 30 grep -q listening "$OUT/srv.err" ||
	ktap_exit_fail_msg "xtpperf server did not start"

early0=$(snmp_get InEarly "$NS_C")
bad0=$(snmp_get InBadState "$NS_C")
rtx0=$(snmp_get RetransSegs "$NS_S")
sent0=$(tc -n "$NS_S" -s qdisc show dev veth-s | awk '/^qdisc netem 30:/ {
	getline; print $4 }')
t0=$(now_ms)
ip netns exec "$NS_C" timeout 120 "$X" -j -c 198.18.0.2 -P xtp -p 5201 \
	-m crr -q 64 -r 100 -k $N >"$OUT/crr.json" 2>"$OUT/crr.err"
rc=$?
ms=$(($(now_ms) - t0))
sent=$(tc -n "$NS_S" -s qdisc show dev veth-s | awk '/^qdisc netem 30:/ {
	getline; print $4 }')
echo "# $N transactions in $ms ms; TCNTLs delayed: $((sent - sent0))"
echo "# client InEarly +$(($(snmp_get InEarly "$NS_C") - early0))," \
	"InBadState +$(($(snmp_get InBadState "$NS_C") - bad0));" \
	"server RetransSegs +$(($(snmp_get RetransSegs "$NS_S") - rtx0))"

ktap_check "$N requests answered with 100 bytes each" \
	'[ $rc = 0 ] && [ "$(field transactions)" = $N ] &&
	 [ "$(field errors)" = 0 ] && [ "$(field bytes)" = $((N * 164)) ]'
ktap_check "every TCNTL went through the delaying band" \
	'[ $((sent - sent0)) = $N ]'
ktap_check "the answers that overtook the TCNTLs were held (InEarly)" \
	'[ $(($(snmp_get InEarly "$NS_C") - early0)) -ge $N ]'
ktap_check "... not dropped (InBadState unchanged)" \
	'[ "$(snmp_get InBadState "$NS_C")" = "$bad0" ]'
ktap_check "... so the server sent nothing again (RetransSegs unchanged)" \
	'[ "$(snmp_get RetransSegs "$NS_S")" = "$rtx0" ]'
ktap_finished
