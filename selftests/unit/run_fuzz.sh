#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and run a libFuzzer target for a bounded time, as one KTAP result.
# Called by "make fuzz": run_fuzz.sh MAKE-COMMAND-THAT-BUILDS-THE-TARGET...
# Environment: B (build dir, holds oracle), FUZZ_CC, FUZZ_SECONDS;
# FUZZ_NAME (target in B, default fuzz_wire), FUZZ_MAXLEN (4096),
# FUZZ_SEEDS (command that writes seed files into the directory given as
# its argument; default: B/oracle corpus).
set -u

b=${B:-build}
name=${FUZZ_NAME:-fuzz_wire}
maxlen=${FUZZ_MAXLEN:-4096}
secs=${FUZZ_SECONDS:-20}
cc=${FUZZ_CC:-clang}

totals() {
	echo "# Totals: pass:$1 fail:$2 xfail:0 xpass:0 skip:$3 error:0"
}

echo "TAP version 13"
echo "1..1"
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "ok 1 $name # SKIP $cc not installed"
	totals 0 0 1
	exit 0
fi
mkdir -p "$b"
if ! "$@" >"$b/$name-build.log" 2>&1; then
	sed 's/^/# /' "$b/$name-build.log" | tail -20
	echo "not ok 1 $name # build failed ($b/$name-build.log)"
	totals 0 1 0
	exit 1
fi

seeds=$b/$name-seeds
corpus=$b/$name-corpus
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus"
if ! ${FUZZ_SEEDS:-"$b/oracle" corpus} "$seeds"; then
	echo "not ok 1 $name # could not write the seed corpus"
	totals 0 1 0
	exit 1
fi

"$b/$name" -max_total_time="$secs" -max_len="$maxlen" -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$b/$name-" "$corpus" "$seeds" >"$b/$name.log" 2>&1
rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$b/$name.log")
cov=$(grep -o 'cov: [0-9]*' "$b/$name.log" | tail -1)
units=$(find "$corpus" -type f | wc -l)
echo "# $name: ${runs:-?} runs in ${secs}s, ${cov:-cov: ?}," \
	"$(ls "$seeds" | wc -l) seeds, corpus $units units"
if [ $rc -eq 0 ]; then
	echo "ok 1 $name"
	totals 1 0 0
	exit 0
fi
grep -E 'ERROR|SUMMARY|$name:|artifact|Test unit written' "$b/$name.log" |
	head -20 | sed 's/^/# /'
echo "not ok 1 $name # exit $rc, log $b/$name.log"
totals 0 1 0
exit 1
