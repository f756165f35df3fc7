#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the test VM: install the freshly built modules so that
# modprobe (and socket() autoload) finds them, then run every selftest
# listed in selftests/net/TESTS, each under its own timeout, collecting
# KTAP in OUT/ktap.log and the kernel log in OUT/dmesg.log.  Each test's
# start is marked in the kernel log ("xtp-selftest: start NAME") so that
# scripts/vm/judge-log.sh can name the test during which a report appeared.
# On a kernel with kmemleak, the leaks of the whole run are scanned for
# at the end, then the modules are unloaded (OUT/kmemleak.log).
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
# Settings from the host (SELFTEST_ENV of selftests.sh), one per line.
if [ -s "$out/env" ]; then
	set -a
	. "$out/env"
	set +a
fi
per_test_tmo=${SELFTEST_TIMEOUT:-600}

: >"$out/ktap.log"
dmesg -w >"$out/dmesg.log" 2>&1 &
dmesg_pid=$!
echo "xtp-selftest: setup begin" >/dev/kmsg

# udevd has nothing to do for these tests, and on the debug kernel its
# manager was still busy with the boot's coldplug (9p lookups under KASAN)
# minutes into the run, taking one of the guest's two CPUs from them.
# Found by name with bash's own reads: two pkill runs took 19 s there.
for c in /proc/[0-9]*/comm; do
	read -r n 2>/dev/null <"$c" || continue
	case $n in
	systemd-udevd | "(udev-worker)")
		p=${c#/proc/}
		kill -KILL "${p%/comm}" 2>/dev/null ;;
	esac
done

# The setup's steps are marked too: on the debug kernel they took 80 s.
echo "xtp-selftest: setup install" >/dev/kmsg
"$top/scripts/vm/guest-install.sh" "$stage"
echo "xtp-selftest: setup keys" >/dev/kmsg
"$top/scripts/vm/guest-hold-keys.sh"
echo "xtp-selftest: setup done" >/dev/kmsg

mount -t debugfs none /sys/kernel/debug 2>/dev/null
kml=/sys/kernel/debug/kmemleak
# kmemleak reports each object's allocation time in jiffies: what was
# allocated before the first test is the boot's, not ours to judge.
# (A scan here to forget it would cost minutes under KASAN and TCG.)
[ -w "$kml" ] && awk '/^jiffies:/ { print $2; exit }' /proc/timer_list \
	>"$out/kmemleak.since"

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
	echo "xtp-selftest: start $t" >/dev/kmsg
	t0=$(date +%s)
	timeout --kill-after=10 "$per_test_tmo" "${cmd[@]}" >"$log" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - t0))
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
	echo "# exit: $t $rc (${secs}s)" >>"$out/ktap.log"
done

echo "xtp-selftest: end" >/dev/kmsg
if [ -w "$kml" ]; then
	# Scan while the modules are loaded, so that the reports name their
	# functions; an object is reported once two scans found it
	# unreferenced and it is older than 5 s.
	sleep 6
	: >"$out/kmemleak.log"
	# A detector that disabled itself (its pool ran out) fails here.
	for _ in 1 2; do
		echo scan >"$kml" ||
			echo "kmemleak: scan failed" >>"$out/kmemleak.log"
	done
	cat "$kml" >>"$out/kmemleak.log"
	for m in xtp_kunit mtp_kunit xtp_blocker xtp_diag xtp mtp; do
		grep -q "^$m " /proc/modules || continue
		rmmod "$m" || echo "rmmod $m failed" >>"$out/kmemleak.log"
	done
fi
sleep 1
kill "$dmesg_pid" 2>/dev/null
dmesg >"$out/dmesg.final.log"
echo done >"$out/suite.done"
sync
