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

# snmp_get NAME [NETNS]: one counter from /proc/net/xtp/snmp.
snmp_get() {
	local f=/proc/net/xtp/snmp
	if [ -n "${2:-}" ]; then
		ip netns exec "$2" awk -v n="$1" '$1 == n { print $2 }' "$f"
	else
		awk -v n="$1" '$1 == n { print $2 }' "$f"
	fi
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	while ! "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
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
	ip -n "$NS_C" link set lo up && ip -n "$NS_S" link set lo up
}

xtp_ns_cleanup() {
	ip netns delete "$NS_C" 2>/dev/null
	ip netns delete "$NS_S" 2>/dev/null
}

# xtp_ns_idle NS: no XTP context is left in NS (zombies included).
xtp_ns_idle() {
	[ "$(snmp_get CurrSockets "$1")" = 0 ]
}

# start_capture NS IFACE FILE: tcpdump of XTP packets, returns once it
# listens; stop_capture ends it.
start_capture() {
	ip netns exec "$1" tcpdump -i "$2" --immediate-mode -U -w "$3" 'ip proto 36' \
		2>"$3.err" &
	CAPTURE_PID=$!
	wait_for 30 grep -q listening "$3.err"
}

stop_capture() {
	kill -INT "$CAPTURE_PID" 2>/dev/null
	wait "$CAPTURE_PID" 2>/dev/null
}
