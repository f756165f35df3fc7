#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Real captures: every XTP packet the VM selftests captured (the module's
# own traffic, not test vectors) is decoded by our tcpdump and by tshark's
# XTP dissector, and every UDP datagram by our tcpdump (-T mtp) and by
# tests/mtp_reference.py, an MTP decoder written from the dissertation;
# their fields must agree.  One KTAP line per capture file and decoder.
#
#   check-captures.sh DIR...     (pcaps under each DIR)
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
td=$("$here/build.sh" normal 2>/dev/null | tail -1)
n=0
lines=()
# line OK DESC [COMMENT...]: one result, printed after the plan
line() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		lines+=("ok $n - $2")
	else
		lines+=("not ok $n - $2")
	fi
	shift 2
	for c in "$@"; do lines+=("# $c"); done
}
finish() {
	echo "TAP version 13"
	echo "1..$n"
	printf '%s\n' "${lines[@]}"
	printf '%s\n' "${lines[@]}" | grep -q '^not ok' && exit 1
	exit 0
}

if [ -z "$td" ] || [ ! -x "$td" ]; then
	line 1 "real captures: our tcpdump did not build"
	finish
fi
nx=0 nm=0
for f in $(find "$@" -name '*.pcap' 2>/dev/null | sort); do
	rel=${f#"$top"/}
	# Captures with XTP in them: tcpdump against tshark.
	if [ "$(tcpdump -r "$f" -nn 'ip proto 36' 2>/dev/null |
		grep -c .)" -gt 0 ]; then
		nx=$((nx + 1))
		out=$(python3 "$here/tests/tshark_compare.py" "$td" "$f" 2>&1)
		total=$(printf '%s\n' "$out" | grep -c '^[01]	')
		bad=$(printf '%s\n' "$out" | grep -c '^0	')
		if [ "$total" -gt 0 ] && [ "$bad" -eq 0 ]; then
			line 0 "tcpdump and tshark agree on $rel ($total packets)"
		else
			mapfile -t why < <(printf '%s\n' "$out" | grep -v '^1	' | head -5)
			line 1 "tcpdump and tshark disagree on $rel ($bad of $total)" "${why[@]}"
		fi
	fi
	# Captures with UDP in them (the MTP tests capture UDP only): tcpdump
	# at -T mtp against the dissertation-based MTP decoder.
	if [ "$(tcpdump -r "$f" -nn -c 1 udp 2>/dev/null | grep -c .)" -gt 0 ]; then
		nm=$((nm + 1))
		IFS=$'\t' read -r ok _ why < <(python3 "$here/tests/mtp_reference.py" \
			--summary "$td" "$f" 2>&1)
		if [ "${ok:-0}" = 1 ]; then
			line 0 "tcpdump and the MTP reference agree on $rel ($why)"
		else
			line 1 "tcpdump and the MTP reference disagree on $rel" "${why:-no output}"
		fi
	fi
done
[ "$nx" -gt 0 ] || line 1 "real captures: no XTP capture found in $*"
[ "$nm" -gt 0 ] || line 1 "real captures: no MTP (UDP) capture found in $*"
finish
