#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# xft -> xftd: a 1000-byte file with the FILETRANSFER service is the
# thesis' 3-packet exchange (Fig. 45, compared field by field from the
# capture); 1 MB files over XTP and over TCP arrive sha256-equal (times
# and goodput in the log); a name that escapes xftd's directory is
# refused.
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/prog_xft
B=$XTP_BINDIR
mkdir -p "$OUT/dir"

# push NAME "XFTD OPTS" "XFT OPTS" FILE: one transfer; 0 if xft succeeds
push() {
	local srv rc
	ip netns exec "$NS_S" "$B/xftd" -c 1 -d "$OUT/dir" $2 \
		2>"$OUT/$1.srv" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$1.srv" || return 1
	ip netns exec "$NS_C" "$B/xft" $3 "$4" 198.18.0.2 \
		>"$OUT/$1.cli" 2>&1
	rc=$?
	wait $srv
	sed 's/^/# /' "$OUT/$1.cli" "$OUT/$1.srv"
	return $rc
}

ktap_print_header
ktap_set_plan 7
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

# Fig. 45: the file alone in the FIRST (-R: no name header), so DLEN is
# 24 bytes of segments plus the 1000 data bytes, as in the thesis.
head -c 1000 /dev/urandom >"$OUT/f1000"
cap_start "$NS_S" veth-s "$OUT/f1000.pcap" "ip proto 36" ||
	ktap_exit_fail_msg "tcpdump did not start"
push f1000 "-R f1000.raw" "-R" "$OUT/f1000"
rc=$?
wait_for 30 xtp_ns_idle "$NS_S"
wait_for 30 xtp_ns_idle "$NS_C"
cap_stop
"$B/xtp_pcap" "$OUT/f1000.pcap" 198.18.0.1 >"$OUT/f1000.txt"
cat >"$OUT/f1000.want" <<'FIG45'
c>s F kyA dl1024 sy1 sq0 EOM WCL RCL SRQ
s>c T kyA+RTN dl40 sy0 sq0 WCL RCL rq1024 al91024 ec1 xkB
c>s C kyB+RTN dl20 sy1 sq1024 END WCL RCL rq0 al90000 ec0
FIG45
ktap_check "xft 1000 B: file arrives intact" \
	'[ $rc -eq 0 ] && cmp -s "$OUT/f1000" "$OUT/dir/f1000.raw"'
if diff "$OUT/f1000.want" "$OUT/f1000.txt" >"$OUT/f1000.diff"; then
	ktap_test_pass "xft 1000 B is Fig. 45: 3 packets, field by field"
else
	ktap_test_fail "xft 1000 B is Fig. 45 ($(grep -c . "$OUT/f1000.txt") packets)"
	sed 's/^/# /' "$OUT/f1000.diff"
fi

head -c 1048576 /dev/urandom >"$OUT/big.bin"
push xtp1m "" "" "$OUT/big.bin"
rc=$?
ktap_check "xft 1 MB over XTP (FILETRANSFER): sha256-equal" \
	'[ $rc -eq 0 ] && [ "$(sha "$OUT/big.bin")" = "$(sha "$OUT/dir/big.bin")" ]'
ktap_check "xft prints transfer time and goodput" \
	'grep -qE "^xft: big.bin 1048576 bytes over XTP in [0-9.]+ s, goodput [0-9.]+ Mbit/s" "$OUT/xtp1m.cli"'
rm -f "$OUT/dir/big.bin"

push tcp1m "-t" "-t -n big-tcp.bin" "$OUT/big.bin"
rc=$?
ktap_check "xft -t 1 MB over TCP: sha256-equal" \
	'[ $rc -eq 0 ] && [ "$(sha "$OUT/big.bin")" = "$(sha "$OUT/dir/big-tcp.bin")" ]'

# A name with "..": refused and nothing written outside the directory.
head -c 100 /dev/urandom >"$OUT/evil"
rm -f "$OUT/escaped"
push evil "" "-n ../escaped" "$OUT/evil"
ktap_check "xftd refuses ../escaped" \
	'[ ! -e "$OUT/escaped" ] && grep -q rejected "$OUT/evil.srv"'
push evil2 "" "-n /tmp/escaped2" "$OUT/evil"
ktap_check "xftd refuses /tmp/escaped2" \
	'[ ! -e /tmp/escaped2 ] && grep -q rejected "$OUT/evil2.srv"'
ktap_finished
