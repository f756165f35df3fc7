#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nstat with the project's patch series (tools/iproute2, `make iproute2`)
# reads /proc/net/xtp/snmp and /proc/net/mtp/snmp, in a namespace of its
# own:
#
#   - `nstat -asz` lists every counter of both files, under the file's
#     XtpName/MtpName, with the file's value; so does its JSON output;
#   - across known traffic (one XTP association carrying 1000 bytes over
#     loopback, three MTP transactions), nstat's deltas against its history
#     file are the files' own deltas, ActiveOpens and PassiveOpens move by
#     exactly 1, TxnStarted and TxnDone by exactly 3.
#
# A file read twice around the nstat run must read the same both times, so
# the comparison is exact even if a timer moves a counter meanwhile.
set -u
. "$(dirname "$0")/lib.sh"

NSTAT=$XTP_TOP/build/iproute2/nstat
B=$XTP_BINDIR
OUT=${XTP_OUT:-/tmp}/nstat
NS=nstat-$$
PORT=7703
export NSTAT_HISTORY=$OUT/history
mkdir -p "$OUT"
rm -f "$NSTAT_HISTORY"

ktap_print_header
ktap_set_plan 6

cleanup() {
	[ -n "${srv:-}" ] && kill "$srv" 2>/dev/null && wait "$srv"
	ip netns delete "$NS" 2>/dev/null
}
trap cleanup EXIT

[ -x "$NSTAT" ] || ktap_exit_fail_msg "no $NSTAT: run make iproute2"
modprobe xtp && modprobe mtp || ktap_exit_fail_msg "modprobe failed"
ip netns add "$NS" && ip -n "$NS" link set lo up ||
	ktap_exit_fail_msg "namespace setup failed"
ns() { ip netns exec "$NS" "$@"; }

# The counters of both files as sorted "Name value" lines.
files() {
	ns cat /proc/net/xtp/snmp /proc/net/mtp/snmp |
		awk '{ print $1, $2 }' | sort
}
# nstat's Xtp and Mtp lines, as "Name value", from its ARGS.
nstat_lines() {
	ns "$NSTAT" "$@" 'Xtp*' 'Mtp*' | awk '!/^#/ { print $1, $2 }' | sort
}
# stable VAR CMD...: run CMD between two reads of the files that agree
# (at most 20 tries); VAR gets the files' reading, $OUT/cmd.out CMD's.
stable() {
	local var=$1 a b i
	shift
	for i in $(seq 20); do
		a=$(files)
		"$@" >"$OUT/cmd.out"
		b=$(files)
		[ "$a" = "$b" ] && break
	done
	printf -v "$var" '%s' "$a"
}
# value NAME TEXT: NAME's value in "Name value" lines.
value() { awk -v n="$1" '$1 == n { print $2 }' <<<"$2"; }

# Fresh history: the starting point of the deltas.
stable before ns "$NSTAT" -n
[ -s "$NSTAT_HISTORY" ] || ktap_exit_fail_msg "nstat -n wrote no history"

# XTP: one association over loopback carrying 1000 bytes, both ends
# closed; their ZOMBIEs last 1 s (XTPSOCK_ZOMBIE_TMO), not to hold the
# namespace and the module for the tests after this one.
ns python3 -c '
import socket
X, XTP = 7, 36
ls = socket.socket(socket.AF_INET, X, XTP)
ls.bind(("127.0.0.1", 7701))
ls.listen(1)
c = socket.socket(socket.AF_INET, X, XTP)
c.setsockopt(XTP, 15, 1000)
c.connect(("127.0.0.1", 7701))
s, _ = ls.accept()
s.setsockopt(XTP, 15, 1000)
c.sendall(b"x" * 1000)
got = 0
while got < 1000:
    got += len(s.recv(1000 - got))
c.close()
s.close()
ls.close()
' >"$OUT/xtp.out" 2>&1
xrc=$?
# MTP: three transactions with mtping against mtping -s (started by ip
# netns exec itself, so that $! is the server).
ip netns exec "$NS" "$B/mtping" -s $PORT >"$OUT/mtping-s.log" 2>&1 &
srv=$!
wait_for 20 ns grep -qi ":$(printf %04X $PORT) " /proc/net/udp
mrc=0
for _ in 1 2 3; do
	ns timeout 20 "$B/mtping" 127.0.0.1 $PORT >>"$OUT/mtping.log" 2>&1 ||
		mrc=$?
done
kill "$srv" && wait "$srv" 2>/dev/null
srv=
ktap_check "the traffic ran (xtp $xrc, mtping $mrc)" \
	'[ $xrc -eq 0 ] && [ $mrc -eq 0 ]'

# Deltas: nstat against its history (-s keeps the history as it is).
stable after nstat_lines -sz
delta=$(cat "$OUT/cmd.out")
want=$(join <(echo "$before") <(echo "$after") |
	awk '{ print $1, $3 - $2 }' | sort)
# nstat's own output, for the record: the counters that moved.
ns "$NSTAT" -s 'Xtp*' 'Mtp*' | sed 's/^/# /'
n=$(wc -l <<<"$want")
ktap_check "nstat's deltas of all $n counters are the files' deltas" \
	'[ "$n" -ge 40 ] && [ "$delta" = "$want" ]'
ktap_check "XtpActiveOpens and XtpPassiveOpens +1, XtpInPkts = XtpOutPkts > 0" \
	'[ "$(value XtpActiveOpens "$delta")" = 1 ] &&
	 [ "$(value XtpPassiveOpens "$delta")" = 1 ] &&
	 [ "$(value XtpInPkts "$delta")" = "$(value XtpOutPkts "$delta")" ] &&
	 [ "$(value XtpInPkts "$delta")" -gt 0 ]'
ktap_check "MtpTxnStarted and MtpTxnDone +3" \
	'[ "$(value MtpTxnStarted "$delta")" = 3 ] &&
	 [ "$(value MtpTxnDone "$delta")" = 3 ]'

# Absolute values, as text and as JSON.
stable now nstat_lines -asz
abs=$(cat "$OUT/cmd.out")
ktap_check "nstat -asz: every counter of both files with its value" \
	'[ "$(wc -l <<<"$abs")" = "$n" ] && [ "$abs" = "$now" ]'
stable now ns "$NSTAT" -asz -j 'Xtp*' 'Mtp*'
json=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["kernel"]
for k in sorted(d):
    print(k, d[k])
' "$OUT/cmd.out" | sort)
ktap_check "nstat -asz -j: the same counters and values as JSON" \
	'[ "$json" = "$now" ]'

ktap_finished
