#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fingerx -> inetdx -> fingerdx: RFC 1288 over XTP.  The query travels in
# the FIRST with WCLOSE, so it takes fewer packets than the same query
# over TCP (both counted from captures).  inetdx serves the xtp and tcp
# lines of one configuration file and rereads it on SIGHUP.
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/prog_finger
B=$XTP_BINDIR
mkdir -p "$OUT"

prog_setup 9

cat >"$OUT/inetdx.conf" <<CONF
# finger over XTP and over TCP, same server
finger  stream  xtp  nowait  root  $B/fingerdx  fingerdx
finger  stream  tcp  nowait  root  $B/fingerdx  fingerdx
CONF
ip netns exec "$NS_S" "$B/inetdx" -d -l "$OUT/inetdx.conf" \
	2>"$OUT/inetdx.log" &
INETD=$!
wait_for 30 grep -q "ready: 2 services" "$OUT/inetdx.log"
ktap_check "inetdx starts with an xtp and a tcp finger line" '[ $? -eq 0 ]'

# query NAME "FINGERX OPTS" FILTER IDLE-CHECK: capture one query
query() {
	cap_start "$NS_S" veth-s "$OUT/$1.pcap" "$3" || return 1
	ip netns exec "$NS_C" "$B/fingerx" $2 >"$OUT/$1.txt" 2>&1
	local rc=$?
	wait_for 30 $4 "$NS_C"
	wait_for 30 $4 "$NS_S"
	cap_stop
	sed 's/^/# /' "$OUT/$1.txt"
	return $rc
}

query xtp "root@198.18.0.2" "ip proto 36" xtp_ns_idle
rc=$?
ktap_check "fingerx root@host over XTP: the account's text" \
	'[ $rc -eq 0 ] && grep -q "^Login: root " "$OUT/xtp.txt" &&
	 grep -q "^Directory: /root " "$OUT/xtp.txt"'
query tcp "-t root@198.18.0.2" "tcp" tcp_idle
rc=$?
ktap_check "fingerx -t root@host over TCP: the same text" \
	'[ $rc -eq 0 ] && cmp -s "$OUT/xtp.txt" "$OUT/tcp.txt"'

nx=$(cap_count "$OUT/xtp.pcap" "ip proto 36")
nt=$(cap_count "$OUT/tcp.pcap" "tcp")
"$B/xtp_pcap" "$OUT/xtp.pcap" 198.18.0.1 | sed 's/^/# xtp: /'
tcpdump -r "$OUT/tcp.pcap" -nn 2>/dev/null | sed 's/^/# tcp: /'
echo "# finger query: XTP $nx packets, TCP $nt packets"
# The thesis' minimum exchange is 4 packets.  Until the client has
# answered, the server sends it at most 3x what it sent (IP bytes,
# xtp.rst): an answer that does not fit beside the TCNTL waits for the
# client's CNTL, one round trip and 2 packets more.
"$B/xtp_pcap" "$OUT/xtp.pcap" 198.18.0.1 >"$OUT/xtp.trace"
first=0 tcntl=0 answer=0
while read -r dir type key len rest; do
	n=${len#dl}
	case "$dir $type" in
	"c>s F") first=$((first + n)) ;;
	"s>c T") tcntl=$((tcntl + n)) ;;
	"s>c D") answer=$((answer + n)) ;;
	esac
done <"$OUT/xtp.trace"
want=4
[ $((3 * (52 + first) - (52 + tcntl))) -ge $((52 + answer)) ] || want=6
ktap_check "the XTP query is the minimum exchange: $want packets for a $answer-byte answer to a $((52 + first))-byte FIRST, request in the FIRST" \
	'[ "$nx" = $want ] && [ $answer -gt 0 ] &&
	 head -1 "$OUT/xtp.trace" | grep -q "^c>s F .* EOM WCL"'
ktap_check "XTP uses fewer packets than TCP ($nx < $nt)" '[ "$nx" -lt "$nt" ]'

ip netns exec "$NS_C" "$B/fingerx" @198.18.0.2 >"$OUT/list.txt" 2>&1
ktap_check "an empty query lists the users logged in" \
	'grep -qE "^(No one logged on\.|Login )" "$OUT/list.txt"'
ip netns exec "$NS_C" "$B/fingerx" "root@x@198.18.0.2" >"$OUT/fwd.txt" 2>&1
ktap_check "forwarding (user@host@host) is refused" \
	'grep -q "forwarding service denied" "$OUT/fwd.txt"'

# SIGHUP: a new line is served, the unchanged ones keep their sockets.
echo "7979 stream xtp nowait root $B/fingerdx fingerdx -p" >>"$OUT/inetdx.conf"
kill -HUP "$INETD"
wait_for 30 grep -q "ready: 3 services" "$OUT/inetdx.log"
ip netns exec "$NS_C" "$B/fingerx" -p 7979 root@198.18.0.2 \
	>"$OUT/hup.txt" 2>&1
ktap_check "after SIGHUP the new xtp line on port 7979 answers (-p: no plan)" \
	'grep -q "^Login: root " "$OUT/hup.txt" && ! grep -q "Plan" "$OUT/hup.txt"'
ip netns exec "$NS_C" "$B/fingerx" root@198.18.0.2 >"$OUT/again.txt" 2>&1
ktap_check "and finger on port 79 still answers over XTP" \
	'cmp -s "$OUT/xtp.txt" "$OUT/again.txt"'
sed 's/^/# inetdx: /' "$OUT/inetdx.log"
ktap_finished
