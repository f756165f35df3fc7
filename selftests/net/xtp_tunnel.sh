#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Trains (net/xtp/offload.c) inside tunnels.  With net.xtp.trains 1 a
# route through a tunnel device takes trains, and the tunnel wraps the
# whole train; when the device under the tunnel takes no GSO skbs
# (tx-gso-list off), the tunnel's GSO callback must hand the inner train
# to XTP's, which must copy the tunnel's headers into every packet.  Each
# round sends 1 MB from client to server through a tunnel over the veth
# and compares sha256 sums:
#  - ipip: IP in IP, the outer header left in front of the inner one;
#  - gre csum: GRE with its checksum, and the veth without checksum
#    offload (tx off), so the stack sums every GRE packet itself;
#  - vxlan udpcsum: the same for VXLAN with its UDP checksum;
#  - vxlan whole: the veth takes the train whole, the receiver
#    decapsulates it with a UDP checksum converted to CHECKSUM_COMPLETE,
#    a sum of the whole train that no single packet may inherit ("hw csum
#    failure" in the kernel log).
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/tunnel
SIZE=1048576
mkdir -p "$OUT"

trains() { snmp_get "$1" "$2"; }

# tunnel NAME TYPE ARGS...: the device NAME in both namespaces, addresses
# 198.19.N.1 (client) and 198.19.N.2 (server), N counted from 1
tunnels=0
tunnel() {
	local name=$1 type=$2 n=$((tunnels + 1))

	shift 2
	tunnels=$n
	ip -n "$NS_C" link add "$name" type "$type" local 198.18.0.1 \
		remote 198.18.0.2 "$@" &&
	ip -n "$NS_S" link add "$name" type "$type" local 198.18.0.2 \
		remote 198.18.0.1 "$@" &&
	ip -n "$NS_C" addr add "198.19.$n.1/24" dev "$name" &&
	ip -n "$NS_S" addr add "198.19.$n.2/24" dev "$name" &&
	ip -n "$NS_C" link set "$name" up && ip -n "$NS_S" link set "$name" up
}

# veth_features ON|OFF [tx ON|OFF]: what the client's veth takes
veth_features() {
	ip netns exec "$NS_C" ethtool -K veth-c gso "$1" tx-gso-list "$1" \
		"${@:2}" >/dev/null
}

# round NAME N: 1 MB client to server through tunnel N; leaves ot (client
# OutTrains), it (server InTrains) and NAME.{up,srv,err}
round() {
	local name=$1 addr=198.19.$2.2 srv rc=1 ot0 it0

	head -c $SIZE /dev/urandom >"$OUT/$name.up"
	: >"$OUT/$name.down"
	ot0=$(trains "OutTrains" "$NS_C")
	it0=$(trains "InTrains" "$NS_S")
	ip netns exec "$NS_S" "$PEER" server -r "$OUT/$name.down" 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$name.err"
	ip netns exec "$NS_C" timeout 60 "$PEER" client "$addr" 9999 \
		<"$OUT/$name.up" >/dev/null 2>>"$OUT/$name.err" &&
		wait $srv && rc=0
	kill $srv 2>/dev/null
	wait $srv 2>/dev/null
	ot=$(($(trains OutTrains "$NS_C") - ot0))
	it=$(($(trains InTrains "$NS_S") - it0))
	[ $rc -eq 0 ] && [ "$(sha "$OUT/$name.up")" = "$(sha "$OUT/$name.srv")" ]
	rc=$?
	echo "# $name: OutTrains $ot InTrains $it"
	[ $rc -eq 0 ] || sed 's/^/# /' "$OUT/$name.err"
	return $rc
}

ktap_print_header
command -v ethtool >/dev/null || ktap_skip_all 9 "ethtool is not installed"
ktap_set_plan 9
modprobe xtp
mark="xtp_tunnel $$ start"
echo "$mark" >/dev/kmsg

XTP_TRAINS=1 xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT
# Debian's kernels have the three as modules; a kernel may have none.
for type in "ipip remote 198.18.9.9" "gre remote 198.18.9.9" \
	    "vxlan id 1 dstport 4789"; do
	# shellcheck disable=SC2086 # the type's words
	ip -n "$NS_C" link add xtpprobe type $type 2>/dev/null &&
		ip -n "$NS_C" link del xtpprobe ||
		ktap_skip_all 9 "this kernel has no ${type%% *} tunnels"
done
tunnel ipip1 ipip && tunnel gre1 gre csum &&
	tunnel vx1 vxlan id 42 dstport 4789 udpcsum &&
	ip -n "$NS_C" link set vx1 mtu 1450 &&
	ip -n "$NS_S" link set vx1 mtu 1450 ||
	ktap_exit_fail_msg "tunnel setup failed"

veth_features off
round ipip 1
ktap_check "ipip: 1 MB sha256 equal" '[ $? -eq 0 ]'
ktap_check "ipip: trains sent, segmented before the veth" \
	'[ "$ot" -gt 0 ] && [ "$it" = 0 ]'

veth_features off tx off
round gre 2
ktap_check "gre csum, no offload: 1 MB sha256 equal" '[ $? -eq 0 ]'
ktap_check "gre csum, no offload: trains sent, segmented before the veth" \
	'[ "$ot" -gt 0 ] && [ "$it" = 0 ]'

csum0=$(snmpstat "$NS_S" Udp InCsumErrors)
round vxlan 3
ktap_check "vxlan udpcsum, no offload: 1 MB sha256 equal" '[ $? -eq 0 ]'
ktap_check "vxlan udpcsum, no offload: trains sent, segmented before the veth" \
	'[ "$ot" -gt 0 ] && [ "$it" = 0 ]'
ktap_check "vxlan udpcsum, no offload: every UDP checksum verified" \
	'[ "$(snmpstat "$NS_S" Udp InCsumErrors)" = "$csum0" ]'

veth_features on tx on
round whole 3
ktap_check "vxlan whole: 1 MB sha256 equal, trains split by the receiver" \
	'[ $? -eq 0 ] && [ "$ot" -gt 0 ] && [ "$it" -gt 0 ]'
bad=$(dmesg | sed -n "/$mark/,\$p" | grep -c 'hw csum failure')
ktap_check "no packet reached XTP with a wrong CHECKSUM_COMPLETE" \
	'[ "$bad" = 0 ]'

ktap_finished
