#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the test VM: install the freshly built modules so that
# modprobe (and socket() autoload) finds them, then run every selftest
# listed in selftests/net/TESTS, each under its own timeout, collecting
# KTAP in OUT/ktap.log and the kernel log in OUT/dmesg.log.
#
#   guest-suite.sh OUT STAGE BINDIR [TEST...]
#
# STAGE is the module tree from stage-modules.sh, BINDIR holds the
# compiled selftest programs; scripts run from selftests/net.
set -u

out=$1
stage=$2
bindir=$3
shift 3
top=$(cd "$(dirname "$0")/../.." && pwd)
tests=("$@")
per_test_tmo=${SELFTEST_TIMEOUT:-600}

: >"$out/ktap.log"
dmesg -w >"$out/dmesg.log" 2>&1 &
dmesg_pid=$!

"$top/tools/vm/guest-install.sh" "$stage"

if [ ${#tests[@]} -eq 0 ]; then
	mapfile -t tests < <(grep -v '^#' "$top/selftests/net/TESTS" | grep .)
fi

export XTP_TOP=$top XTP_BINDIR=$bindir XTP_OUT=$out
cd "$top/selftests/net" || exit 1
for t in "${tests[@]}"; do
	echo "# selftest: $t" >>"$out/ktap.log"
	if [ -x "$bindir/$t" ]; then
		cmd=("$bindir/$t")
	else
		cmd=("./$t")
	fi
	log=$out/$t.log
	timeout --kill-after=10 "$per_test_tmo" "${cmd[@]}" >"$log" 2>&1 </dev/null
	rc=$?
	cat "$log" >>"$out/ktap.log"
	# A test that dies, hangs or reports fewer results than it planned
	# must not look green.
	plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | head -1)
	got=$(grep -cE '^(not )?ok ' "$log")
	bad=$(grep -cE '^not ok ' "$log")
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "not ok - $t # TIMEOUT after ${per_test_tmo}s" >>"$out/ktap.log"
	elif [ -n "$plan" ] && [ "$got" -lt "$plan" ]; then
		echo "not ok - $t # only $got of $plan results" >>"$out/ktap.log"
	elif [ $rc -ne 0 ] && [ $rc -ne 4 ] && [ "$bad" -eq 0 ]; then
		echo "not ok - $t # exit status $rc" >>"$out/ktap.log"
	elif [ "$got" -eq 0 ] && [ $rc -ne 4 ]; then
		echo "not ok - $t # no results" >>"$out/ktap.log"
	fi
	echo "# exit: $t $rc" >>"$out/ktap.log"
done

sleep 1
kill "$dmesg_pid" 2>/dev/null
dmesg >"$out/dmesg.final.log"
echo done >"$out/suite.done"
sync
