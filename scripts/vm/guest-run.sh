#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Inside the VM: install the modules, then run a command (make vm CMD=...).
#
#   guest-run.sh STAGE SCRIPT
set -u
"$(dirname "$0")/guest-install.sh" "$1"
# The console interleaves kernel messages: keep the output in a file.
out=$(dirname "$2")/cmd.out
bash "$2" >"$out" 2>&1
rc=$?
echo "exit $rc" >>"$out"
exit $rc
