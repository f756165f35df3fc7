#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# MTP's tracepoints (include/trace/events/mtp.h) against the counters they
# shadow: mtpget fetches 1 MB from mtpd through netem 5% loss both ways,
# the answers through a 20 Mbit/s bottleneck whose queue the window
# fills (a path that does not queue takes loss as ambient and keeps the
# window, mtp_flow_congested()), and mtping asks for the server's IDSTR once, every mtp event recorded in
# a tracefs instance of the test's own, then
#
#   mtp_txn_start   one per transaction: TxnStarted
#   mtp_txn_done    one per end: TxnDone + TxnFailed; the fetch's says
#                   error 0, 1048576 bytes and the requests, repeats and
#                   losses mtpget printed from MTP_INFO
#   mtp_txn_loss    one per range found lost: Losses
#   mtp_txn_window  the fetch's window falls at a congestion loss, and a
#                   loss event names the window its window event moved to
#
# Counters are read once the client namespace holds no transaction.  A
# kernel without tracefs or the mtp events skips.
set -u
. "$(dirname "$0")/lib.sh"

B=$XTP_BINDIR
out=${XTP_OUT:-/tmp}/mtp-trace
S=198.18.0.1
PORT=8090
PLAN=9
mkdir -p "$out/files" "$out/got"

ktap_print_header
ktap_set_plan $PLAN
modprobe mtp

cleanup() {
	trace_cleanup
	mtp_ns_cleanup
	rm -rf "$out/files" "$out/got"
}
trap cleanup EXIT
trace_start mtp ||
	ktap_skip_all $PLAN "no tracefs or no mtp events on this kernel"
mtp_ns_setup mtr || ktap_exit_fail_msg "namespace setup failed"
# The window events below are the loss-driven window's (net.mtp.cc 1);
# the delivery-rate model's window does not fall with losses.
ns_c sysctl -qw net.mtp.cc=1

head -c 1048576 /dev/urandom >"$out/files/obj"
ns_s "$B/mtpd" -q -p $PORT "$out/files" &
wait_for 20 mtp_port_open $PORT

CTRS="TxnStarted TxnDone TxnFailed Losses"
declare -A before
for c in $CTRS; do
	before[$c]=$(csnmp "$c")
done
ns_s tc qdisc replace dev vs root netem loss 5% delay 1ms rate 20mbit
ns_c tc qdisc replace dev vc root netem loss 5% delay 1ms
stats=$(ns_c timeout 120 "$B/mtpget" -b 4194304 -e 60000 -p $PORT \
	-o "$out/got/obj" $S obj 2>&1)
rc=$?
echo "# $stats"
ns_s tc qdisc del dev vs root
ns_c tc qdisc del dev vc root
ns_c timeout 30 "$B/mtping" $S $PORT >"$out/ping" 2>&1
prc=$?
# No transaction left on the client: nothing moves the counters any more.
no_txns() {
	[ "$(ns_c awk 'NR > 1 { n++ } END { print n + 0 }' \
		/proc/net/mtp/transactions)" = 0 ]
}
wait_for 30 no_txns
declare -A delta
for c in $CTRS; do
	delta[$c]=$(($(csnmp "$c") - ${before[$c]}))
done
trace_stop "$out/trace"

field() { echo "$stats" | sed -n "s/.* $1 \([0-9]*\).*/\1/p"; }
events() { trace_count "$out/trace" "$@"; }

ktap_check "1 MB arrives sha256-equal through 5% loss, mtping answered ($rc, $prc)" \
	'[ $rc -eq 0 ] && [ $prc -eq 0 ] &&
	 [ "$(sha256sum <"$out/files/obj")" = "$(sha256sum <"$out/got/obj")" ]'
ktap_check "the ring buffer did not overrun ($TRACE_OVERRUN)" \
	'[ "$TRACE_OVERRUN" = 0 ]'
n=$(events mtp_txn_start)
ktap_check "mtp_txn_start: $n events, TxnStarted +${delta[TxnStarted]}" \
	'[ "$n" -ge 2 ] && [ "$n" = "${delta[TxnStarted]}" ]'
n=$(events mtp_txn_done)
ktap_check "mtp_txn_done: $n events, TxnDone +${delta[TxnDone]} TxnFailed +${delta[TxnFailed]}" \
	'[ "$n" -ge 2 ] && [ "$n" = $((delta[TxnDone] + delta[TxnFailed])) ]'
n=$(events mtp_txn_loss)
ktap_check "mtp_txn_loss: $n events, Losses +${delta[Losses]}" \
	'[ "$n" -gt 0 ] && [ "$n" = "${delta[Losses]}" ]'

# The fetch is the transaction that lost ranges.
id=$(grep -m1 -o ' mtp_txn_loss: reqid=[0-9a-f]*' "$out/trace" |
	sed 's/.*reqid=//')
done_line=$(grep " mtp_txn_done: reqid=$id " "$out/trace")
echo "# ${done_line##*: }"
dfield() { echo "$done_line" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
ktap_check "the fetch's mtp_txn_done: error 0, 1048576 bytes" \
	'[ -n "$id" ] && [ "$(dfield error)" = 0 ] && [ "$(dfield bytes)" = 1048576 ]'
ktap_check "the fetch's mtp_txn_done: requests $(dfield requests) repeats $(dfield repeats) losses $(dfield losses), as MTP_INFO told mtpget" \
	'[ "$(dfield requests)" = "$(field requests)" ] &&
	 [ "$(dfield repeats)" = "$(field repeats)" ] &&
	 [ "$(dfield losses)" = "$(field losses)" ] &&
	 [ "$(dfield losses)" = "$(events mtp_txn_loss "reqid=$id ")" ]'

# Walk the fetch's events: a loss followed at once by a window event is
# where the window fell; its window must be the one the loss event names.
read -r falls mismatch < <(
	grep -E " mtp_txn_(loss|window): reqid=$id " "$out/trace" | awk '
	/ mtp_txn_loss: / {
		match($0, /window=[0-9]+/)
		lw = substr($0, RSTART + 7, RLENGTH - 7) + 0
		loss = 1
		next
	}
	/ mtp_txn_window: / {
		match($0, /window=[0-9]+/)
		w = substr($0, RSTART + 7, RLENGTH - 7) + 0
		match($0, /old=[0-9]+/)
		o = substr($0, RSTART + 4, RLENGTH - 4) + 0
		if (loss && w < o)
			falls++
		if (loss && w != lw)
			bad++
		loss = 0
	}
	END { print falls + 0, bad + 0 }')
ktap_check "mtp_txn_window: the fetch's window fell at $falls losses ($mismatch disagree with the loss event)" \
	'[ "$falls" -ge 1 ] && [ "$mismatch" = 0 ]'
ktap_check "mtp_txn_start names the server and the single-datagram IDSTR" \
	'[ "$(events mtp_txn_start "reqid=[0-9a-f]* $S:$PORT address=[0-9]* rsize=[0-9]* single")" -ge 1 ] &&
	 [ "$(events mtp_txn_start "reqid=$id $S:$PORT ")" = 1 ]'

ktap_finished
