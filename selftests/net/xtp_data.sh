#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Data integrity over XTP between two namespaces: sizes around the packet
# boundaries (1424 bytes fit in a FIRST, 1448 in a DATA packet) up to
# 10 MB, both directions with the DEFAULT service, client to server with
# FILETRANSFER.  Each exchange compares what was sent and what arrived
# byte for byte (cmp: under TCG each program started costs ~0.1 s, and
# the two sha256 sums each way, with their cuts, were eight), and checks
# that both peers exited 0 and that an association really opened
# (ActiveOpens on the client's side and PassiveOpens on the server's each
# went up by one): with 0 bytes an empty source and the empty file the
# redirection creates are equal whether anything ran or not.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/data
SIZES="0 1 1423 1424 1425 1447 1448 1449 65536 10485760"
mkdir -p "$OUT"

# transfer NAME SIZE REPLY-SIZE "CLIENT OPTS": 0 if both directions match,
# both programs succeeded and exactly one association opened; else 1, and
# why on a diagnostic line.
transfer() {
	local name=$1 size=$2 rsize=$3 copts=$4 srv crc srvrc a0 p0 a1 p1

	head -c "$size" /dev/urandom >"$OUT/$name.up"
	head -c "$rsize" /dev/urandom >"$OUT/$name.down"
	ip netns exec "$NS_S" "$PEER" server -r "$OUT/$name.down" 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.err" &
	srv=$!
	if ! wait_for 30 grep -q listening "$OUT/$name.err"; then
		echo "# $name: the server did not listen"
		kill $srv 2>/dev/null
		wait $srv
		return 1
	fi
	a0=$(snmp_get ActiveOpens "$NS_C")
	p0=$(snmp_get PassiveOpens "$NS_S")
	ip netns exec "$NS_C" "$PEER" client $copts 198.18.0.2 9999 \
		<"$OUT/$name.up" >"$OUT/$name.cli" 2>>"$OUT/$name.err"
	crc=$?
	wait $srv
	srvrc=$?
	a1=$(snmp_get ActiveOpens "$NS_C")
	p1=$(snmp_get PassiveOpens "$NS_S")
	if [ $crc -ne 0 ] || [ $srvrc -ne 0 ] ||
	   [ "$a1" != $((a0 + 1)) ] || [ "$p1" != $((p0 + 1)) ]; then
		echo "# $name: client exit $crc, server exit $srvrc, ActiveOpens $a0 -> $a1, PassiveOpens $p0 -> $p1"
		sed 's/^/# /' "$OUT/$name.err"
		return 1
	fi
	cmp -s "$OUT/$name.up" "$OUT/$name.srv" &&
	cmp -s "$OUT/$name.down" "$OUT/$name.cli"
}

ktap_print_header
ktap_set_plan 21
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

for size in $SIZES; do
	start=$SECONDS
	transfer "def$size" "$size" "$size" ""
	rc=$?
	ktap_check "DEFAULT: $size bytes each way, byte-identical ($((SECONDS - start)) s)" \
		'[ $rc -eq 0 ]'
done
for size in $SIZES; do
	if [ "$size" = 0 ]; then
		opts="-v 2"
	else
		opts="-v 2 -m sendto -W"
	fi
	start=$SECONDS
	transfer "ft$size" "$size" 0 "$opts"
	rc=$?
	ktap_check "FILETRANSFER: $size bytes, byte-identical ($((SECONDS - start)) s)" \
		'[ $rc -eq 0 ]'
done
# The counters above were read through the namespaces' holders
# (lib.sh, ns_hold): they must be there and read what ip netns exec reads,
# 20 active opens on the client's side after 20 exchanges, none in the
# test's own namespace.
direct=$(ip netns exec "$NS_C" awk '$1 == "XtpActiveOpens" { print $2 }' \
	 /proc/net/xtp/snmp)
held=$(snmp_get ActiveOpens "$NS_C")
ktap_check "counters read through the namespace's holder: ActiveOpens $held, ip netns exec reads $direct, this namespace $(snmp_get ActiveOpens)" \
	'ns_held "$NS_C" && ns_held "$NS_S" && [ "$held" = "$direct" ] &&
	 [ "$held" = 20 ] && [ "$(snmp_get ActiveOpens)" != 20 ]'
ktap_finished
