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
ktap_set_plan 7
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"

head -c 20000000 /dev/zero >"$OUT/big"
ip netns exec "$NS_S" "$PEER" server 9999 >/dev/null 2>"$OUT/srv.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv.err"
ip netns exec "$NS_C" "$PEER" client 198.18.0.2 9999 <"$OUT/big" \
	>/dev/null 2>&1 &
cli=$!
wait_for 60 bash -c "[ \$(ip netns exec $NS_S awk '\$1==\"InPkts\"{print \$2}' /proc/net/xtp/snmp) -gt 200 ]"
ktap_check "a transfer is running (refcnt $(refcnt))" '[ "$(refcnt)" -ge 3 ]'
rmmod xtp 2>/dev/null
ktap_check "rmmod is refused while it runs" 'module_loaded xtp'

kill -9 $srv $cli
wait $srv $cli 2>/dev/null
xtp_ns_cleanup
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
wait_for 30 bash -c "[ \$(ip netns exec $NS_S awk '\$1==\"PassiveOpens\"{print \$2}' /proc/net/xtp/snmp) -ge 1 ]"
ip -n "$NS_S" link set veth-s down
start=$SECONDS
wait $cli
ktap_check "keep-alive: a vanished peer ends in ETIMEDOUT ($((SECONDS - start)) s)" \
	'grep -q "timed out" "$OUT/cli2.err"'
ktap_check "... within CTIMEOUT plus the CTIMER period" \
	'[ $((SECONDS - start)) -le 20 ]'
kill $srv 2>/dev/null
ktap_finished
