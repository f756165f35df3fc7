#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# On the host: prepare a module tree for the guest with our modules in
# extra/ and the depmod indexes already computed.  depmod over Debian's
# 4000 compressed modules takes seconds natively but minutes under TCG.
#
#   stage-modules.sh KVER MODDIR STAGEDIR [KTREE]
#
# With KTREE (the debug kernel's build tree) the kernel's own module lists
# come from there; that kernel has everything the tests need built in.
set -euo pipefail

kver=$1
moddir=$2
stage=$3
ktree=${4:-}
dst=$stage/lib/modules/$kver

rm -rf "$stage"
mkdir -p "$dst/extra"
if [ -n "$ktree" ]; then
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		cp "$ktree/$f" "$dst/" 2>/dev/null || : >"$dst/$f"
	done
else
	ln -s "/lib/modules/$kver/kernel" "$dst/kernel"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		cp "/lib/modules/$kver/$f" "$dst/"
	done
fi
cp "$moddir"/net/xtp/xtp.ko "$moddir"/net/xtp/xtp_diag.ko \
	"$moddir"/net/mtp/mtp.ko "$dst/extra/"
# KUnit suites exist only for kernels with CONFIG_KUNIT.
cp "$moddir"/net/xtp/*_kunit.ko "$moddir"/net/mtp/*_kunit.ko "$dst/extra/" \
	2>/dev/null || true
cp "$moddir"/selftests/net/modules/*.ko "$dst/extra/" 2>/dev/null || true
depmod -b "$stage" "$kver"
