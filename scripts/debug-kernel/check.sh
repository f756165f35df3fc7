#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug-kernel tier: our modules and tests on a 6.12 kernel built with
# KASAN, lockdep, kmemleak, UBSAN, debug objects and KUnit.
#
#   scripts/debug-kernel/check.sh [--ci]
#
#  1. build (or reuse) the kernel: scripts/debug-kernel/build.sh
#  2. build xtp.ko, mtp.ko and their KUnit suites against it (W=1)
#  3. one boot: the KUnit suites and the VM selftests (all of
#     selftests/net/TESTS; with --ci the subset in TESTS.debug-ci)
#  4. one boot: make demo (not with --ci)
# Any KASAN, lockdep, UBSAN, debug-objects, "BUG:" or "WARNING:" report
# after the first test starts, and any kmemleak leak at the end, fails
# the run; scripts/vm/judge-log.sh prints each with the test that ran.
#
# Results go to $XTP_RESULTS (default build/results-debug); when run by
# itself the last line is the verdict.  scripts/check.sh runs it with --ci
# inside `make check`.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
ci=0
[ "${1:-}" = --ci ] && ci=1
res=${XTP_RESULTS:-$top/build/results-debug}
standalone=0
if [ -z "${XTP_RESULTS:-}" ]; then
	standalone=1
	rm -rf "$res"
fi
mkdir -p "$res"
. "$top/scripts/ktap-lib.sh"

summary() {
	[ $standalone -eq 1 ] && scripts/ktap-summary.sh "$res"/*.ktap
	exit "${1:-0}"
}

step debug-deps "debug tier: dependencies installed" scripts/deps.sh || summary 1

tree_file=$res/debug-kernel.path
build_tree() { scripts/debug-kernel/build.sh >"$tree_file"; }
echo "# debug tier: kernel build (cached after the first; ~20 min on 2 cores)"
step debug-kernel "debug tier: 6.12 debug kernel built (KASAN, lockdep, kmemleak, KUnit)" \
	build_tree || summary 1
tree=$(tail -1 "$tree_file")
kver=$(cat "$tree/include/config/kernel.release")
kimage=$tree/arch/x86/boot/bzImage

# DEBUG_PREBUILT: the prefix of scripts/debug-kernel/prebuild.sh's
# results, when `make check` built the modules in the background.
modules_built() {
	local pre=${DEBUG_PREBUILT:-}

	if [ -n "$pre" ] && [ -f "$pre.rc" ] &&
	   [ "$(cat "$pre.kver" 2>/dev/null)" = "$kver" ]; then
		cat "$pre.out"
		return "$(cat "$pre.rc")"
	fi
	scripts/build-modules.sh "$kver" "$tree"
}
kunit_built() {
	modules_built &&
	ls "build/mod/$kver/net/xtp/xtp_kunit.ko" \
	   "build/mod/$kver/net/mtp/mtp_kunit.ko"
}
step debug-build "debug tier: modules and KUnit suites build against $kver (W=1, no warnings)" \
	kunit_built || summary 1
step debug-selftests-build "debug tier: selftest programs build" \
	make -s -C selftests/net || summary 1

if [ $ci -eq 1 ]; then
	mapfile -t tests < <(grep -v '^#' selftests/net/TESTS.debug-ci | grep .)
	what="the CI subset (selftests/net/TESTS.debug-ci)"
else
	mapfile -t tests < <(grep -v '^#' selftests/net/TESTS | grep .)
	what="the whole suite"
fi
tests=(kunit.sh "${tests[@]}")
echo "# debug tier: KUnit and $what on $kver (one boot, TCG; slow)"
start=$(date +%s)
# Under KASAN and lockdep everything runs several times slower: longer
# timeouts, mtp_xfer.sh allows 10% repeats without loss instead of 1%, and
# in CI it moves 4 MiB without loss and 1 MiB at 5% and 40% loss.  The
# KUnit suites run only on a kernel booted with kunit.enable=1.  KASAN
# reports every bug, not only the first (kasan_multi_shot); no5lvl keeps
# the guest on 4-level paging: with QEMU's 5-level paging a KASAN report
# in early boot (do_raw_spin_lock from handle_edge_irq) was seen, and any
# report turns lockdep off for the rest of the boot.
boot_args="kunit.enable=1 kasan_multi_shot no5lvl"
# udev's coldplug took 80-300 s of each boot here, and no test needs it:
# where run.sh cannot stand a stub in for udev, the bash init skips it.
export VM_NO_UDEV=1
env="SELFTEST_TIMEOUT=${DEBUG_SELFTEST_TIMEOUT:-1500}
MTP_REPEAT_PCT=10"
[ $ci -eq 1 ] && env="$env
MTP_CASES='5:1m 40:1m'
MTP_BIG=4m"
SELFTEST_ENV=$env VM_APPEND="$boot_args" KIMAGE=$kimage KTREE=$tree \
	VM_TIMEOUT=${DEBUG_VM_TIMEOUT:-10800} \
	scripts/vm/selftests.sh "$kver" "build/mod/$kver" build/selftests/net \
	"$res/debug-vm.ktap" "${tests[@]}"
echo "# debug tier: VM run took $(( $(date +%s) - start )) s"
grep -cE '^ok ' "$res/debug-vm.ktap" | sed 's/^/# debug vm: passed /'
# kunit.sh skips where there is no KUnit; here its absence is a failure.
n=$(grep -cE '^(not )?ok ' "$(cat "$res/debug-vm.ktap.dir")/kunit.sh.log" \
	2>/dev/null)
if [ "${n:-0}" -gt 0 ]; then
	echo "ok - debug tier: the KUnit suites ran ($n cases)"
else
	echo "not ok - debug tier: the KUnit suites ran (no results)"
fi | tee "$res/debug-kunit.ktap"

# CI's hour has no room for the demo's 7 minutes under KASAN: it runs the
# paths of the selftests above, and `make check-debug` still boots it.
if [ $ci -eq 1 ]; then
	echo "# debug tier: make demo left to make check-debug"
	summary 0
fi
echo "# debug tier: make demo on $kver"
start=$(date +%s)
VM_APPEND=$boot_args XTP_KVER=$kver XTP_KIMAGE=$kimage XTP_KTREE=$tree \
	DEMO_OUT=build/demo-debug DEMO_TIMEOUT=1500 step debug-demo \
	"debug tier: make demo on the debug kernel" demo_ok debug-demo
scripts/vm/judge-log.sh build/demo-debug | sed 's/ - vm:/ - debug demo:/' |
	tee "$res/debug-demo-log.ktap" | grep -v '^#'
echo "# debug tier: demo took $(( $(date +%s) - start )) s"
summary 0
