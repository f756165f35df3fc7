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
# shell, so it may use &&, || and [ ].
ktap_check() {
	local d=$1
	shift
	if eval "$*"; then
		ktap_test_pass "$d"
	else
		ktap_test_fail "$d"
	fi
}
