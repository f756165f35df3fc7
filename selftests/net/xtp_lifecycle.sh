#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Module and namespace life cycle with live associations: rmmod is refused
# while an association runs; killing its processes and deleting both
# namespaces mid-transfer leaves nothing behind, so the module unloads
# (proto_unregister would warn about XTP objects left in its slab, which
# fails the run through the kernel log check).
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/lifecycle
mkdir -p "$OUT"

refcnt() { cat /sys/module/xtp/refcnt 2>/dev/null || echo gone; }

ktap_print_header
ktap_set_plan 8
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"

# 20 MB through a 2 Mbit/s netem rate on the client's veth: at least 80 s
# however fast the host, so the association is still transferring when
# the test kills it a few seconds in (unshaped, a loaded run had sent it
# all before the kill).
head -c 20000000 /dev/zero >"$OUT/big"
xtp_netem "$NS_C" veth-c rate 2mbit || ktap_exit_fail_msg "netem rate failed"
ip netns exec "$NS_S" "$PEER" server 9999 >/dev/null 2>"$OUT/srv.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv.err"
ip netns exec "$NS_C" "$PEER" client 198.18.0.2 9999 <"$OUT/big" \
	>/dev/null 2>&1 &
cli=$!
# in_pkts_over N: the server's namespace has received more than N packets.
in_pkts_over() { [ "$(snmp_get InPkts "$NS_S")" -gt "$1" ]; }
wait_for 60 in_pkts_over 200
running=$?
ktap_check "a transfer is running (InPkts $(snmp_get InPkts "$NS_S"), refcnt $(refcnt))" \
	'[ $running -eq 0 ] && [ "$(refcnt)" -ge 3 ]'
rmmod xtp 2>/dev/null
ktap_check "rmmod is refused while it runs" 'module_loaded xtp'

# Still live when killed: both processes exist and the server keeps
# receiving.
i0=$(snmp_get InPkts "$NS_S")
wait_for 30 in_pkts_over "$i0"
flowing=$?
kill -9 $srv $cli
killed=$?
wait $srv $cli 2>/dev/null
ktap_check "the association was live when killed (kill $killed, InPkts still rising: $flowing)" \
	'[ $killed -eq 0 ] && [ $flowing -eq 0 ]'
xtp_ns_cleanup
# xtp_diag (sock_diag), if anything loaded it, holds a reference on xtp.
! module_loaded xtp_diag || rmmod xtp_diag
ktap_check "after kill and namespace deletion all contexts go (refcnt $(refcnt))" \
	'wait_for 90 bash -c "[ \"\$(cat /sys/module/xtp/refcnt)\" = 0 ]"'
ktap_check "the module unloads" 'rmmod xtp && ! module_loaded xtp'
ktap_check "and loads again" 'modprobe xtp && [ -e /proc/net/xtp/snmp ]'

# A peer that vanishes: the CTIMER notices the silence, the synchronizing
# handshake probes in vain, and CTIMEOUT (2 s here) ends the association.
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT
ip netns exec "$NS_S" "$PEER" server 9999 >/dev/null 2>"$OUT/srv2.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv2.err"
ip netns exec "$NS_C" "$PEER" client -H -K 300 -C 2000 -T 100 \
	198.18.0.2 9999 >/dev/null 2>"$OUT/cli2.err" &
cli=$!
passive_open() { [ "$(snmp_get PassiveOpens "$NS_S")" -ge 1 ]; }
wait_for 30 passive_open ||
	ktap_exit_fail_msg "keep-alive: the association did not open"
ip -n "$NS_S" link set veth-s down
start=$SECONDS
wait $cli
ktap_check "keep-alive: a vanished peer ends in ETIMEDOUT ($((SECONDS - start)) s)" \
	'grep -q "timed out" "$OUT/cli2.err"'
ktap_check "... within CTIMEOUT plus the CTIMER period" \
	'[ $((SECONDS - start)) -le 20 ]'
kill $srv 2>/dev/null
ktap_finished
