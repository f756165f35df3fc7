#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Seeds for fuzz_mtp_wire (run_fuzz.sh FUZZ_SEEDS): a request, a multi
# response, an error response and a stream close, written into DIR.
#   mtp_fuzz_seeds.sh DIR
set -eu
hdr() { printf '%s' "$1" | xxd -r -p; }
hdr '300000000004000a1122334400000000000000000001000000800000' >"$1/req"
{ hdr '30000800010400001122334400000001000000000010000000000001'; head -c 1024 /dev/zero; } >"$1/resp"
{ hdr '30000004020400001122334400000000000000000000000000000000'; printf 'gone'; } >"$1/err"
hdr '300000000004000a1122334400000000ffffffffffffffff00000000' >"$1/close"
