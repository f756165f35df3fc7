#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP's drop reasons: every datagram MTP frees without taking it goes
# through kfree_skb_reason() with the nearest SKB_DROP_REASON_*, and what
# a socket drops counts in its sk_drops (the drops column of
# /proc/net/mtp/sockets).  skb:kfree_skb and skb:consume_skb are recorded
# in a tracefs instance; a trace marker separates the phases:
#
#   clean   mtpget fetches 1 MB from mtpd without loss: MTP consumes
#           what it took and drops nothing from [mtp] but the
#           duplicates of answers it asked for twice
#   short   3 UDP datagrams of 4 bytes to mtpd's port: 3 drops,
#           PKT_TOO_SMALL, InTruncated +3, mtpd's socket drops +3
#   noreq   one response to mtpd for a transaction it never started:
#           1 drop, NO_SOCKET, InNoTransaction +1, drops +1
#
# Needs a kernel that prints the dropping function (6.12: location=%pS);
# elsewhere it skips.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-drops
S=198.18.0.1
PORT=8095
PLAN=7
mkdir -p "$out/files" "$out/got"

ktap_print_header
ktap_set_plan $PLAN
modprobe mtp

cleanup() {
	trace_cleanup
	mtp_ns_cleanup
	rm -rf "$out/files" "$out/got"
}
trap cleanup EXIT
drop_trace_start ||
	ktap_skip_all $PLAN "no skb:kfree_skb event that names its function"
mtp_ns_setup mdr || ktap_exit_fail_msg "namespace setup failed"
mark() { trace_mark "$1"; }
# sock_drops: the drops column of mtpd's socket.
sock_drops() {
	ns_s awk -v p=":$PORT" 'NR > 1 && substr($1, length($1) - length(p) + 1) == p { print $9 }' \
		/proc/net/mtp/sockets
}
# udp_send BYTES...: one UDP datagram with these bytes (hex) from the
# client namespace to mtpd.
udp_send() {
	ns_c python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(bytes.fromhex(sys.argv[1]), (sys.argv[2], int(sys.argv[3])))
' "$1" $S $PORT
}

head -c 1048576 /dev/urandom >"$out/files/obj"
ns_s "$B/mtpd" -q -p $PORT "$out/files" &
wait_for 20 mtp_port_open $PORT

# --- clean -----------------------------------------------------------------
mark clean
stats=$(ns_c timeout 60 "$B/mtpget" -b 4194304 -e 30000 -p $PORT \
	-o "$out/got/obj" $S obj 2>&1)
rc=$?
echo "# $stats"

# --- short -----------------------------------------------------------------
mark short
t0=$(ssnmp InTruncated) d0=$(sock_drops)
for _ in 1 2 3; do
	udp_send 30000000
done
wait_for 30 test "$(ssnmp InTruncated)" = $((t0 + 3))
t1=$(ssnmp InTruncated) d1=$(sock_drops)

# --- noreq -----------------------------------------------------------------
mark noreq
n0=$(ssnmp InNoTransaction)
# Version 3, a response (byte 4), 1 KiB datagrams, no such request id,
# and 10 bytes of data.
udp_send 300000000100000a000000000000000000000000100000000000000000000000000000000000
wait_for 30 test "$(ssnmp InNoTransaction)" = $((n0 + 1))
n1=$(ssnmp InNoTransaction) d2=$(sock_drops)
mark end
trace_stop "$out/trace"

drops() { trace_drops "$out/trace" "$1" mtp "${2:-}"; }
ktap_check "1 MB fetched sha256-equal ($rc)" \
	'[ $rc -eq 0 ] &&
	 [ "$(sha256sum <"$out/files/obj")" = "$(sha256sum <"$out/got/obj")" ]'
n=$(trace_consumed "$out/trace" clean mtp)
# A host busy enough to hold an answer past the repeat timer (2-4 RTTs of
# a millisecond) makes mtpget ask again, and the second answer is a
# duplicate MTP must drop as old data (TCP_OLD_DATA): a CI run on a loaded
# host saw "repeats 4 duplicates 8" and 8 such drops.  Those, as many as
# mtpget counted, are no fault; any other drop is.
dups=$(echo "$stats" | sed -n 's/.* duplicates \([0-9]*\) .*/\1/p')
old=$(drops clean TCP_OLD_DATA)
ktap_check "clean fetch: $(drops clean) drops in mtp ($old old data, $dups duplicates), $n datagrams consumed" \
	'[ "$(drops clean)" = "$old" ] && [ -n "$dups" ] &&
	 [ "$old" -le "$dups" ] && [ "$n" -gt 0 ]'
ktap_check "short datagrams: $(drops short PKT_TOO_SMALL) of $(drops short) drops PKT_TOO_SMALL, InTruncated +$((t1 - t0))" \
	'[ "$(drops short PKT_TOO_SMALL)" = 3 ] && [ "$(drops short)" = 3 ] &&
	 [ $((t1 - t0)) = 3 ]'
ktap_check "short datagrams: mtpd's socket drops $d0 -> $d1" \
	'[ "$d0" = 0 ] && [ "$d1" = 3 ]'
ktap_check "response without request: $(drops noreq NO_SOCKET) of $(drops noreq) drops NO_SOCKET, InNoTransaction +$((n1 - n0))" \
	'[ "$(drops noreq NO_SOCKET)" = 1 ] && [ "$(drops noreq)" = 1 ] &&
	 [ $((n1 - n0)) = 1 ]'
ktap_check "response without request: mtpd's socket drops $d1 -> $d2" \
	'[ "$d2" = 4 ]'
ktap_check "the ring buffer did not overrun ($TRACE_OVERRUN)" \
	'[ "$TRACE_OVERRUN" = 0 ]'

ktap_finished
