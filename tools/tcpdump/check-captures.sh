#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Real captures against tshark: every XTP packet the VM selftests captured
# (the module's own traffic, not test vectors) is decoded by our tcpdump
# and by tshark's XTP dissector, and their fields must agree.  One KTAP
# line per capture file.
#
#   check-captures.sh DIR...     (pcaps under each DIR)
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
td=$("$here/build.sh" normal 2>/dev/null | tail -1)
n=0

echo "TAP version 13"
if [ -z "$td" ] || [ ! -x "$td" ]; then
	echo "not ok 1 - real captures: our tcpdump did not build"
	exit 1
fi
for f in $(find "$@" -name '*.pcap' 2>/dev/null | sort); do
	# Only captures with XTP in them.
	[ "$(tcpdump -r "$f" -nn 'ip proto 36' 2>/dev/null | grep -c .)" -gt 0 ] ||
		continue
	n=$((n + 1))
	rel=${f#"$top"/}
	out=$(python3 "$here/tests/tshark_compare.py" "$td" "$f" 2>&1)
	total=$(printf '%s\n' "$out" | grep -c '^[01]	')
	bad=$(printf '%s\n' "$out" | grep -c '^0	')
	if [ "$total" -gt 0 ] && [ "$bad" -eq 0 ]; then
		echo "ok $n - tcpdump and tshark agree on $rel ($total packets)"
	else
		echo "not ok $n - tcpdump and tshark disagree on $rel ($bad of $total)"
		printf '%s\n' "$out" | grep -v '^1	' | head -5 | sed 's/^/# /'
	fi
done
[ "$n" -gt 0 ] || echo "not ok 1 - real captures: none found in $*"
