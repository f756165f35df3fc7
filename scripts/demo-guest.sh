#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM for `make demo`: load the modules, open XTP and MTP
# sockets, send hand-made XTP packets between two network namespaces, then
# the real thing: a finger query through inetdx (XTP and TCP), an xft
# file push and an MTP ping, all captured.
#
#   demo-guest.sh STAGE OUT
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$2
bin=$top/build
"$top/scripts/vm/guest-install.sh" "$1"
# For scripts/vm/judge-log.sh: what the kernel reports from here on is ours.
echo "xtp-selftest: start demo" >/dev/kmsg
# The console interleaves kernel messages; the host prints this file.
exec >"$out/demo.txt" 2>&1

say() { printf '\n== %s\n' "$*"; }

# start_dump NAME FILTER: capture FILTER on b into $out/NAME.pcap
start_dump() {
	ip netns exec b tcpdump -i veth-b --immediate-mode -U \
		-w "$out/$1.pcap" "$2" 2>"$out/$1.err" &
	dump=$!
	for _ in $(seq 100); do
		grep -q listening "$out/$1.err" && break
		sleep 0.1
	done
}

stop_dump() {
	sleep 1
	kill -INT $dump
	wait $dump 2>/dev/null
}

say "socket(AF_INET, SOCK_XTP, 0) and socket(AF_INET, SOCK_MTP, 0) autoload the modules"
"$bin/selftests/net/sockprobe" inet 7 0
"$bin/selftests/net/sockprobe" inet 8 0
grep -E '^(xtp|mtp) ' /proc/modules | cut -d' ' -f1-3
dmesg | grep -E 'xtp:|mtp:' | grep -v taint | sed 's/^\[[ 0-9.]*\] //'

say "/proc/net/protocols"
grep -E '^(protocol|XTP|MTP|TCP|UDP) ' /proc/net/protocols | cut -c1-60

say "an open XTP socket is counted in /proc/net/xtp/snmp"
"$bin/selftests/net/sockprobe" inet 7 36 -- grep CurrSockets /proc/net/xtp/snmp

say "two namespaces over veth: a 198.18.0.1 <-> b 198.18.0.2"
ip netns add a
ip netns add b
ip link add veth-a netns a type veth peer name veth-b netns b
ip -n a addr add 198.18.0.1/24 dev veth-a
ip -n b addr add 198.18.0.2/24 dev veth-b
ip -n a link set veth-a up
ip -n b link set veth-b up
start_dump demo 'ip proto 36'

say "a sends XTP packets to b"
for t in first cntl diag; do
	ip netns exec a "$bin/tools/xtpinject" -t "$t" -s 198.18.0.1 198.18.0.2
done
ip netns exec a "$bin/tools/xtpinject" -t cntl -c 198.18.0.2

say "b's /proc/net/xtp/snmp (no context listens yet: all are dropped and counted)"
ip netns exec b cat /proc/net/xtp/snmp

stop_dump
echo

# The thesis' applications: finger under inetd, and xft.
say "finger: inetdx runs fingerdx on b for XTP and TCP; fingerx asks from a"
cat >"$out/inetdx.conf" <<CONF
finger  stream  xtp  nowait  root  $bin/tools/fingerdx  fingerdx
finger  stream  tcp  nowait  root  $bin/tools/fingerdx  fingerdx
CONF
ip netns exec b "$bin/tools/inetdx" -d -l "$out/inetdx.conf" \
	2>"$out/inetdx.log" &
inetd=$!
for _ in $(seq 300); do
	grep -q "ready: 2 services" "$out/inetdx.log" && break
	sleep 0.1
done
# xtp_idle NS N: wait (bounded) until NS has at most N XTP sockets left
xtp_idle() {
	for _ in $(seq 100); do
		[ "$(ip netns exec "$1" awk '$1 == "XtpCurrSockets" { print $2 }' \
			/proc/net/xtp/snmp)" -le "$2" ] && return
		sleep 0.2
	done
}
# capture NAME FILTER IDLE CMD...: run CMD in a while b captures FILTER;
# the capture ends once b is down to IDLE XTP sockets (its listeners)
capture() {
	local idle=$3

	start_dump "$1" "$2"
	shift 3
	ip netns exec a "$@"
	xtp_idle a 0
	xtp_idle b "$idle"
	stop_dump
}
capture finger-xtp "ip proto 36" 1 "$bin/tools/fingerx" root@198.18.0.2 |
	head -3
capture finger-tcp "tcp" 1 "$bin/tools/fingerx" -t root@198.18.0.2 >/dev/null
kill $inetd
wait $inetd 2>/dev/null

say "xft: a pushes 1000 bytes to xftd on b (FILETRANSFER service)"
mkdir -p "$out/xftd"
head -c 1000 /dev/urandom >"$out/file1000"
ip netns exec b "$bin/tools/xftd" -c 1 -d "$out/xftd" -R got1000 \
	2>"$out/xftd.log" &
xftd=$!
for _ in $(seq 100); do
	grep -q listening "$out/xftd.log" && break
	sleep 0.1
done
capture xft "ip proto 36" 0 "$bin/tools/xft" -R "$out/file1000" 198.18.0.2
wait $xftd
cmp -s "$out/file1000" "$out/xftd/got1000" && echo "the file arrived intact"

# MTP (for tools/tcpdump's MTP printer): one mtping exchange between the
# namespaces, captured on b; demo.sh prints it decoded by our tcpdump.
say "MTP: a pings mtping -s on b (UDP port 8080)"
# Full UDP checksums on the wire (veth would leave them to an offload that
# never happens), so tcpdump -vv can verify them.
for ns in a b; do
	ip netns exec $ns ethtool -K veth-$ns tx off >/dev/null 2>&1
done
start_dump demo-mtp 'udp port 8080'
ip netns exec b "$bin/tools/mtping" -s 8080 >"$out/mtping-s.txt" 2>&1 &
srv=$!
for _ in $(seq 50); do
	ip netns exec b grep -qi ':1F90 ' /proc/net/udp && break
	sleep 0.1
done
ip netns exec a "$bin/tools/mtping" 198.18.0.2 8080
stop_dump
kill $srv
wait $srv 2>/dev/null
echo
# The kernel log of the whole demo, for scripts/vm/judge-log.sh.
dmesg >"$out/dmesg.log" 2>&1
