#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests of the tcpdump XTP and MTP printers; KTAP on stdout, progress on
# stderr.
#
#   run-tests.sh           build (cached under build/tcpdump/) and test
#   run-tests.sh --update  rewrite tests/*.out from the current printer
#                          (review the diff before committing it)
#
# 1. tcpdump and an ASan/UBSan tcpdump build; print-xtp.c and print-mtp.c
#    are warning-free; a live capture to a file as root
# 2. golden tests as in tcpdump's own TESTLIST (tests/TESTLIST): captures
#    of the unit tests' golden and sample packets (selftests/unit/oracle.c)
#    and of truncated and malformed variants (tests/mkpcaps.py), and MTP
#    datagrams from the vectors of tests/mkpcaps.py, output at -n, -nv and
#    -nvv compared byte for byte with tests/*.out
# 3. each thesis trace line (selftests/unit/golden.c) printed as the thesis
#    printed it (ad/af: see README.md)
# 4. each golden and sample packet decoded alike by tcpdump and tshark;
#    each MTP datagram decoded alike by tcpdump and the MTP module's codec
#    (tests/mtp_decode.c with net/mtp/wire.c, compared by mtp_compare.py)
#    and by a decoder written from the dissertation (tests/mtp_reference.py)
# 5. a bounded fuzz run of the ASan build on mutated captures, XTP and MTP
#
# Variables: FUZZ_FILES (20), FUZZ_PACKETS (5000 per file), FUZZ_SEED (1);
# MTP_FUZZ_FILES (10), MTP_FUZZ_PACKETS (5000 per file).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
t=$here/tests
b=$top/build/tcpdump/tests
update=0
[ "${1:-}" = --update ] && update=1
export TZ=GMT0 LC_ALL=C

rm -rf "$b"
mkdir -p "$b"

n=0
pass=0
fail=0
lines=()
# result RC DESC [WHY]
result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		pass=$((pass + 1))
		lines+=("ok $n $2")
	else
		fail=$((fail + 1))
		lines+=("not ok $n $2${3:+ # $3}")
	fi
	echo "${lines[-1]}" >&2
}
finish() {
	echo "TAP version 13"
	echo "1..$n"
	printf '%s\n' "${lines[@]}"
	echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
	[ "$fail" -eq 0 ]
	exit $?
}

# --- 1. builds --------------------------------------------------------------
if td=$("$here/build.sh" normal 2>"$b/build.log" | tail -1) && [ -x "$td" ]; then
	result 0 "tcpdump_build"
else
	result 1 "tcpdump_build" "see build/tcpdump/tests/build.log"
	finish
fi
src=$(ls -d "$top"/build/tcpdump/src/tcpdump-*/ | head -1)
for p in xtp mtp; do
	if gcc -fsyntax-only -DHAVE_CONFIG_H -I"$(dirname "$td")" -I"$src" \
		-Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
		-Wpointer-arith -Wcast-qual -Wformat=2 -Wundef -Werror \
		"$here/print-$p.c" >"$b/warnings-$p.log" 2>&1; then
		result 0 "print_${p}_no_warnings"
	else
		result 1 "print_${p}_no_warnings" "$(head -1 "$b/warnings-$p.log")"
	fi
done
if asan=$("$here/build.sh" asan 2>"$b/build-asan.log" | tail -1) && [ -x "$asan" ]; then
	result 0 "tcpdump_asan_build"
else
	result 1 "tcpdump_asan_build" "see build/tcpdump/tests/build-asan.log"
	asan=
fi

# A live capture to a file as root, in a namespace of its own: one UDP
# datagram on its loopback must come back from the savefile.
live_capture() {
	local pc=$b/live.pcap i
	unshare -n bash -c '
		ip link set lo up || exit 1
		timeout 20 "$1" -i lo -nn -U -c 1 -w "$2" udp port 9 2>"$2.err" &
		for i in $(seq 50); do
			grep -q "listening on" "$2.err" && break
			sleep 0.1
		done
		python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b\"xtp-live\", (\"127.0.0.1\", 9))"
		wait $!' _ "$td" "$pc" || return 1
	[ "$("$td" -nn -r "$pc" 2>/dev/null | grep -c 'UDP, length 8$')" = 1 ]
}
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
	n=$((n + 1)) pass=$((pass + 1))
	lines+=("ok $n live_capture_as_root # SKIP not root")
elif live_capture; then
	result 0 "live_capture_as_root"
else
	result 1 "live_capture_as_root" "$(tail -1 "$b/live.pcap.err" 2>/dev/null)"
fi

# --- 2. captures and golden outputs ------------------------------------------
# The unit tests' oracle writes the golden packets; build it in a folder of
# our own so a concurrent `make unit` is not disturbed.
ub=$top/build/tcpdump/unit
if make -s -C "$top/selftests/unit" B="$ub" "$ub/oracle" >"$b/oracle.log" 2>&1 &&
   "$ub/oracle" pcap "$b/oracle.pcap" >"$b/oracle.names" 2>>"$b/oracle.log" &&
   python3 "$t/mkpcaps.py" bad "$b/oracle.pcap" "$b/bad.pcap" \
	>"$b/bad.names" 2>>"$b/oracle.log" &&
   python3 "$t/mkpcaps.py" mtp "$b/mtp.pcap" \
	>"$b/mtp.names" 2>>"$b/oracle.log"; then
	result 0 "test_captures"
else
	result 1 "test_captures" "$(tail -1 "$b/oracle.log")"
	finish
fi

# Committed captures of the module's real traffic join the generated ones.
cp "$t"/*.pcap "$b/" 2>/dev/null

while read -r name pcap expect opts; do
	case $name in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2086  # opts is a list of options
	"$td" $opts -r "$b/$pcap" >"$b/$name.out" 2>"$b/$name.err"
	rc=$?
	if [ $update -eq 1 ] && [ $rc -eq 0 ]; then
		cp "$b/$name.out" "$t/$expect"
	fi
	if [ $rc -ne 0 ]; then
		result 1 "golden_$name" "tcpdump exit $rc"
	elif cmp -s "$b/$name.out" "$t/$expect"; then
		result 0 "golden_$name"
	else
		diff -u "$t/$expect" "$b/$name.out" >"$b/$name.diff"
		result 1 "golden_$name" "differs, see build/tcpdump/tests/$name.diff"
	fi
done <"$t/TESTLIST"

# --- 3. the thesis' own lines -----------------------------------------------
# golden.c lists each trace line as `.text = "..."`, in capture order.  The
# thesis printed adomain/aformat byte-swapped (ad9216 af256); we print the
# values on the wire (ad36 af1).
sed -n 's/^[[:space:]]*\.text = "\(.*\)" },\{0,1\}$/\1/p' \
	"$top/selftests/unit/golden.c" |
	sed 's/ ad9216 af256 / ad36 af1 /' >"$b/thesis.txt"
"$td" -n -r "$b/oracle.pcap" 2>/dev/null | sed 's/^.*: XTP //' |
	head -"$(wc -l <"$b/thesis.txt")" >"$b/thesis.ours"
i=0
while IFS= read -r want && IFS= read -r got <&3; do
	i=$((i + 1))
	pkt=$(sed -n "${i}p" "$b/oracle.names" | awk -F'\t' '{ print $NF }')
	if [ "$want" = "$got" ]; then
		result 0 "thesis_line_$pkt"
	else
		result 1 "thesis_line_$pkt" "got \"$got\""
	fi
done <"$b/thesis.txt" 3<"$b/thesis.ours"
[ "$i" -gt 0 ] || result 1 "thesis_lines" "no .text lines found in golden.c"
# The loop stops at the shorter file: a capture with fewer packets than
# the thesis has lines must not drop the rest silently.
nthesis=$(wc -l <"$b/thesis.txt")
[ "$i" -eq "$nthesis" ] ||
	result 1 "thesis_lines_all" "compared $i of the thesis' $nthesis lines"

# --- 4. tshark ----------------------------------------------------------------
if command -v tshark >/dev/null 2>&1; then
	python3 "$t/tshark_compare.py" "$td" "$b/oracle.pcap" \
		"$b/oracle.names" >"$b/tshark.txt" 2>"$b/tshark.err"
	[ -s "$b/tshark.txt" ] || echo "0	tshark_compare	$(tail -1 "$b/tshark.err")" >"$b/tshark.txt"
	while IFS=$'\t' read -r ok pkt why; do
		result $((1 - ok)) "tshark_agrees_$pkt" "$why"
	done <"$b/tshark.txt"
else
	n=$((n + 1)); pass=$((pass + 1))
	lines+=("ok $n tshark_agrees # SKIP tshark not installed")
fi

# tshark has no MTP dissector: the MTP module's own codec is the reference.
if make -s -C "$t" B="$b" "$b/mtp_decode" >"$b/mtp_decode.log" 2>&1; then
	python3 "$t/mtp_compare.py" "$td" "$b/mtp_decode" "$b/mtp.pcap" \
		"$b/mtp.names" >"$b/mtp_compare.txt" 2>"$b/mtp_compare.err"
	[ -s "$b/mtp_compare.txt" ] ||
		echo "0	mtp_compare	$(tail -1 "$b/mtp_compare.err")" >"$b/mtp_compare.txt"
	while IFS=$'\t' read -r ok pkt why; do
		result $((1 - ok)) "mtp_module_agrees_$pkt" "$why"
	done <"$b/mtp_compare.txt"
else
	result 1 "mtp_module_agrees" "mtp_decode did not build: $(head -1 "$b/mtp_decode.log")"
fi

# The module's codec and our printer could share a mistake: a decoder
# written from the dissertation (tests/mtp_reference.py, nothing of the
# project's code) decodes the same datagrams, one result per capture: the
# MTP vectors, each of them cut by the capture at every header byte, 4 x
# 2500 mutated datagrams, and the committed captures with UDP in them.
mkdir -p "$b/ref"
if python3 "$t/mtp_reference.py" --cuts "$b/mtp.pcap" "$b/ref/mtp-cuts.pcap" \
	>/dev/null 2>"$b/ref/mk.err" &&
   python3 "$t/mkpcaps.py" mtpfuzz "$b/ref" 4 2500 "${FUZZ_SEED:-1}" \
	"$b/mtp.pcap" 2>>"$b/ref/mk.err"; then
	caps=("$b/mtp.pcap" "$b/ref/mtp-cuts.pcap" "$b"/ref/mtpfuzz-*.pcap)
	for f in "$t"/*.pcap; do
		[ -n "$("$td" -nn -r "$f" -c 1 udp 2>/dev/null)" ] && caps+=("$f")
	done
	python3 "$t/mtp_reference.py" --summary "$td" "${caps[@]}" \
		>"$b/mtp_reference.txt" 2>"$b/mtp_reference.err"
	[ -s "$b/mtp_reference.txt" ] ||
		echo "0	mtp_reference	$(tail -1 "$b/mtp_reference.err")" >"$b/mtp_reference.txt"
	while IFS=$'\t' read -r ok pcap why; do
		result $((1 - ok)) "mtp_reference_agrees_$(basename "$pcap" .pcap)" \
			"$([ "$ok" = 1 ] || echo "$why")"
	done <"$b/mtp_reference.txt"
else
	result 1 "mtp_reference_agrees" "captures: $(tail -1 "$b/ref/mk.err")"
fi

# --- 5. sanitizers and fuzzing ----------------------------------------------
# sanitized CMD...: run, and fail on a non-zero exit or any sanitizer report.
sanitized() {
	local err=$b/san.err
	"$@" >/dev/null 2>"$err" || { echo "exit $? on $*"; return 1; }
	if grep -qE 'ERROR: AddressSanitizer|runtime error:|LeakSanitizer' "$err"; then
		grep -m1 -E 'ERROR|runtime error' "$err"
		return 1
	fi
}
if [ -n "$asan" ]; then
	why=
	for p in oracle bad mtp; do
		for o in -n -nv -nvv -nvvx; do
			why=$(sanitized "$asan" $o -r "$b/$p.pcap") || break 2
		done
	done
	[ -z "$why" ] && why=$(sanitized "$asan" -nvvx -T mtp -r "$b/mtp.pcap")
	# The ASan binary must print what the normal one prints.
	[ -z "$why" ] && ! "$asan" -nvv -r "$b/bad.pcap" 2>/dev/null |
		cmp -s - "$t/xtp-bad-vv.out" && why="output differs from xtp-bad-vv.out"
	[ -z "$why" ] && ! "$asan" -nvv -r "$b/mtp.pcap" 2>/dev/null |
		cmp -s - "$t/mtp-vv.out" && why="output differs from mtp-vv.out"
	result $([ -z "$why" ]; echo $?) "asan_golden_and_malformed_clean" "$why"

	files=${FUZZ_FILES:-20} pkts=${FUZZ_PACKETS:-5000} seed=${FUZZ_SEED:-1}
	mkdir -p "$b/fuzz"
	why=
	if python3 "$t/mkpcaps.py" fuzz "$b/fuzz" "$files" "$pkts" "$seed" \
		"$b/oracle.pcap" "$b/bad.pcap"; then
		for f in "$b"/fuzz/*.pcap; do
			for o in -nvv -n; do
				why=$(sanitized "$asan" $o -r "$f") || break 2
			done
		done
	else
		why="mkpcaps.py fuzz failed"
	fi
	result $([ -z "$why" ]; echo $?) \
		"fuzz_asan_$((files * pkts))_packets_seed_$seed" "$why"

	# MTP: mutated datagrams on the MTP port (and -T mtp on them).
	files=${MTP_FUZZ_FILES:-10} pkts=${MTP_FUZZ_PACKETS:-5000}
	why=
	if python3 "$t/mkpcaps.py" mtpfuzz "$b/fuzz" "$files" "$pkts" "$seed" \
		"$b/mtp.pcap"; then
		for f in "$b"/fuzz/mtpfuzz-*.pcap; do
			for o in -nvv -n "-nvvx -T mtp"; do
				# shellcheck disable=SC2086  # o is a list of options
				why=$(sanitized "$asan" $o -r "$f") || break 2
			done
		done
	else
		why="mkpcaps.py mtpfuzz failed"
	fi
	result $([ -z "$why" ]; echo $?) \
		"fuzz_asan_mtp_$((files * pkts))_datagrams_seed_$seed" "$why"
fi

finish
