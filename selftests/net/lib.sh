# SPDX-License-Identifier: GPL-2.0
# Common setup for the project's shell selftests: the kernel's KTAP
# helpers, paths, and small waiting helpers (never fixed sleeps).

: "${XTP_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${XTP_BINDIR:=$XTP_TOP/build/selftests/net}"
# shellcheck source=/dev/null
. "$XTP_TOP/.ksrc/tools/testing/selftests/kselftest/ktap_helpers.sh"

SOCK_XTP=7
SOCK_MTP=8
IPPROTO_XTP=36
IPPROTO_UDP=17
IPPROTO_TCP=6

sockprobe() { "$XTP_BINDIR/sockprobe" "$@"; }

module_loaded() { grep -q "^$1 " /proc/modules; }

# Counters of a namespace are read through /proc/PID/net of a process
# that stays in it (ns_hold), with bash's own read: under TCG every
# program started costs ~0.1 s and `ip netns exec NS awk` 0.3 s, and
# xtp_data.sh alone read 80 counters.  NS_PID maps a namespace to its
# holder; a namespace without one is read through ip netns exec.
declare -gA NS_PID

# ns_hold NS...: a process in each NS until ns_release (or the namespace's
# own cleanup) ends it; 1 if one did not get there within 10 s.  It is
# started from a subshell, so that it is no child of the test's shell: a
# bare `wait` (xtp_counters.sh's stop with no PIDs) would wait for it.
# It stays in the test's process group, which a timeout kills.
ns_hold() {
	local ns

	for ns; do
		NS_PID[$ns]=$(ip netns exec "$ns" sleep 86400 \
			      </dev/null >/dev/null 2>&1 & echo $!)
		wait_for 10 ns_held "$ns" || return 1
	done
}

# ns_held NS: NS has a holder, and it is in NS (ip netns exec has joined).
ns_held() {
	local pid=${NS_PID[$1]:-}

	[ -n "$pid" ] && [ "/proc/$pid/ns/net" -ef "/run/netns/$1" ]
}

# ns_release NS...: end the holders of the NSs.
ns_release() {
	local ns

	for ns; do
		[ -n "${NS_PID[$ns]:-}" ] || continue
		kill "${NS_PID[$ns]}" 2>/dev/null
		unset "NS_PID[$ns]"
	done
}

# ns_counter FILE NAME [NETNS]: the value of line NAME in /proc/net/FILE.
ns_counter() {
	local f=/proc/net/$1 k v

	if [ -n "${3:-}" ]; then
		if ! ns_held "$3"; then
			ip netns exec "$3" awk -v n="$2" '$1 == n { print $2 }' "$f"
			return
		fi
		f=/proc/${NS_PID[$3]}/net/$1
	fi
	while read -r k v; do
		[ "$k" = "$2" ] && { echo "$v"; return; }
	done <"$f"
}

# snmp_get NAME [NETNS]: counter XtpNAME from /proc/net/xtp/snmp.
snmp_get() { ns_counter xtp/snmp "Xtp$1" "${2:-}"; }

# sha FILE: the sha256 of FILE, hex.
sha() { sha256sum <"$1" | cut -c1-64; }

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	while ! "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
}

# slow_factor: how many times a latency bound is stretched on this kernel.
# Lockdep and KASAN make every packet several times dearer (the debug tier
# measured 1.5x the release bounds), so a bound meant for speed scales.
slow_factor() {
	if [ -e /proc/lockdep ]; then
		echo 3
	else
		echo 1
	fi
}

# ktap_check DESCRIPTION EXPR: one result line; EXPR is evaluated by the
# shell, so it may use &&, || and [ ], and $? in it is the status of the
# command before ktap_check.
ktap_check() {
	# Names of its own that EXPR will not use (EXPR often reads $rc).
	local __kc_status=$? __kc_desc=$1
	shift
	(exit "$__kc_status")
	if eval "$*"; then
		ktap_test_pass "$__kc_desc"
	else
		ktap_test_fail "$__kc_desc"
	fi
}

# xtp_trains NS DEV on|off: whether DEV's route offers XTP's trains (one
# GSO skb of many DATA packets, net/xtp/offload.c): off, neither the
# device (tx-gso-list) nor the stack (gso) splits such skbs.
xtp_trains() {
	ip netns exec "$1" ethtool -K "$2" gso "$3" tx-gso-list "$3" >/dev/null
}

# xtp_trains_default NS...: net.xtp.trains 0 in each NS, 1 with
# XTP_TRAINS=1, the module's default (1) with XTP_TRAINS=module.  Most
# tests count packets in captures or lose them with netem, which takes a
# train as one packet; xtp_train.sh and xtp_tunnel.sh set XTP_TRAINS=1,
# make bench XTP_TRAINS=module.  Without xtp.ko (an MTP-only test such
# as mtp_pmtu.sh) there is nothing to set.
xtp_trains_default() {
	local ns

	[ "${XTP_TRAINS:-0}" = module ] && return 0
	[ -d /proc/sys/net/xtp ] || return 0
	for ns in "$@"; do
		ip netns exec "$ns" sysctl -qw \
			net.xtp.trains="${XTP_TRAINS:-0}" || return 1
	done
}

# Two namespaces joined by a veth pair: client 198.18.0.1, server
# 198.18.0.2.  Sets $NS_C and $NS_S; xtp_ns_cleanup removes them.
xtp_ns_setup() {
	NS_C=xtpc-$$
	NS_S=xtps-$$
	ip netns add "$NS_C" && ip netns add "$NS_S" &&
	ip link add veth-c netns "$NS_C" type veth peer name veth-s \
		netns "$NS_S" &&
	ip -n "$NS_C" addr add 198.18.0.1/24 dev veth-c &&
	ip -n "$NS_S" addr add 198.18.0.2/24 dev veth-s &&
	ip -n "$NS_C" link set veth-c up && ip -n "$NS_S" link set veth-s up &&
	ip -n "$NS_C" link set lo up && ip -n "$NS_S" link set lo up &&
	xtp_trains_default "$NS_C" "$NS_S" && ns_hold "$NS_C" "$NS_S"
}

xtp_ns_cleanup() {
	ns_release "$NS_C" "$NS_S"
	ip netns delete "$NS_C" 2>/dev/null
	ip netns delete "$NS_S" 2>/dev/null
}

# xtp_ns_idle NS: no XTP context is left in NS (zombies included).
xtp_ns_idle() {
	[ "$(snmp_get CurrSockets "$1")" = 0 ]
}

# start_capture NS IFACE FILE [FILTER]: tcpdump of XTP packets (those
# FILTER also takes), returns once it listens; stop_capture ends it.
start_capture() {
	ip netns exec "$1" tcpdump -i "$2" --immediate-mode -U -w "$3" \
		"ip proto 36${4:+ and ($4)}" 2>"$3.err" &
	CAPTURE_PID=$!
	wait_for 30 grep -q listening "$3.err"
}

stop_capture() {
	kill -INT "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
}

# xtp_netem NS DEV [NETEM ARGS...]: a fresh netem as DEV's root qdisc in
# NS; without ARGS, back to the default qdisc.  Not "replace": a netem
# changed in place keeps its earlier rate when the new arguments name
# none.
xtp_netem() {
	local ns=$1 dev=$2
	shift 2
	tc -n "$ns" qdisc del dev "$dev" root 2>/dev/null
	[ $# -eq 0 ] && return 0
	tc -n "$ns" qdisc add dev "$dev" root netem "$@"
}

# xtp_netem_both [NETEM ARGS...]: the same netem on veth-c and veth-s, so
# that packets in both directions suffer it.
xtp_netem_both() {
	xtp_netem "$NS_C" veth-c "$@" && xtp_netem "$NS_S" veth-s "$@"
}

# now_ms: the wall clock in milliseconds, for elapsed-time checks.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# jain X...: Jain's fairness index of the numbers, (sum x)^2 / (n sum x^2),
# three decimals (0 if all are 0).
jain() {
	echo "$@" | awk '{
		for (i = 1; i <= NF; i++) { s += $i; q += $i * $i }
		if (q > 0) printf "%.3f\n", s * s / (NF * q); else print 0
	}'
}

# cc_name N: the name of congestion controller N (sysctl net.xtp.cc,
# enum xtp_cc), as xtpsend --cc takes it.
cc_name() {
	case $1 in
	1) echo scc ;;
	2) echo newreno ;;
	3) echo veno ;;
	4) echo bbr ;;
	*) echo "unknown-$1" ;;
	esac
}

# xtp_ingress_netem NS DEV IFB [NETEM ARGS...]: netem on what DEV in NS
# receives, through ifb device IFB (created on first use).  Unlike netem
# on the egress, a capture on DEV still sees the packets it drops: taps
# run before the ingress hook, and DEV's own packets leave untouched.
xtp_ingress_netem() {
	local ns=$1 dev=$2 ifb=$3
	shift 3
	if ! ip -n "$ns" link show "$ifb" >/dev/null 2>&1; then
		ip -n "$ns" link add "$ifb" type ifb &&
		ip -n "$ns" link set "$ifb" up &&
		tc -n "$ns" qdisc add dev "$dev" handle ffff: ingress &&
		tc -n "$ns" filter add dev "$dev" parent ffff: matchall \
			action mirred egress redirect dev "$ifb" || return 1
	fi
	[ $# -gt 0 ] || set -- loss 0%
	tc -n "$ns" qdisc replace dev "$ifb" root netem "$@"
}

# xtp_ns_setup_bridged: the two namespaces of xtp_ns_setup, same names and
# addresses, but veth-c and veth-s each pair with a port of a bridge in a
# third namespace $NS_R (ports veth-rc and veth-rs), where qdiscs can
# shape what crosses as a router would.  xtp_ns_cleanup_bridged removes
# all three.
xtp_ns_setup_bridged() {
	NS_C=xtpc-$$
	NS_S=xtps-$$
	NS_R=xtpr-$$
	ip netns add "$NS_C" && ip netns add "$NS_S" && ip netns add "$NS_R" &&
	ip link add veth-c netns "$NS_C" type veth peer name veth-rc \
		netns "$NS_R" &&
	ip link add veth-s netns "$NS_S" type veth peer name veth-rs \
		netns "$NS_R" &&
	ip -n "$NS_R" link add br0 type bridge &&
	ip -n "$NS_R" link set veth-rc master br0 &&
	ip -n "$NS_R" link set veth-rs master br0 &&
	ip -n "$NS_R" link set br0 up && ip -n "$NS_R" link set veth-rc up &&
	ip -n "$NS_R" link set veth-rs up &&
	ip -n "$NS_C" addr add 198.18.0.1/24 dev veth-c &&
	ip -n "$NS_S" addr add 198.18.0.2/24 dev veth-s &&
	ip -n "$NS_C" link set veth-c up && ip -n "$NS_S" link set veth-s up &&
	ip -n "$NS_C" link set lo up && ip -n "$NS_S" link set lo up &&
	xtp_trains_default "$NS_C" "$NS_S" && ns_hold "$NS_C" "$NS_S"
}

xtp_ns_cleanup_bridged() {
	xtp_ns_cleanup
	ip netns delete "$NS_R" 2>/dev/null
}

# xtp_memdir DIR: make DIR a small tmpfs (files in the guest's memory: the
# shared output folder is slow under TCG and has no FIFOs); 1 if it cannot.
# xtp_memdir_done DIR undoes it.
xtp_memdir() {
	mkdir -p "$1" && mount -t tmpfs -o size=96m xtp-mem "$1"
}

xtp_memdir_done() {
	umount "$1" 2>/dev/null && rmdir "$1"
}

# MTP tests: namespaces $MTP_SRV (veth vs, 198.18.0.1, the server) and
# $MTP_CLI (veth vc, 198.18.0.2), named after PREFIX; mtp_ns_cleanup
# kills what still runs in them (it would keep them, and mtp, alive) and
# deletes them.
mtp_ns_setup() {
	MTP_SRV=${1}s-$$
	MTP_CLI=${1}c-$$
	ip netns add "$MTP_SRV" && ip netns add "$MTP_CLI" &&
	ip link add vs netns "$MTP_SRV" type veth peer name vc \
		netns "$MTP_CLI" &&
	ip -n "$MTP_SRV" addr add 198.18.0.1/24 dev vs &&
	ip -n "$MTP_CLI" addr add 198.18.0.2/24 dev vc &&
	ip -n "$MTP_SRV" link set vs up && ip -n "$MTP_CLI" link set vc up &&
	ip -n "$MTP_SRV" link set lo up && ip -n "$MTP_CLI" link set lo up &&
	ns_hold "$MTP_SRV" "$MTP_CLI"
}

mtp_ns_cleanup() {
	local p

	ns_release "$MTP_SRV" "$MTP_CLI"
	p="$(ip netns pids "$MTP_SRV" 2>/dev/null) $(ip netns pids "$MTP_CLI" 2>/dev/null)"
	[ -n "${p// /}" ] && kill $p 2>/dev/null
	ip netns del "$MTP_SRV" 2>/dev/null
	ip netns del "$MTP_CLI" 2>/dev/null
	true
}

ns_s() { ip netns exec "$MTP_SRV" "$@"; }
ns_c() { ip netns exec "$MTP_CLI" "$@"; }
# mtp_netem_both [NETEM ARGS...]: the same fresh netem on vs and vc.
mtp_netem_both() {
	xtp_netem "$MTP_SRV" vs "$@" && xtp_netem "$MTP_CLI" vc "$@"
}
# ssnmp NAME / csnmp NAME: counter MtpNAME of /proc/net/mtp/snmp, server or
# client.
ssnmp() { ns_counter mtp/snmp "Mtp$1" "$MTP_SRV"; }
csnmp() { ns_counter mtp/snmp "Mtp$1" "$MTP_CLI"; }
# mtp_port_open PORT: a UDP (so MTP) socket of the server holds PORT.
mtp_port_open() { ns_s grep -qi ":$(printf %04X "$1") " /proc/net/udp; }

# Two routers between client and server, with a 1400-byte hop:
#
#   $NS_C 198.18.1.1 --EDGE-- $NS_R1 --1400-- $NS_R2 --EDGE-- 198.18.3.2 $NS_S
#
# hop_setup EDGE_MTU names the namespaces after the test's pid and
# builds it; hop_cleanup removes it.
hop_cleanup() {
	local ns

	for ns in "${NS_C:-}" "${NS_R1:-}" "${NS_R2:-}" "${NS_S:-}"; do
		[ -n "$ns" ] && ip netns delete "$ns" 2>/dev/null
	done
	true
}

# hop_link NS_A DEV_A ADDR_A NS_B DEV_B ADDR_B MTU
hop_link() {
	ip link add "$2" netns "$1" mtu "$7" type veth peer name "$5" \
		netns "$4" mtu "$7" &&
	ip -n "$1" addr add "$3/24" dev "$2" && ip -n "$1" link set "$2" up &&
	ip -n "$4" addr add "$6/24" dev "$5" && ip -n "$4" link set "$5" up &&
	xtp_trains_default "$1" "$4"
}

hop_setup() {
	local ns

	NS_C=hopc-$$
	NS_R1=hopr1-$$
	NS_R2=hopr2-$$
	NS_S=hops-$$
	hop_cleanup
	for ns in "$NS_C" "$NS_R1" "$NS_R2" "$NS_S"; do
		ip netns add "$ns" && ip -n "$ns" link set lo up || return 1
	done
	hop_link "$NS_C" c0 198.18.1.1 "$NS_R1" r1c 198.18.1.2 "$1" &&
	hop_link "$NS_R1" r1r 198.18.2.1 "$NS_R2" r2r 198.18.2.2 1400 &&
	hop_link "$NS_R2" r2s 198.18.3.1 "$NS_S" s0 198.18.3.2 "$1" &&
	ip -n "$NS_C" route add default via 198.18.1.2 &&
	ip -n "$NS_S" route add default via 198.18.3.1 &&
	ip -n "$NS_R1" route add 198.18.3.0/24 via 198.18.2.2 &&
	ip -n "$NS_R2" route add 198.18.1.0/24 via 198.18.2.1 &&
	ip netns exec "$NS_R1" sysctl -qw net.ipv4.ip_forward=1 &&
	ip netns exec "$NS_R2" sysctl -qw net.ipv4.ip_forward=1
}

# snmpstat NS PROTO NAME: a counter of NS's PROTO: line (Ip, Udp, ...) in
# /proc/net/snmp.
snmpstat() {
	ip netns exec "$1" awk -v p="$2:" -v n="$3" '$1 == p {
		if (!h) { for (i = 1; i <= NF; i++) col[$i] = i; h = 1 }
		else print $col[n] }' /proc/net/snmp
}

# ipstat NS NAME: a counter of NS's Ip: line in /proc/net/snmp.
ipstat() { snmpstat "$1" Ip "$2"; }

# Fault injection (CONFIG_FAILSLAB with the stack-trace filter, on the
# debug kernel): fail the next slab allocation made below a function of a
# module, and nothing else in the guest.
FAILSLAB=/sys/kernel/debug/failslab

# failslab_ready: the kernel can do it (otherwise tests SKIP).
failslab_ready() {
	mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -f $FAILSLAB/require-start ]
}

# failslab_below MODULE SYMBOL...: arm one failure below the first SYMBOL
# that MODULE has (list the callers a symbol may be inlined into after
# it); prints the symbol and range used, returns 1 if none is found.
failslab_below() {
	local mod=$1 sym range rs re
	shift
	for sym in "$@"; do
		range=$(awk -v m="[$mod]" '$4 == m { print $1, $3 }' /proc/kallsyms |
			sort | awk -v w="$sym" '
				f && $1 != s { print s, $1; exit }
				$2 == w { s = $1; f = 1 }')
		[ -n "$range" ] && break
	done
	[ -n "$range" ] || return 1
	read -r rs re <<<"$range"
	echo "# failslab: fail once below $sym, 0x$rs..0x$re"
	echo "0x$rs" >$FAILSLAB/require-start
	echo "0x$re" >$FAILSLAB/require-end
	echo N >$FAILSLAB/ignore-gfp-wait
	echo 0 >$FAILSLAB/verbose
	echo 0 >$FAILSLAB/space
	echo 1 >$FAILSLAB/interval
	echo 1 >$FAILSLAB/times
	echo 100 >$FAILSLAB/probability
}

# failslab_off: disarm; prints how many failures were left unused.
failslab_off() {
	[ -f $FAILSLAB/times ] || return 0
	cat $FAILSLAB/times
	echo 0 >$FAILSLAB/probability
	echo 0 >$FAILSLAB/times
}

# Tracepoints: trace_start SYSTEM records every event of SYSTEM (xtp, mtp)
# in a tracefs instance of the test's own, on the global clock so that
# events of different CPUs sort; it fails where the kernel has no tracefs
# or the module no events.  trace_stop FILE writes the record to FILE and
# sets TRACE_OVERRUN to the events the ring buffer lost; trace_cleanup
# removes the instance (for the EXIT trap).
TRACEFS=/sys/kernel/tracing
TRACE_INST=
trace_start() {
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	[ -d "$TRACEFS/events/$1" ] || return 1
	TRACE_INST=$TRACEFS/instances/xtp-selftest-$$
	mkdir "$TRACE_INST" || return 1
	echo global >"$TRACE_INST/trace_clock" &&
	echo 8192 >"$TRACE_INST/buffer_size_kb" &&
	echo 1 >"$TRACE_INST/events/$1/enable"
}

trace_stop() {
	echo 0 >"$TRACE_INST/tracing_on"
	cat "$TRACE_INST/trace" >"$1"
	TRACE_OVERRUN=$(awk '/^overrun:/ { s += $2 } END { print s + 0 }' \
		"$TRACE_INST"/per_cpu/cpu*/stats)
}

trace_cleanup() {
	[ -n "$TRACE_INST" ] && rmdir "$TRACE_INST" 2>/dev/null
	TRACE_INST=
}

# trace_count FILE EVENT [PATTERN]: events of a record whose text after
# "EVENT: " starts with PATTERN (a grep regular expression).
trace_count() {
	grep -c " $2: ${3:-}" "$1"
}

# Drop reasons: drop_trace_start records skb:kfree_skb and
# skb:consume_skb where the kernel prints the function that freed the
# skb (6.12: location=%pS); trace_mark NAME starts a phase of the record,
# trace_phase FILE NAME prints its lines, and
# trace_drops FILE NAME MODULE [REASON] counts the phase's kfree_skb
# events located in MODULE (with REASON).
drop_trace_start() {
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	grep -q 'location=%pS' $TRACEFS/events/skb/kfree_skb/format \
		2>/dev/null && trace_start skb
}

trace_mark() {
	echo "selftest-phase $1" >"$TRACE_INST/trace_marker"
}

trace_phase() {
	awk -v p="selftest-phase $2" '
		/selftest-phase / { on = $NF == substr(p, 16); next }
		on' "$1"
}

trace_drops() {
	trace_phase "$1" "$2" | grep ' kfree_skb: ' |
		grep " location=[^ ]* \[$3\]" | grep -c "reason: ${4:-}"
}

# trace_consumed FILE NAME MODULE: the phase's consume_skb events in MODULE.
trace_consumed() {
	trace_phase "$1" "$2" | grep ' consume_skb: ' |
		grep -c " location=[^ ]* \[$3\]"
}

# ktap_skip_all N REASON: the whole plan skipped, and a passing exit.
ktap_skip_all() {
	local i

	for i in $(seq "$1"); do
		ktap_test_skip "$2"
	done
	ktap_finished
	exit "$KSFT_PASS"
}
