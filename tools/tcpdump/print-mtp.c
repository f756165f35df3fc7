// SPDX-License-Identifier: GPL-2.0
/*
 * tcpdump printer for MTP, the Multipurpose Transaction Protocol (Noble,
 * 1999), as the project's kernel module sends it over UDP.  The wire format
 * is Documentation/networking/mtp.rst of the XTP/MTP for Linux project: a
 * 28-byte header, version 0x30, an 8-byte address validation token when
 * the TOKEN option is set, then the payload.  One line per datagram,
 * for example
 *
 *   MTP request id 8f3a0c21 act IDSTR flag 0 ch 00000000 addr 0 rsize 0
 *       limit 0 opts SINGLE, length 0
 *   MTP error APP/ADDRESS id 8f3a0c21 act IDSTR flag 0 ch 00000000 addr 99
 *       rsize 0 limit 0 opts SINGLE, length 0
 *
 * -v adds appversion, dgram_shift and the tag, -vv the start of the payload.
 * tools/tcpdump/README.md describes every field.
 *
 * Every read goes through the GET_ macros, so a datagram cut short by the
 * snapshot length ends in "[|mtp]".  A datagram the MTP module would drop
 * (shorter than the header, another version, reserved options, a bad error
 * class, a request's dgram_shift out of range, a payload too large for its
 * kind, an address range past 2^32) prints what it holds, the module's
 * reason in parentheses and "[|mtp]".
 */

#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "netdissect-stdinc.h"

#define ND_LONGJMP_FROM_TCHECK
#include "netdissect.h"
#include "extract.h"

/* Header: 8 one-byte fields, reqid, channel, address, rsize, limit, tag. */
#define MTP_HDR_LEN		28
#define MTP_OFF_VERSION		0
#define MTP_OFF_APPVER		1
#define MTP_OFF_OPTIONS		2
#define MTP_OFF_ERROR		3
#define MTP_OFF_RESPONSE	4
#define MTP_OFF_ACTION		5
#define MTP_OFF_FLAG		6
#define MTP_OFF_SHIFT		7
#define MTP_OFF_REQID		8
#define MTP_OFF_CHANNEL		12
#define MTP_OFF_ADDRESS		16
#define MTP_OFF_RSIZE		20
#define MTP_OFF_LIMIT		24
#define MTP_OFF_TAG		26
#define MTP_TOKEN_LEN		8	/* follows the header with MTP_OPT_TOKEN */

#define MTP_VERSION		0x30

#define MTP_OPT_SINGLE		0x01
#define MTP_OPT_NOPAYLOAD	0x02
#define MTP_OPT_STREAM		0x04
#define MTP_OPT_SUPPRESS	0x08
#define MTP_OPT_NORESP		0x10
#define MTP_OPT_TOKEN		0x20
#define MTP_OPT_ALL		0x3f

/* What the module accepts (net/mtp/wire.h). */
#define MTP_SHIFT_MIN		9
#define MTP_SHIFT_MAX		14
#define MTP_MAX_REQUEST		1024	/* request payload */
#define MTP_MAX_MULTI		16384	/* multi-datagram response payload */
#define MTP_MAX_ERRTEXT		1024	/* error response payload */
#define MTP_MAX_CLASS		5
#define MTP_LIMIT_UNIT		512	/* bytes per unit of the limit field */
#define MTP_ALL_ONES		0xffffffffU	/* stream close: address, rsize */

#define MTP_PAYLOAD_SHOWN	64	/* payload bytes printed with -vv */

enum {
	MTP_ERR_CLIENT = 1, MTP_ERR_NET = 2, MTP_ERR_SERVER = 3,
	MTP_ERR_APP = 4, MTP_ERR_ROUTE = 5,
};

static const struct tok mtp_actions[] = {
	{ 0,	"PING" },
	{ 1,	"IDSTR" },
	{ 2,	"REGISTER" },
	{ 3,	"TERMINATE" },
	{ 4,	"DATA" },
	{ 6,	"GRANT" },
	{ 7,	"REVOKE" },
	{ 8,	"HOLD" },
	{ 9,	"RESUME" },
	{ 10,	"NOTIFY" },
	{ 11,	"REQKEY" },
	{ 12,	"STAT" },
	{ 0, NULL }
};

static const struct tok mtp_classes[] = {
	{ MTP_ERR_CLIENT,	"CLIENT" },
	{ MTP_ERR_NET,		"NET" },
	{ MTP_ERR_SERVER,	"SERVER" },
	{ MTP_ERR_APP,		"APP" },
	{ MTP_ERR_ROUTE,	"ROUTE" },
	{ 0, NULL }
};

/* Codes of the CLIENT and SERVER classes (the MTP daemons). */
static const struct tok mtp_dmn_codes[] = {
	{ 2,	"SYS" },
	{ 3,	"ACTION" },
	{ 4,	"DEL" },
	{ 5,	"RSPSZ" },
	{ 6,	"VERSION" },
	{ 7,	"NORSRC" },
	{ 8,	"REQSZ" },
	{ 9,	"PROTO" },
	{ 10,	"CHECK" },
	{ 0, NULL }
};

static const struct tok mtp_net_codes[] = {
	{ 2,	"CLIENT" },
	{ 3,	"SERVER" },
	{ 4,	"UNAVAIL" },
	{ 5,	"DOWN" },
	{ 6,	"TRANS" },
	{ 7,	"EXPIRE" },
	{ 0, NULL }
};

static const struct tok mtp_app_codes[] = {
	{ 2,	"ACTION" },
	{ 3,	"CHANNEL" },
	{ 4,	"FLAG" },
	{ 5,	"ADDRESS" },
	{ 6,	"DATA" },
	{ 7,	"EOD" },
	{ 8,	"SIZE" },
	{ 9,	"UNAVAIL" },
	{ 10,	"AUTH" },
	{ 11,	"BUSY" },
	{ 12,	"HOLD" },
	{ 13,	"TIMEOUT" },
	{ 14,	"PROXY" },
	{ 15,	"VERSION" },
	{ 0, NULL }
};

/* Option names, lowest bit first. */
static const struct tok mtp_options[] = {
	{ MTP_OPT_SINGLE,	"SINGLE" },
	{ MTP_OPT_NOPAYLOAD,	"NOPAYLOAD" },
	{ MTP_OPT_STREAM,	"STREAM" },
	{ MTP_OPT_SUPPRESS,	"SUPPRESS" },
	{ MTP_OPT_NORESP,	"NORESP" },
	{ MTP_OPT_TOKEN,	"TOKEN" },
	{ 0, NULL }
};

/* "CLASS/CODE", each a name where MTP defines one, else its number. */
static void
mtp_error_print(netdissect_options *ndo, u_int class, u_int code)
{
	const struct tok *codes;

	switch (class) {
	case MTP_ERR_CLIENT:
	case MTP_ERR_SERVER:
		codes = mtp_dmn_codes;
		break;
	case MTP_ERR_NET:
		codes = mtp_net_codes;
		break;
	case MTP_ERR_APP:
		codes = mtp_app_codes;
		break;
	default:
		codes = NULL;
		break;
	}
	ND_PRINT(" error %s", tok2str(mtp_classes, "%u", class));
	if (codes != NULL)
		ND_PRINT("/%s", tok2str(codes, "%u", code));
	else
		ND_PRINT("/%u", code);
}

/* " opts A,B,0x20": the names of the set bits, then any reserved bits. */
static void
mtp_options_print(netdissect_options *ndo, u_int opts)
{
	const struct tok *t;
	const char *sep = " opts ";

	for (t = mtp_options; t->s != NULL; t++) {
		if (opts & t->v) {
			ND_PRINT("%s%s", sep, t->s);
			sep = ",";
		}
	}
	if (opts & ~MTP_OPT_ALL)
		ND_PRINT("%s0x%02x", sep, opts & ~MTP_OPT_ALL);
}

/*
 * Why the module would drop the datagram (net/mtp/wire.c, the same order of
 * checks and its names for them), or NULL when it would accept it.
 */
static const char *
mtp_check(u_int opts, u_int class, u_int response, u_int shift,
	  uint32_t address, uint32_t rsize, uint32_t plen)
{
	if (opts & ~MTP_OPT_ALL)
		return "reserved options";
	if (class > MTP_MAX_CLASS)
		return "bad error class";
	if (response == 0) {
		/* A request (or an error class without a code). */
		if (class != 0)
			return "bad error class";
		if (plen > MTP_MAX_REQUEST)
			return "payload too large";
		if ((opts & MTP_OPT_NOPAYLOAD) && plen != 0)
			return "payload too large";
		if (opts & MTP_OPT_SINGLE)
			return NULL;
		if (shift < MTP_SHIFT_MIN || shift > MTP_SHIFT_MAX)
			return "bad datagram size";
		if (address == MTP_ALL_ONES && rsize == MTP_ALL_ONES)
			return NULL;		/* stream close */
		if ((uint64_t)address + rsize > (uint64_t)MTP_ALL_ONES + 1)
			return "bad address range";
		return NULL;
	}
	if (class != 0)
		return plen > MTP_MAX_ERRTEXT ? "payload too large" : NULL;
	if (opts & MTP_OPT_SINGLE)
		return NULL;
	if (plen > MTP_MAX_MULTI)
		return "payload too large";
	if (plen > rsize)
		return "bad address range";
	if ((uint64_t)address + plen > (uint64_t)MTP_ALL_ONES + 1)
		return "bad address range";
	return NULL;
}

/* -vv: the first bytes of the payload, quoted; "..." when there is more. */
static void
mtp_payload_print(netdissect_options *ndo, const u_char *p, u_int plen)
{
	u_int i, n = plen < MTP_PAYLOAD_SHOWN ? plen : MTP_PAYLOAD_SHOWN;

	ND_PRINT(" \"");
	for (i = 0; i < n; i++)
		fn_print_char(ndo, GET_U_1(p + i));
	ND_PRINT("\"%s", n < plen ? "..." : "");
}

void
mtp_print(netdissect_options *ndo, const u_char *bp, u_int length)
{
	u_int version, opts, class, response, shift, hlen = MTP_HDR_LEN;
	uint32_t address, rsize, plen;
	const char *why;

	ndo->ndo_protocol = "mtp";
	ND_PRINT("MTP");
	if (length < MTP_HDR_LEN) {
		ND_PRINT(" %u bytes (truncated)", length);
		goto malformed;
	}
	version = GET_U_1(bp + MTP_OFF_VERSION);
	if (version != MTP_VERSION) {
		/* Another layout: nothing else can be read. */
		ND_PRINT(" version 0x%02x (bad version)", version);
		goto malformed;
	}
	/* A token announced by the options is part of the header. */
	opts = GET_U_1(bp + MTP_OFF_OPTIONS);
	if (opts & MTP_OPT_TOKEN)
		hlen += MTP_TOKEN_LEN;
	if (length < hlen) {
		ND_PRINT(" %u bytes (truncated)", length);
		goto malformed;
	}
	plen = length - hlen;

	class = GET_U_1(bp + MTP_OFF_ERROR);
	response = GET_U_1(bp + MTP_OFF_RESPONSE);
	if (class != 0)
		mtp_error_print(ndo, class, response);
	else if (response == 0)
		ND_PRINT(" request");
	else if (response == 1)
		ND_PRINT(" reply");
	else if (response == 2)
		ND_PRINT(" pending");	/* the server's application is busy */
	else if (response == 3)
		ND_PRINT(" validate");	/* answer held until the token returns */
	else
		ND_PRINT(" reply code %u", response);

	ND_PRINT(" id %08x", GET_BE_U_4(bp + MTP_OFF_REQID));
	ND_PRINT(" act %s", tok2str(mtp_actions, "%u",
				    GET_U_1(bp + MTP_OFF_ACTION)));
	ND_PRINT(" flag %u", GET_U_1(bp + MTP_OFF_FLAG));
	ND_PRINT(" ch %08x", GET_BE_U_4(bp + MTP_OFF_CHANNEL));
	/* One field at a time: a header cut short shows all it holds. */
	address = GET_BE_U_4(bp + MTP_OFF_ADDRESS);
	ND_PRINT(" addr %u", address);
	rsize = GET_BE_U_4(bp + MTP_OFF_RSIZE);
	ND_PRINT(" rsize %u", rsize);
	ND_PRINT(" limit %u",
		 GET_BE_U_2(bp + MTP_OFF_LIMIT) * MTP_LIMIT_UNIT);
	mtp_options_print(ndo, opts);
	if (opts & MTP_OPT_TOKEN)
		ND_PRINT(" token %016" PRIx64, GET_BE_U_8(bp + MTP_HDR_LEN));
	shift = GET_U_1(bp + MTP_OFF_SHIFT);
	if (ndo->ndo_vflag) {
		ND_PRINT(" appver %u", GET_U_1(bp + MTP_OFF_APPVER));
		ND_PRINT(" shift %u", shift);
		ND_PRINT(" tag %u", GET_BE_U_2(bp + MTP_OFF_TAG));
		if (class == 0 && response == 0 &&
		    !(opts & MTP_OPT_SINGLE) &&
		    address == MTP_ALL_ONES && rsize == MTP_ALL_ONES)
			ND_PRINT(" close");
	}
	ND_PRINT(", length %u", plen);
	if (ndo->ndo_vflag > 1 && plen != 0)
		mtp_payload_print(ndo, bp + hlen, plen);

	why = mtp_check(opts, class, response, shift, address, rsize, plen);
	if (why == NULL)
		return;
	ND_PRINT(" (%s)", why);

malformed:
	nd_print_trunc(ndo);
}
