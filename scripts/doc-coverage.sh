#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Documentation coverage: every socket option, message flag, ioctl, sysctl
# and counter that README.md, xtp.rst and mtp.rst name must be named by a
# test, so that a documented promise without a test fails `make check`.
# One KTAP result per name, with the test files that name it.
#
#   scripts/doc-coverage.sh
#
# A name counts as tested when a test file names it as a word: options
# and counters by their documented name, sysctls as net.xtp.NAME or
# /proc/sys/net/xtp/NAME.  Whether the test observes the effect is for
# review; this script catches the documented names nobody tests at all.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
docs=(README.md Documentation/networking/xtp.rst Documentation/networking/mtp.rst)
tests=(selftests/net/*.sh selftests/net/*.c selftests/net/*.h
       selftests/unit/*.c selftests/unit/*.sh selftests/unit/*.py
       net/xtp/kunit.c net/mtp/kunit.c tools/tcpdump/*.sh)

# The counters of a "Counters" section: XTP's table rows, MTP's
# ``Name`` list.
counters() {
	awk '/^Counters$/ { on = 1; next }
	     on && /^[A-Z][a-z]+$/ { on = 0 }
	     on && /^[A-Z][A-Za-z]+  / { print $1 }
	     on { while (match($0, /``[A-Z][A-Za-z]+``/)) {
			print substr($0, RSTART + 2, RLENGTH - 4)
			$0 = substr($0, RSTART + RLENGTH)
		  } }' "$1"
}

names() {
	grep -ohE '\b(XTPSOCK_[A-Z0-9_]+|MTP_[A-Z0-9_]*[A-Z0-9]|SO_[A-Z]+|MSG_[A-Z_]+|SIOC[A-Z]+)\b' \
		"${docs[@]}"
	grep -ohE '\bnet\.(xtp|mtp)\.[a-z0-9_]+' "${docs[@]}"
	counters Documentation/networking/xtp.rst
	counters Documentation/networking/mtp.rst
}

mapfile -t list < <(names | sort -u)
[ ${#list[@]} -gt 100 ] || {
	# The extraction itself must not silently lose the documentation.
	echo "1..1"
	echo "not ok 1 - doc coverage: only ${#list[@]} names found in the documentation"
	exit 1
}
echo "1..${#list[@]}"
n=0 bad=0
for w in "${list[@]}"; do
	n=$((n + 1))
	case $w in
	net.*)
		leaf=${w#net.?tp.} proto=${w:4:3}
		pat="(net\\.$proto\\.$leaf|/proc/sys/net/$proto/$leaf)\\b" ;;
	*)	pat="\\b$w\\b" ;;
	esac
	mapfile -t by < <(grep -lE "$pat" "${tests[@]}" 2>/dev/null)
	doc=$(grep -lE "$pat" "${docs[@]}" | head -1)
	if [ ${#by[@]} -gt 0 ]; then
		echo "ok $n - $w: named by ${by[*]:0:3}"
	else
		echo "not ok $n - $w: named in $doc, by no test"
		bad=$((bad + 1))
	fi
done
[ $bad -eq 0 ]
