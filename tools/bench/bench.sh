#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot the 6.12 kernel in a VM and measure XTP against TCP in
# the same run (DESIGN.md §8).  Prints times, goodputs and ratios; never
# fails on a number, only when a transfer does not arrive intact.
#
# The guest runs under QEMU TCG: absolute numbers are an emulator's, the
# ratios between protocols measured side by side are what to read.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s deps modules selftests
kver=$(ls /lib/modules | grep '^6\.12' | sort -V | tail -1)
out=$top/build/bench
rm -rf "$out"
mkdir -p "$out"
tools/vm/stage-modules.sh "$kver" "build/mod/$kver" "$out/stage"
cp tools/bench/bench-guest.sh "$out/cmd.sh"
echo "Booting $kver under QEMU (TCG) for the benchmarks (several minutes)..."
rc=0
tools/vm/run.sh -k "$kver" -o "$out" -t 1500 -- \
	"$top/tools/vm/guest-run.sh" "$out/stage" "$out/cmd.sh" || rc=$?
cat "$out/cmd.out" 2>/dev/null
exit $rc
