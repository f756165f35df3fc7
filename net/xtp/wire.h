/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP 4.0 wire format: constants, decoded packet representation, and the
 * encoder/decoder.  This file and wire.c are pure code: they are built into
 * the xtp module and, unchanged, into the user-space unit tests, fuzzer and
 * tshark oracle under selftests/unit/.
 *
 * Every packet is a 32-byte header followed by DLEN bytes of payload, all
 * multi-byte fields in network byte order:
 *
 *   off size field
 *     0    8 KEY      bit 63 = RETURN (the key is the receiver's own key)
 *     8    4 COMMAND  option bits 31..16, reserved 15..8,
 *                     PTYPE 7..0 = VER (3 bits, 1 for 4.0) << 5 | PFORMAT
 *    12    4 DLEN     payload length, header excluded
 *    16    2 CHECK    RFC 1071 checksum, see xtp_wire_csum()
 *    18    2 SORT     priority, meaningful with XTP_CMD_SORT
 *    20    4 SYNC
 *    24    8 SEQ
 *
 * Payload per PFORMAT:
 *
 *   DATA   [BTAG u64 if XTP_CMD_BTAG] user data
 *   CNTL   rseq u64, alloc u64, echo u32                        (20 B)
 *   FIRST  address segment, traffic segment, user data
 *   ECNTL  rseq u64, alloc u64, echo u32, nspan u32,
 *          nspan x { left u64, right u64 }                 (24 + 16n B)
 *   TCNTL  rseq u64, alloc u64, echo u32, reserved u32, xkey u64 (32 B),
 *          traffic segment
 *   JCNTL  the 32-byte TCNTL segment, address segment, traffic segment
 *   DIAG   code u32, value u32, message (DLEN - 8 bytes of ASCII)
 *
 * Address segment: alen u16, adomain u8, aformat u8, then per aformat
 *   IPv4 (1): dsthost[4], srchost[4], dstport u16, srcport u16  (alen 16)
 *   IPv6 (6): dsthost[16], srchost[16], dstport u16, srcport u16 (alen 40)
 * The IPv6 layout is this project's choice: the IPv4 layout with 16-byte
 * hosts.  No other address format is accepted.
 *
 * Traffic segment: tlen u16, service u8, tformat u8, then per tformat
 *   NULL (0): traffic u32 (reserved, sent as 0)                  (tlen 8)
 *   RATE (1): maxdata, inrate, inburst, outrate, outburst u32   (tlen 24)
 *
 * The decoder accepts a segment only if its length field equals the size its
 * format implies, and a control packet only if DLEN equals the size of its
 * segments exactly.
 */
#ifndef _NET_XTP_WIRE_H
#define _NET_XTP_WIRE_H

#include <linux/types.h>

/* Fixed sizes in bytes. */
#define XTP_WIRE_HDR_LEN	32	/* header */
#define XTP_WIRE_CNTL_LEN	20	/* CNTL segment */
#define XTP_WIRE_ECNTL_LEN	24	/* ECNTL segment without spans */
#define XTP_WIRE_SPAN_LEN	16	/* one ECNTL span */
#define XTP_WIRE_TCNTL_LEN	32	/* TCNTL segment without traffic seg */
#define XTP_WIRE_DIAG_LEN	8	/* DIAG code and value */
#define XTP_WIRE_BTAG_LEN	8	/* DATA beginning tag */
#define XTP_WIRE_ADDR_HDR_LEN	4	/* alen, adomain, aformat */
#define XTP_WIRE_ADDR4_LEN	16	/* IPv4 address segment */
#define XTP_WIRE_ADDR6_LEN	40	/* IPv6 address segment */
#define XTP_WIRE_TSPEC_HDR_LEN	4	/* tlen, service, tformat */
#define XTP_WIRE_TSPEC0_LEN	8	/* NULL traffic segment */
#define XTP_WIRE_TSPEC1_LEN	24	/* rate traffic segment */
/* Largest ECNTL span count whose segment length fits in DLEN. */
#define XTP_WIRE_MAX_NSPAN	\
	((0xffffffffU - XTP_WIRE_ECNTL_LEN) / XTP_WIRE_SPAN_LEN)

/* Header field offsets. */
#define XTP_WIRE_OFF_KEY	0
#define XTP_WIRE_OFF_CMD	8
#define XTP_WIRE_OFF_DLEN	12
#define XTP_WIRE_OFF_CHECK	16
#define XTP_WIRE_OFF_SORT	18
#define XTP_WIRE_OFF_SYNC	20
#define XTP_WIRE_OFF_SEQ	24

/* KEY bit 63: the key is the receiver's own key. */
#define XTP_KEY_RETURN		0x8000000000000000ULL

/* Option bits, as masks on the 32-bit COMMAND word. */
#define XTP_CMD_UNDEF		0x80000000U	/* undefined, send 0 */
#define XTP_CMD_NOCHECK		0x40000000U	/* CHECK covers header only */
#define XTP_CMD_EDGE		0x20000000U
#define XTP_CMD_NOERR		0x10000000U
#define XTP_CMD_MULTI		0x08000000U
#define XTP_CMD_RES		0x04000000U
#define XTP_CMD_SORT		0x02000000U
#define XTP_CMD_NOFLOW		0x01000000U
#define XTP_CMD_FASTNAK		0x00800000U
#define XTP_CMD_SREQ		0x00400000U
#define XTP_CMD_DREQ		0x00200000U
#define XTP_CMD_RCLOSE		0x00100000U
#define XTP_CMD_WCLOSE		0x00080000U
#define XTP_CMD_EOM		0x00040000U
#define XTP_CMD_END		0x00020000U
#define XTP_CMD_BTAG		0x00010000U
#define XTP_CMD_OPTIONS		0xffff0000U	/* all option bits */
#define XTP_CMD_RESERVED	0x0000ff00U
#define XTP_CMD_VER_SHIFT	5
#define XTP_CMD_VER_MASK	0x000000e0U
#define XTP_CMD_PFORMAT		0x0000001fU

/* VER field of XTP 4.0. */
#define XTP_WIRE_VERSION	1

/* PFORMAT values; 4 and 6 (the obsolete JOIN) are invalid. */
enum xtp_pformat {
	XTP_PF_DATA	= 0,
	XTP_PF_CNTL	= 1,
	XTP_PF_FIRST	= 2,
	XTP_PF_ECNTL	= 3,
	XTP_PF_TCNTL	= 5,
	XTP_PF_JCNTL	= 7,
	XTP_PF_DIAG	= 8,
};

/* Address segment aformat values the codec supports. */
enum xtp_aformat {
	XTP_AFORMAT_IPV4	= 1,
	XTP_AFORMAT_IPV6	= 6,
};

/* adomain LinuxXTP sends (thesis traces, byte-swapped there as 9216). */
#define XTP_ADOMAIN_IP		36

/* Traffic segment tformat values. */
enum xtp_tformat {
	XTP_TFORMAT_NULL	= 0,
	XTP_TFORMAT_RATE	= 1,
};

/* Traffic segment service types. */
enum xtp_service {
	XTP_SVC_UNSPEC		= 0,
	XTP_SVC_UDGRAM		= 1,	/* unacknowledged datagram */
	XTP_SVC_ADGRAM		= 2,	/* acknowledged datagram */
	XTP_SVC_TRANSACTION	= 3,
	XTP_SVC_STREAM		= 4,	/* reliable unicast stream */
	XTP_SVC_UMCAST		= 5,	/* unacknowledged multicast stream */
	XTP_SVC_RMCAST		= 6,	/* reliable multicast stream */
};

/* DIAG code field. */
enum xtp_diag_code {
	XTP_DIAG_CONTEXT_REFUSED	= 1,
	XTP_DIAG_CONTEXT_ABANDONED	= 2,
	XTP_DIAG_INVALID_CONTEXT	= 3,
	XTP_DIAG_REQUEST_REFUSED	= 4,
	XTP_DIAG_JOIN_REFUSED		= 5,
	XTP_DIAG_PROTOCOL_ERROR		= 6,
	XTP_DIAG_MAX_PACKET_SIZE	= 7,
};

/* DIAG value field. */
enum xtp_diag_value {
	XTP_DIAGV_UNSPECIFIED		= 0,
	XTP_DIAGV_NO_LISTENER		= 1,
	XTP_DIAGV_OPTIONS_REFUSED	= 2,
	XTP_DIAGV_AFORMAT_UNSUPPORTED	= 3,
	XTP_DIAGV_AFORMAT_MALFORMED	= 4,
	XTP_DIAGV_TFORMAT_UNSUPPORTED	= 5,
	XTP_DIAGV_TSPEC_REFUSED		= 6,
	XTP_DIAGV_TFORMAT_MALFORMED	= 7,
	XTP_DIAGV_NO_PROVIDER		= 8,
	XTP_DIAGV_NO_RESOURCE		= 9,
	XTP_DIAGV_HOST_GOING_DOWN	= 10,
	XTP_DIAGV_INVALID_RETRANS	= 11,
	XTP_DIAGV_IMPROPER_STATE	= 12,
	XTP_DIAGV_JOIN_DENIED		= 13,
};

/*
 * Codec errors.  The functions return them negated, like errnos; each names
 * one reason, so a caller can keep one drop counter per value.
 */
enum xtp_wire_err {
	XTP_WIRE_OK = 0,
	XTP_WIRE_ETRUNC,	/* buffer shorter than the header */
	XTP_WIRE_EVERSION,	/* VER is not 1 */
	XTP_WIRE_EPFORMAT,	/* unknown PFORMAT */
	XTP_WIRE_EDLEN,		/* DLEN runs past the buffer */
	XTP_WIRE_ECSUM,		/* CHECK does not verify */
	XTP_WIRE_ESEGLEN,	/* DLEN does not fit the packet's segments */
	XTP_WIRE_ENSPAN,	/* ECNTL nspan does not match DLEN */
	XTP_WIRE_EAFORMAT,	/* unsupported address format */
	XTP_WIRE_EALEN,		/* alen does not match the address format */
	XTP_WIRE_ETFORMAT,	/* unsupported traffic format */
	XTP_WIRE_ETLEN,		/* tlen does not match the traffic format */
	XTP_WIRE_ENOSPC,	/* encode: output buffer too small */
	XTP_WIRE_EINVAL,	/* encode: invalid packet description */
	XTP_WIRE_NERR		/* number of values, for counter arrays */
};

/* xtp_wire_decode() flags */
#define XTP_WIRE_F_NOCSUM	0x1	/* caller has verified CHECK */

/**
 * struct xtp_wire_hdr - the 32-byte header in host byte order
 * @key: KEY, including %XTP_KEY_RETURN
 * @options: option bits as %XTP_CMD_* masks (COMMAND bits 31..16 only)
 * @rsvd: COMMAND bits 15..8; sent as 0, kept as received
 * @pformat: packet type, &enum xtp_pformat
 * @dlen: payload length; filled in by the decoder, computed by the encoder
 * @check: CHECK; filled in by the decoder, computed by the encoder
 * @sort: SORT
 * @sync: SYNC
 * @seq: SEQ
 *
 * VER is not stored: the decoder only accepts version 1, and the encoder
 * always writes it.
 */
struct xtp_wire_hdr {
	u64 key;
	u32 options;
	u8 rsvd;
	u8 pformat;
	u32 dlen;
	u16 check;
	u16 sort;
	u32 sync;
	u64 seq;
};

/**
 * struct xtp_wire_span - one ECNTL span of received bytes, host byte order
 * @left: first sequence number of the span
 * @right: sequence number after the span's last byte
 */
struct xtp_wire_span {
	u64 left;
	u64 right;
};

/**
 * struct xtp_wire_ctl - control segment of CNTL, ECNTL, TCNTL and JCNTL
 * @rseq: RSEQ
 * @alloc: ALLOC
 * @echo: ECHO
 * @rsvd: TCNTL/JCNTL reserved word, kept as received, normally 0
 * @xkey: TCNTL/JCNTL XKEY
 * @nspan: ECNTL span count
 * @spans: encode: @nspan spans supplied by the caller (may be NULL when
 *	@raw_spans is set); the decoder sets it to NULL
 * @raw_spans: decode: the spans in the input buffer, in wire format; read
 *	them with xtp_wire_span().  The encoder copies them if @spans is NULL,
 *	so a decoded packet re-encodes without help.
 */
struct xtp_wire_ctl {
	u64 rseq;
	u64 alloc;
	u32 echo;
	u32 rsvd;
	u64 xkey;
	u32 nspan;
	const struct xtp_wire_span *spans;
	const u8 *raw_spans;
};

/**
 * union xtp_wire_host - a host address in network byte order
 * @v4: IPv4 address (aformat %XTP_AFORMAT_IPV4)
 * @v6: IPv6 address (aformat %XTP_AFORMAT_IPV6)
 */
union xtp_wire_host {
	__be32 v4;
	u8 v6[16];
};

/**
 * struct xtp_wire_addr - address segment
 * @alen: segment length; filled in by the decoder, derived from @aformat by
 *	the encoder
 * @adomain: address domain (LinuxXTP sends %XTP_ADOMAIN_IP)
 * @aformat: &enum xtp_aformat
 * @dsthost: destination host
 * @srchost: source host
 * @dstport: destination port, host byte order
 * @srcport: source port, host byte order
 */
struct xtp_wire_addr {
	u16 alen;
	u8 adomain;
	u8 aformat;
	union xtp_wire_host dsthost;
	union xtp_wire_host srchost;
	u16 dstport;
	u16 srcport;
};

/**
 * struct xtp_wire_traffic - traffic segment (traffic specifier)
 * @tlen: segment length; filled in by the decoder, derived from @tformat by
 *	the encoder
 * @service: &enum xtp_service
 * @tformat: &enum xtp_tformat
 * @traffic: %XTP_TFORMAT_NULL reserved word, normally 0
 * @maxdata: %XTP_TFORMAT_RATE: largest payload the sender accepts
 * @inrate: %XTP_TFORMAT_RATE: inbound rate
 * @inburst: %XTP_TFORMAT_RATE: inbound burst
 * @outrate: %XTP_TFORMAT_RATE: outbound rate
 * @outburst: %XTP_TFORMAT_RATE: outbound burst
 */
struct xtp_wire_traffic {
	u16 tlen;
	u8 service;
	u8 tformat;
	u32 traffic;
	u32 maxdata;
	u32 inrate;
	u32 inburst;
	u32 outrate;
	u32 outburst;
};

/**
 * struct xtp_wire_pkt - a decoded packet, or one to encode
 * @hdr: header
 * @ctl: CNTL, ECNTL, TCNTL and JCNTL control segment
 * @addr: FIRST and JCNTL address segment
 * @traffic: FIRST, TCNTL and JCNTL traffic segment
 * @btag: DATA beginning tag, present when @hdr.options has %XTP_CMD_BTAG
 * @diag_code: DIAG code, &enum xtp_diag_code
 * @diag_value: DIAG value, &enum xtp_diag_value
 * @data: DATA and FIRST user data, DIAG message; the decoder points it into
 *	the input buffer, nothing is copied
 * @data_len: length of @data
 *
 * Only the members the packet type uses are read by the encoder; the decoder
 * zeroes the others.
 */
struct xtp_wire_pkt {
	struct xtp_wire_hdr hdr;
	struct xtp_wire_ctl ctl;
	struct xtp_wire_addr addr;
	struct xtp_wire_traffic traffic;
	u64 btag;
	u32 diag_code;
	u32 diag_value;
	const u8 *data;
	u32 data_len;
};

/**
 * struct xtp_wire_rawhdr - the header as laid out on the wire
 * @key: KEY
 * @cmd: COMMAND
 * @dlen: DLEN
 * @check: CHECK
 * @sort: SORT
 * @sync: SYNC
 * @seq: SEQ
 *
 * For skb_header_pointer() and friends.  The codec itself never casts a
 * buffer to it.
 */
struct xtp_wire_rawhdr {
	__be64 key;
	__be32 cmd;
	__be32 dlen;
	__be16 check;
	__be16 sort;
	__be32 sync;
	__be64 seq;
} __packed;

int xtp_wire_decode(const void *buf, size_t len, unsigned int flags,
		    struct xtp_wire_pkt *pkt);
int xtp_wire_encode(const struct xtp_wire_pkt *pkt, void *buf, size_t cap);
int xtp_wire_encode_hdr(const struct xtp_wire_pkt *pkt, void *buf,
			size_t cap);
int xtp_wire_pkt_len(const struct xtp_wire_pkt *pkt);
int xtp_wire_span(const struct xtp_wire_pkt *pkt, u32 i, u64 *left,
		  u64 *right);
int xtp_wire_check_hdr(const void *buf, size_t len, size_t *cover);
u16 xtp_wire_csum(const void *buf, size_t len);
bool xtp_wire_csum_ok(const void *buf, size_t len);
void xtp_wire_csum_set(void *buf, size_t len);
const char *xtp_wire_strerror(int err);
const char *xtp_wire_pformat_name(unsigned int pformat);

#endif /* _NET_XTP_WIRE_H */
