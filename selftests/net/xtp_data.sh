#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Data integrity over XTP between two namespaces: sizes around the packet
# boundaries (1424 bytes fit in a FIRST, 1448 in a DATA packet) up to
# 10 MB, both directions with the DEFAULT service, client to server with
# FILETRANSFER.  Each exchange compares sha256 sums of what was sent and
# what arrived.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/data
SIZES="0 1 1423 1424 1425 1447 1448 1449 65536 10485760"
mkdir -p "$OUT"

sha() { sha256sum <"$1" | cut -c1-64; }

# transfer NAME SIZE REPLY-SIZE "CLIENT OPTS": 0 if both directions match
transfer() {
	local name=$1 size=$2 rsize=$3 copts=$4 srv

	head -c "$size" /dev/urandom >"$OUT/$name.up"
	head -c "$rsize" /dev/urandom >"$OUT/$name.down"
	ip netns exec "$NS_S" "$PEER" server -r "$OUT/$name.down" 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$name.err" || return 1
	ip netns exec "$NS_C" "$PEER" client $copts 198.18.0.2 9999 \
		<"$OUT/$name.up" >"$OUT/$name.cli" 2>>"$OUT/$name.err"
	wait $srv
	[ "$(sha "$OUT/$name.up")" = "$(sha "$OUT/$name.srv")" ] &&
	[ "$(sha "$OUT/$name.down")" = "$(sha "$OUT/$name.cli")" ]
}

ktap_print_header
ktap_set_plan 20
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

for size in $SIZES; do
	start=$SECONDS
	transfer "def$size" "$size" "$size" ""
	rc=$?
	ktap_check "DEFAULT: $size bytes each way, sha256 equal ($((SECONDS - start)) s)" \
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
	ktap_check "FILETRANSFER: $size bytes, sha256 equal ($((SECONDS - start)) s)" \
		'[ $rc -eq 0 ]'
done
ktap_finished
