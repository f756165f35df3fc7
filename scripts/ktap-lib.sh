# SPDX-License-Identifier: GPL-2.0
# Sourced by scripts/check.sh and scripts/debug-kernel/check.sh.
#
# step NAME DESCRIPTION CMD...: one KTAP line for a command's success;
# its output goes to $res/NAME.log, its KTAP line to $res/NAME.ktap.
step() {
	local name=$1 desc=$2 t0=$SECONDS
	shift 2
	if "$@" >"$res/$name.log" 2>&1; then
		echo "ok - $desc" | tee "$res/$name.ktap"
		stage_time "$name" "$t0"
	else
		echo "not ok - $desc (see ${res#"$top"/}/$name.log)" |
			tee "$res/$name.ktap"
		tail -15 "$res/$name.log" | sed 's/^/# /'
		stage_time "$name" "$t0"
		return 1
	fi
}

# stage_time NAME START: how long a stage took, and the run so far (CI's
# budget is an hour: this is where to look when it grows).
stage_time() {
	echo "# time: $1 $((SECONDS - $2)) s (run $SECONDS s)"
}

# demo_ok NAME: run the README's first command (scripts/demo.sh, with the
# kernel the environment names) and check that the capture it decodes
# holds the packets it sent; its output goes to $res/NAME.out.
demo_ok() {
	scripts/demo.sh >"$res/$1.out" 2>&1 || return 1
	cat "$res/$1.out"
	grep -q 'FIRST \[SREQ\] Seq=90000 Len=24' "$res/$1.out" &&
	grep -qE '^XtpInNoContext[[:space:]]+3$' "$res/$1.out"
}

# ktap_stage NAME DESCRIPTION CMD...: run a command that prints KTAP
# (possibly several documents, each with its own "1..N" plan) into
# $res/NAME.ktap and make sure nothing it owes goes uncounted: a plan of
# "1..0 # SKIP why" becomes one skipped result, results missing from the
# plans and a non-zero exit status without a "not ok" each add a failure.
ktap_stage() {
	local name=$1 desc=$2 f=$res/$1.ktap rc planned got bad skip
	local t0=$SECONDS
	shift 2
	"$@" >"$f" 2>"$res/$name.err"
	rc=$?
	stage_time "$name" "$t0"
	planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$f" |
		  awk '{ s += $1 } END { print s + 0 }')
	got=$(grep -cE '^(not )?ok ' "$f")
	bad=$(grep -cE '^not ok ' "$f")
	sed -n 's/^1\.\.0 .*# *[Ss][Kk][Ii][Pp] *\(.*\)/\1/p' "$f" |
		while read -r why; do
			echo "ok - $desc # SKIP $why"
		done >>"$f"
	grep -E '^ok ' "$f" | grep -vc '# SKIP' | sed "s/^/# $name: passed /"
	grep -E '^not ok ' "$f"
	if [ "$got" -lt "$planned" ]; then
		echo "not ok - $desc: only $got of $planned planned results" |
			tee -a "$f"
	fi
	if [ "$got" -eq 0 ] && [ "$planned" -eq 0 ] &&
	   ! grep -qE '^1\.\.0' "$f"; then
		echo "not ok - $desc: no results" | tee -a "$f"
	fi
	if [ $rc -ne 0 ] && [ "$bad" -eq 0 ]; then
		echo "not ok - $desc: exit status $rc (see ${res#"$top"/}/$name.err)" |
			tee -a "$f"
		tail -5 "$res/$name.err" | sed 's/^/# /'
	fi
}
