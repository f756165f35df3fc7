#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KUnit suites of xtp_kunit.ko and mtp_kunit.ko: load them (they run
# when they load), read each suite's results from debugfs and report one
# KTAP line per test case.  Kernels without KUnit have no such modules
# (the build makes them only for CONFIG_KUNIT): the whole test is skipped.
# KUnit built in but not enabled (kunit.enable=1 missing from the kernel
# command line with CONFIG_KUNIT_DEFAULT_ENABLED off) is skipped too.
set -u
. "$(dirname "$0")/lib.sh"

kdir=/sys/kernel/debug/kunit
mods=(xtp_kunit mtp_kunit)
# Suites of the two modules, by name (net/xtp/kunit.c, net/mtp/kunit.c).
suite_glob='[xm]tp_*'

skip_all() {
	ktap_set_plan 1
	ktap_skip_all 1 "$*"
}

ktap_print_header
[ -d "$kdir" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -d "$kdir" ] || skip_all "no KUnit in this kernel ($kdir missing)"
for m in "${mods[@]}"; do
	modinfo "$m" >/dev/null 2>&1 ||
		skip_all "no $m module (built only for kernels with CONFIG_KUNIT)"
done

# The suites run at load time: reload to get this run's results, and put
# back afterwards what was loaded before (later tests unload xtp and mtp).
had_xtp=0
had_mtp=0
module_loaded xtp && had_xtp=1
module_loaded mtp && had_mtp=1
for m in "${mods[@]}"; do
	module_loaded "$m" && rmmod "$m"
done

load_err=()
for m in "${mods[@]}"; do
	if ! out=$(modprobe "$m" 2>&1); then
		load_err+=("$m: ${out:-modprobe failed}")
	fi
done

shopt -s nullglob
suites=("$kdir"/$suite_glob)
shopt -u nullglob

if [ ${#suites[@]} -eq 0 ] && [ ${#load_err[@]} -eq 0 ] &&
   dmesg | grep -q 'kunit: disabled'; then
	for m in "${mods[@]}"; do
		rmmod "$m" 2>/dev/null
	done
	skip_all "KUnit is disabled: boot with kunit.enable=1"
fi

# One result per test case: "    ok N name[ # SKIP reason]" in a suite's
# results; a suite that reports no case (its init failed) is one failure.
results=()
for s in "${suites[@]}"; do
	name=${s##*/}
	while IFS= read -r line; do
		echo "# $name: $line"
	done <"$s/results"
	n=0
	while read -r r; do
		results+=("$r")
		n=$((n + 1))
	done < <(awk -v suite="$name" '
		/^    (not )?ok [0-9]+ / {
			line = substr($0, 5)
			res = "pass"
			if (line ~ /^not ok/) { res = "fail"; sub(/^not ok [0-9]+ /, "", line) }
			else sub(/^ok [0-9]+ /, "", line)
			if (line ~ /# SKIP/) res = "skip"
			sub(/ *#.*/, "", line)
			print res " " suite "." line
		}' "$s/results")
	[ $n -gt 0 ] || results+=("fail $name # the suite reported no test case")
done
for e in "${load_err[@]}"; do
	results+=("fail load ${e%%:*} # ${e#*: }")
done
[ ${#results[@]} -gt 0 ] ||
	results+=("fail xtp_kunit and mtp_kunit loaded but no suite ran")

ktap_set_plan "${#results[@]}"
for r in "${results[@]}"; do
	desc=${r#* }
	case ${r%% *} in
	pass) ktap_test_pass "$desc" ;;
	skip) ktap_test_skip "$desc" ;;
	*) ktap_test_fail "$desc" ;;
	esac
done

for m in "${mods[@]}"; do
	module_loaded "$m" && rmmod "$m"
done
[ $had_mtp -eq 1 ] || ! module_loaded mtp || rmmod mtp
if [ $had_xtp -eq 0 ] && module_loaded xtp; then
	! module_loaded xtp_diag || rmmod xtp_diag
	rmmod xtp
fi
ktap_finished
