#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM (scripts/bench/bench.sh): every row of the performance report,
# XTP and MTP beside TCP, measured by xtpperf in this one boot between two
# network namespaces joined by a veth pair that netem shapes.  Each
# measurement appends one JSON object to $BENCH_OUT/results.jsonl; the
# host turns them into Documentation/performance.md.
#
# BENCH_PROFILE=quick runs a small subset of every row (minutes);
# BENCH_PROFILE=full every row as the report describes.
set -u
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
export XTP_BINDIR=${XTP_BINDIR:-$top/build/selftests/net}
. "$top/selftests/net/lib.sh"
out=${BENCH_OUT:-$top/build/bench}
profile=${BENCH_PROFILE:-full}
res=$out/results.jsonl
X=$top/build/tools/xtpperf
W=$top/build/tools/withxtp
: >"$res"
modprobe xtp && modprobe mtp || { echo "bench: modules"; exit 1; }
modprobe tcp_bbr 2>/dev/null
# XTP as users get it: net.xtp.trains as the module sets it.
XTP_TRAINS=module xtp_ns_setup ||
	{ echo "bench: namespace setup failed"; exit 1; }
# Each TCP run starts from nothing, as ours do: without this, tcp_metrics
# hands each connection the ssthresh its predecessor to the same peer
# left, so a row's TCP numbers depend on the rows before it.  (Row 6
# with XTP BBR, three 60 s pairs in one boot: Jain 0.83, 0.87, 0.91
# with the cache, 1.00, 0.83, 0.94 without: that spread is the flows'.)
for ns in "$NS_C" "$NS_S"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_no_metrics_save=1
done
# The module's default controller: the rows that say "xtp" run it, and
# the report names it.
xtp_cc0=$(ip netns exec "$NS_C" sysctl -n net.xtp.cc)
printf '{"label":"meta/xtp-cc","name":"%s"}\n' "$(cc_name "$xtp_cc0")" >>"$res"
pids=()
cleanup() {
	kill "${pids[@]}" 2>/dev/null
	wait 2>/dev/null
	xtp_ns_cleanup
}
trap cleanup EXIT

quick() { [ "$profile" = quick ]; }

# pick QUICK FULL: the value for this profile.
pick() { if quick; then echo "$1"; else echo "$2"; fi; }

declare -A port=([xtp]=5001 [tcp]=5002 [tfo]=5003 [mtp]=5004)
for ns in "$NS_S" "$NS_C"; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_fastopen=3
	for p in xtp tcp tfo mtp; do
		ip netns exec "$ns" "$X" -s -P "$p" -p "${port[$p]}" &
		pids+=($!)
	done
done
# Servers listen in both namespaces: MTP's data flows from its server,
# and a TCP flow that shares a path with it must flow the same way.
wait_for 30 sh -c "ip netns exec $NS_S ss -ltn | grep -q :5003 &&
	ip netns exec $NS_C ss -ltn | grep -q :5003" ||
	{ echo "bench: servers did not start"; exit 1; }

# shape NETEM...: the same netem both ways ("" for none); segs N: TCP
# skbs of at most N segments (netem drops whole skbs: a GSO train of 64 KB
# would lose far fewer of its packets than XTP does; 1 gives TCP the
# per-packet loss XTP sees).
shape() {
	if [ $# -eq 0 ]; then
		xtp_netem_both
	else
		xtp_netem_both "$@"
	fi
}
segs() {
	ip netns exec "$NS_C" ip link set dev veth-c gso_max_segs "$1"
	ip netns exec "$NS_S" ip link set dev veth-s gso_max_segs "$1"
}

# cc FLAVOUR: the sender's congestion control for the next run: xtp (the
# module's default), xtp-scc, xtp-newreno, xtp-veno, xtp-bbr, tcp-cubic,
# tcp-reno, tcp-bbr; prints the xtpperf transport.
cc() {
	local ns
	for ns in "$NS_C" "$NS_S"; do
		case $1 in
		xtp-scc) ip netns exec "$ns" sysctl -qw net.xtp.cc=1 ;;
		xtp-newreno) ip netns exec "$ns" sysctl -qw net.xtp.cc=2 ;;
		xtp) ip netns exec "$ns" sysctl -qw net.xtp.cc="$xtp_cc0" ;;
		xtp-veno) ip netns exec "$ns" sysctl -qw net.xtp.cc=3 ;;
		xtp-bbr) ip netns exec "$ns" sysctl -qw net.xtp.cc=4 ;;
		tcp-*) ip netns exec "$ns" sysctl -qw \
			net.ipv4.tcp_congestion_control="${1#tcp-}" ;;
		esac
	done
	echo "${1%%-*}"
}

# run NS LABEL SECONDS-LIMIT XTPPERF-ARGS...: one measurement, its JSON
# appended; a run that hangs or dies still leaves a record.
run() {
	local ns=$1 label=$2 limit=$3 line
	shift 3
	line=$(ip netns exec "$ns" timeout "$limit" "$X" -j -L "$label" "$@")
	if [ -n "$line" ]; then
		echo "$line" >>"$res"
	else
		printf '{"label":"%s","failed":"timeout or crash after %s s"}\n' \
			"$label" "$limit" >>"$res"
	fi
	echo "$label: ${line:-FAILED}" | cut -c1-200
}

# xp FLAVOUR LABEL LIMIT ARGS...: run from the client namespace to the
# server's port for FLAVOUR's transport.
xp() {
	local f=$1 label=$2 limit=$3 p
	shift 3
	p=$(cc "$f")
	run "$NS_C" "$label" "$limit" -c 198.18.0.2 -P "$p" -p "${port[$p]}" "$@"
}

echo "bench: profile $profile, $(uname -r), $(nproc) CPUs," \
	"net.xtp.trains $(ip netns exec "$NS_C" sysctl -n net.xtp.trains)"

# Row 1: a request and its answer over a new association, 40 ms RTT.
shape delay 20ms
for size in $(pick "100" "100 10000"); do
	for p in xtp mtp tcp tfo; do
		xp "$p" "row1/$size/$p" 120 -m crr -q 64 -r "$size" -R 40 \
			-k "$(pick 8 40)" -D "$out/lat-$size-$p.txt"
	done
done
shape

# Row 10: a one-datagram MTP transaction through 10% loss each way at
# 20 ms RTT, one socket for all (what earlier transactions measured of
# the server is known); TCP request/response on one connection beside it.
shape delay 10ms loss 10%
for p in mtp tcp; do
	xp "$p" "row10/$p" 120 -m rr -q 64 -r 100 -R 20 -l "$(pick 10 30)"
done
shape

# Row 11: a 2 MB MTP object through 10% loss each way at 20 ms RTT, with
# the loss-based window and with the delivery-rate model (net.mtp.cc),
# beside TCP moving the same bytes; several runs each, for the spread.
# The namespace's default mode is put back after each row that sets one.
mtp_cc0=$(ip netns exec "$NS_C" sysctl -n net.mtp.cc)
shape delay 10ms loss 10%
segs 1
for i in $(seq "$(pick 2 5)"); do
	for f in mtp mtp-bbr tcp-cubic tcp-bbr; do
		case $f in
		mtp*)
			ip netns exec "$NS_C" sysctl -qw net.mtp.cc="$([ $f = mtp ] &&
				echo 1 || echo 2)"
			run "$NS_C" "row11/$f/$i" 120 -c 198.18.0.2 -P mtp \
				-p 5004 -m stream -b $((2 << 20)) ;;
		*)
			xp "$f" "row11/$f/$i" 120 -m stream -b $((2 << 20)) ;;
		esac
	done
done
ip netns exec "$NS_C" sysctl -qw net.mtp.cc="$mtp_cc0"
segs 65535
shape

# Rows 2 and 3: transactions per second on loopback (one namespace).
for mode in crr rr; do
	for n in 1 16; do
		for p in xtp mtp tcp; do
			cc "$p" >/dev/null
			run "$NS_S" "row$([ $mode = crr ] && echo 2 || echo 3)/$n/$p" \
				60 -c 127.0.0.1 -P "$p" -p "${port[$p]}" -m "$mode" \
				-n "$n" -l "$(pick 2 5)"
		done
	done
done

# Row 4: bulk goodput.  Loopback, veth, 50 ms RTT, then loss each way.
flavours=$(pick "xtp-veno xtp-bbr tcp-cubic tcp-bbr" \
	"xtp-scc xtp-newreno xtp-veno xtp-bbr tcp-cubic tcp-reno tcp-bbr")
for f in $flavours; do
	p=$(cc "$f")
	run "$NS_S" "row4/loopback/$f" 60 -c 127.0.0.1 -P "$p" \
		-p "${port[$p]}" -m stream -l "$(pick 3 5)"
done
for f in $flavours; do
	xp "$f" "row4/veth/$f" 60 -m stream -l "$(pick 3 5)"
done
# netem's queue counts skbs: its default 1000 would take TCP's GSO trains
# 45 packets at a time and drop XTP's from 1.4 MB in flight on.
shape delay 25ms limit 100000
for f in $flavours; do
	xp "$f" "row4/50ms/$f" 90 -m stream -l "$(pick 4 15)"
done
segs 1
for loss in $(pick "1" "0.01 1 5 20"); do
	shape delay 25ms loss "$loss%" limit 100000
	for f in $flavours; do
		xp "$f" "row4/50ms-loss$loss/$f" 90 -m stream -l "$(pick 4 15)"
	done
done

# Row 5: an MTP object against TCP moving the same bytes, each loss.
for loss in $(pick "1" "0 1 5 20"); do
	shape delay 25ms loss "$loss%"
	for mb in $(pick 1 "1 16"); do
		for f in mtp tcp-cubic $(pick "" tcp-bbr); do
			if [ "$f" = mtp ]; then
				# The object flows from the server: time it there.
				run "$NS_C" "row5/loss$loss/${mb}MB/mtp" 120 \
					-c 198.18.0.2 -P mtp -p 5004 -m stream \
					-b $((mb << 20))
			else
				xp "$f" "row5/loss$loss/${mb}MB/$f" 120 -m stream \
					-b $((mb << 20))
			fi
		done
	done
done
segs 65535

# Row 6: one flow of ours and one TCP CUBIC flow through a 20 Mbit/s
# bottleneck with 20 ms RTT and a queue of one BDP (50 KB): a tbf under
# the netem that delays.  netem's own limit counts the packets of its
# delay line too (10 ms at 20 Mbit/s, about 17 of the 34 packets a BDP
# is), so "rate 20mbit limit 34" queued a third of a BDP.
secs=$(pick 15 60)
for ns in "$NS_C" "$NS_S"; do
	dev=veth-c
	[ "$ns" = "$NS_S" ] && dev=veth-s
	xtp_netem "$ns" "$dev"
	tc -n "$ns" qdisc add dev "$dev" root handle 1: netem delay 10ms \
		limit 10000 &&
	tc -n "$ns" qdisc add dev "$dev" parent 1:1 handle 10: tbf \
		rate 20mbit burst 16k limit 50000 ||
		echo "bench: row 6's bottleneck on $dev failed" >&2
done
cc tcp-cubic >/dev/null
# pair NAME PROTO PORT TCP-NS TCP-PEER: our flow NAME (PROTO to PORT from
# the client) and a TCP flow from TCP-NS to TCP-PEER, at once.  Nothing
# else runs meanwhile: run()'s timeout bounds the wait.  (Polling for the
# results, a sh and a grep every 100 ms, took enough of the guest's CPU
# to cost paced XTP BBR a third of its share: 6.3 against 12.9 Mbit/s
# with the polling beside a 40 s pair, 9.8 against 9.3 without.)
pair() {
	local ours tcp

	run "$NS_C" "row6/$1/$1" $((secs + 60)) -c 198.18.0.2 -P "$2" -p "$3" \
		-m stream -l "$secs" -I "$out/fair-$1-$1.txt" &
	ours=$!
	run "$4" "row6/$1/tcp" $((secs + 60)) -c "$5" -P tcp -p 5002 \
		-m stream -l "$secs" -I "$out/fair-$1-tcp.txt" &
	tcp=$!
	wait "$ours" "$tcp"
}
cc xtp-veno >/dev/null
pair xtpveno xtp 5001 "$NS_C" 198.18.0.2
cc xtp-bbr >/dev/null
pair xtpbbr xtp 5001 "$NS_C" 198.18.0.2
cc xtp >/dev/null
# MTP's data flows from the server namespace: so does this TCP flow.
ip netns exec "$NS_C" sysctl -qw net.mtp.cc=1
pair mtp mtp 5004 "$NS_S" 198.18.0.1
ip netns exec "$NS_C" sysctl -qw net.mtp.cc=2
pair mtpbbr mtp 5004 "$NS_S" 198.18.0.1
ip netns exec "$NS_C" sysctl -qw net.mtp.cc="$mtp_cc0"
shape

# Row 7: memory of idle associations, both ends in this machine.  Each
# transport gets a server of its own, killed afterwards, and the next
# measurement waits until the machine has settled (no socket of the
# previous one left).  Slab memory is counted in objects (/proc/slabinfo
# active objects times their size): page counts such as SUnreclaim miss
# objects that fill slab pages earlier rows left partly free.
unrecl_kb() { awk '/^SUnreclaim:/ { print $2 }' /proc/meminfo; }
slab_b() { awk 'NR > 2 { s += $2 * $4 } END { printf "%d", s }' /proc/slabinfo; }
sock_obj() { awk -v c="$1" '$1 == c { print $4 }' /proc/slabinfo; }
used_kb() {
	awk '/^MemTotal:/ { t = $2 } /^MemAvailable:/ { a = $2 }
		END { print t - a }' /proc/meminfo
}
settled() {
	local ns
	for ns in "$NS_C" "$NS_S"; do
		[ "$(snmp_get CurrSockets "$ns")" -le "${xtp_base[$ns]}" ] ||
			return 1
		[ "$(ip netns exec "$ns" ss -tan | grep -c ':5100 ')" = 0 ] ||
			return 1
	done
}
declare -A xtp_base
for ns in "$NS_C" "$NS_S"; do
	xtp_base[$ns]=$(snmp_get CurrSockets "$ns")
done
n=$(pick 200 1000)
for p in tcp xtp; do
	ip netns exec "$NS_S" "$X" -s -P "$p" -p 5100 -w 4 &
	hsrv=$!
	wait_for 30 sh -c "ip netns exec $NS_S ss -lan | grep -q ':5100 '"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	s0=$(unrecl_kb) u0=$(used_kb) b0=$(slab_b)
	ip netns exec "$NS_C" "$X" -c 198.18.0.2 -P "$p" -p 5100 \
		-m hold -n "$n" -l 600 >"$out/hold-$p.txt" 2>&1 &
	hold=$!
	if wait_for 120 grep -q "^held" "$out/hold-$p.txt"; then
		sleep 2
		s1=$(unrecl_kb) u1=$(used_kb) b1=$(slab_b)
		o=$(sock_obj "$(echo "$p" | tr a-z A-Z)")
		printf '{"label":"row7/%s","proto":"%s","mode":"hold","clients":%d,"slab_kb":[%d,%d],"used_kb":[%d,%d],"slab_b":[%d,%d],"sock_obj":%d}\n' \
			"$p" "$p" "$n" "$s0" "$s1" "$u0" "$u1" "$b0" "$b1" \
			"${o:-0}" >>"$res"
		echo "row7/$p: slab objects $b0 -> $b1 B, SUnreclaim $s0 -> $s1 kB, used $u0 -> $u1 kB for $n"
	else
		printf '{"label":"row7/%s","failed":"%s"}\n' "$p" \
			"$(tr -d '"\n' <"$out/hold-$p.txt" | cut -c1-100)" >>"$res"
	fi
	kill "$hold" 2>/dev/null
	wait "$hold" 2>/dev/null
	kill "$hsrv" 2>/dev/null
	wait "$hsrv" 2>/dev/null
	wait_for 180 settled || echo "row7: $p sockets still there after 180 s"
done

# Row 9: the thesis' workloads (its Tables 12-15) on the veth, no delay.
k=$(pick 20 100)
for p in xtp tcp; do
	xp "$p" "row9/srr1/$p" 120 -m crr -q 5 -r 1400 -k "$k"
	xp "$p" "row9/srr2/$p" 120 -m crr -q 5 -r 2800 -k "$k"
	xp "$p" "row9/mrr/$p" 120 -m mrr -k "$k"
	xp "$p" "row9/sft1000/$p" 120 -m crr -q 1000 -r 0 -k "$k"
	xp "$p" "row9/sft10000/$p" 120 -m crr -q 10000 -r 0 -k "$k"
	xp "$p" "row9/lft/$p" 120 -m stream -b 1000000 -n 1
done

# Cross-check: Debian's iperf3, unmodified, over TCP and under withxtp,
# on the veth and at 50 ms RTT.
if command -v iperf3 >/dev/null; then
	cc tcp-cubic >/dev/null
	cc xtp >/dev/null
	for path in veth 50ms; do
		[ "$path" = 50ms ] && shape delay 25ms limit 100000
		for p in tcp xtp; do
			pre=()
			[ "$p" = xtp ] && pre=("$W")
			ip netns exec "$NS_S" timeout 60 "${pre[@]}" iperf3 -s -1 -p 5201 \
				>/dev/null 2>&1 &
			srv=$!
			sleep 1
			bps=$(ip netns exec "$NS_C" timeout 60 "${pre[@]}" iperf3 -J \
				-c 198.18.0.2 -p 5201 -t "$(pick 3 5)" 2>/dev/null |
				jq -r '.end.sum_received.bits_per_second // empty')
			wait "$srv"
			printf '{"label":"iperf3/%s/%s","proto":"%s","goodput_mbps":%s}\n' \
				"$path" "$p" "$p" \
				"$(awk -v b="${bps:-0}" 'BEGIN { printf "%.3f", b / 1e6 }')" \
				>>"$res"
			echo "iperf3/$path/$p: ${bps:-FAILED} bit/s"
		done
	done
	shape
fi
echo "bench: $(wc -l <"$res") results"
