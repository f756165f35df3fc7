#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host side of the VM selftests: boot the kernel once, run the whole suite
# in that boot, bring the KTAP back and judge the guest's kernel log.
#
#   scripts/vm/selftests.sh KVER MODDIR BINDIR RESULT.ktap [TEST...]
#
# KIMAGE and KTREE in the environment boot another kernel than Debian's
# (the debug kernel of `make check-debug`) and stage modules for it;
# SELFTEST_ENV (shell assignments, one per line) is exported to the tests
# in the guest.
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
printf '%s\n' "${SELFTEST_ENV:-}" >"$out/env"
"$top/scripts/vm/stage-modules.sh" "$kver" "$moddir" "$out/stage" ${KTREE:-}
boot() {
	"$top/scripts/vm/run.sh" -k "$kver" ${KIMAGE:+-i "$KIMAGE"} -o "$out" \
		-t "${VM_TIMEOUT:-1800}" -- \
		"$top/scripts/vm/guest-suite.sh" "$out" "$out/stage" "$bindir" "$@"
}
boot "$@"
rc=$?
# A VM that ended (not timed out) before the guest started its first
# test never ran a test (QEMU or virtme-ng failed on the host): boot once
# more, keeping the first console for the record.
if [ $rc -ne 124 ] && [ $rc -ne 137 ] && [ ! -f "$out/suite.done" ] &&
   ! grep -q '^# selftest: ' "$out/ktap.log" 2>/dev/null; then
	echo "# vm: exit $rc before the first test; booting again" >&2
	tail -n 20 "$out/console.log" 2>/dev/null | sed 's/^/# first boot: /' >&2
	mv "$out/console.log" "$out/console.first.log" 2>/dev/null
	boot "$@"
	rc=$?
fi

{
	grep -vE '^(TAP version|1\.\.)' "$out/ktap.log" 2>/dev/null
	if [ -f "$out/suite.done" ]; then
		echo "ok - vm: suite ran to the end"
	else
		echo "not ok - vm: suite did not finish (vm exit $rc, hang or panic; see $out/console.log)"
		# CI keeps only what is printed: the console's end says why.
		tail -n 25 "$out/console.log" 2>/dev/null | sed 's/^/# console: /'
	fi
	# Without virtme's I/O ports the init runs the script on the console
	# and the exit status that run.sh returns (timeouts among them) is
	# lost; the KTAP above would still be right, so say why here.
	if grep -q 'cannot find script I/O ports' "$out/console.log" 2>/dev/null; then
		echo "not ok - vm: the script ran on virtme's I/O ports (console fallback)"
	else
		echo "ok - vm: the script ran on virtme's I/O ports"
	fi
	# Oopses, warnings and sanitizer reports fail the run even when every
	# test passed; so do kmemleak's leaks on the debug kernel.  A guest
	# that died wrote its last words to the console only, the oops that
	# killed it among them: judge that, for its call trace and test.
	if [ -f "$out/suite.done" ]; then
		"$top/scripts/vm/judge-log.sh" "$out"
	else
		"$top/scripts/vm/judge-log.sh" "$out" "$out/console.log"
	fi
} >"$result"
# Where the captures and logs of this run are, for later checks.
echo "$out" >"$result.dir"
grep -E '^(not )?ok ' "$result" | sed -n '/^not ok/p' | head -20
[ -f "$out/suite.done" ] || grep '^# console: ' "$result" >&2
exit 0
