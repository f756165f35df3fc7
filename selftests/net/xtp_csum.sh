#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# CHECK offload.  Only loopback computes CHECK for the sender: a route
# that leaves the namespace may end at a device that sums only TCP's and
# UDP's packets, and CHECK sits at TCP's offset.  Over veth, which offers
# generic checksum offload, the capture between the namespaces sees every
# CHECK verify (tcpdump under TCG keeps a sample, not every packet); over
# loopback it sees CHECK left zero, the seed, and the receiver takes the
# packets as summed.  Either way 1 MB each way arrives sha256-equal and
# no receiver counts a checksum error.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/csum
SIZE=1048576
mkdir -p "$OUT"

# csum_errors: InCsumErrors of both namespaces, summed.
csum_errors() {
	echo $(($(snmp_get InCsumErrors "$NS_C") + $(snmp_get InCsumErrors "$NS_S")))
}

# round NAME NS_CLIENT ADDR CAPTURE_DEV: 1 MB each way between NS_CLIENT
# and a server at ADDR in $NS_S, captured on CAPTURE_DEV in $NS_S; leaves
# $OUT/NAME.{ok,sums,errs}.
round() {
	local name=$1 srv e0

	head -c $SIZE /dev/urandom >"$OUT/$name.up"
	head -c $SIZE /dev/urandom >"$OUT/$name.down"
	e0=$(csum_errors)
	start_capture "$NS_S" "$4" "$OUT/$name.pcap" || return 1
	ip netns exec "$NS_S" "$PEER" server -r "$OUT/$name.down" 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$name.err"
	ip netns exec "$2" timeout 120 "$PEER" client "$3" 9999 \
		<"$OUT/$name.up" >"$OUT/$name.cli" 2>>"$OUT/$name.err"
	wait $srv
	wait_for 30 xtp_ns_idle "$NS_S"
	stop_capture
	echo $(($(csum_errors) - e0)) >"$OUT/$name.errs"
	"$XTP_BINDIR/xtp_pcap" "$OUT/$name.pcap" 198.18.0.1 sums |
		tail -1 >"$OUT/$name.sums"
	if [ "$(sha "$OUT/$name.up")" = "$(sha "$OUT/$name.srv")" ] &&
	   [ "$(sha "$OUT/$name.down")" = "$(sha "$OUT/$name.cli")" ]; then
		echo ok >"$OUT/$name.ok"
	else
		echo bad >"$OUT/$name.ok"
	fi
	echo "# $name: $(cat "$OUT/$name.sums"), checksum errors $(cat "$OUT/$name.errs")"
}

# sums NAME FIELD: a count from NAME's "sums ok=N device=N bad=N" line.
sums() {
	sed -n "s/.* $2=\([0-9]*\).*/\1/p" "$OUT/$1.sums"
}

ktap_print_header
ktap_set_plan 7
command -v ethtool >/dev/null || ktap_skip_all 7 "ethtool is not installed"
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

ktap_check "veth offers generic checksum offload" \
	'ip netns exec "$NS_C" ethtool -k veth-c | grep -Eq "^[[:space:]]*tx-checksum-ip-generic: on"'

round veth "$NS_C" 198.18.0.2 veth-s
ktap_check "veth: 1 MB each way, sha256 equal" \
	'[ "$(cat "$OUT/veth.ok")" = ok ]'
ktap_check "veth: every captured CHECK verifies, none left to the device" \
	'[ "$(sums veth ok)" -ge 20 ] && [ "$(sums veth device)" = 0 ] && [ "$(sums veth bad)" = 0 ]'
ktap_check "veth: no checksum errors counted" \
	'[ "$(cat "$OUT/veth.errs")" = 0 ]'

round lo "$NS_S" 198.18.0.2 lo
ktap_check "loopback: 1 MB each way, sha256 equal" \
	'[ "$(cat "$OUT/lo.ok")" = ok ]'
ktap_check "loopback: CHECK left to the device (zero on the wire), none wrong" \
	'[ "$(sums lo device)" -ge 8 ] && [ "$(sums lo bad)" = 0 ]'
ktap_check "loopback: no checksum errors counted" \
	'[ "$(cat "$OUT/lo.errs")" = 0 ]'
ktap_finished
