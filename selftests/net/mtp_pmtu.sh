#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP through a 1400-byte hop between two routers, on 9000-byte edges:
#
#   client 198.18.1.1 --9000-- r1 --1400-- r2 --9000-- 198.18.3.2 mtpd
#
# The client sizes its datagrams from its own link and asks for 8 KiB.
# The server sends them with DF; r2 drops the first and answers
# fragmentation needed, which lowers the server's route to the client to
# 1400; from then on the server cuts its datagrams to fit and says so in
# dgram_shift (1024, the power of two that fits), the client asks for no
# more, and the lost range is asked again.  A 4 MB object must arrive sha256-equal with no
# fragment forwarded by either router or reassembled at the client, and
# a second fetch, the path MTU known, must meet no drop at the hop.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
OUT=${XTP_OUT:-/tmp}/mtp-pmtu
PORT=8070

ktap_print_header
ktap_set_plan 7
modprobe mtp

cleanup() {
	local ns p

	for ns in "$NS_C" "$NS_S"; do
		p=$(ip netns pids "$ns" 2>/dev/null)
		[ -n "$p" ] && kill $p 2>/dev/null
	done
	hop_cleanup
	rm -rf "$OUT/files" "$OUT/got"
}
NS_C=
NS_S=
trap cleanup EXIT
mkdir -p "$OUT/files" "$OUT/got"

hop_setup 9000 || ktap_exit_fail_msg "namespace setup failed"
head -c 4194304 /dev/urandom >"$OUT/files/obj"
sum=$(sha256sum <"$OUT/files/obj")
ip netns exec "$NS_S" "$B/mtpd" -q -p $PORT "$OUT/files" &
port_open() {
	ip netns exec "$NS_S" grep -qi ":$(printf %04X $PORT) " /proc/net/udp
}
wait_for 20 port_open || ktap_exit_fail_msg "mtpd did not start"

# fetch NAME: 4 MB into $OUT/got/NAME; sets $rc and $stats.
fetch() {
	stats=$(ip netns exec "$NS_C" timeout 120 "$B/mtpget" -b 4194304 \
		-e 60000 -p $PORT -o "$OUT/got/$1" 198.18.3.2 obj 2>&1)
	rc=$?
	echo "# $stats"
}
field() { echo "$stats" | sed -n "s/.* $1 \([0-9]*\).*/\1/p"; }
# Fragments: forwarded by a router (FragCreates), reassembled at the
# client (ReasmReqds).
frags() {
	echo $(($(ipstat "$NS_R1" FragCreates) + $(ipstat "$NS_R2" FragCreates) +
		$(ipstat "$NS_C" ReasmReqds)))
}

fetch first
ktap_check "4 MB arrives sha256-equal through the 1400-byte hop ($rc)" \
	'[ $rc -eq 0 ] && [ "$(sha256sum <"$OUT/got/first")" = "$sum" ]'
ktap_check "the server's dgram_shift told the client to ask for $(field dgram)-byte datagrams" \
	'[ "$(field dgram)" = 1024 ]'
drops=$(ipstat "$NS_R2" FragFails)
ktap_check "r2 dropped $drops DF datagrams too big for the hop" \
	'[ "$drops" -ge 1 ]'
route=$(ip -n "$NS_S" route get 198.18.1.1)
echo "# server: ${route//$'\n'/ }"
ktap_check "the server's route to the client learnt the hop's MTU" \
	'echo "$route" | grep -q " mtu 1400"'
f=$(frags)
ktap_check "nothing was fragmented on the way (FragCreates + ReasmReqds = $f)" \
	'[ "$f" = 0 ]'

fetch second
ktap_check "with the path MTU known, a second fetch arrives sha256-equal ($rc)" \
	'[ $rc -eq 0 ] && [ "$(sha256sum <"$OUT/got/second")" = "$sum" ]'
d2=$(($(ipstat "$NS_R2" FragFails) - drops))
f=$(frags)
ktap_check "... and met no drop at the hop ($d2) and no fragment ($f)" \
	'[ "$d2" = 0 ] && [ "$f" = 0 ]'

ktap_finished
