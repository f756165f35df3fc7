#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of the VM selftests: boot the kernel once, run the whole suite
# in that boot, bring the KTAP back and judge the guest's kernel log.
#
#   tools/vm/selftests.sh KVER MODDIR BINDIR RESULT.ktap [TEST...]
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$1
moddir=$(cd "$2" && pwd)
bindir=$(cd "$3" && pwd)
result=$4
shift 4
# One folder per run: several runs (make check, make vmtest) may overlap.
out="$top/build/vm/selftests-$kver-$$"

rm -rf "$out"
mkdir -p "$out"
ln -sfn "$(basename "$out")" "$top/build/vm/selftests-$kver.latest"
"$top/tools/vm/stage-modules.sh" "$kver" "$moddir" "$out/stage"
"$top/tools/vm/run.sh" -k "$kver" -o "$out" -t "${VM_TIMEOUT:-1500}" -- \
	"$top/tools/vm/guest-suite.sh" "$out" "$out/stage" "$bindir" "$@"
rc=$?

{
	grep -vE '^(TAP version|1\.\.)' "$out/ktap.log" 2>/dev/null
	if [ -f "$out/suite.done" ]; then
		echo "ok - vm: suite ran to the end"
	else
		echo "not ok - vm: suite did not finish (vm exit $rc, hang or panic; see $out/console.log)"
	fi
	# Oopses, warnings and sanitizer reports fail the run even when every
	# test passed.
	# Only what happened once the test script started counts: early boot
	# is QEMU's and the distribution kernel's business (a libata warning
	# was seen there once under TCG).
	pat='BUG:|WARNING:|Oops|general protection|KASAN|UBSAN|kernel BUG|RCU stall|hung_task|blocked for more than'
	if for f in "$out/dmesg.log" "$out/console.log"; do
		sed -n '/virtme-ng-init: starting script/,$p' "$f" 2>/dev/null
	done | grep -E "$pat" >"$out/badlog.txt"; then
		echo "not ok - vm: kernel log is clean"
		sed 's/^/# /' "$out/badlog.txt" | head -40
	else
		echo "ok - vm: kernel log is clean"
	fi
} >"$result"
# Where the captures and logs of this run are, for later checks.
echo "$out" >"$result.dir"
grep -E '^(not )?ok ' "$result" | sed -n '/^not ok/p' | head -20
exit 0
