#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every tier of tests, each step a KTAP result, one verdict.
#
#  1. dependencies (tools/deps.sh)
#  2. user-space unit tests, fuzzing, tshark oracle (selftests/unit)
#  3. module builds for 6.12 and 6.1 with W=1, no warnings
#  4. checkpatch --strict on the kernel sources
#  5. selftests in one boot of the 6.12 VM
#  6. make demo, the README's first command
# Results go to build/results/*.ktap; the last line is the verdict.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
res=$top/build/results
cd "$top" || exit 1
rm -rf "$res"
mkdir -p "$res"

# step NAME DESCRIPTION CMD...: one KTAP line for a command's success;
# its output goes to build/results/NAME.log.
step() {
	local name=$1 desc=$2
	shift 2
	if "$@" >"$res/$name.log" 2>&1; then
		echo "ok - $desc" | tee "$res/$name.ktap"
	else
		echo "not ok - $desc (see build/results/$name.log)" | tee "$res/$name.ktap"
		tail -15 "$res/$name.log" | sed 's/^/# /'
		return 1
	fi
}

step deps "dependencies installed" tools/deps.sh || {
	tools/ktap-summary.sh "$res"/*.ktap
	exit 1
}

kver=$(ls /lib/modules | grep '^6\.12' | sort -V | tail -1)
kver61=$(ls /lib/modules | grep '^6\.1\.' | sort -V | tail -1)

tools/ksrc.sh >/dev/null

echo "# unit tests"
make -s -C selftests/unit check >"$res/unit.ktap" 2>"$res/unit.err"
grep -E '^(not )?ok ' "$res/unit.ktap" | grep -c '^ok' | sed 's/^/# unit: passed /'
grep -E '^not ok ' "$res/unit.ktap"
grep -qE '^(not )?ok ' "$res/unit.ktap" ||
	echo "not ok - unit tests produced no results" | tee -a "$res/unit.ktap"

echo "# tcpdump XTP and MTP printers (tools/tcpdump: build, golden, tshark, fuzz)"
tools/tcpdump/run-tests.sh >"$res/tcpdump.ktap" 2>"$res/tcpdump.err"
grep -c '^ok ' "$res/tcpdump.ktap" | sed 's/^/# tcpdump: passed /'
grep -E '^not ok ' "$res/tcpdump.ktap"
grep -qE '^(not )?ok ' "$res/tcpdump.ktap" ||
	echo "not ok - tcpdump tests produced no results" | tee -a "$res/tcpdump.ktap"

step build-$kver "build against $kver (W=1, no warnings)" \
	tools/build-modules.sh "$kver"
built=$?
step build-$kver61 "build against $kver61 (W=1, no warnings)" \
	tools/build-modules.sh "$kver61"
step checkpatch "checkpatch --strict clean" make -s checkpatch
step selftests-build "selftest programs build" make -s -C selftests/net

install_ok() {
	local d=$top/build/install-test

	rm -rf "$d"
	make -s install DESTDIR="$d" &&
	for f in lib/modules/"$kver"/extra/xtp.ko usr/local/bin/fingerx \
		 usr/local/sbin/inetdx usr/local/lib/withxtp/libwithxtp.so \
		 usr/local/share/man/man1/xft.1 usr/local/share/man/man8/inetdx.8; do
		[ -s "$d/$f" ] || { echo "missing $f"; return 1; }
	done
}
step install "make install puts modules, programs and man pages in place" \
	install_ok

if [ $built -eq 0 ]; then
	echo "# VM selftests on $kver (one boot, TCG)"
	tools/vm/selftests.sh "$kver" "build/mod/$kver" build/selftests/net \
		"$res/vm.ktap"
	grep -cE '^ok ' "$res/vm.ktap" | sed 's/^/# vm: passed /'
	echo "# the VM run's captures, decoded by our tcpdump and by tshark"
	tools/tcpdump/check-captures.sh "$(cat "$res/vm.ktap.dir")" \
		>"$res/captures.ktap" 2>&1
	grep -cE '^ok ' "$res/captures.ktap" | sed 's/^/# captures: passed /'
	grep -E '^not ok' "$res/captures.ktap"
else
	echo "not ok - VM selftests (module build failed)" | tee "$res/vm.ktap"
fi

# The README's first command must keep working: run it and check that the
# capture it decodes holds the packets it sent.
demo_ok() {
	tools/demo.sh >"$res/demo.out" 2>&1 || return 1
	cat "$res/demo.out"
	grep -q 'FIRST \[SREQ\] Seq=90000 Len=24' "$res/demo.out" &&
	grep -qE '^InNoContext[[:space:]]+3$' "$res/demo.out"
}
step demo "make demo shows the modules and a decoded XTP capture" demo_ok

tools/ktap-summary.sh "$res"/*.ktap
