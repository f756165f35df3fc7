#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Association setup when the responder's TCNTL is lost (validate.c).
#
# The TCNTL is the only packet that gives the initiator the responder's
# key; until it has one, the initiator drops everything else.  An
# initiator whose FIRSTs were lost before has backed off (1, 2, 4, 8 s
# between them), so after a lost TCNTL its next FIRST, which the
# responder would answer with another TCNTL, may come after the
# responder's validation deadline (3 s, then 3 s more; each FIRST again
# doubles the second, case 3).
#
# 1. The client drops every TCNTL without SREQ (the answers to its
#    FIRSTs): the responder's probe at its first deadline must be a
#    TCNTL+SREQ, which brings the client its key.  The exchange completes
#    (sha256 both ways) and the responder is validated before its second
#    deadline (AvExpired unchanged).  When the probe was a CNTL the client
#    held it and waited, and the responder reset the context at 6 s.
# 2. The server hears only the client's first FIRST and the client hears
#    nothing, until after the responder has reset the context (AvExpired
#    +1): the client's next FIRST must open the association again, as
#    nothing of the first one reached the application.  Its ATM entry used to
#    stay for 2 x MSL and drop every later FIRST as a replay
#    (InReplayFirst), until the client gave up at CTIMEOUT.
# 3. The server hears every FIRST, the client nothing for 8 s: xtprecv
#    has accepted the context, so the context must live on while the
#    client's FIRSTs keep coming (validate.c).  It used to be reset at
#    6 s: xtprecv's recv() failed (ETIMEDOUT), xtprecv exited, and the
#    client's FIRST at 15 s found no listener (ECONNREFUSED), as a
#    transfer of xtp_loss.sh's 20% case once did.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
X=$XTP_BINDIR/xtpperf
OUT=${XTP_OUT:-/tmp}/xtp_setup_loss
mkdir -p "$OUT"
SRV=

cleanup() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	xtp_ns_cleanup
}

# The XTP header's fields as raw payload after a 20-byte IP header (bit
# offsets from it; nft 1.0.6 cannot list @th on a protocol it does not
# know): PFORMAT is the low 5 bits of the header's byte 11, SREQ bit 0x40
# of byte 9, SYNC bytes 20-23.
PF='@nh,248,8 & 0x1f'
SREQ='@nh,232,8 & 0x40'
SYNC='@nh,320,32'

# filter NS NAME RULE: a table NAME in NS whose input chain drops the XTP
# packets RULE matches, counting them.
filter() {
	ip netns exec "$1" nft -f - <<-NFT
		table ip $2 {
			chain in {
				type filter hook input priority 0;
				ip protocol 36 ip hdrlength 5 $3 counter drop
			}
		}
	NFT
}

dropped() {
	ip netns exec "$1" nft list table ip "$2" |
		sed -n 's/.*counter packets \([0-9]*\).*/\1/p'
}

# serve_gated TABLE SECONDS ERRFILE SERVER...: start SERVER in NS_S, its
# stderr in ERRFILE, and once it listens put the client's address in
# TABLE's set for SECONDS.
serve_gated() {
	local table=$1 secs=$2 err=$3

	shift 3
	ip netns exec "$NS_S" "$@" 2>"$err" &
	SRV=$!
	wait_for 30 grep -q listening "$err" ||
		ktap_exit_fail_msg "$(basename "$1") did not start"
	ip netns exec "$NS_S" nft add element ip "$table" peers \
		"{ 198.18.0.1 timeout ${secs}s }" ||
		ktap_exit_fail_msg "nft add element failed"
}

ktap_print_header
ktap_set_plan 9
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap cleanup EXIT

# 1. Every answer to a FIRST lost.
filter "$NS_C" notcntl "$PF == 5 $SREQ == 0" ||
	ktap_exit_fail_msg "nft setup failed"
head -c 20000 /dev/urandom >"$OUT/req"
head -c 30000 /dev/urandom >"$OUT/answer"
exp0=$(snmp_get AvExpired "$NS_S")
ip netns exec "$NS_S" "$PEER" server -T 30 -r "$OUT/answer" 9301 \
	>"$OUT/srv.out" 2>"$OUT/srv.err" &
SRV=$!
wait_for 30 grep -q listening "$OUT/srv.err" ||
	ktap_exit_fail_msg "xtp_peer server did not start"
t0=$(now_ms)
ip netns exec "$NS_C" timeout 60 "$PEER" client -m connect -C 15000 \
	198.18.0.2 9301 <"$OUT/req" >"$OUT/cli.out" 2>"$OUT/cli.err"
rc=$?
el=$(($(now_ms) - t0))
wait "$SRV"
SRV=
ktap_check "TCNTLs lost: the exchange completed in $el ms (rc $rc; $(tail -1 "$OUT/cli.err"))" \
	'[ $rc -eq 0 ] &&
	 [ "$(sha256sum <"$OUT/srv.out")" = "$(sha256sum <"$OUT/req")" ] &&
	 [ "$(sha256sum <"$OUT/cli.out")" = "$(sha256sum <"$OUT/answer")" ]'
n=$(dropped "$NS_C" notcntl)
ktap_check "the client dropped ${n:-?} TCNTLs, and the responder's probe brought its key before the reset (AvExpired +$(($(snmp_get AvExpired "$NS_S") - exp0)))" \
	'[ "${n:-0}" -ge 1 ] && [ "$(snmp_get AvExpired "$NS_S")" = "$exp0" ]'
ip netns exec "$NS_C" nft delete table ip notcntl

# 2. Nothing heard until the responder gave up.  The server's table
# drops the client's FIRSTs after the first and everything it sends the
# client while the client's address is in its set, which it leaves by
# itself GATE s after it went in, just before the client started: after
# the reset (6 s) and before the client's FIRST at 15 s.  On the debug
# kernel each nft command takes seconds: lifting the filters by hand after
# the reset came after the client's FIRST at 31 s, and its next one after
# its CTIMEOUT (42 s).
GATE=11
exp0=$(snmp_get AvExpired "$NS_S")
rep0=$(snmp_get InReplayFirst "$NS_S")
po0=$(snmp_get PassiveOpens "$NS_S")
ip netns exec "$NS_S" nft -f - <<-NFT || ktap_exit_fail_msg "nft setup failed"
	table ip gate {
		set peers {
			type ipv4_addr
			flags timeout
		}
		chain in {
			type filter hook input priority 0;
			ip protocol 36 ip hdrlength 5 ip saddr @peers $PF == 2 $SYNC != 1 counter drop
		}
		chain out {
			type filter hook output priority 0;
			ip protocol 36 ip daddr @peers counter drop
		}
	}
NFT
serve_gated gate $GATE "$OUT/perf.err" "$X" -s -P xtp -p 9302
t0=$(now_ms)
ip netns exec "$NS_C" timeout 90 "$X" -j -c 198.18.0.2 -P xtp -p 9302 \
	-m stream -b 100000 >"$OUT/perf.json" 2>"$OUT/perf.cli" &
cli=$!
expired() { [ "$(snmp_get AvExpired "$NS_S")" != "$exp0" ]; }
wait_for $((15 * $(slow_factor))) expired
ktap_check "the responder reset the unanswered context (AvExpired +$(($(snmp_get AvExpired "$NS_S") - exp0)))" \
	'[ "$(snmp_get AvExpired "$NS_S")" = $((exp0 + 1)) ]'
wait "$cli"
rc=$?
el=$(($(now_ms) - t0))
counts=$(ip netns exec "$NS_S" nft list table ip gate |
	sed -n 's/.*counter packets \([0-9]*\).*/\1/p' | tr '\n' ' ')
read -r nin nout <<<"$counts"
ktap_check "meanwhile the server dropped ${nin:-?} FIRSTs and ${nout:-?} packets to the client" \
	'[ "${nin:-0}" -ge 1 ] && [ "${nout:-0}" -ge 1 ]'
ktap_check "the client's next FIRST opened it again: 100000 bytes confirmed $el ms after the start (rc $rc; $(tail -c 200 "$OUT/perf.json"))" \
	'[ $rc -eq 0 ] && grep -q "\"bytes\":100000,\"goodput" "$OUT/perf.json" &&
	 grep -q "\"errors\":0," "$OUT/perf.json"'
ktap_check "as a new association, not a replay (InReplayFirst +$(($(snmp_get InReplayFirst "$NS_S") - rep0)), PassiveOpens +$(($(snmp_get PassiveOpens "$NS_S") - po0)))" \
	'[ "$(snmp_get InReplayFirst "$NS_S")" = "$rep0" ] &&
	 [ "$(snmp_get PassiveOpens "$NS_S")" = $((po0 + 2)) ]'
ip netns exec "$NS_S" nft delete table ip gate
# Case 3 has its own server: xtpperf's, left running, would keep its
# sockets and namespace past this test (xtp_lifecycle.sh waits for the
# module's last reference).
kill "$SRV" && wait "$SRV" 2>/dev/null
SRV=

# 3. Every answer lost for 8 s, the client's FIRSTs (0, 1, 3, 7 and 15 s)
# all heard.
exp0=$(snmp_get AvExpired "$NS_S")
po0=$(snmp_get PassiveOpens "$NS_S")
head -c 100000 /dev/urandom >"$OUT/in.100K"
ip netns exec "$NS_S" nft -f - <<-NFT || ktap_exit_fail_msg "nft setup failed"
	table ip mute {
		set peers {
			type ipv4_addr
			flags timeout
		}
		chain out {
			type filter hook output priority 0;
			ip protocol 36 ip daddr @peers counter drop
		}
	}
NFT
serve_gated mute 8 "$OUT/recv.err" \
	"$XTP_BINDIR/xtprecv" -q -T 60 -o "$OUT/out.100K" 9303
t0=$(now_ms)
ip netns exec "$NS_C" timeout 90 "$XTP_BINDIR/xtpsend" -T 60 \
	-f "$OUT/in.100K" 198.18.0.2 9303 >/dev/null 2>"$OUT/send.err"
rc=$?
el=$(($(now_ms) - t0))
wait "$SRV"
rrc=$?
SRV=
n=$(dropped "$NS_S" mute)
ktap_check "answers lost for 8 s: 100000 bytes sha256-equal $el ms after the start (xtpsend rc $rc: $(tail -1 "$OUT/send.err"); xtprecv rc $rrc: $(tail -1 "$OUT/recv.err"))" \
	'[ $rc -eq 0 ] && [ $rrc -eq 0 ] &&
	 [ "$(sha256sum <"$OUT/out.100K")" = "$(sha256sum <"$OUT/in.100K")" ]'
ktap_check "meanwhile the server dropped ${n:-?} packets to the client" \
	'[ "${n:-0}" -ge 3 ]'
ktap_check "the context lived on: one association (PassiveOpens +$(($(snmp_get PassiveOpens "$NS_S") - po0))), no reset (AvExpired +$(($(snmp_get AvExpired "$NS_S") - exp0)))" \
	'[ "$(snmp_get PassiveOpens "$NS_S")" = $((po0 + 1)) ] &&
	 [ "$(snmp_get AvExpired "$NS_S")" = "$exp0" ]'
ktap_finished
