#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Cross-check wire.c against tshark's own XTP dissector: build/oracle writes
# the golden and sample packets (and one with a wrong CHECK) to a pcap and
# prints, per packet, the fields our decoder reads; tshark dissects the same
# file; the two are compared field by field, one KTAP result per packet.
#
# Known tshark 4.0 dissector limitations, not compared:
#  * ECNTL span edges (it reads them little-endian): spans are not requested.
#  * Address segments other than IPv4: it assumes 16 bytes and prints no
#    hosts or ports, so for aformat 6 the address fields after aformat and
#    the traffic segment behind it are skipped.
#
# Usage: tshark_oracle.sh [BUILD_DIR]   (needs BUILD_DIR/oracle)
set -u

b=${1:-build}
fields=(
	frame.number xtp.key xtp.cmd.ptype.pformat xtp.cmd.options xtp.dlen
	xtp.sync xtp.seq xtp.checksum.status
	xtp.cntl.rseq xtp.cntl.alloc xtp.cntl.echo
	xtp.ecntl.rseq xtp.ecntl.alloc xtp.ecntl.echo xtp.ecntl.nspan
	xtp.tcntl.rseq xtp.tcntl.alloc xtp.tcntl.echo xtp.tcntl.rsvd
	xtp.tcntl.xkey
	xtp.aseg.alen xtp.aseg.adomain xtp.aseg.aformat xtp.aseg.dsthost
	xtp.aseg.srchost xtp.aseg.dstport xtp.aseg.srcport
	xtp.tspec.tlen xtp.tspec.service xtp.tspec.format xtp.tspec.traffic
	xtp.tspec.maxdata xtp.tspec.inrate xtp.tspec.inburst
	xtp.tspec.outrate xtp.tspec.outburst
	xtp.data.btag xtp.diag.code xtp.diag.val xtp.diag.msg
	xtp.cmd.options.nocheck xtp.cmd.options.edge xtp.cmd.options.noerr
	xtp.cmd.options.multi xtp.cmd.options.res xtp.cmd.options.sort
	xtp.cmd.options.noflow xtp.cmd.options.fastnak xtp.cmd.options.sreq
	xtp.cmd.options.dreq xtp.cmd.options.rclose xtp.cmd.options.wclose
	xtp.cmd.options.eom xtp.cmd.options.end xtp.cmd.options.btag
)

echo "TAP version 13"
if ! command -v tshark >/dev/null 2>&1; then
	echo "1..0 # SKIP tshark not installed"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit 0
fi

pcap=$b/oracle.pcap
expect=$b/oracle.expect
got=$b/oracle.tshark
if ! "$b/oracle" pcap "$pcap" >"$expect"; then
	echo "1..1"
	echo "not ok 1 oracle_pcap # $b/oracle failed"
	echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	exit 1
fi

args=()
for f in "${fields[@]}" _ws.malformed _ws.expert; do
	args+=(-e "$f")
done
tshark -r "$pcap" -T fields -E separator=/t "${args[@]}" \
	>"$got" 2>"$b/oracle.tshark.err"
trc=$?
echo "# $(tshark --version 2>/dev/null | head -1)"

# Plan: one result per packet, plus one for tshark reading the whole file.
n=$(wc -l <"$expect")
echo "1..$((n + 1))"

awk -F'\t' -v nf="${#fields[@]}" -v names="${fields[*]}" \
    -v trc="$trc" -v nexp="$n" '
BEGIN { split(names, name, " "); pass = 0; fail = 0 }
# First file: what wire.c decoded.
NR == FNR { wants[FNR] = $0; next }
# Second file: what tshark dissected.
{ got[FNR] = $0; ngot = FNR }
END {
	for (i = 1; i <= nexp; i++) {
		ne = split(wants[i], e, "\t")
		split(got[i], t, "\t")
		pkt = e[ne]
		why = ""
		if (e[2] ~ /^decode error/) {
			why = e[2]
		} else if (!(i in got)) {
			why = "tshark has no such packet"
		} else {
			v6 = ("" e[23]) == "6"
			for (c = 1; c <= nf && why == ""; c++) {
				# hosts, ports, tspec: see header comment
				if (v6 && c >= 24 && c <= 36)
					continue
				if (("" e[c]) != ("" t[c]))
					why = sprintf("%s: ours \"%s\" tshark \"%s\"",
						      name[c], e[c], t[c])
			}
			# RETURN: KEY bit 63, the top hex digit of xtp.key
			rtn = index("89abcdef", tolower(substr(t[2], 3, 1))) > 0
			if (why == "" && ("" rtn) != ("" e[ne - 1]))
				why = sprintf("RETURN: ours %s tshark %d",
					      e[ne - 1], rtn)
			# Expert info: none on good packets, bad checksum else.
			xp = t[nf + 1] t[nf + 2]
			if (why == "" && e[8] == "1" && xp != "")
				why = "tshark expert info: " xp
			if (why == "" && e[8] == "0" && xp !~ /[Cc]hecksum/)
				why = "tshark did not flag the bad checksum"
		}
		if (why == "") {
			pass++
			printf "ok %d %s\n", i, pkt
			if (v6)
				printf "# %s: aformat 6 hosts/ports/tspec not compared\n", pkt
		} else {
			fail++
			printf "not ok %d %s # %s\n", i, pkt, why
		}
	}
	if (trc == 0 && ngot == nexp) {
		pass++
		printf "ok %d tshark_read_all\n", nexp + 1
	} else {
		fail++
		printf "not ok %d tshark_read_all # rc %d, %d of %d packets\n",
		       nexp + 1, trc, ngot, nexp
	}
	printf "# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n",
	       pass, fail
	exit fail ? 1 : 0
}' "$expect" "$got"
