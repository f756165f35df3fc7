/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP wire format: the 28-byte header and its codec.  This file and wire.c
 * are pure code, built into the mtp module and, unchanged, into user-space
 * tests and tools (selftests/unit/kshim.h supplies the kernel types).
 *
 * Every MTP message is one UDP datagram: the header, then the payload (the
 * rest of the datagram).  All fields are in network byte order:
 *
 *   off size field
 *     0    1 mtpversion   MTP_WIRE_VERSION
 *     1    1 appversion   application protocol version
 *     2    1 options      MTP_OPT_*
 *     3    1 error        error class, 0..5
 *     4    1 response     0 in a request; reply or error code in a response
 *     5    1 action
 *     6    1 flag         action modifier
 *     7    1 dgram_shift  request: log2 of the payload per response datagram
 *                         (9..14); 0 in single requests.  Response: 0, or
 *                         log2 of what the server's path MTU takes where
 *                         it cut its datagrams below the request's
 *     8    4 reqid        transaction id
 *    12    4 channel
 *    16    4 address      object offset of the range asked for / returned
 *    20    4 rsize        request: bytes asked for (0 = all); response:
 *                         extent of the object from address
 *    24    2 limit        response limit in 512-byte units, 0 = none
 *    26    2 tag          client's request-message tag, echoed
 *    28    8 token        only with MTP_OPT_TOKEN: address validation
 *                         token (response: the server's; request: echoed)
 *
 * The payload follows the header, or the token when there is one.  The
 * message size is the UDP length; the header has no checksum of its own:
 * MTP always sends the UDP checksum.
 */
#ifndef _NET_MTP_WIRE_H
#define _NET_MTP_WIRE_H

#include <linux/types.h>

#define MTP_WIRE_HDR_LEN	28
#define MTP_WIRE_VERSION	0x30	/* MTP 2.1 transactions, this layout */

#define MTP_WIRE_OFF_VERSION	0
#define MTP_WIRE_OFF_APPVER	1
#define MTP_WIRE_OFF_OPTIONS	2
#define MTP_WIRE_OFF_ERROR	3
#define MTP_WIRE_OFF_RESPONSE	4
#define MTP_WIRE_OFF_ACTION	5
#define MTP_WIRE_OFF_FLAG	6
#define MTP_WIRE_OFF_SHIFT	7
#define MTP_WIRE_OFF_REQID	8
#define MTP_WIRE_OFF_CHANNEL	12
#define MTP_WIRE_OFF_ADDRESS	16
#define MTP_WIRE_OFF_RSIZE	20
#define MTP_WIRE_OFF_LIMIT	24
#define MTP_WIRE_OFF_TAG	26

/* Options. */
#define MTP_OPT_SINGLE		0x01	/* single-datagram transaction */
#define MTP_OPT_NOPAYLOAD	0x02	/* request: payload suppressed */
#define MTP_OPT_STREAM		0x04	/* response: dynamic object */
#define MTP_OPT_SUPPRESS	0x08	/* response: suppression allowed */
#define MTP_OPT_NORESP		0x10	/* request: fire and forget */
#define MTP_OPT_TOKEN		0x20	/* a token follows the header */
#define MTP_OPT_ALL		0x3f

#define MTP_WIRE_TOKEN_LEN	8
#define MTP_WIRE_HDR_MAX	(MTP_WIRE_HDR_LEN + MTP_WIRE_TOKEN_LEN)

/* Limits the decoder enforces. */
#define MTP_WIRE_SHIFT_MIN	9	/* 512-byte datagrams */
#define MTP_WIRE_SHIFT_MAX	14	/* 16384-byte datagrams */
#define MTP_WIRE_MAX_REQUEST	1024	/* request payload */
#define MTP_WIRE_MAX_MULTI	16384	/* payload of a multi response dgram */
#define MTP_WIRE_MAX_ERRTEXT	1024	/* payload of an error response */
#define MTP_WIRE_MAX_CLASS	5	/* MTP_ERR_ROUTE */
#define MTP_WIRE_LIMIT_UNIT	512	/* bytes per limit unit */
#define MTP_WIRE_LIMIT_MAX	(0xffffU * MTP_WIRE_LIMIT_UNIT)

/*
 * Decoder errors, returned negated.  Each names one reason, so a caller
 * keeps one drop counter per value.
 */
enum mtp_wire_err {
	MTP_WIRE_OK = 0,
	MTP_WIRE_ETRUNC,	/* shorter than the header */
	MTP_WIRE_EVERSION,	/* unknown mtpversion */
	MTP_WIRE_EOPTIONS,	/* reserved option bits set */
	MTP_WIRE_EERROR,	/* error class out of range, or in a request */
	MTP_WIRE_ESHIFT,	/* request's dgram_shift out of range */
	MTP_WIRE_ESIZE,		/* payload too large for this kind */
	MTP_WIRE_ERANGE,	/* address/rsize/payload do not fit together */
	MTP_WIRE_ENOSPC,	/* encode: buffer too small */
	MTP_WIRE_NERR
};

/**
 * struct mtp_wire_msg - a decoded MTP message, or one to encode
 * @appversion: application protocol version
 * @options: MTP_OPT_*
 * @error: error class
 * @response: response or error code; MTP_RES_REQUEST (0) in a request
 * @action: action
 * @flag: action modifier
 * @dgram_shift: request: log2 of the payload per response datagram
 * @reqid: transaction id
 * @channel: channel
 * @address: object address
 * @rsize: size field, see wire.h's table
 * @limit: response limit in 512-byte units
 * @tag: request-message tag, echoed by the server
 * @token: address validation token, with %MTP_OPT_TOKEN
 * @payload: decode: points into the input buffer; encode: the payload
 * @payload_len: length of @payload
 */
struct mtp_wire_msg {
	u8 appversion;
	u8 options;
	u8 error;
	u8 response;
	u8 action;
	u8 flag;
	u8 dgram_shift;
	u32 reqid;
	u32 channel;
	u32 address;
	u32 rsize;
	u16 limit;
	u16 tag;
	u64 token;
	const u8 *payload;
	u32 payload_len;
};

static inline bool mtp_wire_is_request(const struct mtp_wire_msg *m)
{
	return m->response == 0 && m->error == 0;
}

/* Bytes before the payload: the header, and the token if there is one. */
static inline u32 mtp_wire_hdr_len(const struct mtp_wire_msg *m)
{
	return MTP_WIRE_HDR_LEN +
	       (m->options & MTP_OPT_TOKEN ? MTP_WIRE_TOKEN_LEN : 0);
}

int mtp_wire_check(const struct mtp_wire_msg *m);
int mtp_wire_decode_hdr(const void *buf, size_t len, struct mtp_wire_msg *m);
int mtp_wire_decode(const void *buf, size_t len, struct mtp_wire_msg *m);
int mtp_wire_encode_hdr(const struct mtp_wire_msg *m, void *buf, size_t cap);
u16 mtp_wire_limit_units(u32 bytes);
u32 mtp_wire_limit_bytes(u16 units);
const char *mtp_wire_strerror(int err);

#endif /* _NET_MTP_WIRE_H */
