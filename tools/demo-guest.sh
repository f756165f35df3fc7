#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM for `make demo`: load the modules, open XTP and MTP
# sockets, send hand-made XTP packets between two network namespaces and
# capture them.
#
#   demo-guest.sh STAGE OUT
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$2
bin=$top/build
"$top/tools/vm/guest-install.sh" "$1"
# The console interleaves kernel messages; the host prints this file.
exec >"$out/demo.txt" 2>&1

say() { printf '\n== %s\n' "$*"; }

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
ip netns exec b tcpdump -i veth-b -U -w "$out/demo.pcap" 'ip proto 36' \
	2>"$out/tcpdump.err" &
dump=$!
for _ in $(seq 100); do
	grep -q listening "$out/tcpdump.err" && break
	sleep 0.1
done

say "a sends XTP packets to b"
for t in first cntl diag; do
	ip netns exec a "$bin/tools/xtpinject" -t "$t" -s 198.18.0.1 198.18.0.2
done
ip netns exec a "$bin/tools/xtpinject" -t cntl -c 198.18.0.2

say "b's /proc/net/xtp/snmp (no context listens yet: all are dropped and counted)"
ip netns exec b cat /proc/net/xtp/snmp

sleep 1
kill -INT $dump
wait $dump 2>/dev/null
echo
