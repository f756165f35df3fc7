#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Count KTAP results of all given files and print the verdict line
# "N passed, N failed, N skipped".  Only top-level result lines count
# (column 0: "ok ..." / "not ok ..."); "# SKIP" marks a skip.  Exit 1 if
# anything failed or nothing ran.
set -u

pass=0 fail=0 skip=0
failed=()
for f in "$@"; do
	[ -f "$f" ] || continue
	while IFS= read -r line; do
		case "$line" in
		"not ok "*)
			fail=$((fail + 1))
			failed+=("$(basename "$f" .ktap): $line")
			;;
		"ok "*"# SKIP"* | "ok "*"# skip"*)
			skip=$((skip + 1))
			;;
		"ok "*)
			pass=$((pass + 1))
			;;
		esac
	done <"$f"
done

if [ ${#failed[@]} -gt 0 ]; then
	echo "Failed:"
	printf '  %s\n' "${failed[@]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
