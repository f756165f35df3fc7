#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# XTP's delivery-rate controller with a large flight through random loss:
# 50 ms RTT, 5% loss each way, no bottleneck but the emulator (bench row
# 4's 50ms-loss5).  With a megabyte in flight a 5% loss leaves more gaps
# than an ECNTL has spans for (16); the faults this test saw there:
#
#  - once a retransmission below the last span of a full list was seen,
#    every packet beyond it (sent earlier, never listed) counted as lost
#    and went again: a third of all packets sent, half of them spurious;
#  - those retransmissions, acknowledged a moment after they left, gave
#    rate samples shorter than a round trip, which bbr.c rightly ignores,
#    but whose rounds still aged its bandwidth filter: after twenty the
#    estimate was nothing and the sender paced at 1 byte/s;
#  - stalled, it got handshake answers without progress and took the
#    path for a PMTU black hole, cutting its packets to 256 bytes;
#  - the receiver let data above the gaps fill its whole buffer, and
#    then refused the packet at RSEQ each time it came.
#
# Two 10 s streams from the client, one after the other, each must end
# (xtpperf waits for its data to be acknowledged) within 60 s; over both,
# no PMTU black hole is suspected, fewer than a quarter of the
# retransmissions are spurious, and fewer than 15% of the packets sent
# are retransmissions (the loss is 5%; before the fix 31%).
set -u
. "$(dirname "$0")/lib.sh"

X=$XTP_TOP/build/tools/xtpperf
OUT=${XTP_OUT:-/tmp}/xtp_bbr_loss
PORT=5031
mkdir -p "$OUT"

ktap_print_header
ktap_set_plan 5
xtp_ns_setup || ktap_exit_fail_msg "namespaces"
trap 'kill $srv 2>/dev/null; xtp_ns_cleanup' EXIT
ip netns exec "$NS_S" "$X" -s -P xtp -p $PORT >"$OUT/server.log" 2>&1 &
srv=$!
wait_for 30 grep -q listening "$OUT/server.log" ||
	ktap_exit_fail_msg "xtpperf server did not start"
for ns in "$NS_C" "$NS_S"; do
	ip netns exec "$ns" sysctl -qw net.xtp.cc=4 ||
		ktap_exit_fail_msg "net.xtp.cc=4 (bbr)"
done
xtp_netem_both delay 25ms loss 5% limit 100000

c0() { snmp_get "$1" "$NS_C"; }
out0=$(c0 OutPkts) rtx0=$(c0 RetransSegs) sp0=$(c0 SpuriousRtx)
bh0=$(c0 PmtuBlackhole) hs0=$(c0 Handshakes) el0=$(c0 EcntlLosses)
for run in 1 2; do
	t0=$(now_ms)
	line=$(ip netns exec "$NS_C" timeout 60 "$X" -j -L "run$run" \
		-c 198.18.0.2 -P xtp -p $PORT -m stream -l 10)
	rc=$?
	secs=$((($(now_ms) - t0) / 1000))
	mbps=$(echo "$line" | sed -n 's/.*"goodput_mbps":\([0-9.]*\).*/\1/p')
	ktap_check "run $run: a 10 s stream through 5% loss ends (rc $rc, ${secs} s, ${mbps:-?} Mbit/s)" \
		"[ $rc = 0 ] && [ -n '$mbps' ]"
done
out=$(($(c0 OutPkts) - out0)) rtx=$(($(c0 RetransSegs) - rtx0))
sp=$(($(c0 SpuriousRtx) - sp0)) bh=$(($(c0 PmtuBlackhole) - bh0))
hs=$(($(c0 Handshakes) - hs0)) el=$(($(c0 EcntlLosses) - el0))
echo "# sent $out packets, $rtx retransmissions, $sp spurious, $bh black-hole cuts"
echo "# $hs handshakes, $el packets found lost from ECNTLs and deadlines"
ktap_check "no PMTU black hole suspected on a path without one ($bh)" \
	"[ $bh = 0 ]"
ktap_check "spurious retransmissions below a quarter of all ($sp of $rtx)" \
	"[ $((4 * sp)) -lt $rtx ]"
ktap_check "retransmissions below 15% of the packets sent ($rtx of $out)" \
	"[ $((100 * rtx)) -lt $((15 * out)) ] && [ $out -gt 1000 ]"
ktap_finished
