#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness tests itself: each way a stage can fail or vanish (a
# non-zero exit with every result "ok", fewer results than planned, a
# stage printing nothing, a whole-stage SKIP plan, a failing step) must
# reach the verdict of scripts/ktap-summary.sh.  KTAP.
#
#   scripts/test-ktap-lib.sh
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
. "$top/scripts/ktap-lib.sh"

n=0 bad=0
# expect NAME PASSED FAILED SKIPPED: the summary of $res/NAME.ktap
expect() {
	local got want="$2 passed, $3 failed${4:+, $4 skipped}"

	got=$("$top/scripts/ktap-summary.sh" "$res/$1.ktap" 2>/dev/null | tail -1)
	n=$((n + 1))
	case $got in
	"$want"*) echo "ok $n - $1: \"$want\"" ;;
	*) echo "not ok $n - $1: \"$got\", want \"$want\""; bad=$((bad + 1)) ;;
	esac
}

echo "1..10"
ktap_stage clean "two results" printf '1..2\nok 1 - a\nok 2 - b\n' >/dev/null
expect clean 2 0
ktap_stage exit "exit status without a not ok" \
	sh -c 'printf "1..1\nok 1 - a\n"; exit 3' >/dev/null
expect exit 1 1
ktap_stage short "plan not met" sh -c 'printf "1..3\nok 1 - a\n"; exit 9' >/dev/null
expect short 1 2
ktap_stage empty "nothing printed" true >/dev/null
expect empty 0 1
ktap_stage skip "whole stage skipped" printf '1..0 # SKIP no tshark\n' >/dev/null
expect skip 0 0 1
ktap_stage two "two documents" printf '1..1\nok 1 - a\n1..2\nok 1 - b\nnot ok 2 - c\n' >/dev/null
expect two 2 1
step okstep "a step that works" true >/dev/null
expect okstep 1 0
step badstep "a step that fails" false >/dev/null
expect badstep 0 1

# judge-log.sh: a report after a test's marker fails the run and names
# the test; SLUB's own (slub_debug) reports count.
judge() {
	n=$((n + 1))
	if "$top/scripts/vm/judge-log.sh" "$res" | grep -qx -- "$2"; then
		echo "ok $n - judge-log: $1"
	else
		echo "not ok $n - judge-log: $1"
		bad=$((bad + 1))
	fi
}
printf '%s\n' '[ 1.0] xtp-selftest: start a.sh' \
	'[ 2.0] BUG kmalloc-1k (Tainted: G OE): Object already free' \
	>"$res/dmesg.log"
judge "a SLUB report fails the run" \
	'not ok - vm: kernel log is clean (1 report(s) after the first test started)'
judge "and names the test that ran" '# during a.sh'
[ $bad -eq 0 ]
