#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unpack the pieces of Debian's linux-source-6.12 tarball the project builds
# against (kselftest framework, checkpatch) into an ignored folder.  Nothing
# from it is committed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
dst="$top/.ksrc"
tarball=$(ls /usr/src/linux-source-6.12*.tar.* 2>/dev/null | sort -V | tail -1)

if [ -f "$dst/.done" ]; then
	exit 0
fi
if [ -z "$tarball" ]; then
	"$top/scripts/deps.sh"
	tarball=$(ls /usr/src/linux-source-6.12*.tar.* | sort -V | tail -1)
fi

rm -rf "$dst"
mkdir -p "$dst"
base=linux-source-6.12
want=(
	scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/kselftest.h
	tools/testing/selftests/kselftest
	tools/testing/selftests/net/lib.sh
)
tar -xf "$tarball" -C "$dst" --strip-components=1 \
	"${want[@]/#/$base/}"
touch "$dst/.done"
echo "ksrc: $(basename "$tarball") -> .ksrc"
