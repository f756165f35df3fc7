#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# XTP under netem (issue 4): xtpsend -> xtprecv between the two namespaces,
# files of 1 KB, 100 KB and 10 MB arrive sha256-equal under
#
#   none             baseline: no retransmission at all (DpkOut=0)
#   loss 1%          the sender retransmits (DpkOut > 0)
#   loss 5%          the sender retransmits
#   loss 20%         the sender retransmits
#   delay 20ms 5ms   (the jitter reorders packets too)
#   delay 10ms reorder 10%   10% of the packets overtake the others: the
#                    sender finds it (SpuriousLosses, SpuriousRtx); Veno
#                    (reorder-veno) undoes window cuts (CwndUndos), BBR
#                    (reorder-bbr, 10 MB) takes no cut to undo, and
#                    its window is not held at the floor that a least
#                    RTT of a lucky packet's 0.1 ms gave
#   duplicate 5%
#   corrupt 1%       bad checksums are dropped and counted: InCsumErrors
#                    rises in the receiving namespace; DpkOut > 0
#
# netem sits on both veth ends, so DATA and the control packets that
# answer it suffer alike.  The sender's retransmissions come from the
# Appendix B block xtpsend prints (XTPSOCK_MIBSTAT).
#
# A module that rejects XTPSOCK_CONGESTION (`xtpsend -O --cc=scc`) lacks
# issue 4's loss recovery: the test fails at once rather than running a
# workaround and counting its transfers as passes.  Every transfer runs
# with the default options (BBR, ECNTL recovery); a case named *-veno
# runs with Veno, one named *-bbr with BBR whatever the default.
#
# One reduced form, for the time under QEMU TCG: no large file at 20%
# loss (XTP_LOSS_FULL=1 runs 10 MB there; XTP_LOSS_CASES replaces the
# case table).  1 MB there took 25 to 50 s (110 to 292 handshakes), and
# 256 KB 25 to 43 s, up to a quarter of the test's time in CI, for no
# check that 100 KB does not make as well (about 70 packets: 20 of them
# retransmitted over 9 handshakes in one run).  Each transfer's time is
# printed and bounded by a generous timeout (XTP_LOSS_TMO seconds
# replaces it, to try the diagnosis of a hang); the times are
# diagnostics, never assertions.
# Measured (idle host): 10 MB without netem 2.8 s with no retransmission,
# at 1% loss 5 s, delay 20 ms +-5 ms 9.4 s, 5% loss 13 s (35 handshakes),
# 1 MB at 20% loss 25 s (about 110 handshakes: at 20% each way many
# bursts lose their last SREQ or its answer).  10 MB at 20% took 203 s
# with Veno (1066 handshakes) and 235 s with NewReno; one run of three died
# of ETIMEDOUT before the WTIMER's doubling was capped (timer.c).
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/xtp_loss
B=$XTP_BINDIR
mkdir -p "$OUT"
# The files themselves in the guest's memory (xtp_memdir), the logs in
# $OUT; without a tmpfs the files go to $OUT and are hashed afterwards.
DATA=$OUT/mem
MEM=1
xtp_memdir "$DATA" || { DATA=$OUT; MEM=; }

BIG5=10M
BIG20=
if [ "${XTP_LOSS_FULL:-0}" = 1 ]; then
	BIG5=10M
	BIG20=10M
fi

# name|netem arguments|sizes
CASES=${XTP_LOSS_CASES:-"none||1K 100K 10M
loss1|loss 1%|1K 100K 10M
delay|delay 20ms 5ms|1K 100K 10M
reorder-veno|delay 10ms reorder 10%|1K 100K 10M
reorder-bbr|delay 10ms reorder 10%|10M
dup|duplicate 5%|1K 100K 10M
corrupt|corrupt 1%|1K 100K 10M
loss5|loss 5%|1K 100K $BIG5
loss20|loss 20%|1K 100K $BIG20"}

# gone PID: the process has ended.
gone() {
	! kill -0 "$1" 2>/dev/null
}

# Bytes of a size written 1K, 100K, 10M.
bytes() {
	case $1 in
	*K) echo $((${1%K} * 1024)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*) echo "$1" ;;
	esac
}

# stuck: the contexts of both namespaces, one line: address, state,
# snd_una, snd_nxt, rcv_nxt, tx_queue of each.
stuck() {
	local ns

	for ns in "$NS_C" "$NS_S"; do
		ip netns exec "$ns" cat /proc/net/xtp/contexts | awk '
			NR > 1 { printf "%s %s una %s nxt %s rcv %s txq %s; ",
				 $1, $3, $6, $7, $8, $9 }'
	done
}

# xfer NAME SIZE SECONDS: one transfer of in.SIZE, at most SECONDS; 0 if
# both ends succeed and the copy is sha256-equal.  Sets XFER_MS and
# XFER_RTX (the sender's retransmitted DATA packets).  The copy is hashed
# as it arrives, through a FIFO: sha256sum of 10 MB takes seconds under
# TCG, and this way it overlaps the transfer.
#
# The receiver closes the copy when the stream ends, before its side of
# the teardown; when the last END is lost it waits for CTIMEOUT (42 s)
# before it gives up, which says nothing about the data, so after 5 s of
# grace it is stopped (a diagnostic says so).  Each transfer has a port of
# its own, so such a receiver's context cannot get in the next one's way.
xfer() {
	local name=$1 in=$DATA/in.$2 tmo=${XTP_LOSS_TMO:-$3} srv hash= rc t0 rrc wd

	XFER_MS=0
	XFER_RTX=0
	PORT=$((PORT + 1))
	rm -f "$DATA/out" "$DATA/out.sha"
	if [ -n "$MEM" ]; then
		mkfifo "$DATA/out" || return 1
		sha "$DATA/out" >"$DATA/out.sha" &
		hash=$!
	fi
	ip netns exec "$NS_S" timeout "$tmo" "$B/xtprecv" -T 60 \
		-o "$DATA/out" $PORT >"$OUT/$name.srv" 2>"$OUT/$name.srv.err" &
	srv=$!
	if ! wait_for 30 grep -q listening "$OUT/$name.srv.err"; then
		kill "$srv" $hash 2>/dev/null
		wait "$srv" $hash
		return 1
	fi
	t0=$(now_ms)
	# Near the timeout, what both ends' contexts are doing (the result
	# line of a transfer that hangs says it: CI keeps only those).
	rm -f "$OUT/$name.stuck"
	(
		trap 'kill $nap; exit' TERM
		sleep $((tmo - 2)) &
		nap=$!
		wait $nap && stuck >"$OUT/$name.stuck"
	) </dev/null >/dev/null 2>&1 &
	wd=$!
	ip netns exec "$NS_C" timeout "$tmo" "$B/xtpsend" -T 60 \
		-f "$in" 198.18.0.2 $PORT >"$OUT/$name.cli" 2>"$OUT/$name.cli.err"
	rc=$?
	kill "$wd" 2>/dev/null
	wait "$wd" 2>/dev/null
	# All acknowledged: the receiver has the stream's end, or soon.
	[ $rc -eq 0 ] && [ -n "$hash" ] && wait_for 60 gone "$hash"
	XFER_MS=$(($(now_ms) - t0))
	if ! wait_for 5 gone "$srv"; then
		echo "# $name: the receiver's teardown outlasts the transfer, stopped"
		kill "$srv" 2>/dev/null
	fi
	wait "$srv"
	rrc=$?
	# 143: stopped above.
	[ $rrc -eq 0 ] || [ $rrc -eq 143 ] || rc=1
	if [ -n "$hash" ]; then
		# Had xtprecv died before opening the FIFO, its reader waits.
		: <>"$DATA/out"
		wait "$hash"
	elif [ -f "$DATA/out" ]; then
		sha "$DATA/out" >"$DATA/out.sha"
	fi
	XFER_RTX=$(mib "$OUT/$name.cli" "Pk sent" DpkOut)
	XFER_RTX=${XFER_RTX:-0}
	[ $rc -eq 0 ] && [ "$(cat "$IN_SHA/$2")" = "$(cat "$DATA/out.sha")" ]
}

# A result per transfer, and per case its own: no retransmission without
# loss, retransmissions under loss and corruption, InCsumErrors, the
# reordering found.
plan=0
while IFS='|' read -r name _ sizes; do
	set -- $sizes
	plan=$((plan + $#))
	case $name in
	reorder-bbr) plan=$((plan + 2)) ;;
	none | reorder* | loss*) plan=$((plan + 1)) ;;
	corrupt) plan=$((plan + 2)) ;;
	esac
done <<<"$CASES"
prog_setup "$plan"

trap 'prog_cleanup; [ -n "$MEM" ] && xtp_memdir_done "$DATA"' EXIT
IN_SHA=$DATA/sha
mkdir -p "$IN_SHA"
for s in 1K 100K 10M $BIG5 $BIG20; do
	[ -f "$DATA/in.$s" ] && continue
	head -c "$(bytes "$s")" /dev/urandom >"$DATA/in.$s"
	sha "$DATA/in.$s" >"$IN_SHA/$s"
done

PORT=9000
ip netns exec "$NS_C" "$B/xtpsend" -O --cc=scc 2>"$OUT/optcheck"
optrc=$?
if [ $optrc -ne 0 ]; then
	sed 's/^/# /' "$OUT/optcheck"
	ktap_exit_fail_msg "XTPSOCK_CONGESTION=scc not accepted (xtpsend -O exits $optrc; 3: the module rejects it)"
fi

total0=$(now_ms)
while IFS='|' read -r name args sizes; do
	# shellcheck disable=SC2086
	xtp_netem_both $args || ktap_exit_fail_msg "netem $args failed"
	cc0=$(ip netns exec "$NS_C" sysctl -n net.xtp.cc)
	case $name in
	*-bbr) ip netns exec "$NS_C" sysctl -qw net.xtp.cc=4 ;;
	*-veno) ip netns exec "$NS_C" sysctl -qw net.xtp.cc=3 ;;
	esac
	cc=$(cc_name "$(ip netns exec "$NS_C" sysctl -n net.xtp.cc)")
	desc=${args:-no netem}
	[ "$name" = "${name%-bbr}" ] || desc="$desc, BBR"
	[ "$name" = "${name%-veno}" ] || desc="$desc, Veno"
	csum_s=$(snmp_get InCsumErrors "$NS_S")
	csum_c=$(snmp_get InCsumErrors "$NS_C")
	rbuf=$(snmp_get RcvbufErrors "$NS_S")
	early0=$(snmp_get SpuriousLosses "$NS_C")
	srtx0=$(snmp_get SpuriousRtx "$NS_C")
	undo0=$(snmp_get CwndUndos "$NS_C")
	rtx=0
	case0=$(now_ms)
	for s in $sizes; do
		case $s in
		*M) tmo=240 ;;
		*) tmo=90 ;;
		esac
		xfer "$name.$s" "$s" "$tmo" </dev/null
		ok=$?
		# At 20% loss each way a handshake round trip fails 36% of the
		# time, and the FIRST's retries within CTIMEOUT (42 s) all fail
		# about once in 500 connects (seen once in CI): the data was
		# never at stake, so such a connect gets one more transfer.
		if [ $ok -ne 0 ] && grep -q 'connect: Connection timed out' \
			"$OUT/$name.$s.cli.err"; then
			echo "# $desc, $s: connect timed out; once more"
			xfer "$name.$s" "$s" "$tmo" </dev/null
			ok=$?
		fi
		rtx=$((rtx + XFER_RTX))
		hs=$(mib "$OUT/$name.$s.cli" HandShake HandShake)
		echo "# $desc, $s: $((XFER_MS / 1000)).$(printf %03d $((XFER_MS % 1000))) s," \
			"retransmits=$XFER_RTX handshakes=${hs:-?}"
		if [ $ok -ne 0 ]; then
			sed 's/^/# send: /' "$OUT/$name.$s.cli.err" "$OUT/$name.$s.cli"
			sed 's/^/# recv: /' "$OUT/$name.$s.srv.err"
		fi
		why=
		[ $ok -eq 0 ] || [ ! -s "$OUT/$name.$s.stuck" ] ||
			why=" (2 s before the timeout: $(cat "$OUT/$name.$s.stuck"))"
		ktap_check "$desc: $s arrives sha256-equal$why" '[ $ok -eq 0 ]'
	done
	echo "# $desc: case took $((($(now_ms) - case0) / 1000)) s," \
		"receiver RcvbufErrors $rbuf -> $(snmp_get RcvbufErrors "$NS_S")"
	csum_s1=$(snmp_get InCsumErrors "$NS_S")
	csum_c1=$(snmp_get InCsumErrors "$NS_C")
	case $name in
	none)
		# Packets sent from different CPUs cross different per-CPU
		# backlogs even on a veth pair, and a stalled vCPU can hold
		# some back longer than the reordering window: allow a few
		# in the 7000 packets (go-back would resend thousands).
		# A TCG vCPU on a busy host can stall for tens of ms with a
		# window of packets in its backlog, far past the 2 ms floor
		# of the window (CI, once: 86); so more than a few earn the
		# 10 MB transfer once more, and a cause that is not such a
		# stall fails both.  Said in the result line: the receiver's
		# duplicates (spurious) and drops (real losses).
		again=
		if [ $rtx -gt 30 ]; then
			sed 's/^/# send: /' "$OUT/$name.$s.cli"
			dups=$(mib "$OUT/$name.$s.srv" "Congestion: " dup_data_in)
			drops=$(($(snmp_get RcvbufErrors "$NS_S") - rbuf))
			again=", first DpkOut=$rtx: receiver dup_data_in=${dups:-?} RcvbufErrors+$drops"
			echo "# no netem: $rtx DATA retransmitted; $s once more"
			xfer "$name.$s.again" "$s" 240 </dev/null || again="$again, again NOT sha256-equal"
			rtx=$XFER_RTX
			[ $rtx -eq 0 ] || sed 's/^/# send: /' "$OUT/$name.$s.again.cli"
		fi
		ktap_check "no netem: (almost) no DATA retransmitted (DpkOut=$rtx <= 30$again)" \
			'[ $rtx -le 30 ] && [ "${again%NOT*}" = "$again" ]' ;;
	reorder*)
		# netem sends a tenth of the packets 10 ms ahead of the rest,
		# past the first reordering window (a quarter of the 20 ms
		# RTT): the sender calls the rest lost, finds them delivered
		# (before or at once after it sent them again) and a
		# loss-based window undoes the cuts that needed no
		# retransmission.  BBR's window follows its model, not losses:
		# it has no cut to undo.
		early=$(($(snmp_get SpuriousLosses "$NS_C") - early0 +
			 $(snmp_get SpuriousRtx "$NS_C") - srtx0))
		undo=$(($(snmp_get CwndUndos "$NS_C") - undo0))
		if [ "$cc" = bbr ]; then
			ktap_check "$desc: the sender found the reordering (SpuriousLosses+SpuriousRtx=$early), no cut to undo (CwndUndos=$undo)" \
				'[ $early -gt 0 ] && [ $undo -eq 0 ]'
		else
			ktap_check "$desc: the sender found the reordering (SpuriousLosses+SpuriousRtx=$early) and undid a cut (CwndUndos=$undo)" \
				'[ $early -gt 0 ] && [ $undo -gt 0 ]'
		fi
		# A packet that skips the delay, answered by one that skips
		# it too, returns in under 0.1 ms.  Taken for the least RTT it
		# held BBR's window at a floor of about three send quanta: 10
		# MB in 27 s; with only packets that overtook none, still 9
		# packets and 20 s.  Not below SRTT/8 as well: 87 packets and
		# 3.3 s.
		if [ "$name" = reorder-bbr ]; then
			win=$(mib "$OUT/$name.$s.cli" Initial Final_trainsize)
			ktap_check "$desc: the window is no floor of a near-zero least RTT (Final_trainsize=${win:-?} >= 16 packets)" \
				'[ "${win:-0}" -ge $((16 * 1448)) ]'
		fi ;;
	loss*)
		ktap_check "$args: the sender retransmitted (DpkOut=$rtx)" \
			'[ $rtx -gt 0 ]' ;;
	corrupt)
		echo "# InCsumErrors: receiver $csum_s -> $csum_s1, sender $csum_c -> $csum_c1"
		ktap_check "$args: the receiver dropped and counted bad checksums (InCsumErrors)" \
			'[ "$csum_s1" -gt "$csum_s" ]'
		ktap_check "$args: the sender retransmitted the dropped DATA (DpkOut=$rtx)" \
			'[ $rtx -gt 0 ]' ;;
	esac
	ip netns exec "$NS_C" sysctl -qw net.xtp.cc="$cc0"
done <<<"$CASES"
xtp_netem_both
echo "# total $((($(now_ms) - total0) / 1000)) s"
ktap_finished
