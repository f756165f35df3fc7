#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# FIRSTs with forged source addresses (validate.c).
#
# The victims, 198.19.0.0/16, are routed from the server to the client's
# namespace, which drops what it gets for them: they never answer.  An nft
# counter in the server's namespace adds up what the server sends them.
#
# 1. One forged SDT FIRST asking a server that answers with 1 MB: the
#    server sends the victim at most 3x the FIRST's bytes, and the context
#    is reset once its peer has not answered for 6 s (AvExpired).  Before
#    validation, one such FIRST drew an initial window and retransmissions
#    (~112x) and the child lived as long as the application kept it.
# 2. 20,000 forged FIRSTs (2000 a second for 10 s: faster, under TCG, and
#    the server's input queue drops the real client's packets too, which
#    no transport protocol can help) at a listener with a backlog of 128
#    whose application starts accepting 1 s late (so that the queue is
#    full), while a real client runs 20 SDT transactions in turn, in one
#    process (starting processes in a VM this busy takes seconds): every
#    transaction gets its answer, none slower than 3 s, forged children make way in the full accept
#    queue (AvEvicted), the victims get at most 3x the flood, and once the
#    server is gone every context and ATM entry goes.
# 3. With net.xtp.first_data 0, a forged FIRST's request never reaches the
#    application (its read fails when the context is reset), while a real
#    client's request does, after its answer to the TCNTL's SREQ, and
#    the server's contexts end before the next case starts.
set -u
. "$(dirname "$0")/lib.sh"

PEER=$XTP_BINDIR/xtp_peer
SPOOF=$XTP_BINDIR/xtp_spoof
OUT=${XTP_OUT:-/tmp}/spoof
mkdir -p "$OUT"

ktap_print_header
ktap_set_plan 12
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

ssnmp() { snmp_get "$1" "$NS_S"; }
victim() {
	ip netns exec "$NS_S" nft list counter ip spoof victim |
		sed -n 's/.*bytes \([0-9]*\).*/\1/p'
}
ip -n "$NS_S" route add 198.19.0.0/16 via 198.18.0.1 &&
ip netns exec "$NS_S" sysctl -qw net.xtp.msl_ms=500 &&
ip netns exec "$NS_S" nft -f - <<-NFT
	table ip spoof {
		counter victim { }
		chain out {
			type filter hook output priority 0; policy accept;
			ip daddr 198.19.0.0/16 counter name victim
		}
	}
NFT
ktap_check "victims routed to the client's namespace, counted" \
	'[ $? -eq 0 ] && [ "$(victim)" = 0 ]'

head -c 1048576 /dev/urandom >"$OUT/1m"
exp0=$(ssnmp AvExpired) lim0=$(ssnmp AvLimited)
ip netns exec "$NS_S" "$PEER" server -T 30 -r "$OUT/1m" 9999 \
	>"$OUT/one.srv" 2>"$OUT/one.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/one.err"
t0=$(now_ms)
inb=$(ip netns exec "$NS_C" "$SPOOF" -s 198.19.0.7 198.18.0.2)
wait $srv
el=$(($(now_ms) - t0))
sent=$(victim)
ktap_check "one forged FIRST ($inb bytes) for 1 MB: $sent bytes to the victim, at most 3x (AvLimited +$(($(ssnmp AvLimited) - lim0)))" \
	'[ -n "$inb" ] && [ "$sent" -gt 0 ] && [ "$sent" -le $((3 * inb)) ] &&
	 [ "$(ssnmp AvLimited)" -gt "$lim0" ]'
ktap_check "its context was reset after $el ms without an answer (AvExpired +$(($(ssnmp AvExpired) - exp0)); $(cat "$OUT/one.err" | tail -1))" \
	'[ "$(ssnmp AvExpired)" = $((exp0 + 1)) ] && [ $el -lt 15000 ] &&
	 grep -q "error: send: Connection timed out" "$OUT/one.err"'
ktap_check "the request reached the application once" \
	'[ "$(wc -c <"$OUT/one.srv")" = 100 ]'

# 3. first_data 0: data waits for validation.
ip netns exec "$NS_S" sysctl -qw net.xtp.first_data=0
exp0=$(ssnmp AvExpired) v0=$(victim)
ip netns exec "$NS_S" "$PEER" server -T 30 -r "$OUT/1m" 9999 \
	>"$OUT/held.srv" 2>"$OUT/held.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/held.err"
inb=$(ip netns exec "$NS_C" "$SPOOF" -s 198.19.0.8 198.18.0.2)
wait $srv
sent=$(($(victim) - v0))
ktap_check "first_data 0: a forged FIRST's request never reached the application ($(wc -c <"$OUT/held.srv") bytes read; $(tail -1 "$OUT/held.err"))" \
	'[ "$(wc -c <"$OUT/held.srv")" = 0 ] &&
	 grep -q "error: read: Connection timed out" "$OUT/held.err" &&
	 [ "$(ssnmp AvExpired)" = $((exp0 + 1)) ]'
ktap_check "first_data 0: the victim got $sent bytes for its $inb, at most 3x" \
	'[ -n "$inb" ] && [ "$sent" -gt 0 ] && [ "$sent" -le $((3 * inb)) ]'
# The client's packets take 300 ms: the server's read sleeps until the
# answer to its TCNTL's SREQ validates the client and wakes it.  Without
# SREQ the answer would wait for the probe at 3 s.
head -c 3000 /dev/urandom >"$OUT/answer"
xtp_netem "$NS_C" veth-c delay 300ms
ip netns exec "$NS_S" "$PEER" server -T 30 -n 2 -r "$OUT/answer" 9999 \
	>"$OUT/real.srv" 2>"$OUT/real.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/real.err"
echo "a request" | timeout 60 ip netns exec "$NS_C" "$PEER" client -n 2 \
	-m sendto -W -T 10 198.18.0.2 9999 >"$OUT/real.txn" 2>"$OUT/real.cli"
wait $srv
# The client's last packets are still in the netem: removing it now would
# drop them, and the server's context, its answer unacknowledged and the
# client's ZOMBIE (1 s) gone before its first probe (1.8 s), would live
# on until its CTIMEOUT (42 s, or twice that if an acknowledgement came
# after the close): what the drain check below once failed on.
t1=$SECONDS
wait_for 15 xtp_ns_idle "$NS_S"
ended=$((SECONDS - t1))
xtp_netem "$NS_C" veth-c
cat "$OUT/answer" "$OUT/answer" >"$OUT/answers"
ms=$(sed -n 's/^exchange [0-9]*: \([0-9]*\) ms$/\1/p' "$OUT/real.cli" |
	sort -n | tail -1)
ktap_check "first_data 0: a real client's 2 requests are read once validated and answered, slowest in ${ms:-?} ms with 300 ms each way from it; the server's contexts ended in ${ended} s ($(ssnmp CurrSockets) left)" \
	'[ "$(cat "$OUT/real.srv")" = "$(printf "a request\na request")" ] &&
	 cmp -s "$OUT/answers" "$OUT/real.txn" &&
	 [ -n "$ms" ] && [ "$ms" -ge 600 ] && [ "$ms" -lt 2500 ] &&
	 [ "$(ssnmp CurrSockets)" = 0 ]'
ip netns exec "$NS_S" sysctl -qw net.xtp.first_data=1

# 2. The flood, and a real client's transactions through it.
head -c 3000 /dev/urandom >"$OUT/answer"
answer=$(sha256sum <"$OUT/answer")
v0=$(victim) ev0=$(ssnmp AvEvicted)
ip netns exec "$NS_S" "$PEER" server -T 30 -D 1000 -n 1000000 \
	-r "$OUT/answer" 9999 >/dev/null 2>"$OUT/flood.err" &
srv=$!
wait_for 30 grep -q listening "$OUT/flood.err"
# Packets the CPUs' input queues dropped (second column, hex).
drops() {
	local n=0 a b rest

	while read -r a b rest; do
		n=$((n + 0x$b))
	done </proc/net/softnet_stat
	echo $n
}
d0=$(drops)
ip netns exec "$NS_C" "$SPOOF" -m 65000 -n 20000 -r 2000 198.18.0.2 \
	>"$OUT/flood.bytes" 2>&1 &
flood=$!
echo "a request" | timeout 120 ip netns exec "$NS_C" "$PEER" client -n 20 \
	-m sendto -W -T 10 198.18.0.2 9999 >"$OUT/txn" 2>"$OUT/txn.err"
ok=$(grep -c "^exchange" "$OUT/txn.err")
worst=$(sed -n 's/^exchange [0-9]*: \([0-9]*\) ms$/\1/p' "$OUT/txn.err" |
	sort -n | tail -1)
on=no
kill -0 $flood 2>/dev/null && on=yes
for i in $(seq 20); do
	cat "$OUT/answer"
done >"$OUT/answers"
wait $flood
inb=$(cat "$OUT/flood.bytes")
ktap_check "20 transactions through 20000 forged FIRSTs: $ok answered, slowest ${worst:-?} ms ($(($(drops) - d0)) packets dropped by input queues; flood still on at the end: $on)" \
	'[ $ok = 20 ] && [ "$worst" -lt $((3000 * $(slow_factor))) ] &&
	 cmp -s "$OUT/answers" "$OUT/txn"'
ktap_check "forged children made way in the full queue (AvEvicted +$(($(ssnmp AvEvicted) - ev0)), ListenOverflow $(ssnmp ListenOverflow))" \
	'[ "$(ssnmp AvEvicted)" -gt "$ev0" ]'
sent=$(($(victim) - v0))
ktap_check "the flood ($inb bytes) drew $sent bytes to the victims, at most 3x" \
	'[ -n "$inb" ] && [ "$sent" -le $((3 * inb)) ]'
kill $srv 2>/dev/null
wait $srv 2>/dev/null
ktap_check "the server survived the flood ($(tail -1 "$OUT/flood.err"))" \
	'! grep -q error "$OUT/flood.err"'
# Forged children expire after their handshake's retries (6.4 s above),
# late under TCG after a flood of 20000: 6 s here.  A leak never drains:
# 60 s still shows it.
t0=$SECONDS
# What is left, and its timers (ss -o), for the failure's diagnosis; the
# first context's state, sequence numbers and peer go into the result
# line too, which CI keeps.
SS=$XTP_TOP/build/iproute2/ss
left=
if ! wait_for 60 xtp_ns_idle "$NS_S"; then
	ip netns exec "$NS_S" cat /proc/net/xtp/contexts | sed 's/^/# left: /'
	[ -x "$SS" ] && ip netns exec "$NS_S" "$SS" -Otanie --xtp 2>&1 |
		sed 's/^/# left: /'
	left=$(ip netns exec "$NS_S" cat /proc/net/xtp/contexts |
		awk 'NR == 2 { print "; first:", $3, "una", $6, "nxt", $7,
				     "peer", $2 }')
fi
atm_empty() { [ "$(ssnmp AtmEntries)" = 0 ]; }
wait_for 10 atm_empty
ktap_check "everything drained: $(ssnmp CurrSockets) contexts, $(ssnmp AtmEntries) ATM entries left after $((SECONDS - t0)) s$left" \
	'[ "$(ssnmp CurrSockets)" = 0 ] && [ "$(ssnmp AtmEntries)" = 0 ]'
ktap_finished
