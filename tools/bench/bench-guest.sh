#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM (tools/bench/bench.sh): the same unmodified program, socat,
# moves a file over TCP and, under withxtp, over XTP, between two network
# namespaces; netem shapes the veth pair.  Each case prints one line per
# protocol and the ratio against TCP.
set -u
# From tools/bench/ or from the copy in build/bench/: two levels up.
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
export XTP_BINDIR=${XTP_BINDIR:-$top/build/selftests/net}
. "$top/selftests/net/lib.sh"
W=$XTP_BINDIR/withxtp
D=/tmp/bench
mkdir -p "$D"
modprobe xtp
xtp_ns_setup || { echo "bench: namespace setup failed"; exit 1; }
trap xtp_ns_cleanup EXIT
fail=0

# segs N: TCP skbs of at most N segments on the veth pair.  netem drops
# whole skbs, and a TCP skb is a GSO train of up to 64 KB: with 1% loss
# TCP then loses far less than 1% of its packets, in bursts.  A wire drops
# packets; tcp-1seg gives TCP the same packet loss XTP sees.
segs() {
	ip netns exec "$NS_C" ip link set dev veth-c gso_max_segs "$1"
	ip netns exec "$NS_S" ip link set dev veth-s gso_max_segs "$1"
}

# xfer PROTO SIZE-FILE: seconds for the file to arrive (server exit), or
# "fail".  PROTO: tcp, tcp-1seg (one segment per skb), or xtp-CC (CC:
# 1 scc, 2 newreno, 3 veno) through withxtp.
xfer() {
	local proto=$1 in=$2 pre=() srv t0 t1 port=$((5000 + RANDOM % 1000))
	rm -f "$D/out"
	segs 65535
	[ "$proto" = tcp-1seg ] && segs 1
	if [ "${proto#xtp-}" != "$proto" ]; then
		pre=("$W")
		ip netns exec "$NS_C" sysctl -qw net.xtp.cc="${proto#xtp-}"
		ip netns exec "$NS_S" sysctl -qw net.xtp.cc="${proto#xtp-}"
	fi
	ip netns exec "$NS_S" timeout 300 "${pre[@]}" socat -u \
		TCP4-LISTEN:$port,bind=198.18.0.2 CREATE:"$D/out" 2>"$D/srv.err" &
	srv=$!
	# The server is not timed: give it a second to listen.
	sleep 1
	t0=$(date +%s.%N)
	ip netns exec "$NS_C" timeout 300 "${pre[@]}" socat -u OPEN:"$in" \
		TCP4:198.18.0.2:$port,retry=20,interval=0.5 2>"$D/cli.err"
	wait $srv
	t1=$(date +%s.%N)
	if cmp -s "$in" "$D/out"; then
		echo "$t1 $t0" | awk '{ printf "%.3f\n", $1 - $2 }'
	else
		echo fail
		fail=1
	fi
}

# case NAME SIZE-MB PROTOS...: one line per protocol, ratio to the first
case_run() {
	local name=$1 mb=$2 base="" bname="" p s
	shift 2
	head -c $((mb << 20)) /dev/urandom >"$D/in"
	echo "== $name: $mb MB"
	for p in "$@"; do
		s=$(xfer "$p" "$D/in")
		if [ "$s" = fail ]; then
			printf '  %-12s FAILED (data differ)\n' "$p"
			continue
		fi
		[ -z "$base" ] && { base=$s; bname=$p; }
		awk -v p="$p" -v s="$s" -v b="$base" -v bn="$bname" -v mb="$mb" 'BEGIN {
			printf "  %-12s %8.3f s %8.2f Mbit/s  goodput vs %s: %.2fx\n",
				p, s, mb * 8.388608 / s, bn, b / s }'
	done
}

echo "XTP vs TCP, socat over TCP and under withxtp (XTP), QEMU TCG guest"
echo "(tcp-1seg: TCP in one-segment skbs, so netem's loss hits its packets)"
case_run "bulk, no loss" 16 tcp xtp-3 xtp-2 xtp-1
xtp_netem_both delay 25ms loss 1%
for i in 1 2 3; do
	case_run "bulk, 1% loss each way, 50 ms RTT, run $i" 4 \
		tcp-1seg tcp xtp-3 xtp-2 xtp-1
done
xtp_netem_both delay 25ms
case_run "bulk, no loss, 50 ms RTT" 4 tcp xtp-3 xtp-2 xtp-1
exit $fail
