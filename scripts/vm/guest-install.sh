#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM: install the module tree staged by stage-modules.sh into
# the (overlaid) /lib/modules so that modprobe and socket() autoload find
# our modules.
set -eu
stage=$1/lib/modules/$(uname -r)
dst=/lib/modules/$(uname -r)
# virtme-ng links a self-built kernel's module folder to its (read-only)
# build tree: replace the link with a folder of the writable overlay.
if [ -L "$dst" ]; then
	rm -f "$dst"
	mkdir -p "$dst"
fi
mkdir -p "$dst/extra"
cp "$stage"/extra/*.ko "$dst/extra/"
cp "$stage"/modules.* "$dst/"
