#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and run the MTP codec's libFuzzer target for a bounded time, as one
# KTAP result.  Called by "make mtp-fuzz":
#   run_mtp_fuzz.sh MAKE-COMMAND-THAT-BUILDS-fuzz_mtp_wire...
# Environment: B (build dir), FUZZ_CC, FUZZ_SECONDS.
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
	echo "ok 1 fuzz_mtp_wire # SKIP $cc not installed"
	totals 0 0 1
	exit 0
fi
mkdir -p "$b"
if ! "$@" >"$b/fuzz-mtp-build.log" 2>&1; then
	sed 's/^/# /' "$b/fuzz-mtp-build.log" | tail -20
	echo "not ok 1 fuzz_mtp_wire # build failed ($b/fuzz-mtp-build.log)"
	totals 0 1 0
	exit 1
fi

# Seeds: a request, a multi response, an error response, a stream close.
seeds=$b/fuzz-mtp-seeds
corpus=$b/fuzz-mtp-corpus
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus"
hdr() { printf "$1" | xxd -r -p; }
hdr '300000000004000a1122334400000000000000000001000000800000' >"$seeds/req"
{ hdr '30000800010400001122334400000001000000000010000000000001'; head -c 1024 /dev/zero; } >"$seeds/resp"
{ hdr '30000004020400001122334400000000000000000000000000000000'; printf 'gone'; } >"$seeds/err"
hdr '300000000004000a1122334400000000ffffffffffffffff00000000' >"$seeds/close"

"$b/fuzz_mtp_wire" -max_total_time="$secs" -max_len=2048 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$b/fuzz-mtp-" "$corpus" "$seeds" >"$b/fuzz-mtp.log" 2>&1
rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$b/fuzz-mtp.log")
cov=$(grep -o 'cov: [0-9]*' "$b/fuzz-mtp.log" | tail -1)
echo "# fuzz_mtp_wire: ${runs:-?} runs in ${secs}s, ${cov:-cov: ?}"
if [ $rc -ne 0 ]; then
	grep -E 'ERROR|fuzz_mtp_wire:|SUMMARY' "$b/fuzz-mtp.log" | head -10 | sed 's/^/# /'
	echo "not ok 1 fuzz_mtp_wire"
	totals 0 1 0
	exit 1
fi
echo "ok 1 fuzz_mtp_wire"
totals 1 0 0
