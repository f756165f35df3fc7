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

# mib FILE LINE-PREFIX KEY: a number from an Association Info block.
mib() {
	grep "^$2" "$1" | head -1 | grep -oE "(^|[ :(])$3=[0-9]+" |
		head -1 | sed 's/.*=//'
}

# Bulk flows for the shared-bottleneck tests, between $NS_C and $NS_S
# with the programs in $B and the files in $OUT.

# flow PROTO NAME SECONDS [XTPSEND OPTS...]: start a receiver and a timed
# sender in the background; PIDS collects them.
flow() {
	local proto=$1 name=$2 sec=$3 port=9999 t=
	shift 3
	if [ "$proto" = tcp ]; then
		port=5001
		t=-t
	fi
	ip netns exec "$NS_S" timeout $((sec + 90)) "$B/xtprecv" $t -T 30 \
		-i 500 $port >"$OUT/$name.srv" 2>"$OUT/$name.srv.err" </dev/null &
	PIDS="$PIDS $!"
	wait_for 30 grep -q listening "$OUT/$name.srv.err" || return 1
	ip netns exec "$NS_C" timeout $((sec + 90)) "$B/xtpsend" $t -T 30 \
		-d "$sec" "$@" 198.18.0.2 $port \
		>"$OUT/$name.cli" 2>"$OUT/$name.cli.err" </dev/null &
	PIDS="$PIDS $!"
}

# wait_flows: 0 if every process in PIDS succeeded.
wait_flows() {
	local p rc=0
	for p in $PIDS; do
		wait "$p" || rc=1
	done
	PIDS=
	return $rc
}

# first_t FILE: when the receiver accepted (its first progress line).
first_t() {
	awk '$2 == "progress" { print $3; exit }' "$1"
}

# goodput FILE A B: Mbit/s that arrived between monotonic times A and B.
goodput() {
	awk -v a="$2" -v b="$3" '$2 == "progress" {
		if ($3 <= a) ba = $4
		if ($3 <= b) bb = $4
	} END { printf "%.2f\n", (bb - ba) * 8 / (b - a) / 1e6 }' "$1"
}

# ge X Y: X >= Y for decimals.
ge() {
	awk -v x="$1" -v y="$2" 'BEGIN { exit !(x >= y) }'
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
