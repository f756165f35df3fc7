#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# XTP and TCP sharing a bottleneck (issue 4): one XTP and one TCP bulk
# flow from the client to the server namespace, concurrently, for a fixed
# time; each flow's goodput, and Jain's fairness index of the two, are
# printed as KTAP diagnostics.
#
# Path: veth-c and veth-s are joined by a bridge in a third namespace
# (xtp_ns_setup_bridged), the router, so both flows meet the bottleneck
# as network loss rather than as a full local qdisc (which TCP would be
# told about and XTP would not).  Towards the server the router's port
# has netem delay 20 ms with a tbf child (RATE, queue one BDP); towards
# the client netem delay 20 ms: 40 ms RTT.
#
# RATE: the issue asks for 20 Mbit/s.  Measured under QEMU TCG (2 vCPUs,
# the host shared with other VMs) with a 20 Mbit/s tbf, TCP alone got
# 16.2 Mbit/s and XTP alone 14.0 Mbit/s (the go-back module; XTP is held
# by the CPU and by its 90 KB window over 40 ms, at most 18 Mbit/s): the
# emulator, not the qdisc, was the bottleneck.  The rate is therefore
# 4 Mbit/s (XTP_FAIR_RATE overrides), which either flow alone exceeds, and
# the output says what each flow got alone.  It was 8 Mbit/s: half of what
# TCP reached on an idle host, so a host whose other load takes half the
# emulator's CPU (a kernel build on the other core) brought TCP alone to
# the 0.5 x RATE bound; at 4 Mbit/s a quarter of the idle speed fills it.
#
# Runs: TCP alone, then XTP and TCP together, first with the module's
# default controller, then with XTPSOCK_CONGESTION set to each other one
# (of XTP_CC_SCC, XTP_CC_NEWRENO, XTP_CC_VENO and XTP_CC_BBR).  A
# controller the module rejects (ENOPROTOOPT or EINVAL, `xtpsend -O
# --cc=...` exits 3) fails that controller's checks.  XTP_FAIR_SOLO=1
# also runs each controller alone first and prints its goodput (no check
# uses it: 45 s of CI's hour).  Goodput is measured at the receivers
# (xtprecv -i progress lines) over the same interval, after a warm-up.
#
# Assertions, only what is robust under TCG: TCP alone gets at least half
# the bottleneck and no more than it (the qdisc is the bottleneck); in
# each shared run both flows make progress (at least 2% of the rate each),
# and TCP is not starved: it gets at least 25% of what it got alone.
# Jain's index itself is only reported: 0.9 is a goal of make bench
# (scripts/bench/report.py), not of this test.  Veno's shared run must take most
# of its window cuts for congestion: the queue is what drops here.

set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/xtp_fair
B=$XTP_BINDIR
RATE=${XTP_FAIR_RATE:-4}
# Seconds: each flow alone, both together, and the warm-up left out of
# each measurement (12, 25 and 4 until the suite outgrew CI's hour).  The
# shared runs measure 16 s: with 11 s, the first CI run saw TCP get
# less than a quarter of its solo rate beside --cc=newreno.
ALONE=${XTP_FAIR_ALONE:-8}
BOTH=${XTP_FAIR_BOTH:-20}
WARM=${XTP_FAIR_WARM:-3}
mkdir -p "$OUT"

# The bottleneck in the router namespace.
shape() {
	local limit=$((RATE * 1000000 / 8 * 40 / 1000))

	[ $limit -ge 30000 ] || limit=30000
	tc -n "$NS_R" qdisc add dev veth-rs root handle 1: netem delay 20ms \
		limit 10000 &&
	tc -n "$NS_R" qdisc add dev veth-rs parent 1:1 handle 10: tbf \
		rate "${RATE}mbit" burst 16k limit "$limit" &&
	tc -n "$NS_R" qdisc add dev veth-rc root netem delay 20ms limit 10000
}

# alone PROTO NAME [XTPSEND OPTS...]: one flow alone; prints its goodput.
alone() {
	local proto=$1 name=$2 a
	shift 2
	PIDS=
	flow "$proto" "$name" $ALONE "$@" || return 1
	wait_flows || echo "# $name: a program failed" >&2
	a=$(first_t "$OUT/$name.srv.err")
	[ -n "$a" ] || { echo 0; return 1; }
	goodput "$OUT/$name.srv.err" "$(awk -v a="$a" -v w=$WARM 'BEGIN { print a + w }')" \
		"$(awk -v a="$a" -v d=$ALONE 'BEGIN { print a + d - 1 }')"
}

# together NAME [XTPSEND OPTS...]: XTP and TCP at once; sets GX and GT.
together() {
	local name=$1 tx tt a b
	shift
	GX=0
	GT=0
	PIDS=
	flow xtp "$name.xtp" $BOTH "$@" || return 1
	flow tcp "$name.tcp" $BOTH || return 1
	wait_flows || echo "# $name: a program failed"
	tx=$(first_t "$OUT/$name.xtp.srv.err")
	tt=$(first_t "$OUT/$name.tcp.srv.err")
	[ -n "$tx" ] && [ -n "$tt" ] || return 1
	# Both running: from the later start plus the warm-up to one second
	# before the earlier one's end.
	a=$(awk -v x="$tx" -v y="$tt" -v w=$WARM 'BEGIN { print (x > y ? x : y) + w }')
	b=$(awk -v x="$tx" -v y="$tt" -v d=$BOTH 'BEGIN { print (x < y ? x : y) + d - 1 }')
	GX=$(goodput "$OUT/$name.xtp.srv.err" "$a" "$b")
	GT=$(goodput "$OUT/$name.tcp.srv.err" "$a" "$b")
}

# shared NAME LABEL [XTPSEND OPTS...]: one shared run and its checks.
shared() {
	local name=$1 label=$2 ax j
	shift 2
	if [ "${XTP_FAIR_SOLO:-0}" = 1 ]; then
		ax=$(alone xtp "$name.alone" "$@")
		echo "# $label: XTP alone $ax Mbit/s"
	fi
	together "$name" "$@"
	j=$(jain "$GX" "$GT")
	echo "# $label: goodput XTP $GX Mbit/s, TCP $GT Mbit/s (TCP alone $TCP_ALONE); Jain's index $j"
	grep -h -e '^Pk sent' -e '^HandShake' -e '^Congestion:' \
		"$OUT/$name.xtp.cli" 2>/dev/null | sed "s/^/# $label: XTP sender: /"
	ktap_check "$label: XTP and TCP both make progress through the bottleneck" \
		'ge "$GX" "$(echo "$RATE" | awk "{ print \$1 * 0.02 }")" &&
		 ge "$GT" "$(echo "$RATE" | awk "{ print \$1 * 0.02 }")"'
	ktap_check "$label: TCP is not starved (>= 25% of its $TCP_ALONE Mbit/s alone)" \
		'ge "$GT" "$(echo "$TCP_ALONE" | awk "{ print \$1 * 0.25 }")"'
}

ktap_print_header
ktap_set_plan 10
modprobe xtp
xtp_ns_setup_bridged || ktap_exit_fail_msg "namespace setup failed"
trap 'kill $PIDS 2>/dev/null; xtp_ns_cleanup_bridged' EXIT
PIDS=
shape || ktap_exit_fail_msg "netem/tbf setup failed"
echo "# bottleneck: tbf $RATE Mbit/s, netem 20 ms each way (40 ms RTT)"

TCP_ALONE=$(alone tcp tcp.alone)
echo "# TCP alone: $TCP_ALONE Mbit/s"
ktap_check "TCP alone fills the bottleneck but not more (0.5..1.1 x $RATE Mbit/s)" \
	'ge "$TCP_ALONE" "$(echo "$RATE" | awk "{ print \$1 * 0.5 }")" &&
	 ge "$(echo "$RATE" | awk "{ print \$1 * 1.1 }")" "$TCP_ALONE"'

shared default "default controller"
# The other controllers; the default one has just run.
dflt=$(ip netns exec "$NS_C" sysctl -n net.xtp.cc 2>/dev/null)
for cc in scc newreno veno bbr; do
	[ "$cc" = "$(cc_name "$dflt")" ] && continue
	ip netns exec "$NS_C" "$B/xtpsend" -O --cc=$cc 2>"$OUT/$cc.optcheck"
	optrc=$?
	case $optrc in
	0)
		# shellcheck disable=SC2086
		shared "$cc" "--cc=$cc" --cc=$cc ;;
	*)
		# 3: the module rejects XTPSOCK_CONGESTION=$cc.
		sed 's/^/# /' "$OUT/$cc.optcheck"
		ktap_test_fail "--cc=$cc: XTP and TCP both make progress (xtpsend -O --cc=$cc exits $optrc)"
		ktap_test_fail "--cc=$cc: TCP is not starved (XTPSOCK_CONGESTION=$cc not accepted)" ;;
	esac
done

# At this bottleneck losses come from a full queue: Veno should take most
# of them for congestion (halve), not for random loss (cut to 4/5).
v="$OUT/veno.xtp.cli"
[ "$(cc_name "$dflt")" = veno ] && v="$OUT/default.xtp.cli"
cuts=$(( $(mib "$v" Exp "Exp Dec") + $(mib "$v" Exp "Lin Dec") ))
rnd=$(mib "$v" Congestion: random_losses)
echo "# Veno at the bottleneck: $cuts window cuts, ${rnd:-?} of them for random loss"
ktap_check "Veno at a queueing bottleneck: most window cuts taken for congestion" \
	'[ "$cuts" -ge 1 ] && [ -n "$rnd" ] && [ $((2 * rnd)) -lt "$cuts" ]'
ktap_finished
