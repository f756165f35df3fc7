// SPDX-License-Identifier: GPL-2.0
/*
 * tcpdump printer for XTP 4.0, the Xpress Transport Protocol (IP protocol
 * 36), as the project's kernel module sends it.  The wire format is
 * Documentation/networking/xtp.rst of the XTP/MTP for Linux project; the
 * output follows the tcpdump legend of the LinuxXTP thesis (Lo Faso,
 * Concordia University, 2001, Appendix C), for example
 *
 *   XTP F ky1255 in0 dl1024 sy1 sq90000 EOM WCL SRQ al16 ad36 af1 dp9999
 *       dh:192.200.200.200 sp64008 sh:192.100.100.100 tl8 sv4 tf0
 *
 * on one line; JCNTL, which the thesis never printed, has the letter J.
 * tools/tcpdump/README.md describes every field and what -v and -vv add.
 *
 * Every read goes through the GET_ macros (the checksum reads only after
 * ND_TTEST_LEN), and every segment is checked to be captured whole, so a
 * packet cut short by the snapshot length ends in "[|xtp]".  A packet whose
 * lengths do not add up (IP payload shorter than the header, DLEN beyond
 * the IP payload, a segment length that does not match its format or does
 * not fit in DLEN, a control packet with bytes after its segments) prints
 * what was read and ends in "[|xtp]" too.
 */

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "netdissect-stdinc.h"

#define ND_LONGJMP_FROM_TCHECK
#include "netdissect.h"
#include "addrtoname.h"
#include "extract.h"

/* Header: KEY(8) COMMAND(4) DLEN(4) CHECK(2) SORT(2) SYNC(4) SEQ(8). */
#define XTP_HDR_LEN		32
#define XTP_OFF_KEY		0
#define XTP_OFF_CMD		8
#define XTP_OFF_DLEN		12
#define XTP_OFF_CHECK		16
#define XTP_OFF_SORT		18
#define XTP_OFF_SYNC		20
#define XTP_OFF_SEQ		24

/* Segment sizes. */
#define XTP_CNTL_LEN		20	/* rseq, alloc, echo */
#define XTP_ECNTL_LEN		24	/* + nspan */
#define XTP_SPAN_LEN		16	/* left, right */
#define XTP_TCNTL_LEN		32	/* + rsvd, xkey */
#define XTP_DIAG_LEN		8	/* code, value */
#define XTP_BTAG_LEN		8
#define XTP_ASEG_HDR_LEN	4	/* alen, adomain, aformat */
#define XTP_ASEG_IP4_LEN	16
#define XTP_ASEG_IP6_LEN	40
#define XTP_TSEG_HDR_LEN	4	/* tlen, service, tformat */
#define XTP_TSEG_NULL_LEN	8
#define XTP_TSEG_RATE_LEN	24

/* COMMAND: option bits 31..16, reserved 15..8, VER 7..5, PFORMAT 4..0. */
#define XTP_CMD_NOCHECK		0x40000000U
#define XTP_CMD_BTAG		0x00010000U
#define XTP_CMD_RSVD(c)		(((c) >> 8) & 0xffU)
#define XTP_CMD_VER(c)		(((c) >> 5) & 0x7U)
#define XTP_CMD_PFORMAT(c)	((c) & 0x1fU)
#define XTP_VERSION		1

#define XTP_KEY_RETURN		0x8000000000000000ULL

enum {
	XTP_DATA = 0, XTP_CNTL = 1, XTP_FIRST = 2, XTP_ECNTL = 3,
	XTP_TCNTL = 5, XTP_JCNTL = 7, XTP_DIAG = 8,
};

enum { XTP_AF_IP4 = 1, XTP_AF_IP6 = 6 };
enum { XTP_TF_NULL = 0, XTP_TF_RATE = 1 };

/* Packet letters of the thesis' Table 18 (T and E as its traces use them);
 * J for JCNTL, which the thesis never printed. */
static const struct tok xtp_letters[] = {
	{ XTP_DATA,	"D" },
	{ XTP_CNTL,	"C" },
	{ XTP_FIRST,	"F" },
	{ XTP_ECNTL,	"E" },
	{ XTP_TCNTL,	"T" },
	{ XTP_JCNTL,	"J" },
	{ XTP_DIAG,	"G" },
	{ 0, NULL }
};

/* Option mnemonics of Table 20, lowest bit first (the traces' order). */
static const struct {
	uint32_t mask;
	const char *name;
} xtp_options[] = {
	{ 0x00010000U, "BTG" },
	{ 0x00020000U, "END" },
	{ 0x00040000U, "EOM" },
	{ 0x00080000U, "WCL" },
	{ 0x00100000U, "RCL" },
	{ 0x00200000U, "DRQ" },
	{ 0x00400000U, "SRQ" },
	{ 0x00800000U, "FSN" },
	{ 0x01000000U, "NFL" },
	{ 0x02000000U, "SOR" },
	{ 0x04000000U, "RES" },
	{ 0x08000000U, "MUL" },
	{ 0x10000000U, "NER" },
	{ 0x20000000U, "EDG" },
	{ 0x40000000U, "NCK" },
	{ 0x80000000U, "UND" },	/* the 16th bit, undefined in XTP 4.0 */
};

static const struct tok xtp_diag_codes[] = {
	{ 1, "Context Refused" },
	{ 2, "Context Abandoned" },
	{ 3, "Invalid Context" },
	{ 4, "Request Refused" },
	{ 5, "Join Refused" },
	{ 6, "Protocol Error" },
	{ 7, "Maximum Packet Size Error" },
	{ 0, NULL }
};

static const struct tok xtp_diag_values[] = {
	{ 0, "Unspecified" },
	{ 1, "No listener" },
	{ 2, "Options refused" },
	{ 3, "Address format not supported" },
	{ 4, "Malformed address format" },
	{ 5, "Traffic format not supported" },
	{ 6, "Traffic specification refused" },
	{ 7, "Malformed traffic format" },
	{ 8, "No provider for service" },
	{ 9, "No resource" },
	{ 10, "Host going down" },
	{ 11, "Invalid retransmission request" },
	{ 12, "Context in improper state" },
	{ 13, "Join request denied" },
	{ 0, NULL }
};

/*
 * A key prints as the thesis printed it, "ky<low 32 bits> in<bits 62..32>",
 * with "+RTN" when bit 63, RETURN, is set.
 */
static void
xtp_key_print(netdissect_options *ndo, const char *low, const char *high,
	      uint64_t key, int always_high)
{
	uint32_t hi = (uint32_t)(key >> 32) & 0x7fffffffU;

	ND_PRINT(" %s%u", low, (uint32_t)key);
	if (always_high || hi != 0)
		ND_PRINT(" %s%u", high, hi);
}

/*
 * The control words shared by CNTL, ECNTL, TCNTL and JCNTL:
 * rseq u64, alloc u64, echo u32.
 */
static void
xtp_ctl_print(netdissect_options *ndo, const u_char *p)
{
	ND_PRINT(" rq%" PRIu64, GET_BE_U_8(p));
	ND_PRINT(" al%" PRIu64, GET_BE_U_8(p + 8));
	ND_PRINT(" ec%u", GET_BE_U_4(p + 16));
}

/*
 * Address segment.  Returns its length, or 0 if it is malformed (too short,
 * longer than the room left, or a length that its format does not have).
 * Unknown formats print their header and are skipped by alen.
 */
static u_int
xtp_aseg_print(netdissect_options *ndo, const u_char *p, u_int left)
{
	u_int alen, aformat;

	if (left < XTP_ASEG_HDR_LEN)
		return 0;
	alen = GET_BE_U_2(p);
	aformat = GET_U_1(p + 3);
	ND_PRINT(" al%u ad%u af%u", alen, GET_U_1(p + 2), aformat);
	if (alen < XTP_ASEG_HDR_LEN || alen > left)
		return 0;
	ND_TCHECK_LEN(p, alen);
	switch (aformat) {
	case XTP_AF_IP4:
		if (alen != XTP_ASEG_IP4_LEN)
			return 0;
		ND_PRINT(" dp%u dh:%s sp%u sh:%s",
			 GET_BE_U_2(p + 12), GET_IPADDR_STRING(p + 4),
			 GET_BE_U_2(p + 14), GET_IPADDR_STRING(p + 8));
		break;
	case XTP_AF_IP6:
		if (alen != XTP_ASEG_IP6_LEN)
			return 0;
		ND_PRINT(" dp%u dh:%s sp%u sh:%s",
			 GET_BE_U_2(p + 36), GET_IP6ADDR_STRING(p + 4),
			 GET_BE_U_2(p + 38), GET_IP6ADDR_STRING(p + 20));
		break;
	default:
		break;
	}
	return alen;
}

/*
 * Traffic segment; returns its length or 0 as xtp_aseg_print() does.  The
 * reserved word of the NULL format and the rate format's five words print
 * with -vv.
 */
static u_int
xtp_tseg_print(netdissect_options *ndo, const u_char *p, u_int left)
{
	u_int tlen, tformat;

	if (left < XTP_TSEG_HDR_LEN)
		return 0;
	tlen = GET_BE_U_2(p);
	tformat = GET_U_1(p + 3);
	ND_PRINT(" tl%u sv%u tf%u", tlen, GET_U_1(p + 2), tformat);
	if (tlen < XTP_TSEG_HDR_LEN || tlen > left)
		return 0;
	ND_TCHECK_LEN(p, tlen);
	switch (tformat) {
	case XTP_TF_NULL:
		if (tlen != XTP_TSEG_NULL_LEN)
			return 0;
		if (ndo->ndo_vflag > 1)
			ND_PRINT(" tr%u", GET_BE_U_4(p + 4));
		break;
	case XTP_TF_RATE:
		if (tlen != XTP_TSEG_RATE_LEN)
			return 0;
		if (ndo->ndo_vflag > 1)
			ND_PRINT(" md%u ir%u ib%u or%u ob%u",
				 GET_BE_U_4(p + 4), GET_BE_U_4(p + 8),
				 GET_BE_U_4(p + 12), GET_BE_U_4(p + 16),
				 GET_BE_U_4(p + 20));
		break;
	default:
		break;
	}
	return tlen;
}

/* TCNTL/JCNTL control segment: CNTL words, reserved u32, xkey u64. */
static void
xtp_tctl_print(netdissect_options *ndo, const u_char *p)
{
	uint32_t rsvd;

	xtp_ctl_print(ndo, p);
	rsvd = GET_BE_U_4(p + 20);
	if (ndo->ndo_vflag > 1 || rsvd != 0)
		ND_PRINT(" rs%u", rsvd);
	xtp_key_print(ndo, "xk", "xi", GET_BE_U_8(p + 24),
		      ndo->ndo_vflag > 1);
}

/*
 * ECNTL: CNTL words, nspan, then nspan spans {left u64, right u64} in
 * network byte order.  Returns 0 if nspan does not match the room left.
 */
static int
xtp_ecntl_print(netdissect_options *ndo, const u_char *p, u_int left)
{
	const u_char *s;
	uint32_t nspan, i, fit;

	xtp_ctl_print(ndo, p);
	nspan = GET_BE_U_4(p + 20);
	ND_PRINT(" ns%u", nspan);
	fit = (left - XTP_ECNTL_LEN) / XTP_SPAN_LEN;
	if (ndo->ndo_vflag > 1 && nspan != 0 && fit != 0) {
		s = p + XTP_ECNTL_LEN;
		ND_PRINT(" {");
		for (i = 0; i < nspan && i < fit; i++, s += XTP_SPAN_LEN)
			ND_PRINT("%s%" PRIu64 ":%" PRIu64, i ? " " : "",
				 GET_BE_U_8(s), GET_BE_U_8(s + 8));
		ND_PRINT("}");
	}
	if ((uint64_t)nspan * XTP_SPAN_LEN != left - XTP_ECNTL_LEN)
		return 0;
	ND_TCHECK_LEN(p, left);
	return 1;
}

/* -v: verify CHECK, over the header and, without NOCHECK, the payload. */
static void
xtp_cksum_print(netdissect_options *ndo, const u_char *bp, uint32_t cmd,
		u_int cover)
{
	struct cksum_vec vec[1];
	uint16_t sum, check;

	if (cmd & XTP_CMD_NOCHECK)
		cover = XTP_HDR_LEN;
	if (!ND_TTEST_LEN(bp, cover))
		return;		/* not all captured: cannot tell */
	vec[0].ptr = bp;
	vec[0].len = cover;
	sum = in_cksum(vec, 1);
	if (sum == 0) {
		ND_PRINT(" [cksum ok]");
	} else {
		check = GET_BE_U_2(bp + XTP_OFF_CHECK);
		ND_PRINT(" [bad cksum %x (->%x)!]", check,
			 in_cksum_shouldbe(check, sum));
	}
}

void
xtp_print(netdissect_options *ndo, const u_char *bp, u_int length)
{
	const u_char *p;
	uint64_t key;
	uint32_t cmd, dlen;
	u_int pformat, ver, rsvd, left, n, i;

	ndo->ndo_protocol = "xtp";
	ND_PRINT("XTP");
	if (length < XTP_HDR_LEN) {
		ND_PRINT(" length %u", length);
		goto malformed;
	}

	/* Header. */
	key = GET_BE_U_8(bp + XTP_OFF_KEY);
	cmd = GET_BE_U_4(bp + XTP_OFF_CMD);
	pformat = XTP_CMD_PFORMAT(cmd);
	ver = XTP_CMD_VER(cmd);
	rsvd = XTP_CMD_RSVD(cmd);
	ND_PRINT(" %s", tok2str(xtp_letters, "pf%u", pformat));
	xtp_key_print(ndo, "ky", "in", key, 1);
	if (key & XTP_KEY_RETURN)
		ND_PRINT("+RTN");
	dlen = GET_BE_U_4(bp + XTP_OFF_DLEN);
	ND_PRINT(" dl%u", dlen);
	ND_PRINT(" sy%u", GET_BE_U_4(bp + XTP_OFF_SYNC));
	ND_PRINT(" sq%" PRIu64, GET_BE_U_8(bp + XTP_OFF_SEQ));
	if (ndo->ndo_vflag > 1)
		ND_PRINT(" so%u", GET_BE_U_2(bp + XTP_OFF_SORT));
	for (i = 0; i < sizeof(xtp_options) / sizeof(xtp_options[0]); i++)
		if (cmd & xtp_options[i].mask)
			ND_PRINT(" %s", xtp_options[i].name);
	if (rsvd != 0)
		ND_PRINT(" rsvd0x%02x", rsvd);
	if (ver != XTP_VERSION) {
		/* Another revision: the payload layout is unknown. */
		ND_PRINT(" ver%u", ver);
		return;
	}

	/* DLEN must fit in what IP carried. */
	if (dlen > length - XTP_HDR_LEN)
		goto malformed;
	if (ndo->ndo_vflag)
		xtp_cksum_print(ndo, bp, cmd, XTP_HDR_LEN + dlen);

	p = bp + XTP_HDR_LEN;
	left = dlen;
	switch (pformat) {
	case XTP_DATA:
		if (cmd & XTP_CMD_BTAG) {
			if (left < XTP_BTAG_LEN)
				goto malformed;
			if (ndo->ndo_vflag > 1)
				ND_PRINT(" bt0x%016" PRIx64, GET_BE_U_8(p));
			else
				ND_TCHECK_LEN(p, XTP_BTAG_LEN);
		}
		break;

	case XTP_CNTL:
		if (left < XTP_CNTL_LEN)
			goto malformed;
		xtp_ctl_print(ndo, p);
		if (left != XTP_CNTL_LEN)
			goto malformed;
		break;

	case XTP_FIRST:
		n = xtp_aseg_print(ndo, p, left);
		if (n == 0)
			goto malformed;
		p += n;
		left -= n;
		n = xtp_tseg_print(ndo, p, left);
		if (n == 0)
			goto malformed;
		/* The rest is user data, not printed. */
		break;

	case XTP_ECNTL:
		if (left < XTP_ECNTL_LEN)
			goto malformed;
		if (!xtp_ecntl_print(ndo, p, left))
			goto malformed;
		break;

	case XTP_TCNTL:
	case XTP_JCNTL:
		if (left < XTP_TCNTL_LEN)
			goto malformed;
		xtp_tctl_print(ndo, p);
		p += XTP_TCNTL_LEN;
		left -= XTP_TCNTL_LEN;
		if (pformat == XTP_JCNTL) {
			n = xtp_aseg_print(ndo, p, left);
			if (n == 0)
				goto malformed;
			p += n;
			left -= n;
		}
		n = xtp_tseg_print(ndo, p, left);
		if (n == 0 || n != left)
			goto malformed;
		break;

	case XTP_DIAG:
		if (left < XTP_DIAG_LEN)
			goto malformed;
		if (ndo->ndo_vflag > 1) {
			uint32_t code = GET_BE_U_4(p);
			uint32_t value = GET_BE_U_4(p + 4);

			ND_PRINT(" cd%u(%s) vl%u(%s) ms\"", code,
				 tok2str(xtp_diag_codes, "unknown", code),
				 value,
				 tok2str(xtp_diag_values, "unknown", value));
			nd_printjnp(ndo, p + XTP_DIAG_LEN, left - XTP_DIAG_LEN);
			ND_PRINT("\"");
		} else {
			ND_PRINT(" cd%u vl%u", GET_BE_U_4(p),
				 GET_BE_U_4(p + 4));
		}
		/* The whole message, also where a NUL ended the print. */
		ND_TCHECK_LEN(p, left);
		break;

	default:
		/* PFORMAT 4, 6 (the obsolete JOIN) and 9..31: not XTP 4.0. */
		break;
	}
	return;

malformed:
	nd_print_trunc(ndo);
}
