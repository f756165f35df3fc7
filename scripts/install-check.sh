#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install into a scratch DESTDIR, then check that what it installed
# works from there: modules built for the kernel and autoloadable, each
# program runs and explains its usage, withxtp finds its library in the
# installed layout, man pages format without warnings.  KTAP.
#
#   scripts/install-check.sh KVER
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
kver=$1
d=$top/build/install-test
cd "$top" || exit 1
. "$top/scripts/ktap-lib.sh"

rm -rf "$d"
bins=(xtpsend xtprecv xft fingerx ftpx withxtp mtping mtpget xtpperf)
sbins=(xftd fingerdx ftpdx inetdx mtpd)
mans=(Documentation/man/*.[18])
echo "1..$(( 5 + ${#bins[@]} + ${#sbins[@]} + ${#mans[@]} ))"
n=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

make -s install KVER="$kver" DESTDIR="$d" >"$d.log" 2>&1
result $? "make install DESTDIR=... succeeds"

mods_ok() {
	local m v
	for m in xtp xtp_diag mtp; do
		v=$(modinfo -F vermagic "$d/lib/modules/$kver/extra/$m.ko") &&
		[ "${v%% *}" = "$kver" ] || { echo "$m.ko: vermagic '$v'"; return 1; }
	done
	# socket(AF_INET, SOCK_XTP, IPPROTO_XTP) and SOCK_MTP autoload them.
	depmod -b "$d" "$kver" 2>/dev/null || return 1
	# So do SOCK_STREAM and SOCK_SEQPACKET with IPPROTO_XTP (withxtp).
	for a in 36-type-7:xtp 0-type-7:xtp 36-type-1:xtp 36-type-5:xtp \
		 0-type-8:mtp; do
		grep -q "^alias net-pf-2-proto-${a%:*} ${a#*:}\$" \
			"$d/lib/modules/$kver/modules.alias" ||
			{ echo "no alias net-pf-2-proto-$a"; return 1; }
	done
	# inet_diag asks for xtp_diag when a dump names protocol 36.
	grep -q "^alias net-pf-16-proto-4-type-2-36 xtp_diag\$" \
		"$d/lib/modules/$kver/modules.alias" ||
		{ echo "no alias net-pf-16-proto-4-type-2-36"; return 1; }
}
mods_ok >>"$d.log" 2>&1
result $? "installed xtp.ko, xtp_diag.ko and mtp.ko are built for $kver and autoload by their aliases"

preload=$("$d/usr/local/bin/withxtp" sh -c 'echo "$LD_PRELOAD"' 2>>"$d.log")
[ "$(readlink -f "$preload")" = "$d/usr/local/lib/withxtp/libwithxtp.so" ]
result $? "installed withxtp preloads the installed libwithxtp.so ($preload)"

# withxtp-check takes no options: it says whether this kernel has XTP.
out=$("$d/usr/local/bin/withxtp-check" 2>&1)
rc=$?
grep -qE "^withxtp: XTP is (not )?available on Linux" <<<"$out" &&
	{ [ $rc -eq 0 ] || [ $rc -eq 1 ]; }
result $? "withxtp-check answers whether XTP is available (exit $rc)"

[ -z "$(find "$d" -newer "$d.log" -name '*.o' 2>/dev/null)" ] &&
	[ -z "$(find "$d" -type f ! -perm -0444 2>/dev/null)" ]
result $? "no object files, every installed file readable"

for b in "${bins[@]/#/usr/local/bin/}" "${sbins[@]/#/usr/local/sbin/}"; do
	out=$(timeout 10 "$d/$b" -h 2>&1)
	rc=$?
	# A usage message and 0 (asked) or 2 (bad option), never a crash.
	{ [ $rc -eq 0 ] || [ $rc -eq 2 ]; } && grep -qi 'usage:' <<<"$out"
	result $? "$b -h prints its usage (exit $rc)"
done
for m in "${mans[@]}"; do
	s=${m##*.}
	w=$(groff -man -ww -z "$d/usr/local/share/man/man$s/${m##*/}" 2>&1)
	[ -f "$d/usr/local/share/man/man$s/${m##*/}" ] && [ -z "$w" ]
	result $? "man page ${m##*/} installed and formats without warnings${w:+ ($w)}"
done
