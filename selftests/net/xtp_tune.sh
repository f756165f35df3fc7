#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Socket buffer autotuning (net/xtp/tune.c, drs.c) on a 50 ms path.
#
#   fast reader    the window a reader offers grows with its reading: the
#                  ALLOC it advertises runs more than 1 MB ahead of RSEQ,
#                  its SO_RCVBUF is at least four times that, and the
#                  sender's SO_SNDBUF grew with its congestion window;
#   slow reader    one that reads 256 KB/s needs no more than the
#                  default window (90000) and keeps the default buffer,
#                  and its sender's buffer follows that window, not its
#                  congestion window;
#   SO_RCVBUF and SO_SNDBUF set by the application stay as set;
#   net.xtp.rmem's and net.xtp.wmem's last values bound the growth.
#
# Every transfer checks every byte (xtp_bufpeer's pattern).  The windows
# come from the receiver's control packets on the wire (ALLOC - RSEQ);
# netem's queue is made long enough for the path's 50 ms of packets, or
# its default 1000 packets would drop XTP's at 1.4 MB in flight.
set -u
. "$(dirname "$0")/lib.sh"

P=$XTP_BINDIR/xtp_bufpeer
OUT=${XTP_OUT:-/tmp}/xtp_tune
PORT=5300
mkdir -p "$OUT"
RMEM0=
WMEM0=
CAPTURE_PID=

cleanup() {
	stop_capture
	[ -n "$RMEM0" ] && sysctl -qw net.xtp.rmem="$RMEM0"
	[ -n "$WMEM0" ] && sysctl -qw net.xtp.wmem="$WMEM0"
	xtp_ns_cleanup
}

# transfer NAME BYTES [RECV-OPTS [SEND-OPTS]]: one association from the
# client to the server; the receiver's control packets are captured.
# Leaves each end's report in $OUT/NAME.recv and $OUT/NAME.send, the
# largest window advertised in $WIN, the buffers the ends ended with in
# $RCVBUF and $SNDBUF.
transfer() {
	local name=$1 bytes=$2 ropts=${3:-} sopts=${4:-} srv

	ip netns exec "$NS_S" "$P" recv $PORT $ropts >"$OUT/$name.recv" \
		2>&1 &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$name.recv" || return 1
	# Control packets only: PFORMAT (COMMAND's last byte) is not DATA.
	start_capture "$NS_S" veth-s "$OUT/$name.pcap" \
		'(ip[31] & 0x1f) != 0' || return 1
	ip netns exec "$NS_C" timeout 120 "$P" send 198.18.0.2 $PORT \
		"$bytes" $sopts >"$OUT/$name.send" 2>&1
	wait "$srv"
	stop_capture
	WIN=$("$XTP_BINDIR/xtp_pcap" "$OUT/$name.pcap" 198.18.0.1 |
		awk '/^s>c/ && / rq[0-9]+ al[0-9]+/ {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^rq/) r = substr($i, 3)
				if ($i ~ /^al/) a = substr($i, 3)
			}
			if (a - r > m) m = a - r
		} END { print m + 0 }')
	RCVBUF=$(val "$name.recv" rcvbuf)
	SNDBUF=$(val "$name.send" sndbuf)
	echo "# $name: $(cat "$OUT/$name.send") / $(cat "$OUT/$name.recv" |
		tail -1), largest window $WIN"
}

# val NAME KEY: a number from one end's report.
val() {
	sed -n "s/.*\\b$2=\\([0-9]*\\).*/\\1/p" "$OUT/$1"
}

# complete NAME BYTES: both ends moved BYTES, every one as written.
complete() {
	[ "$(val "$1.send" bytes)" = "$2" ] &&
		[ "$(val "$1.recv" bytes)" = "$2" ] &&
		grep -q "pattern=ok" "$OUT/$1.recv"
}

ktap_print_header
ktap_set_plan 11
modprobe xtp
RMEM0=$(sysctl -n net.xtp.rmem)
WMEM0=$(sysctl -n net.xtp.wmem)
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap cleanup EXIT
xtp_netem_both delay 25ms limit 100000 ||
	ktap_exit_fail_msg "netem setup failed"

[ "$RMEM0" = "$(printf '4096\t360000\t16777216')" ] &&
	[ "$WMEM0" = "$(printf '4096\t212992\t8388608')" ]
ktap_check "net.xtp.rmem, wmem default to 4096 360000 16777216, 4096 212992 8388608 (got $RMEM0, $WMEM0)" \
	'[ $? = 0 ]'

B=$((24 << 20))
transfer fast $B
ktap_check "fast reader: $B bytes arrive as sent" 'complete fast $B'
ktap_check "fast reader: window $WIN > 1 MB, SO_RCVBUF $RCVBUF >= 4 MB" \
	'[ "$WIN" -gt 1048576 ] && [ "$RCVBUF" -ge $((4 << 20)) ]'
ktap_check "fast reader: the sender's SO_SNDBUF grew to $SNDBUF > 2 x 212992" \
	'[ "$SNDBUF" -gt 425984 ]'

B=$((3 << 19))
transfer slow $B "-r 262144"
ktap_check "slow reader: $B bytes arrive as sent" 'complete slow $B'
ktap_check "slow reader: window $WIN <= 90000, SO_RCVBUF $RCVBUF = 360000" \
	'[ "$WIN" -gt 0 ] && [ "$WIN" -le 90000 ] && [ "$RCVBUF" = 360000 ]'
ktap_check "slow reader: the sender's SO_SNDBUF $SNDBUF <= 4 x 90000" \
	'[ "$SNDBUF" -le 360000 ]'

B=$((8 << 20))
transfer locked $B "-b 180000" "-b 100000"
ktap_check "SO_RCVBUF 180000, SO_SNDBUF 100000 set: $B bytes arrive" \
	'complete locked $B'
ktap_check "set buffers stay: SO_RCVBUF $RCVBUF = 360000, window $WIN <= 90000, SO_SNDBUF $SNDBUF = 200000" \
	'[ "$RCVBUF" = 360000 ] && [ "$WIN" -le 90000 ] && [ "$SNDBUF" = 200000 ]'

sysctl -qw net.xtp.rmem="4096 360000 1000000"
sysctl -qw net.xtp.wmem="4096 212992 500000"
transfer capped $B
ktap_check "net.xtp.rmem max 1000000: SO_RCVBUF $RCVBUF, window $WIN <= 250000" \
	'complete capped $B && [ "$RCVBUF" -le 1000000 ] &&
	 [ "$RCVBUF" -gt 360000 ] && [ "$WIN" -le 250000 ]'
ktap_check "net.xtp.wmem max 500000: SO_SNDBUF $SNDBUF" \
	'[ "$SNDBUF" -le 500000 ] && [ "$SNDBUF" -gt 212992 ]'
ktap_finished
