#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM: install the modules, then run a command (make vm CMD=...).
#
#   guest-run.sh STAGE SCRIPT
set -u
"$(dirname "$0")/guest-install.sh" "$1"
echo ">>> guest: $(cat "$2")"
bash "$2"
rc=$?
echo ">>> guest: exit $rc"
exit $rc
