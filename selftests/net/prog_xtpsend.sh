#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# xtpsend -> xtprecv between two namespaces: a 1 MB file arrives
# sha256-equal, both ends print the thesis' Appendix B "Association Info"
# block with plausible counters, and the Appendix A flags reach the
# association (FILETRANSFER with data in the FIRST, SREQ frequency,
# MAXDATA).
set -u
. "$(dirname "$0")/prog_lib.sh"

OUT=${XTP_OUT:-/tmp}/prog_xtpsend
B=$XTP_BINDIR
mkdir -p "$OUT"

# run NAME "RECV OPTS" "SEND OPTS": one transfer, 0 if both ends succeed
run() {
	local srv rc
	ip netns exec "$NS_S" "$B/xtprecv" -o "$OUT/$1.out" $2 9999 \
		>"$OUT/$1.srv" 2>"$OUT/$1.srv.err" &
	srv=$!
	wait_for 30 grep -q listening "$OUT/$1.srv.err" || return 1
	ip netns exec "$NS_C" "$B/xtpsend" $3 198.18.0.2 9999 \
		>"$OUT/$1.cli" 2>"$OUT/$1.cli.err"
	rc=$?
	wait $srv && [ $rc -eq 0 ]
}

# The block's 14 lines in the thesis' order and shape (Fig. 22).
block_ok() {
	local re='^Association Info:$
^Assoc_type=[0-9]+ Teardown_method=[0-9]+ Service=[0-9]+$
^Pk sent: F=[0-9]+ D=[0-9]+ DG=[0-9]+ C=[0-9]+ T=[0-9]+ E=[0-9]+; Total=[0-9]+ \(Re-transmit:DpkOut=[0-9]+\)$
^Pk recv: F=[0-9]+ D=[0-9]+ DG=[0-9]+ C=[0-9]+ T=[0-9]+ E=[0-9]+; Total=[0-9]+$
^Congestion Management:$
^FCwaits=[0-9]+ RCwaits=[0-9]+$
^Sync=[0-9]+ Data_sreq_sent=[0-9]+ Rtt_updates=[0-9]+ Ack_freq=[0-9]+$
^EdgeBit Set=[0-9]+ RTT_cache_size=[0-9]+$
^Initial_trainsize=[0-9]+ Final_trainsize=[0-9]+ Cong_trainsize=[0-9]+$
^Linear_threshold=[0-9]+ Linear_count=[0-9]+$
^Exp Inc=[0-9]+ Exp Dec=[0-9]+ Lin Inc=[0-9]+ Lin Dec=[0-9]+$
^XTP Timers:$
^wtimerTMO=[0-9]+ ctimerTMO=[0-9]+ ctimeoutTMO=[0-9]+ zombieTMO=[0-9]+$
^HandShake=[0-9]+$'
	local i=0 line
	while IFS= read -r line; do
		i=$((i + 1))
		sed -n "${i}p" "$1" | grep -qE "$line" || return 1
	done <<<"$re"
}

# totals_ok FILE: each Total is the sum of its line's counters.
totals_ok() {
	local dir sum
	for dir in 'Pk sent' 'Pk recv'; do
		sum=$(( $(mib "$1" "$dir" F) + $(mib "$1" "$dir" D) +
			$(mib "$1" "$dir" DG) + $(mib "$1" "$dir" C) +
			$(mib "$1" "$dir" T) + $(mib "$1" "$dir" E) ))
		[ "$sum" = "$(mib "$1" "$dir" Total)" ] || return 1
	done
}

ktap_print_header
ktap_set_plan 9
modprobe xtp
xtp_ns_setup || ktap_exit_fail_msg "namespace setup failed"
trap xtp_ns_cleanup EXIT

head -c 1048576 /dev/urandom >"$OUT/1m.in"
run 1m "" "-f $OUT/1m.in"
rc=$?
sed 's/^/# /' "$OUT/1m.cli.err" "$OUT/1m.srv.err"
ktap_check "xtpsend -f 1 MB: xtprecv's copy is sha256-equal" \
	'[ $rc -eq 0 ] && [ "$(sha "$OUT/1m.in")" = "$(sha "$OUT/1m.out")" ]'
sed 's/^/# send: /' "$OUT/1m.cli"
sed 's/^/# recv: /' "$OUT/1m.srv"
ktap_check "both ends print the Association Info block (Fig. 22 layout)" \
	'block_ok "$OUT/1m.cli" && block_ok "$OUT/1m.srv"'
ktap_check "Totals add up" 'totals_ok "$OUT/1m.cli" && totals_ok "$OUT/1m.srv"'
# 1 MB in DATA packets of at most 1448 bytes: at least 725 of them.
ktap_check "sender: F=1, D>=725, control packets received, S_D_T/Abbrev/sv4" \
	'[ "$(mib "$OUT/1m.cli" "Pk sent" F)" = 1 ] &&
	 [ "$(mib "$OUT/1m.cli" "Pk sent" D)" -ge 725 ] &&
	 [ "$(mib "$OUT/1m.cli" "Pk recv" C)" -ge 1 ] &&
	 [ "$(mib "$OUT/1m.cli" "Pk recv" T)" = 1 ] &&
	 [ "$(mib "$OUT/1m.cli" Assoc_type Assoc_type)" = 1 ] &&
	 [ "$(mib "$OUT/1m.cli" Assoc_type Teardown_method)" = 2 ] &&
	 [ "$(mib "$OUT/1m.cli" Assoc_type Service)" = 4 ] &&
	 [ "$(mib "$OUT/1m.cli" Sync Sync)" -ge 1 ]'
ktap_check "receiver: F=1 and D>=725 received, T=1 sent, data SREQs answered" \
	'[ "$(mib "$OUT/1m.srv" "Pk recv" F)" = 1 ] &&
	 [ "$(mib "$OUT/1m.srv" "Pk recv" D)" -ge 725 ] &&
	 [ "$(mib "$OUT/1m.srv" "Pk sent" T)" = 1 ] &&
	 [ "$(mib "$OUT/1m.srv" "Pk sent" C)" -ge "$(mib "$OUT/1m.cli" Sync Data_sreq_sent)" ]'

# Appendix A flags: FILETRANSFER, data in the FIRST, WCLOSE on the last
# data, an SREQ on every DATA packet, 1000-byte packets.
run ft "" "-n 100000 -s -W --tts=filetransfer --sreqfreq=1 --maxdata=1000"
rc=$?
sed 's/^/# send: /' "$OUT/ft.cli"
ktap_check "xtpsend -n 100000 FILETRANSFER -s -W: 100000 bytes arrive" \
	'[ $rc -eq 0 ] && [ "$(stat -c %s "$OUT/ft.out")" = 100000 ]'
ktap_check "--tts=filetransfer: Assoc_type=2 (SDT)" \
	'[ "$(mib "$OUT/ft.cli" Assoc_type Assoc_type)" = 2 ]'
# With SREQ/EDGE decoupling (the default) a full RTT cache turns some of
# the SREQs into EDGE toggles: each DATA packet asks for an ack either way.
ktap_check "--sreqfreq=1: Ack_freq=1, an SREQ or EDGE toggle on each DATA packet" \
	'[ "$(mib "$OUT/ft.cli" Sync Ack_freq)" = 1 ] &&
	 [ $(( $(mib "$OUT/ft.cli" Sync Data_sreq_sent) +
	       $(mib "$OUT/ft.cli" EdgeBit "EdgeBit Set") )) -ge "$(mib "$OUT/ft.cli" "Pk sent" D)" ]'
# 100000 bytes in at most 1000 per packet: the FIRST plus >= 99 DATA.
ktap_check "--maxdata=1000: at least 99 DATA packets" \
	'[ "$(mib "$OUT/ft.cli" "Pk sent" D)" -ge 99 ]'
ktap_finished
