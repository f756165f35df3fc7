#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench / make bench-quick: boot the 6.12 kernel in a VM once, measure
# every row of the performance report there (scripts/bench/bench-guest.sh),
# then write build/bench/results.json and regenerate
# Documentation/performance.md with its plots (scripts/bench/report.py).
# Never fails on a number, only when the run itself breaks.
#
#   scripts/bench/bench.sh [quick|full]
#
# The guest runs under QEMU TCG: absolute numbers are an emulator's, the
# ratios between protocols measured side by side are what to read.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
profile=${1:-full}
case $profile in quick|full) ;; *) echo "usage: $0 [quick|full]" >&2; exit 2 ;; esac
make -s deps modules selftests
make -s -C tools
# What only the benchmarks use: iperf3 for the cross-check, jq, and
# Debian's matplotlib for the plots (so Debian's python3 runs the report).
missing=()
command -v iperf3 >/dev/null || missing+=(iperf3)
command -v jq >/dev/null || missing+=(jq)
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null ||
	missing+=(python3-matplotlib)
if [ ${#missing[@]} -gt 0 ]; then
	echo "bench: installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
fi
kver=$(ls /lib/modules | grep '^6\.12' | sort -V | tail -1)
out=$top/build/bench
rm -rf "$out"
mkdir -p "$out"
scripts/vm/stage-modules.sh "$kver" "build/mod/$kver" "$out/stage"
{
	echo "export BENCH_PROFILE=$profile BENCH_OUT=$out"
	echo "exec bash $top/scripts/bench/bench-guest.sh"
} >"$out/cmd.sh"
echo "Booting $kver under QEMU (TCG) for the $profile benchmarks..."
started=$(date -u '+%Y-%m-%d %H:%M UTC')
t0=$SECONDS
rc=0
scripts/vm/run.sh -k "$kver" -o "$out" -t 3000 -- \
	"$top/scripts/vm/guest-run.sh" "$out/stage" "$out/cmd.sh" || rc=$?
cat "$out/cmd.out" 2>/dev/null
[ $rc -eq 0 ] || { echo "bench: the VM run failed ($rc)"; exit $rc; }
/usr/bin/python3 scripts/bench/report.py --results "$out/results.jsonl" \
	--outdir "$out" --doc Documentation/performance.md \
	--plots Documentation/perf --profile "$profile" --kernel "$kver" \
	--started "$started" --minutes $(((SECONDS - t0 + 59) / 60)) \
	--command "make bench$([ "$profile" = quick ] && echo -quick)"
