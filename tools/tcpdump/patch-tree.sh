#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Wire the project's printers into an unpacked tcpdump 4.99 source tree.
#
#   patch-tree.sh SRCDIR
#
# Copies tools/tcpdump/print-*.c into SRCDIR and edits tcpdump's own files
# so they are compiled and called:
#
#   XTP  IP protocol 36 in the IPv4/IPv6 demux (print-ip-demux.c), the name
#        "XTP" in the protocol table (ipproto.[ch]), xtp_print() in
#        netdissect.h, print-xtp.c in Makefile.in and CMakeLists.txt.
#   MTP  only once tools/tcpdump/print-mtp.c exists: mtp_print() on its UDP
#        port (MTP_PORT, defined by print-mtp.c's header mtp-port.h) and with
#        "-T mtp" (PT_MTP) in print-udp.c and tcpdump.c.
#   fix  tcpdump.c: no savefile chown when no user to drop to is built in.
#
# Every edit is guarded by a marker ("XTP-PROJECT") so running the script
# again changes nothing; an edit whose anchor line is missing fails loudly.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: patch-tree.sh SRCDIR}
cd "$src"

die() { echo "patch-tree: $*" >&2; exit 1; }

# copy_if_changed FILE: keep mtimes when nothing changed, so make is quiet.
copy_if_changed() {
	cmp -s "$1" "$(basename "$1")" || cp "$1" .
}

# insert_before FILE ANCHOR_REGEX TEXT: add TEXT (may hold \n) before the
# first line matching ANCHOR_REGEX, unless FILE already has the marker of
# this edit (the TEXT's first line).
insert_before() {
	local file=$1 anchor=$2 text=$3 first
	first=${text%%$'\n'*}
	grep -qF -- "$first" "$file" && return 0
	grep -qE -- "$anchor" "$file" || die "$file: no line matches /$anchor/"
	A=$anchor T=$text awk '
		!done && $0 ~ ENVIRON["A"] { print ENVIRON["T"]; done = 1 }
		{ print }' "$file" >"$file.xtp-tmp"
	mv "$file.xtp-tmp" "$file"
}

# insert_after FILE ANCHOR_REGEX TEXT: likewise, after the anchor line.
insert_after() {
	local file=$1 anchor=$2 text=$3 first
	first=${text%%$'\n'*}
	grep -qF -- "$first" "$file" && return 0
	grep -qE -- "$anchor" "$file" || die "$file: no line matches /$anchor/"
	A=$anchor T=$text awk '
		{ print }
		!done && $0 ~ ENVIRON["A"] { print ENVIRON["T"]; done = 1 }' "$file" >"$file.xtp-tmp"
	mv "$file.xtp-tmp" "$file"
}

# --- XTP ------------------------------------------------------------------
copy_if_changed "$here/print-xtp.c"

insert_before ipproto.h '^#ifndef IPPROTO_SCTP' \
'#ifndef IPPROTO_XTP /* XTP-PROJECT */
#define IPPROTO_XTP		36
#endif'

insert_before ipproto.c '\{ IPPROTO_SCTP, "SCTP" \},' \
'    { IPPROTO_XTP, "XTP" }, /* XTP-PROJECT */'

insert_before netdissect.h '^extern void zep_print\(' \
'extern void xtp_print(netdissect_options *, const u_char *, u_int); /* XTP-PROJECT */'

insert_before print-ip-demux.c '^[[:space:]]*case IPPROTO_NONE:' \
'	case IPPROTO_XTP: /* XTP-PROJECT */
		xtp_print(ndo, bp, length);
		break;
'

insert_before Makefile.in '^[[:space:]]*print-zep\.c \\$' \
'	print-xtp.c \'
insert_before CMakeLists.txt '^[[:space:]]*print-zep\.c$' \
'    print-xtp.c'

# Debian's drop-privs-after-opening-savefile.diff chowns a root
# capture's savefile to the user it drops to, and assumes one is built in
# (--with-user): without it and without -Z, `tcpdump -w FILE` as root
# passed NULL to getpwnam() and crashed.  Nobody to drop to: keep root's.
if ! grep -qF 'XTP-PROJECT chown' tcpdump.c; then
	grep -qE '^[[:space:]]*if \(chown_flag\) \{$' tcpdump.c ||
		die "tcpdump.c: no line matches /if (chown_flag) {/"
	sed -i -E 's|^([[:space:]]*)if \(chown_flag\) \{$|\1if (chown_flag \&\& username) { /* XTP-PROJECT chown */|' tcpdump.c
fi

# --- MTP (when its printer exists) ------------------------------------------
# print-mtp.c is expected to define
#   void mtp_print(netdissect_options *, const u_char *, u_int);
# and tools/tcpdump/mtp-port.h to define MTP_PORT, the default UDP port.
if [ -f "$here/print-mtp.c" ]; then
	copy_if_changed "$here/print-mtp.c"
	[ -f "$here/mtp-port.h" ] && copy_if_changed "$here/mtp-port.h"

	insert_before netdissect.h '^extern int mptcp_print\(' \
'extern void mtp_print(netdissect_options *, const u_char *, u_int); /* XTP-PROJECT mtp */'
	insert_after netdissect.h '^#define PT_PTP[[:space:]]' \
'#define PT_MTP		119	/* XTP-PROJECT: Multipurpose Transaction Protocol */'

	insert_before tcpdump.c 'ascii_strcasecmp\(optarg, "ptp"\) == 0' \
'			else if (ascii_strcasecmp(optarg, "mtp") == 0) /* XTP-PROJECT */
				ndo->ndo_packettype = PT_MTP;'
	insert_before print-udp.c '^[[:space:]]*case PT_PTP:' \
'		case PT_MTP: /* XTP-PROJECT */
			udpipaddr_print(ndo, ip, sport, dport);
			mtp_print(ndo, cp, length);
			break;
'
	insert_before print-udp.c 'IS_SRC_OR_DST_PORT\(VXLAN_PORT\)\)$' \
'		else if (IS_SRC_OR_DST_PORT(MTP_PORT)) /* XTP-PROJECT */
			mtp_print(ndo, cp, length);'
	insert_before print-udp.c '^#include "ip\.h"' \
'#include "mtp-port.h" /* XTP-PROJECT */'

	insert_before Makefile.in '^[[:space:]]*print-mptcp\.c \\$' \
'	print-mtp.c \'
	insert_before CMakeLists.txt '^[[:space:]]*print-mptcp\.c$' \
'    print-mtp.c'
fi
