// SPDX-License-Identifier: GPL-2.0
/*
 * XTP 4.0 wire codec.  Pure code: no allocation, no locking, no kernel
 * services beyond memcpy()/memset(), so the same file builds into the module
 * and into the user-space tests (selftests/unit/).  See wire.h for the
 * formats.
 *
 * Loads and stores are get/put_unaligned_be*() (a stand-in in user space);
 * every read is preceded by a length check against the input.
 */

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <net/kcompat_unaligned.h>

#include "wire.h"

static_assert(sizeof(struct xtp_wire_rawhdr) == XTP_WIRE_HDR_LEN);
static_assert(offsetof(struct xtp_wire_rawhdr, key) == XTP_WIRE_OFF_KEY);
static_assert(offsetof(struct xtp_wire_rawhdr, cmd) == XTP_WIRE_OFF_CMD);
static_assert(offsetof(struct xtp_wire_rawhdr, dlen) == XTP_WIRE_OFF_DLEN);
static_assert(offsetof(struct xtp_wire_rawhdr, check) == XTP_WIRE_OFF_CHECK);
static_assert(offsetof(struct xtp_wire_rawhdr, sort) == XTP_WIRE_OFF_SORT);
static_assert(offsetof(struct xtp_wire_rawhdr, sync) == XTP_WIRE_OFF_SYNC);
static_assert(offsetof(struct xtp_wire_rawhdr, seq) == XTP_WIRE_OFF_SEQ);
static_assert(sizeof(union xtp_wire_host) == 16);
/* Segment sizes: sums of their fields' widths. */
static_assert(8 + 8 + 4 == XTP_WIRE_CNTL_LEN);
static_assert(XTP_WIRE_CNTL_LEN + 4 == XTP_WIRE_ECNTL_LEN);
static_assert(8 + 8 == XTP_WIRE_SPAN_LEN);
static_assert(XTP_WIRE_CNTL_LEN + 4 + 8 == XTP_WIRE_TCNTL_LEN);
static_assert(4 + 4 == XTP_WIRE_DIAG_LEN);
static_assert(XTP_WIRE_ADDR_HDR_LEN + 2 * 4 + 2 * 2 == XTP_WIRE_ADDR4_LEN);
static_assert(XTP_WIRE_ADDR_HDR_LEN + 2 * 16 + 2 * 2 == XTP_WIRE_ADDR6_LEN);
static_assert(XTP_WIRE_TSPEC_HDR_LEN + 4 == XTP_WIRE_TSPEC0_LEN);
static_assert(XTP_WIRE_TSPEC_HDR_LEN + 5 * 4 == XTP_WIRE_TSPEC1_LEN);
static_assert((XTP_CMD_OPTIONS | XTP_CMD_RESERVED | XTP_CMD_VER_MASK |
	       XTP_CMD_PFORMAT) == 0xffffffffU);
static_assert((u64)XTP_WIRE_MAX_NSPAN * XTP_WIRE_SPAN_LEN +
	      XTP_WIRE_ECNTL_LEN <= 0xffffffffULL);

/* Largest packet the encoder produces: its length is returned as an int. */
#define XTP_WIRE_MAX_PKT	0x7fffffffU

static bool xtp_pformat_valid(unsigned int pformat)
{
	switch (pformat) {
	case XTP_PF_DATA:
	case XTP_PF_CNTL:
	case XTP_PF_FIRST:
	case XTP_PF_ECNTL:
	case XTP_PF_TCNTL:
	case XTP_PF_JCNTL:
	case XTP_PF_DIAG:
		return true;
	}
	return false;
}

/* Segment length an address format implies, 0 if unsupported. */
static unsigned int xtp_addr_len(unsigned int aformat)
{
	switch (aformat) {
	case XTP_AFORMAT_IPV4:
		return XTP_WIRE_ADDR4_LEN;
	case XTP_AFORMAT_IPV6:
		return XTP_WIRE_ADDR6_LEN;
	}
	return 0;
}

/* Segment length a traffic format implies, 0 if unsupported. */
static unsigned int xtp_traffic_len(unsigned int tformat)
{
	switch (tformat) {
	case XTP_TFORMAT_NULL:
		return XTP_WIRE_TSPEC0_LEN;
	case XTP_TFORMAT_RATE:
		return XTP_WIRE_TSPEC1_LEN;
	}
	return 0;
}

/*
 * Ones' complement accumulation of @len bytes starting at an even offset of
 * the packet.  Adding big-endian 32-bit words gives the same folded result
 * as adding 16-bit words, since 2^16 == 1 modulo 0xffff.  An odd trailing
 * byte is padded with a zero byte (RFC 1071).
 */
static u64 xtp_sum(const u8 *p, size_t len, u64 sum)
{
	while (len >= 4) {
		sum += get_unaligned_be32(p);
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		sum += get_unaligned_be16(p);
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (u32)p[0] << 8;
	return sum;
}

static u16 xtp_fold(u64 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16)sum;
}

/* Bytes CHECK covers: the header, plus the payload unless NOCHECK. */
static size_t xtp_csum_len(const u8 *p, size_t len)
{
	if (get_unaligned_be32(p + XTP_WIRE_OFF_CMD) & XTP_CMD_NOCHECK)
		return XTP_WIRE_HDR_LEN;
	return len;
}

/**
 * xtp_wire_csum() - compute the CHECK value of a packet
 * @buf: the packet, header first
 * @len: packet length, XTP_WIRE_HDR_LEN + DLEN
 *
 * The Internet checksum (RFC 1071) over the header, and over the payload
 * too unless the COMMAND word in @buf has %XTP_CMD_NOCHECK.  The CHECK field
 * itself counts as zero; there is no pseudo-header.
 *
 * Return: the value to store in CHECK, host byte order; 0 if @len is
 * shorter than a header.
 */
u16 xtp_wire_csum(const void *buf, size_t len)
{
	const u8 *p = buf;
	size_t cover;
	u64 sum;

	if (len < XTP_WIRE_HDR_LEN)
		return 0;
	cover = xtp_csum_len(p, len);
	sum = xtp_sum(p, XTP_WIRE_OFF_CHECK, 0);
	sum = xtp_sum(p + XTP_WIRE_OFF_SORT, cover - XTP_WIRE_OFF_SORT, sum);
	return (u16)~xtp_fold(sum);
}

/**
 * xtp_wire_csum_ok() - verify the CHECK field of a packet
 * @buf: the packet, header first
 * @len: packet length, XTP_WIRE_HDR_LEN + DLEN
 *
 * The ones' complement sum of the covered bytes, CHECK included, must be
 * 0xffff.
 *
 * Return: true if CHECK verifies, false if not or if @len is shorter than a
 * header.
 */
bool xtp_wire_csum_ok(const void *buf, size_t len)
{
	const u8 *p = buf;

	if (len < XTP_WIRE_HDR_LEN)
		return false;
	return xtp_fold(xtp_sum(p, xtp_csum_len(p, len), 0)) == 0xffff;
}

/**
 * xtp_wire_csum_set() - compute and store the CHECK field of a packet
 * @buf: the packet, header first
 * @len: packet length, XTP_WIRE_HDR_LEN + DLEN
 *
 * Does nothing if @len is shorter than a header.
 */
void xtp_wire_csum_set(void *buf, size_t len)
{
	if (len < XTP_WIRE_HDR_LEN)
		return;
	put_unaligned_be16(xtp_wire_csum(buf, len),
			   (u8 *)buf + XTP_WIRE_OFF_CHECK);
}

/* Decode the rseq/alloc/echo prefix every control segment starts with. */
static void xtp_dec_cntl(const u8 *p, struct xtp_wire_ctl *ctl)
{
	ctl->rseq = get_unaligned_be64(p);
	ctl->alloc = get_unaligned_be64(p + 8);
	ctl->echo = get_unaligned_be32(p + 16);
}

/* Decode an address segment; return its length or a negative error. */
static int xtp_dec_addr(const u8 *p, u32 len, struct xtp_wire_addr *a)
{
	unsigned int want, hlen;

	if (len < XTP_WIRE_ADDR_HDR_LEN)
		return -XTP_WIRE_ESEGLEN;
	a->alen = get_unaligned_be16(p);
	a->adomain = p[2];
	a->aformat = p[3];
	want = xtp_addr_len(a->aformat);
	if (!want)
		return -XTP_WIRE_EAFORMAT;
	if (a->alen != want)
		return -XTP_WIRE_EALEN;
	if (len < want)
		return -XTP_WIRE_ESEGLEN;
	hlen = a->aformat == XTP_AFORMAT_IPV4 ? 4 : 16;
	p += XTP_WIRE_ADDR_HDR_LEN;
	memcpy(&a->dsthost, p, hlen);
	memcpy(&a->srchost, p + hlen, hlen);
	a->dstport = get_unaligned_be16(p + 2 * hlen);
	a->srcport = get_unaligned_be16(p + 2 * hlen + 2);
	return want;
}

/* Decode a traffic segment; return its length or a negative error. */
static int xtp_dec_traffic(const u8 *p, u32 len, struct xtp_wire_traffic *t)
{
	unsigned int want;

	if (len < XTP_WIRE_TSPEC_HDR_LEN)
		return -XTP_WIRE_ESEGLEN;
	t->tlen = get_unaligned_be16(p);
	t->service = p[2];
	t->tformat = p[3];
	want = xtp_traffic_len(t->tformat);
	if (!want)
		return -XTP_WIRE_ETFORMAT;
	if (t->tlen != want)
		return -XTP_WIRE_ETLEN;
	if (len < want)
		return -XTP_WIRE_ESEGLEN;
	p += XTP_WIRE_TSPEC_HDR_LEN;
	if (t->tformat == XTP_TFORMAT_NULL) {
		t->traffic = get_unaligned_be32(p);
	} else {
		t->maxdata = get_unaligned_be32(p);
		t->inrate = get_unaligned_be32(p + 4);
		t->inburst = get_unaligned_be32(p + 8);
		t->outrate = get_unaligned_be32(p + 12);
		t->outburst = get_unaligned_be32(p + 16);
	}
	return want;
}

/* Decode the 32-byte TCNTL/JCNTL segment; @len is at least its size. */
static void xtp_dec_tcntl(const u8 *p, struct xtp_wire_ctl *ctl)
{
	xtp_dec_cntl(p, ctl);
	ctl->rsvd = get_unaligned_be32(p + 20);
	ctl->xkey = get_unaligned_be64(p + 24);
}

/* Decode the payload of @pkt, @len (= DLEN) bytes at @p. */
static int xtp_dec_payload(const u8 *p, u32 len, struct xtp_wire_pkt *pkt)
{
	struct xtp_wire_ctl *ctl = &pkt->ctl;
	int n;

	switch (pkt->hdr.pformat) {
	case XTP_PF_DATA:
		if (pkt->hdr.options & XTP_CMD_BTAG) {
			if (len < XTP_WIRE_BTAG_LEN)
				return -XTP_WIRE_ESEGLEN;
			pkt->btag = get_unaligned_be64(p);
			p += XTP_WIRE_BTAG_LEN;
			len -= XTP_WIRE_BTAG_LEN;
		}
		break;
	case XTP_PF_CNTL:
		if (len != XTP_WIRE_CNTL_LEN)
			return -XTP_WIRE_ESEGLEN;
		xtp_dec_cntl(p, ctl);
		return 0;
	case XTP_PF_ECNTL:
		if (len < XTP_WIRE_ECNTL_LEN)
			return -XTP_WIRE_ESEGLEN;
		xtp_dec_cntl(p, ctl);
		ctl->nspan = get_unaligned_be32(p + 20);
		len -= XTP_WIRE_ECNTL_LEN;
		/* Divide rather than multiply: nspan * 16 may overflow. */
		if (len % XTP_WIRE_SPAN_LEN ||
		    ctl->nspan != len / XTP_WIRE_SPAN_LEN)
			return -XTP_WIRE_ENSPAN;
		ctl->raw_spans = p + XTP_WIRE_ECNTL_LEN;
		return 0;
	case XTP_PF_TCNTL:
	case XTP_PF_JCNTL:
		if (len < XTP_WIRE_TCNTL_LEN)
			return -XTP_WIRE_ESEGLEN;
		xtp_dec_tcntl(p, ctl);
		p += XTP_WIRE_TCNTL_LEN;
		len -= XTP_WIRE_TCNTL_LEN;
		if (pkt->hdr.pformat == XTP_PF_JCNTL) {
			n = xtp_dec_addr(p, len, &pkt->addr);
			if (n < 0)
				return n;
			p += n;
			len -= n;
		}
		n = xtp_dec_traffic(p, len, &pkt->traffic);
		if (n < 0)
			return n;
		if ((u32)n != len)
			return -XTP_WIRE_ESEGLEN;
		return 0;
	case XTP_PF_FIRST:
		n = xtp_dec_addr(p, len, &pkt->addr);
		if (n < 0)
			return n;
		p += n;
		len -= n;
		n = xtp_dec_traffic(p, len, &pkt->traffic);
		if (n < 0)
			return n;
		p += n;
		len -= n;
		break;
	case XTP_PF_DIAG:
		if (len < XTP_WIRE_DIAG_LEN)
			return -XTP_WIRE_ESEGLEN;
		pkt->diag_code = get_unaligned_be32(p);
		pkt->diag_value = get_unaligned_be32(p + 4);
		p += XTP_WIRE_DIAG_LEN;
		len -= XTP_WIRE_DIAG_LEN;
		break;
	default:
		return -XTP_WIRE_EPFORMAT;
	}
	/* DATA, FIRST, DIAG: the rest is user data or the message. */
	pkt->data = p;
	pkt->data_len = len;
	return 0;
}

/**
 * xtp_wire_check_hdr() - the checks of a packet's header alone
 * @buf: the packet, header first
 * @len: bytes available at @buf
 * @cover: set, on success, to the bytes CHECK covers
 *
 * Checks, in this order: header length, version, PFORMAT, DLEN against
 * @len: the checks xtp_wire_decode() makes before CHECK, for a caller
 * that verifies CHECK its own way and then decodes with
 * %XTP_WIRE_F_NOCSUM.
 *
 * Return: 0, or a negative &enum xtp_wire_err naming the first problem.
 */
int xtp_wire_check_hdr(const void *buf, size_t len, size_t *cover)
{
	const u8 *p = buf;
	u32 cmd, dlen;

	if (len < XTP_WIRE_HDR_LEN)
		return -XTP_WIRE_ETRUNC;
	cmd = get_unaligned_be32(p + XTP_WIRE_OFF_CMD);
	if ((cmd & XTP_CMD_VER_MASK) >> XTP_CMD_VER_SHIFT != XTP_WIRE_VERSION)
		return -XTP_WIRE_EVERSION;
	if (!xtp_pformat_valid(cmd & XTP_CMD_PFORMAT))
		return -XTP_WIRE_EPFORMAT;
	dlen = get_unaligned_be32(p + XTP_WIRE_OFF_DLEN);
	if (dlen > len - XTP_WIRE_HDR_LEN)
		return -XTP_WIRE_EDLEN;
	*cover = xtp_csum_len(p, XTP_WIRE_HDR_LEN + (size_t)dlen);
	return 0;
}

/**
 * xtp_wire_decode() - validate and decode one packet
 * @buf: the packet, header first
 * @len: bytes available at @buf; bytes after XTP_WIRE_HDR_LEN + DLEN are
 *	ignored (the caller may trim them)
 * @flags: 0, or %XTP_WIRE_F_NOCSUM to skip the CHECK verification
 * @pkt: result; zeroed, then filled in
 *
 * Checks, in this order: header length, version, PFORMAT, DLEN against
 * @len, CHECK, then the segments of the packet type.  @pkt->data and
 * @pkt->ctl.raw_spans point into @buf, which must outlive their use.
 * With %XTP_WIRE_F_NOCSUM the decoder reads no byte of a DATA packet
 * after the header and the beginning tag: the kernel's receive path
 * leaves the data where it lies (in an skb's pages) and names only that
 * much of it in @buf.
 *
 * Return: 0, or a negative &enum xtp_wire_err naming the first problem
 * found, in which case @pkt is only partly filled in.
 */
int xtp_wire_decode(const void *buf, size_t len, unsigned int flags,
		    struct xtp_wire_pkt *pkt)
{
	struct xtp_wire_hdr *h = &pkt->hdr;
	const u8 *p = buf;
	size_t cover;
	u32 cmd;
	int err;

	memset(pkt, 0, sizeof(*pkt));
	err = xtp_wire_check_hdr(buf, len, &cover);
	if (err)
		return err;
	if (!(flags & XTP_WIRE_F_NOCSUM) && !xtp_wire_csum_ok(p, cover))
		return -XTP_WIRE_ECSUM;

	cmd = get_unaligned_be32(p + XTP_WIRE_OFF_CMD);
	h->pformat = cmd & XTP_CMD_PFORMAT;
	h->dlen = get_unaligned_be32(p + XTP_WIRE_OFF_DLEN);
	h->key = get_unaligned_be64(p + XTP_WIRE_OFF_KEY);
	h->options = cmd & XTP_CMD_OPTIONS;
	h->rsvd = (cmd & XTP_CMD_RESERVED) >> 8;
	h->check = get_unaligned_be16(p + XTP_WIRE_OFF_CHECK);
	h->sort = get_unaligned_be16(p + XTP_WIRE_OFF_SORT);
	h->sync = get_unaligned_be32(p + XTP_WIRE_OFF_SYNC);
	h->seq = get_unaligned_be64(p + XTP_WIRE_OFF_SEQ);

	return xtp_dec_payload(p + XTP_WIRE_HDR_LEN, h->dlen, pkt);
}

/**
 * xtp_wire_span() - read one span of an ECNTL packet
 * @pkt: a decoded ECNTL packet, or one prepared for encoding
 * @i: span index, below @pkt->ctl.nspan
 * @left: where to store the span's left edge
 * @right: where to store the span's right edge
 *
 * Reads @pkt->ctl.spans if set, else the wire-format @pkt->ctl.raw_spans.
 *
 * Return: 0, or -%XTP_WIRE_EINVAL if @i is out of range or there are no
 * spans to read.
 */
int xtp_wire_span(const struct xtp_wire_pkt *pkt, u32 i, u64 *left,
		  u64 *right)
{
	const struct xtp_wire_ctl *ctl = &pkt->ctl;
	const u8 *raw;

	if (i >= ctl->nspan)
		return -XTP_WIRE_EINVAL;
	if (ctl->spans) {
		*left = ctl->spans[i].left;
		*right = ctl->spans[i].right;
		return 0;
	}
	if (!ctl->raw_spans)
		return -XTP_WIRE_EINVAL;
	raw = ctl->raw_spans + (size_t)i * XTP_WIRE_SPAN_LEN;
	*left = get_unaligned_be64(raw);
	*right = get_unaligned_be64(raw + 8);
	return 0;
}

/* Length of the segments of @pkt, user data excluded, or a negative error. */
static s64 xtp_seg_len(const struct xtp_wire_pkt *pkt)
{
	const struct xtp_wire_ctl *ctl = &pkt->ctl;
	unsigned int alen, tlen;
	bool has_data = false;
	s64 n;

	if (pkt->hdr.options & ~XTP_CMD_OPTIONS)
		return -XTP_WIRE_EINVAL;
	alen = xtp_addr_len(pkt->addr.aformat);
	tlen = xtp_traffic_len(pkt->traffic.tformat);

	switch (pkt->hdr.pformat) {
	case XTP_PF_DATA:
		has_data = true;
		n = pkt->hdr.options & XTP_CMD_BTAG ? XTP_WIRE_BTAG_LEN : 0;
		break;
	case XTP_PF_CNTL:
		n = XTP_WIRE_CNTL_LEN;
		break;
	case XTP_PF_ECNTL:
		if (ctl->nspan > XTP_WIRE_MAX_NSPAN ||
		    (ctl->nspan && !ctl->spans && !ctl->raw_spans))
			return -XTP_WIRE_EINVAL;
		n = XTP_WIRE_ECNTL_LEN + (s64)ctl->nspan * XTP_WIRE_SPAN_LEN;
		break;
	case XTP_PF_TCNTL:
		if (!tlen)
			return -XTP_WIRE_ETFORMAT;
		n = XTP_WIRE_TCNTL_LEN + tlen;
		break;
	case XTP_PF_JCNTL:
	case XTP_PF_FIRST:
		if (!alen)
			return -XTP_WIRE_EAFORMAT;
		if (!tlen)
			return -XTP_WIRE_ETFORMAT;
		n = alen + tlen;
		if (pkt->hdr.pformat == XTP_PF_JCNTL)
			n += XTP_WIRE_TCNTL_LEN;
		else
			has_data = true;
		break;
	case XTP_PF_DIAG:
		has_data = true;
		n = XTP_WIRE_DIAG_LEN;
		break;
	default:
		return -XTP_WIRE_EINVAL;
	}
	if (pkt->data_len && (!has_data || !pkt->data))
		return -XTP_WIRE_EINVAL;
	return n;
}

/**
 * xtp_wire_pkt_len() - length of the encoded form of a packet
 * @pkt: packet description
 *
 * Return: XTP_WIRE_HDR_LEN + DLEN, or a negative &enum xtp_wire_err if
 * @pkt cannot be encoded (see xtp_wire_encode()).
 */
int xtp_wire_pkt_len(const struct xtp_wire_pkt *pkt)
{
	s64 n = xtp_seg_len(pkt);

	if (n < 0)
		return (int)n;
	n += XTP_WIRE_HDR_LEN + (s64)pkt->data_len;
	if (n > XTP_WIRE_MAX_PKT)
		return -XTP_WIRE_EINVAL;
	return (int)n;
}

static void xtp_enc_addr(u8 *p, const struct xtp_wire_addr *a)
{
	unsigned int hlen = a->aformat == XTP_AFORMAT_IPV4 ? 4 : 16;

	put_unaligned_be16(xtp_addr_len(a->aformat), p);
	p[2] = a->adomain;
	p[3] = a->aformat;
	p += XTP_WIRE_ADDR_HDR_LEN;
	memcpy(p, &a->dsthost, hlen);
	memcpy(p + hlen, &a->srchost, hlen);
	put_unaligned_be16(a->dstport, p + 2 * hlen);
	put_unaligned_be16(a->srcport, p + 2 * hlen + 2);
}

static void xtp_enc_traffic(u8 *p, const struct xtp_wire_traffic *t)
{
	put_unaligned_be16(xtp_traffic_len(t->tformat), p);
	p[2] = t->service;
	p[3] = t->tformat;
	p += XTP_WIRE_TSPEC_HDR_LEN;
	if (t->tformat == XTP_TFORMAT_NULL) {
		put_unaligned_be32(t->traffic, p);
	} else {
		put_unaligned_be32(t->maxdata, p);
		put_unaligned_be32(t->inrate, p + 4);
		put_unaligned_be32(t->inburst, p + 8);
		put_unaligned_be32(t->outrate, p + 12);
		put_unaligned_be32(t->outburst, p + 16);
	}
}

static void xtp_enc_tcntl(u8 *p, const struct xtp_wire_ctl *ctl)
{
	put_unaligned_be64(ctl->rseq, p);
	put_unaligned_be64(ctl->alloc, p + 8);
	put_unaligned_be32(ctl->echo, p + 16);
	put_unaligned_be32(ctl->rsvd, p + 20);
	put_unaligned_be64(ctl->xkey, p + 24);
}

/* Write the segments of @pkt at @p; the caller has checked the space. */
static void xtp_enc_segs(u8 *p, const struct xtp_wire_pkt *pkt)
{
	const struct xtp_wire_ctl *ctl = &pkt->ctl;
	u32 i;

	switch (pkt->hdr.pformat) {
	case XTP_PF_DATA:
		if (pkt->hdr.options & XTP_CMD_BTAG)
			put_unaligned_be64(pkt->btag, p);
		break;
	case XTP_PF_CNTL:
		put_unaligned_be64(ctl->rseq, p);
		put_unaligned_be64(ctl->alloc, p + 8);
		put_unaligned_be32(ctl->echo, p + 16);
		break;
	case XTP_PF_ECNTL:
		put_unaligned_be64(ctl->rseq, p);
		put_unaligned_be64(ctl->alloc, p + 8);
		put_unaligned_be32(ctl->echo, p + 16);
		put_unaligned_be32(ctl->nspan, p + 20);
		p += XTP_WIRE_ECNTL_LEN;
		if (!ctl->spans) {
			if (ctl->nspan)
				memcpy(p, ctl->raw_spans,
				       (size_t)ctl->nspan * XTP_WIRE_SPAN_LEN);
			break;
		}
		for (i = 0; i < ctl->nspan; i++, p += XTP_WIRE_SPAN_LEN) {
			put_unaligned_be64(ctl->spans[i].left, p);
			put_unaligned_be64(ctl->spans[i].right, p + 8);
		}
		break;
	case XTP_PF_TCNTL:
		xtp_enc_tcntl(p, ctl);
		xtp_enc_traffic(p + XTP_WIRE_TCNTL_LEN, &pkt->traffic);
		break;
	case XTP_PF_JCNTL:
		xtp_enc_tcntl(p, ctl);
		p += XTP_WIRE_TCNTL_LEN;
		xtp_enc_addr(p, &pkt->addr);
		xtp_enc_traffic(p + xtp_addr_len(pkt->addr.aformat),
				&pkt->traffic);
		break;
	case XTP_PF_FIRST:
		xtp_enc_addr(p, &pkt->addr);
		xtp_enc_traffic(p + xtp_addr_len(pkt->addr.aformat),
				&pkt->traffic);
		break;
	case XTP_PF_DIAG:
		put_unaligned_be32(pkt->diag_code, p);
		put_unaligned_be32(pkt->diag_value, p + 4);
		break;
	}
}

/**
 * xtp_wire_encode_hdr() - encode the header and segments of a packet
 * @pkt: packet description; @pkt->hdr.dlen and @pkt->hdr.check are ignored
 * @buf: output
 * @cap: bytes available at @buf
 *
 * Writes everything but the user data (@pkt->data is not read), with DLEN
 * counting @pkt->data_len and CHECK zero.  For callers that place the data
 * themselves (e.g. in skb fragments) and then compute CHECK, with
 * xtp_wire_csum_set() or an equivalent sum.
 *
 * Return: the number of bytes written, or a negative &enum xtp_wire_err as
 * for xtp_wire_encode().
 */
int xtp_wire_encode_hdr(const struct xtp_wire_pkt *pkt, void *buf,
			size_t cap)
{
	const struct xtp_wire_hdr *h = &pkt->hdr;
	u8 *p = buf;
	int total, n;

	total = xtp_wire_pkt_len(pkt);
	if (total < 0)
		return total;
	n = total - (int)pkt->data_len;
	if ((size_t)n > cap)
		return -XTP_WIRE_ENOSPC;

	put_unaligned_be64(h->key, p + XTP_WIRE_OFF_KEY);
	put_unaligned_be32(h->options | (u32)h->rsvd << 8 |
			   XTP_WIRE_VERSION << XTP_CMD_VER_SHIFT | h->pformat,
			   p + XTP_WIRE_OFF_CMD);
	put_unaligned_be32(total - XTP_WIRE_HDR_LEN, p + XTP_WIRE_OFF_DLEN);
	put_unaligned_be16(0, p + XTP_WIRE_OFF_CHECK);
	put_unaligned_be16(h->sort, p + XTP_WIRE_OFF_SORT);
	put_unaligned_be32(h->sync, p + XTP_WIRE_OFF_SYNC);
	put_unaligned_be64(h->seq, p + XTP_WIRE_OFF_SEQ);
	xtp_enc_segs(p + XTP_WIRE_HDR_LEN, pkt);
	return n;
}

/**
 * xtp_wire_encode() - encode a complete packet
 * @pkt: packet description; @pkt->hdr.dlen and @pkt->hdr.check are ignored,
 *	the encoder computes them, as well as alen, tlen and VER
 * @buf: output
 * @cap: bytes available at @buf
 *
 * Return: the packet length XTP_WIRE_HDR_LEN + DLEN, or a negative
 * &enum xtp_wire_err: %XTP_WIRE_ENOSPC if @cap is too small,
 * %XTP_WIRE_EAFORMAT or %XTP_WIRE_ETFORMAT for an unsupported address or
 * traffic format in a packet that carries one, %XTP_WIRE_EINVAL for an
 * unknown PFORMAT, option bits outside %XTP_CMD_OPTIONS, spans missing or
 * too many, user data on a packet type without any, or a packet longer
 * than INT_MAX.
 */
int xtp_wire_encode(const struct xtp_wire_pkt *pkt, void *buf, size_t cap)
{
	int total, n;

	total = xtp_wire_pkt_len(pkt);
	if (total < 0)
		return total;
	if ((size_t)total > cap)
		return -XTP_WIRE_ENOSPC;
	n = xtp_wire_encode_hdr(pkt, buf, cap);
	if (n < 0)
		return n;
	if (pkt->data_len)
		memcpy((u8 *)buf + n, pkt->data, pkt->data_len);
	xtp_wire_csum_set(buf, total);
	return total;
}

/**
 * xtp_wire_strerror() - name a codec error
 * @err: a value returned by a codec function, negative or not
 *
 * Return: a short constant description, never NULL.
 */
const char *xtp_wire_strerror(int err)
{
	static const char * const names[XTP_WIRE_NERR] = {
		[XTP_WIRE_OK]		= "ok",
		[XTP_WIRE_ETRUNC]	= "truncated header",
		[XTP_WIRE_EVERSION]	= "bad version",
		[XTP_WIRE_EPFORMAT]	= "unknown packet type",
		[XTP_WIRE_EDLEN]	= "DLEN beyond packet",
		[XTP_WIRE_ECSUM]	= "bad checksum",
		[XTP_WIRE_ESEGLEN]	= "segment length mismatch",
		[XTP_WIRE_ENSPAN]	= "span count mismatch",
		[XTP_WIRE_EAFORMAT]	= "unsupported address format",
		[XTP_WIRE_EALEN]	= "bad address segment length",
		[XTP_WIRE_ETFORMAT]	= "unsupported traffic format",
		[XTP_WIRE_ETLEN]	= "bad traffic segment length",
		[XTP_WIRE_ENOSPC]	= "buffer too small",
		[XTP_WIRE_EINVAL]	= "invalid packet description",
	};
	unsigned int e = err < 0 ? -(unsigned int)err : (unsigned int)err;

	if (e >= XTP_WIRE_NERR)
		return "unknown error";
	return names[e];
}

/**
 * xtp_wire_pformat_name() - name a packet type
 * @pformat: PFORMAT value
 *
 * Return: "DATA", "CNTL", "FIRST", "ECNTL", "TCNTL", "JCNTL", "DIAG", or
 * "UNKNOWN" for any other value.
 */
const char *xtp_wire_pformat_name(unsigned int pformat)
{
	static const char * const names[] = {
		[XTP_PF_DATA]	= "DATA",
		[XTP_PF_CNTL]	= "CNTL",
		[XTP_PF_FIRST]	= "FIRST",
		[XTP_PF_ECNTL]	= "ECNTL",
		[XTP_PF_TCNTL]	= "TCNTL",
		[XTP_PF_JCNTL]	= "JCNTL",
		[XTP_PF_DIAG]	= "DIAG",
	};

	if (!xtp_pformat_valid(pformat))
		return "UNKNOWN";
	return names[pformat];
}
