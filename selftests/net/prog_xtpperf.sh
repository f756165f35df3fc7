#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# xtpperf, the benchmarks' workload generator, between two namespaces:
# every transport completes exactly the transactions and bytes asked for
# in each mode, TFO's data rides in the SYN once the cookie is warm, and
# an answer of the wrong length is an error (EPROTO), not a result.
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/prog_xtpperf
X=$XTP_BINDIR/xtpperf
mkdir -p "$OUT"
declare -A port=([xtp]=5101 [tcp]=5102 [tfo]=5103 [mtp]=5104)
srv=()

prog_setup 21
modprobe mtp
for p in xtp tcp tfo mtp; do
	ip netns exec "$NS_S" sysctl -qw net.ipv4.tcp_fastopen=3
	ip netns exec "$NS_C" sysctl -qw net.ipv4.tcp_fastopen=3
	ip netns exec "$NS_S" "$X" -s -P "$p" -p "${port[$p]}" -w 8 \
		2>"$OUT/srv-$p.err" &
	srv+=($!)
done
trap 'kill "${srv[@]}" 2>/dev/null; wait "${srv[@]}"; prog_cleanup' EXIT
wait_for 30 sh -c "ip netns exec $NS_S ss -ltn | grep -q :5103" ||
	ktap_exit_fail_msg "xtpperf servers did not start"

# field JSON NAME: a number or string of xtpperf's JSON object.
field() {
	sed -n "s/.*\"$2\":\"\{0,1\}\([^\",}]*\).*/\1/p" <<<"$1"
}

# xp NAME PROTO ARGS...: one client run; its JSON in $J, status in $RC.
xp() {
	local name=$1 p=$2
	shift 2
	J=$(ip netns exec "$NS_C" timeout 120 "$X" -j -c 198.18.0.2 -P "$p" \
		-p "${port[$p]}" "$@" 2>"$OUT/$name.err")
	RC=$?
	echo "$J" >"$OUT/$name.json"
}

for p in xtp tcp tfo mtp; do
	xp "crr-$p" "$p" -m crr -q 64 -r 300 -k 20
	ktap_check "$p crr: 20 transactions of 300 bytes, none failed" \
		'[ $RC = 0 ] && [ "$(field "$J" transactions)" = 20 ] &&
		 [ "$(field "$J" errors)" = 0 ] &&
		 [ "$(field "$J" bytes)" = $((20 * 364)) ]'
	xp "rr-$p" "$p" -m rr -q 100 -r 3000 -n 2 -k 25
	ktap_check "$p rr: 2 clients x 25 transactions of 3000 bytes" \
		'[ $RC = 0 ] && [ "$(field "$J" transactions)" = 50 ] &&
		 [ "$(field "$J" bytes)" = $((50 * 3100)) ]'
	xp "stream-$p" "$p" -m stream -b 2000000
	ktap_check "$p stream: the server confirms 2000000 bytes" \
		'[ $RC = 0 ] && [ "$(field "$J" bytes)" = 2000000 ]'
done

for p in xtp tcp; do
	xp "mrr-$p" "$p" -m mrr -k 5
	ktap_check "$p mrr: 5 ftp-like sessions of 11880 bytes each" \
		'[ $RC = 0 ] && [ "$(field "$J" transactions)" = 5 ] &&
		 [ "$(field "$J" bytes)" = $((5 * 11880)) ]'
done

# The warm-up exchange fetches the cookie; every timed one rides the SYN.
# Without a server that accepts data in the SYN, every one falls back.
xp tfo-cookie tfo -m crr -k 10
ktap_check "tfo: with the cookie warm, all 10 timed exchanges ride the SYN" \
	'[ $RC = 0 ] && [ "$(field "$J" tfo_fallbacks)" = 0 ]'
ip netns exec "$NS_S" sysctl -qw net.ipv4.tcp_fastopen=1
xp tfo-off tfo -m crr -k 10
ip netns exec "$NS_S" sysctl -qw net.ipv4.tcp_fastopen=3
ktap_check "tfo: a server without TFO makes all 10 fall back, counted" \
	'[ $RC = 0 ] && [ "$(field "$J" tfo_fallbacks)" = 10 ]'

# Latency samples and the per-second series land where asked.
xp samples xtp -m crr -k 15 -D "$OUT/lat.txt"
ktap_check "-D writes 15 sorted latency samples" \
	'[ $RC = 0 ] && [ "$(wc -l <"$OUT/lat.txt")" = 15 ] &&
	 sort -n -c "$OUT/lat.txt"'
xp series tcp -m stream -l 3 -I "$OUT/series.txt"
ktap_check "-I writes a growing byte count every second" \
	'[ $RC = 0 ] && [ "$(wc -l <"$OUT/series.txt")" -ge 2 ] &&
	 awk "\$3 < last { exit 1 } { last = \$3 }" "$OUT/series.txt"'

# A server that answers 80 bytes where 300 were asked: an error.
ip netns exec "$NS_S" socat TCP4-LISTEN:5199,reuseaddr EXEC:'head -c 80' \
	2>/dev/null &
srv+=($!)
wait_for 30 sh -c "ip netns exec $NS_S ss -ltn | grep -q :5199"
J=$(ip netns exec "$NS_C" timeout 60 "$X" -j -c 198.18.0.2 -P tcp -p 5199 \
	-m crr -r 300 -k 1 2>/dev/null)
RC=$?
ktap_check "a short answer fails the run with EPROTO" \
	'[ $RC = 1 ] && [ "$(field "$J" errors)" = 1 ] &&
	 [ "$(field "$J" first_error)" = "Protocol error" ]'

# hold keeps N associations until SIGTERM, then aborts them.
ip netns exec "$NS_C" "$X" -c 198.18.0.2 -P xtp -p 5101 -m hold -n 20 -l 60 \
	>"$OUT/hold.txt" 2>&1 &
h=$!
wait_for 60 grep -q "^held 20" "$OUT/hold.txt"
ktap_check "hold: 20 associations open" \
	'[ "$(snmp_get CurrSockets "$NS_C")" -ge 20 ]'
kill "$h"
wait "$h"
ktap_check "hold: ends at SIGTERM with status 0" '[ $? = 0 ]'
ktap_finished
