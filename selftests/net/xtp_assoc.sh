#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# XTP packet sequences against the LinuxXTP thesis: for each association
# type, teardown method and traffic service, run one exchange between two
# namespaces, capture it, and compare the packets field by field (type,
# RETURN, DLEN, SYNC, SEQ, options, RSEQ, ALLOC, ECHO; keys by name) with
# the thesis figures.  Each direction is compared in order; without
# congestion control yet, the interleaving of the two directions may
# differ from the figures.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
OUT=${XTP_OUT:-/tmp}/assoc
mkdir -p "$OUT"

# exchange NAME SIZE "SERVER OPTS" "CLIENT OPTS": run it, leave the decoded
# capture in $OUT/NAME.txt and the data check's verdict in $OUT/NAME.data
exchange() {
	local name=$1 size=$2 sopts=$3 copts=$4 pcap=$OUT/$1.pcap

	head -c "$size" /dev/urandom >"$OUT/$name.in"
	start_capture "$NS_S" veth-s "$pcap" || return 1
	ip netns exec "$NS_S" "$PEER" server $sopts 9999 \
		>"$OUT/$name.srv" 2>"$OUT/$name.srv.err" &
	local srv=$!
	wait_for 30 grep -q listening "$OUT/$name.srv.err"
	ip netns exec "$NS_C" "$PEER" client $copts 198.18.0.2 9999 \
		<"$OUT/$name.in" >"$OUT/$name.cli" 2>&1
	wait $srv
	# Zombies and orphans finish their teardown before the capture ends.
	wait_for 30 xtp_ns_idle "$NS_S"
	wait_for 30 xtp_ns_idle "$NS_C"
	stop_capture
	"$XTP_BINDIR/xtp_pcap" "$pcap" 198.18.0.1 >"$OUT/$name.txt"
	if cmp -s "$OUT/$name.in" "$OUT/$name.srv"; then
		echo ok >"$OUT/$name.data"
	else
		echo bad >"$OUT/$name.data"
	fi
}

# same_dirs EXPECTED ACTUAL: the c>s lines and the s>c lines agree.
same_dirs() {
	local d

	for d in 'c>s' 's>c'; do
		diff <(grep "^$d" "$1") <(grep "^$d" "$2") >/dev/null || return 1
	done
}

# check NAME DESCRIPTION EXPECTED [ALTERNATIVE]: one KTAP line.
check() {
	local name=$1 desc=$2 n

	printf '%s\n' "$3" >"$OUT/$name.want"
	n=$(grep -c . "$OUT/$name.txt")
	if [ "$(cat "$OUT/$name.data")" = ok ] &&
	   { same_dirs "$OUT/$name.want" "$OUT/$name.txt" ||
	     { [ -n "${4:-}" ] && printf '%s\n' "$4" >"$OUT/$name.alt" &&
	       same_dirs "$OUT/$name.alt" "$OUT/$name.txt"; }; }; then
		ktap_test_pass "$desc ($n packets)"
	else
		ktap_test_fail "$desc ($n packets, data $(cat "$OUT/$name.data"))"
		diff "$OUT/$name.want" "$OUT/$name.txt" | sed 's/^/# /'
	fi
}

ktap_print_header
ktap_set_plan 10
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

# Fig. 7/8: SDT, 1000 bytes, data and WCLOSE in the FIRST.
exchange sdt 1000 "" "-m sendto -W"
check sdt "SDT 1000 bytes is Fig. 8" \
"c>s F kyA dl1024 sy1 sq90000 EOM WCL SRQ
s>c T kyA+RTN dl40 sy0 sq0 RCL rq1024 al91024 ec1 xkB
s>c C kyA+RTN dl20 sy1 sq0 WCL RCL SRQ rq1024 al91024 ec1
c>s C kyB+RTN dl20 sy1 sq1024 END WCL RCL rq0 al90000 ec1"

# A request and its answer at 40 ms RTT (not in the thesis, whose server
# sends nothing back): the child follows the FIRST's SDT, so its WCLOSE
# leaves as soon as the application closes (on the answer, or in a CNTL
# right after it) instead of after the answer is acknowledged, and the
# client has the answer and its end after one round trip.  In the
# server's capture, its first WCLOSE comes before the client's next
# packet; the default S_D_T waits for that packet, one RTT.
head -c 1000 /dev/urandom >"$OUT/sdt_reply.want_reply"
xtp_netem "$NS_C" veth-c delay 40ms
exchange sdt_reply 1000 "-r $OUT/sdt_reply.want_reply" "-m sendto -W"
xtp_netem "$NS_C" veth-c
wclose_line=$(grep -n '^s>c [DC] .* WCL' "$OUT/sdt_reply.txt" | head -1 | cut -d: -f1)
next_cli=$(grep -n '^c>s' "$OUT/sdt_reply.txt" | sed -n 2p | cut -d: -f1)
if cmp -s "$OUT/sdt_reply.want_reply" "$OUT/sdt_reply.cli" &&
   [ "$(cat "$OUT/sdt_reply.data")" = ok ] &&
   [ -n "$wclose_line" ] && [ -n "$next_cli" ] &&
   [ "$wclose_line" -lt "$next_cli" ]; then
	ktap_test_pass "SDT request and answer: the answer's WCLOSE leaves before its ack (packet $wclose_line, ack $next_cli)"
else
	ktap_test_fail "SDT request and answer: the answer's WCLOSE leaves before its ack (packet ${wclose_line:-none}, ack ${next_cli:-none})"
	sed 's/^/# /' "$OUT/sdt_reply.txt"
fi

# Fig. 13/14: SD_T.
exchange sd_t 1000 "" "-t 3"
check sd_t "SD_T 1000 bytes is Fig. 14" \
"c>s F kyA dl1024 sy1 sq90000 EOM SRQ
s>c T kyA+RTN dl40 sy0 sq0 rq1024 al91024 ec1 xkB
c>s C kyB+RTN dl20 sy2 sq1024 WCL SRQ rq0 al90000 ec0
s>c C kyA+RTN dl20 sy0 sq0 RCL rq1024 al91024 ec2
s>c C kyA+RTN dl20 sy1 sq0 WCL RCL SRQ rq1024 al91024 ec2
c>s C kyB+RTN dl20 sy2 sq1024 END WCL RCL rq0 al90000 ec1"

# Fig. 11/12: S_DT.
exchange s_dt 1000 "" "-t 4 -W"
check s_dt "S_DT 1000 bytes is Fig. 12" \
"c>s F kyA dl24 sy1 sq90000 SRQ
s>c T kyA+RTN dl40 sy0 sq0 rq24 al90024 ec1 xkB
c>s D kyB+RTN dl1000 sy2 sq24 EOM WCL SRQ
s>c C kyA+RTN dl20 sy0 sq0 RCL rq1024 al91024 ec2
s>c C kyA+RTN dl20 sy1 sq0 WCL RCL SRQ rq1024 al91024 ec2
c>s C kyB+RTN dl20 sy2 sq1024 END WCL RCL rq0 al90000 ec1"

# Fig. 9/10: S_D_T, the DEFAULT service.
S_D_T_HEAD="c>s F kyA dl24 sy1 sq90000 SRQ
s>c T kyA+RTN dl40 sy0 sq0 rq24 al90024 ec1 xkB"
exchange s_d_t 1000 "" ""
check s_d_t "S_D_T 1000 bytes is Fig. 10" \
"$S_D_T_HEAD
c>s D kyB+RTN dl1000 sy2 sq24 EOM SRQ
s>c C kyA+RTN dl20 sy0 sq0 rq1024 al91024 ec2
c>s C kyB+RTN dl20 sy3 sq1024 WCL SRQ rq0 al90000 ec0
s>c C kyA+RTN dl20 sy0 sq0 RCL rq1024 al91024 ec3
s>c C kyA+RTN dl20 sy1 sq0 WCL RCL SRQ rq1024 al91024 ec3
c>s C kyB+RTN dl20 sy3 sq1024 END WCL RCL rq0 al90000 ec1"

# Fig. 45 and 44: FILETRANSFER, RCLOSE on the FIRST.
exchange ft1000 1000 "" "-v 2 -m sendto -W"
check ft1000 "FILETRANSFER 1000 bytes is Fig. 45" \
"c>s F kyA dl1024 sy1 sq0 EOM WCL RCL SRQ
s>c T kyA+RTN dl40 sy0 sq0 WCL RCL rq1024 al91024 ec1 xkB
c>s C kyB+RTN dl20 sy1 sq1024 END WCL RCL rq0 al90000 ec0"

exchange ft5000 5000 "" "-v 2 -m sendto -W"
check ft5000 "FILETRANSFER 5000 bytes is Fig. 44" \
"c>s F kyA dl1448 sy1 sq0 RCL SRQ
s>c T kyA+RTN dl40 sy0 sq0 WCL rq1448 al91448 ec1 xkB
c>s D kyB+RTN dl1448 sy1 sq1448 RCL
c>s D kyB+RTN dl1448 sy2 sq2896 RCL SRQ
c>s D kyB+RTN dl680 sy3 sq4344 EOM WCL RCL SRQ
s>c C kyA+RTN dl20 sy0 sq0 WCL rq4344 al94344 ec2
s>c C kyA+RTN dl20 sy0 sq0 WCL RCL rq5024 al95024 ec3
c>s C kyB+RTN dl20 sy3 sq5024 END WCL RCL rq0 al90000 ec0"

# Table 1: S_D_T with 2000 bytes under each teardown method.
T1_HEAD="$S_D_T_HEAD
c>s D kyB+RTN dl1448 sy1 sq24
c>s D kyB+RTN dl552 sy2 sq1472 EOM SRQ
s>c C kyA+RTN dl20 sy0 sq0 rq2024 al92024 ec2
c>s C kyB+RTN dl20 sy3 sq2024 WCL SRQ rq0 al90000 ec0
s>c C kyA+RTN dl20 sy0 sq0 RCL rq2024 al92024 ec3"
SRV_WCL="s>c C kyA+RTN dl20 sy1 sq0 WCL RCL SRQ rq2024 al92024 ec3"

exchange abbrev 2000 "-d 2" "-d 2"
check abbrev "AbbrevClose: 9 packets (Table 1)" \
"$T1_HEAD
$SRV_WCL
c>s C kyB+RTN dl20 sy3 sq2024 END WCL RCL rq0 al90000 ec1"

# ForcedClose: END right after RCLOSE; if the server's own WCLOSE crosses
# it, the ZOMBIE answers with END again (the thesis' 2 extra packets).
exchange forced 2000 "-d 3" "-d 3"
check forced "ForcedClose: 8 packets, 2 extra when closes cross" \
"$T1_HEAD
c>s C kyB+RTN dl20 sy3 sq2024 END WCL rq0 al90000 ec0" \
"$T1_HEAD
c>s C kyB+RTN dl20 sy3 sq2024 END WCL rq0 al90000 ec0
$SRV_WCL
c>s C kyB+RTN dl20 sy3 sq2024 END WCL rq0 al90000 ec1"

# GracefulClose: RCLOSE and END apart; a racing END from the server may
# follow.
exchange graceful 2000 "-d 1" "-d 1"
check graceful "GracefulClose: 10 packets" \
"$T1_HEAD
$SRV_WCL
c>s C kyB+RTN dl20 sy3 sq2024 WCL RCL rq0 al90000 ec1
c>s C kyB+RTN dl20 sy3 sq2024 END WCL RCL rq0 al90000 ec1" \
"$T1_HEAD
$SRV_WCL
c>s C kyB+RTN dl20 sy3 sq2024 WCL RCL rq0 al90000 ec1
c>s C kyB+RTN dl20 sy3 sq2024 END WCL RCL rq0 al90000 ec1
s>c C kyA+RTN dl20 sy1 sq0 END WCL RCL rq2024 al92024 ec3"

ktap_finished
