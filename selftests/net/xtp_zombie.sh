#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A lost END on a long path: the ZOMBIE's lifetime (teardown.c).
#
# The client sends its request with WCLOSE in the FIRST; the server
# answers and closes.  With AbbrevClose the client's END rides on the
# RCLOSE that answers the server's WCLOSE, and the client becomes a
# ZOMBIE.  The server's input drops that first END.  The server's WTIMER
# probes one WTIMER after its WCLOSE, 2 x (SRTT + 4 RTTVAR), near 1.8 s
# on this path of 300 ms: the client's ZOMBIE must still be there to
# answer with END again, and the server's context ends within seconds.
# With the ZOMBIE of a fixed 1 s nothing answered the probe and the
# server's orphan lived until its CTIMEOUT (42 s).
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/xtp_zombie
mkdir -p "$OUT"

# END is bit 0x02 of the XTP header's byte 9, behind a 20-byte IP header.
END='@nh,232,8 & 0x02 != 0'

counted() {
	ip netns exec "$NS_S" nft list counter ip endloss "$1" |
		sed -n 's/.*packets \([0-9]*\).*/\1/p'
}

ktap_print_header
ktap_set_plan 4
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

# The first END from each address is dropped, later ones pass, counted.
ip netns exec "$NS_S" nft -f - <<-NFT || ktap_exit_fail_msg "nft setup failed"
	table ip endloss {
		counter dropped { }
		counter passed { }
		set seen {
			type ipv4_addr
			flags dynamic
		}
		chain in {
			type filter hook input priority 0;
			ip protocol 36 ip hdrlength 5 $END ip saddr @seen counter name passed accept
			ip protocol 36 ip hdrlength 5 $END add @seen { ip saddr } counter name dropped drop
		}
	}
NFT
xtp_netem "$NS_C" veth-c delay 300ms ||
	ktap_exit_fail_msg "netem setup failed"

head -c 5000 /dev/urandom >"$OUT/answer"
head -c 700 /dev/urandom >"$OUT/request"
ip netns exec "$NS_S" "$PEER" server -T 30 -r "$OUT/answer" 9401 \
	>"$OUT/srv.out" 2>"$OUT/srv.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv.err" ||
	ktap_exit_fail_msg "xtp_peer server did not start"
timeout 60 ip netns exec "$NS_C" "$PEER" client -m sendto -W -T 20 \
	198.18.0.2 9401 <"$OUT/request" >"$OUT/cli.out" 2>"$OUT/cli.err"
rc=$?
wait $srv
ktap_check "the exchange completed (rc $rc): request and answer sha256-equal" \
	'[ $rc -eq 0 ] &&
	 [ "$(sha256sum <"$OUT/srv.out")" = "$(sha256sum <"$OUT/request")" ] &&
	 [ "$(sha256sum <"$OUT/cli.out")" = "$(sha256sum <"$OUT/answer")" ]'

t0=$(now_ms)
wait_for 20 xtp_ns_idle "$NS_S"
el=$(($(now_ms) - t0))
ktap_check "the server's first END from the client was dropped ($(counted dropped))" \
	'[ "$(counted dropped)" = 1 ]'
ktap_check "the client's ZOMBIE answered the server's probe with END again ($(counted passed) passed)" \
	'[ "$(counted passed)" -ge 1 ]'
ktap_check "the server's context ended $el ms after the exchange, not at its CTIMEOUT (42 s)" \
	'xtp_ns_idle "$NS_S" && [ $el -lt $((10000 * $(slow_factor))) ]'
ktap_finished
