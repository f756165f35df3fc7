#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and run the libFuzzer target for a bounded time, as one KTAP result.
# Called by "make fuzz": run_fuzz.sh MAKE-COMMAND-THAT-BUILDS-fuzz_wire...
# Environment: B (build dir, holds oracle), FUZZ_CC, FUZZ_SECONDS.
set -u

b=${B:-build}
secs=${FUZZ_SECONDS:-20}
cc=${FUZZ_CC:-clang}

totals() {
	echo "# Totals: pass:$1 fail:$2 xfail:0 xpass:0 skip:$3 error:0"
}

echo "TAP version 13"
echo "1..1"
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "ok 1 fuzz_wire # SKIP $cc not installed"
	totals 0 0 1
	exit 0
fi
mkdir -p "$b"
if ! "$@" >"$b/fuzz-build.log" 2>&1; then
	sed 's/^/# /' "$b/fuzz-build.log" | tail -20
	echo "not ok 1 fuzz_wire # build failed ($b/fuzz-build.log)"
	totals 0 1 0
	exit 1
fi

seeds=$b/fuzz-seeds
corpus=$b/fuzz-corpus
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus"
if ! "$b/oracle" corpus "$seeds"; then
	echo "not ok 1 fuzz_wire # could not write the seed corpus"
	totals 0 1 0
	exit 1
fi

"$b/fuzz_wire" -max_total_time="$secs" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$b/fuzz-" "$corpus" "$seeds" >"$b/fuzz.log" 2>&1
rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$b/fuzz.log")
cov=$(grep -o 'cov: [0-9]*' "$b/fuzz.log" | tail -1)
units=$(find "$corpus" -type f | wc -l)
echo "# fuzz_wire: ${runs:-?} runs in ${secs}s, ${cov:-cov: ?}," \
	"$(ls "$seeds" | wc -l) seeds, corpus $units units"
if [ $rc -eq 0 ]; then
	echo "ok 1 fuzz_wire"
	totals 1 0 0
	exit 0
fi
grep -E 'ERROR|SUMMARY|fuzz_wire:|artifact|Test unit written' "$b/fuzz.log" |
	head -20 | sed 's/^/# /'
echo "not ok 1 fuzz_wire # exit $rc, log $b/fuzz.log"
totals 0 1 0
exit 1
