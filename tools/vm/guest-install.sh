#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM: install the module tree staged by stage-modules.sh into
# the (overlaid) /lib/modules so that modprobe and socket() autoload find
# our modules.
set -eu
stage=$1/lib/modules/$(uname -r)
dst=/lib/modules/$(uname -r)
mkdir -p "$dst/extra"
cp "$stage"/extra/*.ko "$dst/extra/"
cp "$stage"/modules.* "$dst/"
