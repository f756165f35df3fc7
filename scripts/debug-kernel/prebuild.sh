#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug tier's builds, in the background of `make check`: the kernel
# (scripts/debug-kernel/build.sh), then xtp.ko, mtp.ko and the KUnit
# suites against it, on what the production tier leaves idle.
#
#   scripts/debug-kernel/prebuild.sh PREFIX
#
# PREFIX.log gets the kernel build's messages; PREFIX.kver the kernel's
# release, PREFIX.out and PREFIX.rc the module build's output and exit
# status.  scripts/debug-kernel/check.sh reports that verdict instead of
# building again: a second build has nothing to compile, so it would not
# print a warning of the first.
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
pre=$1

rm -f "$pre.kver" "$pre.out" "$pre.rc"
tree=$("$top/scripts/debug-kernel/build.sh" 2>"$pre.log" | tail -1)
[ -n "$tree" ] && [ -f "$tree/include/config/kernel.release" ] || exit 1
kver=$(cat "$tree/include/config/kernel.release")
"$top/scripts/build-modules.sh" "$kver" "$tree" >"$pre.out" 2>&1
echo $? >"$pre.rc"
echo "$kver" >"$pre.kver"
