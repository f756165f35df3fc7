#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# XTP's drop reasons: every packet XTP frees without taking it goes
# through kfree_skb_reason() with the nearest SKB_DROP_REASON_*, and what
# a socket drops counts in its sk_drops (the drops column of
# /proc/net/xtp/contexts).  skb:kfree_skb and skb:consume_skb are
# recorded in a tracefs instance; a trace marker separates the phases:
#
#   clean   1 MB without loss: XTP consumes what it delivered or got
#           acknowledged, and drops nothing (consume_skb events, no
#           kfree_skb from xtp)
#   csum    3 FIRSTs with a bad CHECK: 3 drops, reason SKB_CSUM, and
#           InCsumErrors +3
#   nokey   2 DATA with a RETURN key nobody has: 2 drops, NO_SOCKET,
#           InNoContext +2
#   nolisten  a FIRST to a port without listener: NO_SOCKET, and again
#           NO_SOCKET for the DIAG that refuses it, at the injector,
#           which has no context (both namespaces share the trace)
#   dup     one DATA injected twice into a live association: 1 drop,
#           TCP_OLD_DATA (XTP reuses TCP's reason for data that had
#           already arrived), and the context's drops column +1
#
# The locations must be in the xtp module.  Needs a kernel that prints
# the dropping function (6.12: location=%pS); elsewhere it skips.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
OUT=${XTP_OUT:-/tmp}/xtp_drops
PLAN=10
mkdir -p "$OUT"
PIDS=

ktap_print_header
ktap_set_plan $PLAN
modprobe xtp

inject() { ip netns exec "$NS_C" "$B/xtpinject" "$@" >/dev/null; }
ss() { snmp_get "$1" "$NS_S"; }
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$PIDS" ] && kill $PIDS 2>/dev/null
	trace_cleanup
	xtp_ns_cleanup
}
trap cleanup EXIT

drop_trace_start ||
	ktap_skip_all $PLAN "no skb:kfree_skb event that names its function"
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
mark() { trace_mark "$1"; }

# --- clean ---------------------------------------------------------------
mark clean
head -c 1048576 /dev/urandom >"$OUT/in"
ip netns exec "$NS_S" timeout 60 "$B/xtprecv" -T 30 -o "$OUT/out" 7500 \
	>/dev/null 2>"$OUT/srv.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv.err"
ip netns exec "$NS_C" timeout 60 "$B/xtpsend" -T 30 -f "$OUT/in" \
	198.18.0.2 7500 >/dev/null 2>&1
rc=$?
wait "$srv"
rrc=$?
wait_for 30 xtp_ns_idle "$NS_C" && wait_for 30 xtp_ns_idle "$NS_S"

# --- csum ----------------------------------------------------------------
mark csum
c0=$(ss InCsumErrors) i0=$(ss InPkts)
for k in 1 2 3; do
	inject -t first -c -k $((3100 + k)) -p 7501 198.18.0.2
done
wait_for 30 test "$(ss InPkts)" = $((i0 + 3))
c1=$(ss InCsumErrors)

# --- nokey ---------------------------------------------------------------
mark nokey
n0=$(ss InNoContext) i0=$(ss InPkts)
for _ in 1 2; do
	inject -t data -k 0x1234 -R -q 24 198.18.0.2
done
wait_for 30 test "$(ss InPkts)" = $((i0 + 2))
n1=$(ss InNoContext)

# --- nolisten ------------------------------------------------------------
mark nolisten
i0=$(ss InPkts)
inject -t first -k 3200 -p 7502 198.18.0.2
wait_for 30 test "$(ss InPkts)" = $((i0 + 1))

# --- dup -----------------------------------------------------------------
ip netns exec "$NS_S" "$B/xtp_peer" server 7503 >/dev/null 2>"$OUT/dup.srv" &
PIDS="$PIDS $!"
wait_for 30 grep -q listening "$OUT/dup.srv"
ip netns exec "$NS_C" "$B/xtp_peer" client -H -T 60 198.18.0.2 7503 \
	>/dev/null 2>&1 &
PIDS="$PIDS $!"
# ctx_field N: field N of the server's association on port 7503.
ctx_field() {
	ip netns exec "$NS_S" awk -v n="$1" \
		'$1 ~ /:7503$/ && $3 == "ACTIVE" { print $n }' /proc/net/xtp/contexts
}
wait_for 30 test -n "$(ctx_field 4)"
KEY=$(ctx_field 4)
d0=$(ctx_field 13)
mark dup
i0=$(ss InPkts)
for n in 1 2; do
	inject -t data -k "0x$KEY" -R -q 24 198.18.0.2
	wait_for 30 test "$(ss InPkts)" -ge $((i0 + n))
done
d1=$(ctx_field 13)
mark end
trace_stop "$OUT/trace"

phase() { trace_phase "$OUT/trace" "$1"; }
drops() { trace_drops "$OUT/trace" "$1" xtp "${2:-}"; }
ktap_check "1 MB arrives sha256-equal (send $rc, recv $rrc)" \
	'[ $rc -eq 0 ] && [ $rrc -eq 0 ] &&
	 [ "$(sha256sum <"$OUT/in")" = "$(sha256sum <"$OUT/out")" ]'
n=$(trace_consumed "$OUT/trace" clean xtp)
ktap_check "clean transfer: $(drops clean) drops in xtp, $n packets consumed" \
	'[ "$(drops clean)" = 0 ] && [ "$n" -gt 0 ]'
ktap_check "bad CHECK: $(drops csum SKB_CSUM) of $(drops csum) drops SKB_CSUM, InCsumErrors +$((c1 - c0))" \
	'[ "$(drops csum SKB_CSUM)" = 3 ] && [ "$(drops csum)" = 3 ] &&
	 [ $((c1 - c0)) = 3 ]'
ktap_check "unknown RETURN key: $(drops nokey NO_SOCKET) of $(drops nokey) drops NO_SOCKET, InNoContext +$((n1 - n0))" \
	'[ "$(drops nokey NO_SOCKET)" = 2 ] && [ "$(drops nokey)" = 2 ] &&
	 [ $((n1 - n0)) = 2 ]'
ktap_check "FIRST without listener, and its refusal: $(drops nolisten NO_SOCKET) of $(drops nolisten) drops NO_SOCKET" \
	'[ "$(drops nolisten NO_SOCKET)" = 2 ] && [ "$(drops nolisten)" = 2 ]'
ktap_check "duplicate DATA: $(drops dup TCP_OLD_DATA) of $(drops dup) drops TCP_OLD_DATA (key $KEY)" \
	'[ -n "$KEY" ] && [ "$(drops dup TCP_OLD_DATA)" = 1 ] && [ "$(drops dup)" = 1 ]'
ktap_check "duplicate DATA: the context's drops $d0 -> $d1" \
	'[ "$d0" = 0 ] && [ "$d1" = 1 ]'
loc=$(phase csum | grep ' kfree_skb: ' | grep ' \[xtp\]' |
	grep -o 'location=[^ ]*' | sed 's/+.*//' | sort -u)
# xtp_rcv() takes a packet, or each packet of a train, to xtp_rcv_one(),
# which the compiler may inline.
ktap_check "bad CHECK dropped in XTP's receive handler ($loc)" \
	'[ "$loc" = location=xtp_rcv_one ] || [ "$loc" = location=xtp_rcv ]'
ktap_check "/proc/net/xtp/contexts names the drops column" \
	'ip netns exec "$NS_S" head -1 /proc/net/xtp/contexts | grep -q " drops$"'
ktap_check "the ring buffer did not overrun ($TRACE_OVERRUN)" \
	'[ "$TRACE_OVERRUN" = 0 ]'

ktap_finished
