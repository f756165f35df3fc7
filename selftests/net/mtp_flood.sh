#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A flood of MTP requests (thousands of distinct transaction ids from many
# UDP sockets) against one mtpd: the server's kept state (records and
# cached answers, /proc/net/mtp/snmp gauges) stays within its sysctl
# bounds, kernel memory does not grow with the flood, a legitimate
# transfer running through the flood completes sha256-equal, and every
# record is forgotten once the flood stops.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-flood
srv=mtfs-$$
cli=mtfc-$$
S=198.18.0.1
C=198.18.0.2
PORT=8080
NREQ=${MTP_FLOOD_REQS:-6000}
MAXREC=128
OBJ=65536
SOCKB=1048576

cleanup() {
	# Whatever still runs in the namespaces keeps them (and mtp) alive.
	kill $(ip netns pids $srv 2>/dev/null) \
		$(ip netns pids $cli 2>/dev/null) 2>/dev/null
	ip netns del $srv 2>/dev/null
	ip netns del $cli 2>/dev/null
	rm -rf "$out/files" "$out/got"
}
trap cleanup EXIT

ns_s() { ip netns exec $srv "$@"; }
ns_c() { ip netns exec $cli "$@"; }
ssnmp() { ns_s awk -v n="$1" '$1 == n { print $2 }' /proc/net/mtp/snmp; }
port_open() { ns_s grep -qi ":$(printf %04X "$1") " /proc/net/udp; }
kb() { awk -v n="$1:" '$1 == n { print $2 }' /proc/meminfo; }
same() { [ "$(sha256sum <"$out/files/$1")" = "$(sha256sum <"$out/got/$1")" ]; }

ktap_print_header
ktap_set_plan 9

mkdir -p "$out/files" "$out/got"
modprobe mtp
head -c 1048576 /dev/urandom >"$out/files/1m"

ip netns add $srv && ip netns add $cli &&
ip link add vs netns $srv type veth peer name vc netns $cli &&
ns_s ip addr add $S/24 dev vs && ns_c ip addr add $C/24 dev vc &&
ns_s ip link set vs up && ns_c ip link set vc up &&
ns_s ip link set lo up && ns_c ip link set lo up &&
ns_s sysctl -qw net.mtp.srv_max_pending=$MAXREC \
	net.mtp.cache_obj_bytes=$OBJ net.mtp.cache_sock_bytes=$SOCKB \
	net.mtp.cache_ms=3000
ktap_check "two namespaces, server bounds: $MAXREC records, $SOCKB bytes" \
	'[ $? -eq 0 ]'

ip netns exec $srv "$B/mtpd" -q -c $OBJ -p $PORT "$out/files" &
wait_for 20 port_open $PORT
ktap_check "mtpd listens on UDP port $PORT" 'port_open $PORT'

sync
slab0=$(kb SUnreclaim)
ip netns exec $cli "$B/mtp_flood" -n "$NREQ" -k 16 -p $PORT -f 1m $S >"$out/flood.log" 2>&1 &
fpid=$!
# A legitimate transfer while the flood runs.
t0=$SECONDS
stats=$(ns_c timeout 300 "$B/mtpget" -e 60000 -p $PORT -o "$out/got/1m" \
	$S 1m 2>&1)
rc=$?
echo "# $stats ($((SECONDS - t0))s)"
# The largest gauges seen while the flood lasts (bounded: 600 samples).
maxrec=0
maxbytes=0
for _ in $(seq 600); do
	r=$(ssnmp SrvRecords)
	b=$(ssnmp SrvCachedBytes)
	[ "$r" -gt $maxrec ] && maxrec=$r
	[ "$b" -gt $maxbytes ] && maxbytes=$b
	kill -0 $fpid 2>/dev/null || break
	sleep 0.2
done
wait $fpid
frc=$?
fpid=
sed 's/^/# /' "$out/flood.log"
slab1=$(kb SUnreclaim)
ktap_check "the flood was sent" '[ $frc -eq 0 ]'
ktap_check "a transfer during the flood arrives sha256-equal" \
	'[ $rc -eq 0 ] && same 1m'
ktap_check "records stayed within srv_max_pending (max $maxrec)" \
	'[ $maxrec -gt 0 ] && [ $maxrec -le $MAXREC ] &&
	 [ "$(ssnmp SrvRecords)" -le $MAXREC ]'
ktap_check "cached answers stayed within cache_sock_bytes (max $maxbytes)" \
	'[ $maxbytes -le $SOCKB ]'
ktap_check "the full table forgot old records ($(ssnmp SrvEvictions) evictions)" \
	'[ "$(ssnmp SrvEvictions)" -gt 0 ] &&
	 [ "$(ssnmp InRequests)" -gt $((MAXREC * 2)) ]'
# Unbounded, each request would keep a record and up to $OBJ bytes.
ktap_check "unreclaimable slab grew by less than 16 MB ($slab0 -> $slab1 kB)" \
	'[ $((slab1 - slab0)) -lt 16384 ]'
wait_for 30 sh -c "[ \"\$(ip netns exec $srv awk '\$1 == \"SrvRecords\" { print \$2 }' /proc/net/mtp/snmp)\" = 0 ]"
sed 's/^/# server: /' <(ns_s cat /proc/net/mtp/snmp | grep -E '^(In|Srv|Cache|Out)')
ktap_check "every record and cached byte is forgotten after the flood" \
	'[ "$(ssnmp SrvRecords)" = 0 ] && [ "$(ssnmp SrvCachedBytes)" = 0 ]'
ktap_finished
