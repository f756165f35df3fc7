# SPDX-License-Identifier: GPL-2.0
# Helpers for the ported-program tests (prog_*.sh), on top of lib.sh.

. "$(dirname "$0")/lib.sh"

# cap_start NS IFACE FILE FILTER: like start_capture, any filter.
cap_start() {
	ip netns exec "$1" tcpdump -i "$2" --immediate-mode -U -w "$3" "$4" 2>"$3.err" &
	CAP_PID=$!
	wait_for 30 grep -q listening "$3.err"
}

cap_stop() {
	kill -INT "$CAP_PID" 2>/dev/null
	wait "$CAP_PID" 2>/dev/null
}

# cap_count FILE FILTER: packets in a capture that match FILTER.
cap_count() {
	tcpdump -r "$1" -nn "$2" 2>/dev/null | grep -c .
}

# tcp_idle NS: no TCP socket in NS but listeners and TIME_WAIT.
tcp_idle() {
	[ -z "$(ip netns exec "$1" ss -Htn state connected \
		exclude time-wait 2>/dev/null)" ]
}

sha() { sha256sum <"$1" | cut -c1-64; }

# mib FILE LINE-PREFIX KEY: a number from an Association Info block.
mib() {
	grep "^$2" "$1" | head -1 | grep -oE "(^|[ :(])$3=[0-9]+" |
		head -1 | sed 's/.*=//'
}

# prog_setup PLAN: KTAP header and plan, the module, the two namespaces,
# and a cleanup that stops the inetd started into $INETD.
prog_setup() {
	ktap_print_header
	ktap_set_plan "$1"
	modprobe xtp
	xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
	INETD=
	trap prog_cleanup EXIT
}

prog_cleanup() {
	[ -n "${INETD:-}" ] && kill "$INETD" 2>/dev/null && wait "$INETD"
	xtp_ns_cleanup
}
