#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# XTP's tracepoints (include/trace/events/xtp.h) against the counters they
# shadow: 2 MB from xtpsend to xtprecv between the two namespaces with
# netem 5% loss both ways, every xtp event recorded in a tracefs instance
# of its own (global clock, so events of different CPUs sort), then
#
#   xtp_send_pkt    one per packet sent: OutPkts of both namespaces
#   xtp_recv_pkt    one per packet decoded: InPkts of both namespaces
#   xtp_retransmit  one per retransmitted DATA: RetransSegs
#   xtp_loss        its lost= fields add up to EcntlLosses
#   xtp_handshake   one start per Handshakes
#   xtp_atm         one add per PassiveOpens
#   xtp_probe       the sender's (Veno's) trainsize falls at losses, and only
#                   there: every fall follows a loss or handshake event of
#                   the same context since the probe before; and its
#                   inflight is nxt - una - lost - sacked - unheard
#
# and perf, when the machine has it, counts xtp_send_pkt and xtp_recv_pkt
# of a second transfer (256 KB, no loss) as OutPkts and InPkts count it.
#
# The counts are exact: both namespaces are idle (no context left) before
# the counters are read and tracing stops, and the ring buffer must not
# have overrun.  A kernel without tracefs or the xtp events skips.
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/xtp_trace
B=$XTP_BINDIR
mkdir -p "$OUT"

ktap_print_header
PLAN=13
ktap_set_plan $PLAN
modprobe xtp

cleanup() {
	trace_cleanup
	xtp_ns_cleanup
}
trap cleanup EXIT
trace_start xtp ||
	ktap_skip_all $PLAN "no tracefs or no xtp events on this kernel"
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"

# both NAME: the counter summed over the two namespaces.
both() {
	echo $(($(snmp_get "$1" "$NS_C") + $(snmp_get "$1" "$NS_S")))
}
CTRS="OutPkts InPkts RetransSegs EcntlLosses Handshakes PassiveOpens"
declare -A before
for c in $CTRS; do
	before[$c]=$(both "$c")
done

head -c 2097152 /dev/urandom >"$OUT/in"
xtp_netem_both loss 5% delay 1ms
PORT=7400
ip netns exec "$NS_S" timeout 120 "$B/xtprecv" -T 60 -o "$OUT/out" $PORT \
	>"$OUT/srv" 2>"$OUT/srv.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/srv.err"
# Veno, a loss-based window: BBR's window follows its model and may
# fall between losses (a drain, a round at the least RTT).
ip netns exec "$NS_C" timeout 120 "$B/xtpsend" -T 60 --cc veno \
	-f "$OUT/in" 198.18.0.2 $PORT >"$OUT/cli" 2>"$OUT/cli.err"
rc=$?
# The teardown finishes without loss; then nothing moves any more.
xtp_netem_both
wait "$srv"
rrc=$?
wait_for 60 xtp_ns_idle "$NS_C" && wait_for 60 xtp_ns_idle "$NS_S"
idle=$?
declare -A delta
for c in $CTRS; do
	delta[$c]=$(($(both "$c") - ${before[$c]}))
done
trace_stop "$OUT/trace"

ktap_check "2 MB arrive sha256-equal through 5% loss (send $rc, recv $rrc)" \
	'[ $rc -eq 0 ] && [ $rrc -eq 0 ] && [ "$(sha "$OUT/in")" = "$(sha "$OUT/out")" ]'
ktap_check "both namespaces idle, the ring buffer did not overrun ($TRACE_OVERRUN)" \
	'[ $idle -eq 0 ] && [ "$TRACE_OVERRUN" = 0 ]'

events() { trace_count "$OUT/trace" "$@"; }
n=$(events xtp_send_pkt)
ktap_check "xtp_send_pkt: $n events, OutPkts +${delta[OutPkts]}" \
	'[ "$n" -gt 0 ] && [ "$n" = "${delta[OutPkts]}" ]'
n=$(events xtp_recv_pkt)
ktap_check "xtp_recv_pkt: $n events, InPkts +${delta[InPkts]}" \
	'[ "$n" -gt 0 ] && [ "$n" = "${delta[InPkts]}" ]'
n=$(events xtp_retransmit)
ktap_check "xtp_retransmit: $n events, RetransSegs +${delta[RetransSegs]}" \
	'[ "$n" -gt 0 ] && [ "$n" = "${delta[RetransSegs]}" ]'
n=$(grep -o ' xtp_loss: .* lost=[0-9]*' "$OUT/trace" |
	awk -F'lost=' '{ s += $2 } END { print s + 0 }')
ktap_check "xtp_loss: $n packets, EcntlLosses +${delta[EcntlLosses]}" \
	'[ "$n" -gt 0 ] && [ "$n" = "${delta[EcntlLosses]}" ]'
n=$(events xtp_handshake "key=[0-9a-f]* start")
ktap_check "xtp_handshake: $n starts, Handshakes +${delta[Handshakes]}" \
	'[ "$n" = "${delta[Handshakes]}" ]'
n=$(events xtp_atm add)
ktap_check "xtp_atm: $n adds, PassiveOpens +${delta[PassiveOpens]}" \
	'[ "$n" = 1 ] && [ "$n" = "${delta[PassiveOpens]}" ]'
ktap_check "the FIRST leaves and arrives in the trace" \
	'[ "$(events xtp_send_pkt "198.18.0.1 > 198.18.0.2 FIRST")" -ge 1 ] &&
	 [ "$(events xtp_recv_pkt "198.18.0.1 > 198.18.0.2 FIRST")" -ge 1 ]'

# The sender's context is the one that retransmitted.  Walk its events
# in time order: a probe whose trainsize is below the probe before it is
# a fall; a fall is explained if a loss or handshake event of the key
# came in between.
key=$(grep -m1 -o ' xtp_retransmit: key=[0-9a-f]*' "$OUT/trace" |
	sed 's/.*key=//')
read -r falls unexplained < <(
	grep " key=$key " "$OUT/trace" | awk '
	/ xtp_loss: / || / xtp_handshake: / { cause = 1; next }
	/ xtp_probe: / {
		match($0, /trainsize=[0-9]+/)
		w = substr($0, RSTART + 10, RLENGTH - 10) + 0
		if (seen && w < last) {
			falls++
			if (!cause)
				bad++
		}
		seen = 1; last = w; cause = 0
	}
	END { print falls + 0, bad + 0 }')
ktap_check "xtp_probe: the sender's trainsize fell $falls times, each after a loss or handshake ($unexplained not)" \
	'[ -n "$key" ] && [ "$falls" -ge 1 ] && [ "$unexplained" = 0 ]'
ktap_check "xtp_probe: every probe names srtt, rttvar, alloc and inflight" \
	'[ "$(events xtp_probe)" -gt 0 ] &&
	 [ "$(events xtp_probe "key=[0-9a-f]* trainsize=[0-9]* threshold=[0-9]* srtt=[0-9]* rttvar=[0-9]* alloc=[0-9]* inflight=[0-9]*")" = "$(events xtp_probe)" ]'

# In flight is what was sent less what is acknowledged, reported by
# spans, marked lost or beyond a handshake's cut answer: the sender's
# probes must add up, including those taken while spans were out.
read -r adds wrong gaps < <(
	grep " xtp_probe: key=$key " "$OUT/trace" | awk '
	{
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			v[kv[1]] = kv[2] + 0
		}
		out = v["nxt"] - v["una"] - v["lost"] - v["sacked"] - v["unheard"]
		if (out < 0)
			out = 0
		if (v["inflight"] == out)
			n++
		else
			bad++
		if (v["lost"] + v["sacked"] > 0)
			gaps++
	}
	END { print n + 0, bad + 0, gaps + 0 }')
ktap_check "xtp_probe: inflight is nxt - una - lost - sacked - unheard ($adds probes, $wrong not, $gaps with gaps)" \
	'[ "$adds" -gt 0 ] && [ "$wrong" = 0 ] && [ "$gaps" -gt 0 ]'

# perf stat -a counts the events from the start of the transfer until
# both namespaces are idle again.
if command -v perf >/dev/null &&
	perf stat -a -e xtp:xtp_send_pkt true >/dev/null 2>&1; then
	head -c 262144 /dev/urandom >"$OUT/in2"
	ip netns exec "$NS_S" timeout 60 "$B/xtprecv" -T 30 -o "$OUT/out2" \
		7401 >/dev/null 2>"$OUT/srv2.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/srv2.err"
	out0=$(both OutPkts) in0=$(both InPkts)
	export NS_C NS_S B OUT
	export -f snmp_get ns_counter ns_held wait_for xtp_ns_idle
	perf stat -a -x, -o "$OUT/perf" \
		-e xtp:xtp_send_pkt -e xtp:xtp_recv_pkt -- bash -c '
		ip netns exec "$NS_C" timeout 60 "$B/xtpsend" -T 30 \
			-f "$OUT/in2" 198.18.0.2 7401 >/dev/null 2>&1 &&
		wait_for 60 xtp_ns_idle "$NS_C" &&
		wait_for 60 xtp_ns_idle "$NS_S"' 2>"$OUT/perf.err"
	prc=$?
	wait "$srv"
	rrc=$?
	# perf 6.1's libtraceevent cannot parse the print format of the
	# %pI4 addresses ("bad op token &"): it only counts here.
	sed 's/^/# perf: /' "$OUT/perf" "$OUT/perf.err"
	pout=$(awk -F, '$3 == "xtp:xtp_send_pkt" { print $1 }' "$OUT/perf")
	pin=$(awk -F, '$3 == "xtp:xtp_recv_pkt" { print $1 }' "$OUT/perf")
	dout=$(($(both OutPkts) - out0)) din=$(($(both InPkts) - in0))
	ktap_check "perf stat: xtp_send_pkt $pout = OutPkts +$dout, xtp_recv_pkt $pin = InPkts +$din ($prc, $rrc)" \
		'[ $prc -eq 0 ] && [ $rrc -eq 0 ] &&
		 [ "$(sha "$OUT/in2")" = "$(sha "$OUT/out2")" ] &&
		 [ "$dout" -gt 0 ] && [ "$pout" = "$dout" ] && [ "$pin" = "$din" ]'
else
	ktap_test_skip "perf stat: no perf here, or it cannot open xtp events"
fi

ktap_finished
