#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# withxtp runs unmodified TCP programs over XTP: Debian's nc and socat
# move a file between the namespaces, and Debian's finger client asks
# Debian's in.fingerd (spawned by inetdx for an xtp line); each capture
# holds IP protocol 36 packets and no TCP.
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/prog_withxtp
B=$XTP_BINDIR
W=$B/withxtp
mkdir -p "$OUT"

prog_setup 10

"$W" --check >"$OUT/check.txt" 2>&1
ktap_check "withxtp --check: XTP available" \
	'[ $? -eq 0 ] && grep -q "XTP is available" "$OUT/check.txt"'

listening() { [ "$(snmp_get CurrSockets "$NS_S")" -ge 1 ]; }

# pair NAME "SERVER CMD" "CLIENT CMD": both under withxtp, capture all IP
pair() {
	local srv rc
	cap_start "$NS_S" veth-s "$OUT/$1.pcap" "ip" || return 1
	ip netns exec "$NS_S" "$W" sh -c "$2" 2>"$OUT/$1.srv.err" &
	srv=$!
	wait_for 30 listening || return 1
	ip netns exec "$NS_C" "$W" sh -c "$3" 2>"$OUT/$1.cli.err"
	rc=$?
	timeout 60 tail --pid=$srv -f /dev/null
	wait $srv || rc=1
	wait_for 30 xtp_ns_idle "$NS_C"
	wait_for 30 xtp_ns_idle "$NS_S"
	cap_stop
	sed 's/^/# /' "$OUT/$1.srv.err" "$OUT/$1.cli.err"
	return $rc
}

# only_xtp PCAP: XTP packets and not a single TCP one
only_xtp() {
	local x t
	x=$(cap_count "$1" "ip proto 36")
	t=$(cap_count "$1" "tcp")
	echo "# $(basename "$1"): $x XTP packets, $t TCP packets"
	[ "$x" -gt 0 ] && [ "$t" = 0 ]
}

head -c 200000 /dev/urandom >"$OUT/in.bin"
if command -v nc >/dev/null; then
	pair nc "nc -N -l 198.18.0.2 5001 >$OUT/nc.out </dev/null" \
		"nc -N 198.18.0.2 5001 <$OUT/in.bin"
	rc=$?
	ktap_check "withxtp nc -> nc -l: 200000 bytes sha256-equal" \
		'[ $rc -eq 0 ] && [ "$(sha "$OUT/in.bin")" = "$(sha "$OUT/nc.out")" ]'
	ktap_check "nc capture: only IP protocol 36, no TCP" 'only_xtp "$OUT/nc.pcap"'
else
	ktap_test_skip "nc not installed"
	ktap_test_skip "nc not installed"
fi

if command -v socat >/dev/null; then
	pair socat "socat -u TCP4-LISTEN:5002,bind=198.18.0.2 CREATE:$OUT/socat.out" \
		"socat -u OPEN:$OUT/in.bin TCP4:198.18.0.2:5002"
	rc=$?
	ktap_check "withxtp socat -> socat: 200000 bytes sha256-equal" \
		'[ $rc -eq 0 ] && [ "$(sha "$OUT/in.bin")" = "$(sha "$OUT/socat.out")" ]'
	ktap_check "socat capture: only IP protocol 36, no TCP" \
		'only_xtp "$OUT/socat.pcap"'
else
	ktap_test_skip "socat not installed"
	ktap_test_skip "socat not installed"
fi

# AF_INET6 stream sockets fail as on a kernel without IPv6.
if command -v socat >/dev/null; then
	WITHXTP_DEBUG=1 "$W" socat -u OPEN:/dev/null TCP6:[::1]:5003 \
		>"$OUT/v6.txt" 2>&1
	rc=$?
	ktap_check "AF_INET6 stream socket: EAFNOSUPPORT, no TCP" \
		'[ $rc -ne 0 ] && grep -q "AF_INET6 stream socket refused" "$OUT/v6.txt"'
else
	ktap_test_skip "socat not installed"
fi

# Debian's finger and in.fingerd, unmodified: inetdx spawns in.fingerd
# for an xtp line, the client runs under withxtp.
if [ -x /usr/sbin/in.fingerd ] && command -v finger >/dev/null; then
	echo "finger stream xtp nowait nobody /usr/sbin/in.fingerd in.fingerd" \
		>"$OUT/inetdx.conf"
	ip netns exec "$NS_S" "$B/inetdx" -d -l "$OUT/inetdx.conf" \
		2>"$OUT/inetdx.log" &
	INETD=$!
	wait_for 30 grep -q "ready: 1 services" "$OUT/inetdx.log"
	cap_start "$NS_S" veth-s "$OUT/finger.pcap" "ip"
	ip netns exec "$NS_C" "$W" finger -l root@198.18.0.2 \
		>"$OUT/finger.txt" 2>&1
	rc=$?
	wait_for 30 xtp_ns_idle "$NS_C"
	wait_for 30 xtp_ns_idle "$NS_S"
	cap_stop
	sed 's/^/# /' "$OUT/finger.txt" "$OUT/inetdx.log"
	ktap_check "Debian finger -> inetdx -> Debian in.fingerd over XTP" \
		'[ $rc -eq 0 ] && grep -q "Login: root" "$OUT/finger.txt"'
	ktap_check "finger capture: only IP protocol 36, no TCP" \
		'only_xtp "$OUT/finger.pcap"'
else
	ktap_test_skip "Debian finger/fingerd not installed"
	ktap_test_skip "Debian finger/fingerd not installed"
fi

# All three unmodified: Debian's openbsd-inetd runs under withxtp, so its
# "tcp" listener is an XTP one, and spawns Debian's in.fingerd.
if [ -x /usr/sbin/inetd ] && [ -x /usr/sbin/in.fingerd ] &&
   command -v finger >/dev/null; then
	[ -n "${INETD:-}" ] && kill "$INETD" 2>/dev/null && wait "$INETD"
	INETD=
	wait_for 30 xtp_ns_idle "$NS_S"
	echo "finger stream tcp nowait nobody /usr/sbin/in.fingerd in.fingerd" \
		>"$OUT/inetd.conf"
	ip netns exec "$NS_S" "$W" /usr/sbin/inetd -d "$OUT/inetd.conf" \
		>"$OUT/obinetd.log" 2>&1 &
	INETD=$!
	wait_for 30 bash -c "[ \"\$(ip netns exec $NS_S awk '\$1==\"XtpCurrSockets\"{print \$2}' /proc/net/xtp/snmp)\" -ge 1 ]"
	cap_start "$NS_S" veth-s "$OUT/obfinger.pcap" "ip"
	ip netns exec "$NS_C" "$W" finger -l root@198.18.0.2 \
		>"$OUT/obfinger.txt" 2>&1
	rc=$?
	wait_for 30 xtp_ns_idle "$NS_C"
	cap_stop
	sed 's/^/# /' "$OUT/obfinger.txt"
	ktap_check "Debian finger -> Debian openbsd-inetd -> in.fingerd, all over XTP" \
		'[ $rc -eq 0 ] && grep -q "Login: root" "$OUT/obfinger.txt"'
	ktap_check "openbsd-inetd capture: only IP protocol 36, no TCP" \
		'only_xtp "$OUT/obfinger.pcap"'
	kill "$INETD" 2>/dev/null
	wait "$INETD" 2>/dev/null
	INETD=
else
	ktap_test_skip "Debian openbsd-inetd/finger not installed"
	ktap_test_skip "Debian openbsd-inetd/finger not installed"
fi
ktap_finished
