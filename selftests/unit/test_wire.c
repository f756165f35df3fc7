// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/xtp/wire.c: round trips of every packet type,
 * golden vectors rebuilt from the thesis traces, malformed input, checksum.
 * Every buffer handed to the decoder is a heap copy of exactly the stated
 * length, so AddressSanitizer catches any read past it.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include "kselftest_harness.h"

#include "golden.h"
#include "testlib.h"
#include "wire.h"

#define E(x)	(-XTP_WIRE_##x)

/* Decode @len bytes of @p from an exact-size heap copy. */
static int decode_copy(const u8 *p, size_t len, unsigned int flags,
		       struct xtp_wire_pkt *out)
{
	u8 *copy = malloc(len ? len : 1);
	int rc;

	memcpy(copy, p, len);
	rc = xtp_wire_decode(copy, len, flags, out);
	/* out may point into copy: only the return code survives. */
	free(copy);
	return rc;
}

/* Set DLEN of an encoded packet, fix its CHECK, return the new length. */
static size_t set_dlen(u8 *p, u32 dlen)
{
	p[12] = dlen >> 24;
	p[13] = (dlen >> 16) & 0xff;
	p[14] = (dlen >> 8) & 0xff;
	p[15] = dlen & 0xff;
	fix_csum(p, XTP_WIRE_HDR_LEN + dlen);
	return XTP_WIRE_HDR_LEN + dlen;
}

/* Encode sample @id; a failure here is a bug in the test itself. */
static int encode_sample(unsigned int id, u8 *buf, size_t cap)
{
	struct sample s;
	int n;

	sample_build(id, &s);
	n = xtp_wire_encode(&s.pkt, buf, cap);
	if (n < 0) {
		fprintf(stderr, "# %s(%u): %s\n", __func__, id,
			xtp_wire_strerror(n));
		abort();
	}
	return n;
}

/* ---------------------------------------------------------------- */
/* Round trips: one variant per sample packet.                      */

FIXTURE(roundtrip) {
	struct sample s;
	u8 buf[SAMPLE_MAX_LEN];
	int len;
};

FIXTURE_VARIANT(roundtrip) {
	unsigned int id;
};

FIXTURE_VARIANT_ADD(roundtrip, data_plain) { .id = S_DATA };
FIXTURE_VARIANT_ADD(roundtrip, data_empty) { .id = S_DATA_EMPTY };
FIXTURE_VARIANT_ADD(roundtrip, data_btag) { .id = S_DATA_BTAG };
FIXTURE_VARIANT_ADD(roundtrip, data_nocheck) { .id = S_DATA_NOCHECK };
FIXTURE_VARIANT_ADD(roundtrip, data_all_options) { .id = S_DATA_ALLOPTS };
FIXTURE_VARIANT_ADD(roundtrip, cntl) { .id = S_CNTL };
FIXTURE_VARIANT_ADD(roundtrip, first_ipv4_tf0) { .id = S_FIRST4_T0 };
FIXTURE_VARIANT_ADD(roundtrip, first_ipv4_tf1) { .id = S_FIRST4_T1 };
FIXTURE_VARIANT_ADD(roundtrip, first_ipv6_tf0) { .id = S_FIRST6_T0 };
FIXTURE_VARIANT_ADD(roundtrip, first_ipv6_tf1) { .id = S_FIRST6_T1 };
FIXTURE_VARIANT_ADD(roundtrip, ecntl_0_spans) { .id = S_ECNTL0 };
FIXTURE_VARIANT_ADD(roundtrip, ecntl_1_span) { .id = S_ECNTL1 };
FIXTURE_VARIANT_ADD(roundtrip, ecntl_5_spans) { .id = S_ECNTL5 };
FIXTURE_VARIANT_ADD(roundtrip, tcntl_tf0) { .id = S_TCNTL_T0 };
FIXTURE_VARIANT_ADD(roundtrip, tcntl_tf1) { .id = S_TCNTL_T1 };
FIXTURE_VARIANT_ADD(roundtrip, jcntl_ipv4_tf0) { .id = S_JCNTL4_T0 };
FIXTURE_VARIANT_ADD(roundtrip, jcntl_ipv6_tf1) { .id = S_JCNTL6_T1 };
FIXTURE_VARIANT_ADD(roundtrip, diag) { .id = S_DIAG };
FIXTURE_VARIANT_ADD(roundtrip, diag_empty) { .id = S_DIAG_EMPTY };

FIXTURE_SETUP(roundtrip)
{
	sample_build(variant->id, &self->s);
	self->len = xtp_wire_encode(&self->s.pkt, self->buf, sizeof(self->buf));
	ASSERT_GT(self->len, 0) TH_LOG("%s: encode: %s", self->s.name,
				      xtp_wire_strerror(self->len));
}

FIXTURE_TEARDOWN(roundtrip)
{
}

/* Expected segment lengths, from the layouts, not from the codec. */
static unsigned int expect_alen(u8 aformat)
{
	return aformat == XTP_AFORMAT_IPV4 ? 16 : 40;
}

static unsigned int expect_tlen(u8 tformat)
{
	return tformat == XTP_TFORMAT_NULL ? 8 : 24;
}

static u32 expect_dlen(const struct xtp_wire_pkt *p)
{
	switch (p->hdr.pformat) {
	case XTP_PF_DATA:
		return (p->hdr.options & XTP_CMD_BTAG ? 8 : 0) + p->data_len;
	case XTP_PF_CNTL:
		return 20;
	case XTP_PF_ECNTL:
		return 24 + 16 * p->ctl.nspan;
	case XTP_PF_TCNTL:
		return 32 + expect_tlen(p->traffic.tformat);
	case XTP_PF_JCNTL:
		return 32 + expect_alen(p->addr.aformat) +
		       expect_tlen(p->traffic.tformat);
	case XTP_PF_FIRST:
		return expect_alen(p->addr.aformat) +
		       expect_tlen(p->traffic.tformat) + p->data_len;
	case XTP_PF_DIAG:
		return 8 + p->data_len;
	}
	return 0;
}

TEST_F(roundtrip, encode_decode)
{
	const struct xtp_wire_pkt *in = &self->s.pkt;
	struct xtp_wire_pkt d;
	u8 *copy, again[SAMPLE_MAX_LEN];
	size_t cover;
	char why[128];
	int n;

	/* Header bytes, read independently of the codec. */
	ASSERT_EQ(XTP_WIRE_HDR_LEN + expect_dlen(in), (u32)self->len);
	ASSERT_EQ(xtp_wire_pkt_len(in), self->len);
	EXPECT_EQ(in->hdr.key, rd64(self->buf));
	EXPECT_EQ(in->hdr.options | 0x20 | in->hdr.pformat,
		  rd32(self->buf + 8));
	EXPECT_EQ(expect_dlen(in), rd32(self->buf + 12));
	EXPECT_EQ(in->hdr.sort, rd16(self->buf + 18));
	EXPECT_EQ(in->hdr.sync, rd32(self->buf + 20));
	EXPECT_EQ(in->hdr.seq, rd64(self->buf + 24));
	cover = in->hdr.options & XTP_CMD_NOCHECK ? 32 : (size_t)self->len;
	EXPECT_EQ(0xffff, ref_sum16(self->buf, cover));

	/* Decode from an exact-size copy; pointers must point into it. */
	copy = malloc(self->len);
	memcpy(copy, self->buf, self->len);
	ASSERT_EQ(0, xtp_wire_decode(copy, self->len, 0, &d));
	EXPECT_EQ(0, pkt_cmp(in, &d, why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(expect_dlen(in), d.hdr.dlen);
	EXPECT_EQ(rd16(self->buf + 16), d.hdr.check);
	if (d.data_len) {
		EXPECT_TRUE(d.data >= copy &&
			    d.data + d.data_len == copy + self->len);
	}
	if (d.ctl.nspan) {
		EXPECT_TRUE(d.ctl.raw_spans == copy + 32 + 24);
		EXPECT_TRUE(d.ctl.spans == NULL);
	}
	if (in->hdr.pformat == XTP_PF_FIRST ||
	    in->hdr.pformat == XTP_PF_JCNTL)
		EXPECT_EQ(expect_alen(in->addr.aformat), d.addr.alen);
	if (in->hdr.pformat == XTP_PF_FIRST ||
	    in->hdr.pformat == XTP_PF_TCNTL ||
	    in->hdr.pformat == XTP_PF_JCNTL)
		EXPECT_EQ(expect_tlen(in->traffic.tformat), d.traffic.tlen);

	/* Re-encoding the decoded packet gives the same bytes. */
	n = xtp_wire_encode(&d, again, sizeof(again));
	EXPECT_EQ(self->len, n);
	EXPECT_EQ(0, memcmp(self->buf, again, self->len));

	/* encode_hdr + caller-placed data + csum_set gives the same too. */
	memset(again, 0xee, sizeof(again));
	n = xtp_wire_encode_hdr(in, again, sizeof(again));
	ASSERT_EQ(self->len - (int)in->data_len, n);
	EXPECT_EQ(0, rd16(again + 16));
	if (in->data_len)
		memcpy(again + n, in->data, in->data_len);
	xtp_wire_csum_set(again, self->len);
	EXPECT_EQ(0, memcmp(self->buf, again, self->len));
	free(copy);
}

TEST_F(roundtrip, small_buffers)
{
	u8 *out;
	int cap;

	/* Every too-small capacity: ENOSPC, and nothing written past it. */
	for (cap = 0; cap < self->len; cap++) {
		out = malloc(cap ? cap : 1);
		EXPECT_EQ(E(ENOSPC), xtp_wire_encode(&self->s.pkt, out, cap));
		free(out);
	}
	out = malloc(self->len);
	EXPECT_EQ(self->len, xtp_wire_encode(&self->s.pkt, out, self->len));
	free(out);
}

TEST_F(roundtrip, truncations)
{
	struct xtp_wire_pkt d;
	int len;

	/* Every proper prefix is rejected: ETRUNC, then EDLEN. */
	for (len = 0; len < self->len; len++) {
		int rc = decode_copy(self->buf, len, 0, &d);

		EXPECT_EQ(len < 32 ? E(ETRUNC) : E(EDLEN), rc)
			TH_LOG("len %d: %s", len, xtp_wire_strerror(rc));
	}
}

TEST_F(roundtrip, trailing_bytes_ignored)
{
	struct xtp_wire_pkt d;
	u8 big[SAMPLE_MAX_LEN + 64];
	char why[128];

	memcpy(big, self->buf, self->len);
	memset(big + self->len, 0x5a, 64);
	ASSERT_EQ(0, decode_copy(big, self->len + 64, 0, &d));
	EXPECT_EQ((u32)self->len - 32, d.hdr.dlen);
	ASSERT_EQ(0, xtp_wire_decode(big, self->len + 64, 0, &d));
	EXPECT_EQ(0, pkt_cmp(&self->s.pkt, &d, why, sizeof(why)))
		TH_LOG("%s", why);
}

TEST_F(roundtrip, bit_flips)
{
	bool nocheck = self->s.pkt.hdr.options & XTP_CMD_NOCHECK;
	struct xtp_wire_pkt d;
	u8 pkt[SAMPLE_MAX_LEN];
	int bit, rc;

	for (bit = 0; bit < self->len * 8; bit++) {
		int off = bit / 8;

		memcpy(pkt, self->buf, self->len);
		pkt[off] ^= 1 << (bit % 8);
		rc = decode_copy(pkt, self->len, 0, &d);
		if (nocheck && off >= 32) {
			/* Not covered: accepted, and the change shows. */
			EXPECT_EQ(0, rc);
			continue;
		}
		if (off >= 8 && off < 16) {
			/* COMMAND, DLEN: may fail an earlier check. */
			EXPECT_GT(0, rc) TH_LOG("bit %d accepted", bit);
		} else {
			EXPECT_EQ(E(ECSUM), rc)
				TH_LOG("bit %d: %s", bit,
				       xtp_wire_strerror(rc));
		}
		/* Without verification the flip must still be parsed safely. */
		decode_copy(pkt, self->len, XTP_WIRE_F_NOCSUM, &d);
	}
}

/* ---------------------------------------------------------------- */
/* Golden vectors from the thesis traces: one variant per figure.   */

FIXTURE(golden) {
};

FIXTURE_VARIANT(golden) {
	const char *fig;
	unsigned int packets;
};

FIXTURE_VARIANT_ADD(golden, fig8_sdt) { .fig = "fig8", .packets = 4 };
FIXTURE_VARIANT_ADD(golden, fig10_s_d_t) { .fig = "fig10", .packets = 8 };
FIXTURE_VARIANT_ADD(golden, fig42_finger) { .fig = "fig42", .packets = 10 };
FIXTURE_VARIANT_ADD(golden, fig44_xft_5000) { .fig = "fig44", .packets = 8 };
FIXTURE_VARIANT_ADD(golden, fig45_xft_1000) { .fig = "fig45", .packets = 3 };

FIXTURE_SETUP(golden)
{
}

FIXTURE_TEARDOWN(golden)
{
}

/* Check the encoded bytes of one trace line against its printed fields. */
static void check_golden(struct __test_metadata *_metadata,
			 const struct golden_pkt *g)
{
	u8 data[GOLDEN_MAX_LEN], buf[GOLDEN_MAX_LEN], again[GOLDEN_MAX_LEN];
	struct xtp_wire_pkt pkt, d;
	const u8 *s = buf + 32;
	char why[128];
	int n;

	golden_build(g, &pkt, data);
	n = xtp_wire_encode(&pkt, buf, sizeof(buf));
	ASSERT_EQ(32 + g->dlen, (u32)n) TH_LOG("%s #%u", g->fig, g->no);

	/* "ky<N> in0[+RTN]" */
	EXPECT_EQ(g->key, rd64(buf) & ~XTP_KEY_RETURN);
	EXPECT_EQ(g->rtn, !!(buf[0] & 0x80));
	/* options, reserved byte, VER 1 and PFORMAT */
	EXPECT_EQ(g->options, rd32(buf + 8) & 0xffff0000);
	EXPECT_EQ(0, buf[10]);
	EXPECT_EQ(0x20 | g->pformat, buf[11]);
	/* "dl", "sy", "sq"; SORT unused */
	EXPECT_EQ(g->dlen, rd32(buf + 12));
	EXPECT_EQ(0, rd16(buf + 18));
	EXPECT_EQ(g->sync, rd32(buf + 20));
	EXPECT_EQ(g->seq, rd64(buf + 24));
	EXPECT_EQ(0xffff, ref_sum16(buf, n));

	switch (g->pformat) {
	case XTP_PF_CNTL:
	case XTP_PF_TCNTL:
		/* "rq al ec" */
		EXPECT_EQ(g->rseq, rd64(s));
		EXPECT_EQ(g->alloc, rd64(s + 8));
		EXPECT_EQ(g->echo, rd32(s + 16));
		if (g->pformat == XTP_PF_CNTL)
			break;
		/* reserved, "xk", then "tl sv tf" */
		EXPECT_EQ(0, rd32(s + 20));
		EXPECT_EQ(g->xkey, rd64(s + 24));
		EXPECT_EQ(GOLDEN_TLEN, rd16(s + 32));
		EXPECT_EQ(GOLDEN_SERVICE, s[34]);
		EXPECT_EQ(GOLDEN_TFORMAT, s[35]);
		EXPECT_EQ(0, rd32(s + 36));
		break;
	case XTP_PF_FIRST:
		/* "al ad af", as LinuxXTP printed ad and af too */
		EXPECT_EQ(GOLDEN_ALEN, rd16(s));
		EXPECT_EQ(GOLDEN_ADOMAIN, s[2]);
		EXPECT_EQ(GOLDEN_AFORMAT, s[3]);
		EXPECT_EQ(GOLDEN_AD_PRINTED, (u16)(s[2] << 8));
		EXPECT_EQ(GOLDEN_AF_PRINTED, (u16)(s[3] << 8));
		/* "dh: sh: dp sp" */
		EXPECT_EQ(0, memcmp(s + 4, "\xc0\xc8\xc8\xc8", 4));
		EXPECT_EQ(0, memcmp(s + 8, "\xc0\x64\x64\x64", 4));
		EXPECT_EQ(g->dport, rd16(s + 12));
		EXPECT_EQ(g->sport, rd16(s + 14));
		/* "tl sv tf" */
		EXPECT_EQ(GOLDEN_TLEN, rd16(s + 16));
		EXPECT_EQ(GOLDEN_SERVICE, s[18]);
		EXPECT_EQ(GOLDEN_TFORMAT, s[19]);
		EXPECT_EQ(0, rd32(s + 20));
		EXPECT_EQ(0, memcmp(s + 24, data, g->dlen - 24));
		break;
	case XTP_PF_DATA:
		EXPECT_EQ(0, memcmp(s, data, g->dlen));
		break;
	default:
		ASSERT_TRUE(0) TH_LOG("unexpected type %u", g->pformat);
	}

	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	ASSERT_EQ(0, xtp_wire_decode(buf, n, 0, &d));
	EXPECT_EQ(0, pkt_cmp(&pkt, &d, why, sizeof(why)))
		TH_LOG("%s #%u: %s", g->fig, g->no, why);
	EXPECT_EQ(g->dlen, d.hdr.dlen);
	EXPECT_EQ(n, xtp_wire_encode(&d, again, sizeof(again)));
	EXPECT_EQ(0, memcmp(buf, again, n));
}

TEST_F(golden, trace)
{
	unsigned int i, seen = 0;

	for (i = 0; i < golden_count; i++) {
		if (strcmp(golden[i].fig, variant->fig))
			continue;
		ASSERT_EQ(seen + 1, golden[i].no);
		check_golden(_metadata, &golden[i]);
		seen++;
	}
	ASSERT_EQ(variant->packets, seen);
}

TEST(golden_transcription)
{
	unsigned int i;

	/*
	 * Cross-check the table against the protocol rules the traces obey,
	 * to catch transcription slips: a TCNTL answers the FIRST before it
	 * (same key + RETURN, RSEQ = FIRST's DLEN, ECHO = its SYNC), and the
	 * client then addresses the server by the TCNTL's XKEY.
	 */
	for (i = 0; i < golden_count; i++) {
		const struct golden_pkt *f = &golden[i], *t, *n = NULL;
		unsigned int j;

		if (f->pformat != XTP_PF_FIRST)
			continue;
		ASSERT_LT(i + 2, golden_count);
		t = &golden[i + 1];
		for (j = i + 2; j < golden_count && !n; j++)
			if (golden[j].c2s)
				n = &golden[j];
		ASSERT_NE(NULL, n);
		EXPECT_EQ(XTP_PF_TCNTL, t->pformat);
		EXPECT_EQ(f->key, t->key);
		EXPECT_FALSE(f->rtn);
		EXPECT_TRUE(t->rtn);
		EXPECT_EQ(f->dlen, t->rseq);
		EXPECT_EQ(f->sync, t->echo);
		EXPECT_EQ(t->xkey, n->key) TH_LOG("%s", f->fig);
		EXPECT_TRUE(n->rtn);
	}
}

TEST(constants)
{
	/* Masks and codes from the extraction, section 1.2 and 1.3. */
	EXPECT_EQ(0x80000000, XTP_CMD_UNDEF);
	EXPECT_EQ(0x40000000, XTP_CMD_NOCHECK);
	EXPECT_EQ(0x20000000, XTP_CMD_EDGE);
	EXPECT_EQ(0x10000000, XTP_CMD_NOERR);
	EXPECT_EQ(0x08000000, XTP_CMD_MULTI);
	EXPECT_EQ(0x04000000, XTP_CMD_RES);
	EXPECT_EQ(0x02000000, XTP_CMD_SORT);
	EXPECT_EQ(0x01000000, XTP_CMD_NOFLOW);
	EXPECT_EQ(0x00800000, XTP_CMD_FASTNAK);
	EXPECT_EQ(0x00400000, XTP_CMD_SREQ);
	EXPECT_EQ(0x00200000, XTP_CMD_DREQ);
	EXPECT_EQ(0x00100000, XTP_CMD_RCLOSE);
	EXPECT_EQ(0x00080000, XTP_CMD_WCLOSE);
	EXPECT_EQ(0x00040000, XTP_CMD_EOM);
	EXPECT_EQ(0x00020000, XTP_CMD_END);
	EXPECT_EQ(0x00010000, XTP_CMD_BTAG);
	EXPECT_EQ(0, XTP_PF_DATA);
	EXPECT_EQ(1, XTP_PF_CNTL);
	EXPECT_EQ(2, XTP_PF_FIRST);
	EXPECT_EQ(3, XTP_PF_ECNTL);
	EXPECT_EQ(5, XTP_PF_TCNTL);
	EXPECT_EQ(7, XTP_PF_JCNTL);
	EXPECT_EQ(8, XTP_PF_DIAG);
	EXPECT_EQ(0x8000000000000000ULL, XTP_KEY_RETURN);
	EXPECT_EQ(32, XTP_WIRE_HDR_LEN);
	EXPECT_EQ(20, XTP_WIRE_CNTL_LEN);
	EXPECT_EQ(24, XTP_WIRE_ECNTL_LEN);
	EXPECT_EQ(32, XTP_WIRE_TCNTL_LEN);
	EXPECT_EQ(16, XTP_WIRE_ADDR4_LEN);
	EXPECT_EQ(8, XTP_WIRE_TSPEC0_LEN);
	EXPECT_EQ(24, XTP_WIRE_TSPEC1_LEN);
	EXPECT_EQ(32, sizeof(struct xtp_wire_rawhdr));
	/* The span limit is exactly what fits a 32-bit DLEN. */
	EXPECT_LE(24 + 16ULL * XTP_WIRE_MAX_NSPAN, 0xffffffffULL);
	EXPECT_GT(24 + 16ULL * (XTP_WIRE_MAX_NSPAN + 1ULL), 0xffffffffULL);
}

/* ---------------------------------------------------------------- */
/* Malformed headers.                                               */

TEST(truncated_header)
{
	struct xtp_wire_pkt d;
	u8 buf[64];
	size_t len;

	ASSERT_LT(0, encode_sample(S_CNTL, buf, sizeof(buf)));
	for (len = 0; len < XTP_WIRE_HDR_LEN; len++)
		EXPECT_EQ(E(ETRUNC), decode_copy(buf, len, 0, &d));
	EXPECT_EQ(E(ETRUNC), xtp_wire_decode(NULL, 0, 0, &d));
}

TEST(dlen_beyond_buffer)
{
	static const u32 dlens[] = { 21, 22, 1000, 0x7fffffff, 0x80000000,
				     0xffffffe0, 0xffffffff };
	struct xtp_wire_pkt d;
	u8 buf[64];
	unsigned int i;
	int n;

	n = encode_sample(S_CNTL, buf, sizeof(buf));
	ASSERT_EQ(52, n);
	for (i = 0; i < ARRAY_SIZE(dlens); i++) {
		buf[12] = dlens[i] >> 24;
		buf[13] = (dlens[i] >> 16) & 0xff;
		buf[14] = (dlens[i] >> 8) & 0xff;
		buf[15] = dlens[i] & 0xff;
		EXPECT_EQ(E(EDLEN), decode_copy(buf, n, 0, &d))
			TH_LOG("dlen %u", dlens[i]);
	}
}

TEST(bad_version)
{
	struct xtp_wire_pkt d;
	u8 buf[64];
	unsigned int ver;
	int n;

	n = encode_sample(S_CNTL, buf, sizeof(buf));
	for (ver = 0; ver < 8; ver++) {
		buf[11] = (u8)(ver << 5 | XTP_PF_CNTL);
		fix_csum(buf, n);
		EXPECT_EQ(ver == 1 ? 0 : E(EVERSION),
			  decode_copy(buf, n, 0, &d)) TH_LOG("ver %u", ver);
	}
}

TEST(unknown_pformat)
{
	struct xtp_wire_pkt d;
	u8 buf[64];
	unsigned int pf;
	int n;

	n = encode_sample(S_CNTL, buf, sizeof(buf));
	for (pf = 0; pf < 32; pf++) {
		bool known = pf <= 3 || pf == 5 || pf == 7 || pf == 8;
		int rc;

		buf[11] = (u8)(0x20 | pf);
		fix_csum(buf, n);
		rc = decode_copy(buf, n, 0, &d);
		EXPECT_EQ(known, rc != E(EPFORMAT)) TH_LOG("pformat %u", pf);
		EXPECT_STREQ(known ? xtp_wire_pformat_name(pf) : "UNKNOWN",
			     xtp_wire_pformat_name(pf));
	}
}

TEST(reserved_byte_kept)
{
	struct xtp_wire_pkt d;
	u8 buf[64], again[64];
	int n;

	n = encode_sample(S_CNTL, buf, sizeof(buf));
	buf[10] = 0x5a;
	fix_csum(buf, n);
	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	EXPECT_EQ(0x5a, d.hdr.rsvd);
	ASSERT_EQ(0, xtp_wire_decode(buf, n, 0, &d));
	EXPECT_EQ(n, xtp_wire_encode(&d, again, sizeof(again)));
	EXPECT_EQ(0, memcmp(buf, again, n));
}

TEST(return_bit)
{
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	int n;

	n = encode_sample(S_CNTL, buf, sizeof(buf));
	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	EXPECT_TRUE(d.hdr.key & XTP_KEY_RETURN);
	EXPECT_EQ(0x80, buf[0] & 0x80);
	n = encode_sample(S_FIRST4_T0, buf, sizeof(buf));
	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	EXPECT_FALSE(d.hdr.key & XTP_KEY_RETURN);
	EXPECT_EQ(0x1234, d.hdr.key);
}

/* ---------------------------------------------------------------- */
/* Malformed segments.                                              */

/*
 * Shrink the sample's DLEN to every smaller value (with a matching buffer
 * and CHECK) and expect @short_err below @min_ok bytes of payload.
 */
static void shrink(struct __test_metadata *_metadata, unsigned int id,
		   int short_err, u32 min_ok, u32 from_nspan, int nspan_err)
{
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	int n, rc, want;
	u32 dl;

	n = encode_sample(id, buf, sizeof(buf));
	ASSERT_GT(n, 32);
	for (dl = 0; dl < (u32)n - 32; dl++) {
		u8 tmp[SAMPLE_MAX_LEN];
		size_t len;

		memcpy(tmp, buf, n);
		len = set_dlen(tmp, dl);
		rc = decode_copy(tmp, len, 0, &d);
		want = dl >= min_ok ? 0 : dl >= from_nspan ? nspan_err :
		       short_err;
		EXPECT_EQ(want, rc) TH_LOG("sample %u dlen %u: %s", id, dl,
					   xtp_wire_strerror(rc));
	}
}

TEST(short_segments)
{
	const u32 never = 0xffffffff;

	shrink(_metadata, S_DATA_BTAG, E(ESEGLEN), 8, never, 0);
	shrink(_metadata, S_CNTL, E(ESEGLEN), never, never, 0);
	shrink(_metadata, S_ECNTL0, E(ESEGLEN), never, never, 0);
	shrink(_metadata, S_ECNTL5, E(ESEGLEN), never, 24, E(ENSPAN));
	shrink(_metadata, S_TCNTL_T0, E(ESEGLEN), never, never, 0);
	shrink(_metadata, S_TCNTL_T1, E(ESEGLEN), never, never, 0);
	shrink(_metadata, S_FIRST4_T0, E(ESEGLEN), 24, never, 0);
	shrink(_metadata, S_FIRST6_T1, E(ESEGLEN), 64, never, 0);
	shrink(_metadata, S_JCNTL4_T0, E(ESEGLEN), never, never, 0);
	shrink(_metadata, S_JCNTL6_T1, E(ESEGLEN), never, never, 0);
	shrink(_metadata, S_DIAG, E(ESEGLEN), 8, never, 0);
	/* Data-carrying types with an empty payload are fine. */
	shrink(_metadata, S_DATA, 0, 0, never, 0);
}

TEST(long_segments)
{
	static const unsigned int ids[] = { S_CNTL, S_TCNTL_T0, S_TCNTL_T1,
					    S_JCNTL4_T0, S_JCNTL6_T1,
					    S_ECNTL0, S_ECNTL1 };
	struct xtp_wire_pkt d;
	unsigned int i, extra;
	u8 buf[SAMPLE_MAX_LEN];

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		for (extra = 1; extra <= 40; extra++) {
			int n = encode_sample(ids[i], buf, sizeof(buf));
			bool ecntl = ids[i] == S_ECNTL0 || ids[i] == S_ECNTL1;
			size_t len;

			memset(buf + n, 0, extra);
			len = set_dlen(buf, n - 32 + extra);
			EXPECT_EQ(ecntl ? E(ENSPAN) : E(ESEGLEN),
				  decode_copy(buf, len, 0, &d))
				TH_LOG("sample %u +%u", ids[i], extra);
		}
	}
}

/* Offset of the address segment in a FIRST (0) or JCNTL (32) payload. */
static void bad_addr(struct __test_metadata *_metadata, unsigned int id,
		     size_t aoff)
{
	static const u16 alens[] = { 0, 4, 8, 15, 17, 24, 39, 41, 0xffff };
	static const u8 afs[] = { 0, 2, 3, 4, 5, 7, 8, 127, 128, 255 };
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN], *a;
	unsigned int i;
	int n;

	n = encode_sample(id, buf, sizeof(buf));
	a = buf + 32 + aoff;
	for (i = 0; i < ARRAY_SIZE(alens); i++) {
		u16 good = rd16(a);

		a[0] = alens[i] >> 8;
		a[1] = alens[i] & 0xff;
		fix_csum(buf, n);
		EXPECT_EQ(alens[i] == good ? 0 : E(EALEN),
			  decode_copy(buf, n, 0, &d)) TH_LOG("alen %u", alens[i]);
		a[0] = good >> 8;
		a[1] = good & 0xff;
	}
	/* The other supported format's length is wrong for this one. */
	a[1] = a[3] == XTP_AFORMAT_IPV4 ? 40 : 16;
	fix_csum(buf, n);
	EXPECT_EQ(E(EALEN), decode_copy(buf, n, 0, &d));

	for (i = 0; i < ARRAY_SIZE(afs); i++) {
		a[3] = afs[i];
		fix_csum(buf, n);
		EXPECT_EQ(E(EAFORMAT), decode_copy(buf, n, 0, &d))
			TH_LOG("aformat %u", afs[i]);
	}
}

TEST(bad_address_segment)
{
	bad_addr(_metadata, S_FIRST4_T0, 0);
	bad_addr(_metadata, S_FIRST6_T1, 0);
	bad_addr(_metadata, S_JCNTL4_T0, 32);
	bad_addr(_metadata, S_JCNTL6_T1, 32);
}

static void bad_traffic(struct __test_metadata *_metadata, unsigned int id,
			size_t toff)
{
	static const u16 tlens[] = { 0, 4, 7, 9, 16, 23, 25, 0xffff };
	static const u8 tfs[] = { 2, 3, 4, 127, 128, 255 };
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN], *t;
	unsigned int i;
	int n;

	n = encode_sample(id, buf, sizeof(buf));
	t = buf + 32 + toff;
	for (i = 0; i < ARRAY_SIZE(tlens); i++) {
		u16 good = rd16(t);

		t[0] = tlens[i] >> 8;
		t[1] = tlens[i] & 0xff;
		fix_csum(buf, n);
		EXPECT_EQ(E(ETLEN), decode_copy(buf, n, 0, &d))
			TH_LOG("sample %u tlen %u", id, tlens[i]);
		t[0] = good >> 8;
		t[1] = good & 0xff;
	}
	t[1] = t[3] == XTP_TFORMAT_NULL ? 24 : 8;
	fix_csum(buf, n);
	EXPECT_EQ(E(ETLEN), decode_copy(buf, n, 0, &d));

	for (i = 0; i < ARRAY_SIZE(tfs); i++) {
		t[3] = tfs[i];
		fix_csum(buf, n);
		EXPECT_EQ(E(ETFORMAT), decode_copy(buf, n, 0, &d))
			TH_LOG("sample %u tformat %u", id, tfs[i]);
	}
}

TEST(bad_traffic_segment)
{
	bad_traffic(_metadata, S_FIRST4_T0, 16);
	bad_traffic(_metadata, S_FIRST6_T1, 40);
	bad_traffic(_metadata, S_TCNTL_T0, 32);
	bad_traffic(_metadata, S_TCNTL_T1, 32);
	bad_traffic(_metadata, S_JCNTL4_T0, 32 + 16);
	bad_traffic(_metadata, S_JCNTL6_T1, 32 + 40);
}

TEST(tformat_swap_changes_length)
{
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	int n;

	/* A FIRST with a rate tspec (tlen 24) re-labelled NULL but tlen 8:
	 * the 16 spare bytes become user data, which is legitimate.
	 */
	n = encode_sample(S_FIRST4_T1, buf, sizeof(buf));
	buf[32 + 16 + 1] = 8;
	buf[32 + 16 + 3] = 0;
	fix_csum(buf, n);
	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	ASSERT_EQ(0, xtp_wire_decode(buf, n, 0, &d));
	EXPECT_EQ(16, d.data_len);
}

TEST(nspan_overflow)
{
	/* nspan * 16 wraps to a plausible value for some of these. */
	static const u32 bad[] = { 0, 1, 2, 4, 6, 0x10000001, 0x10000005,
				   0x0fffffff, 0x80000000, 0xfffffffe,
				   0xffffffff };
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	unsigned int i;
	int n;

	n = encode_sample(S_ECNTL5, buf, sizeof(buf));
	ASSERT_EQ(32 + 24 + 5 * 16, n);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		u8 *ns = buf + 32 + 20;

		ns[0] = bad[i] >> 24;
		ns[1] = (bad[i] >> 16) & 0xff;
		ns[2] = (bad[i] >> 8) & 0xff;
		ns[3] = bad[i] & 0xff;
		fix_csum(buf, n);
		EXPECT_EQ(E(ENSPAN), decode_copy(buf, n, 0, &d))
			TH_LOG("nspan %#x", bad[i]);
	}
	/* An empty ECNTL claiming spans. */
	n = encode_sample(S_ECNTL0, buf, sizeof(buf));
	buf[32 + 23] = 1;
	fix_csum(buf, n);
	EXPECT_EQ(E(ENSPAN), decode_copy(buf, n, 0, &d));
	memset(buf + 32 + 20, 0xff, 4);
	fix_csum(buf, n);
	EXPECT_EQ(E(ENSPAN), decode_copy(buf, n, 0, &d));
}

TEST(span_accessor)
{
	struct xtp_wire_pkt d;
	struct sample s;
	u8 buf[SAMPLE_MAX_LEN];
	u64 l, r;
	u32 i;
	int n;

	sample_build(S_ECNTL5, &s);
	n = xtp_wire_encode(&s.pkt, buf, sizeof(buf));
	ASSERT_EQ(0, xtp_wire_decode(buf, n, 0, &d));
	ASSERT_EQ(5, d.ctl.nspan);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, xtp_wire_span(&d, i, &l, &r));
		EXPECT_EQ(s.spans[i].left, l);
		EXPECT_EQ(s.spans[i].right, r);
		/* network order on the wire */
		EXPECT_EQ(s.spans[i].left, rd64(buf + 56 + 16 * i));
		EXPECT_EQ(s.spans[i].right, rd64(buf + 64 + 16 * i));
		ASSERT_EQ(0, xtp_wire_span(&s.pkt, i, &l, &r));
		EXPECT_EQ(s.spans[i].left, l);
	}
	EXPECT_EQ(E(EINVAL), xtp_wire_span(&d, 5, &l, &r));
	EXPECT_EQ(E(EINVAL), xtp_wire_span(&d, 0xffffffff, &l, &r));
	sample_build(S_ECNTL0, &s);
	EXPECT_EQ(E(EINVAL), xtp_wire_span(&s.pkt, 0, &l, &r));
	s.pkt.ctl.nspan = 1;
	EXPECT_EQ(E(EINVAL), xtp_wire_span(&s.pkt, 0, &l, &r));
}

TEST(diag_message)
{
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	int n;

	n = encode_sample(S_DIAG, buf, sizeof(buf));
	ASSERT_EQ(0, xtp_wire_decode(buf, n, 0, &d));
	EXPECT_EQ(XTP_DIAG_CONTEXT_REFUSED, d.diag_code);
	EXPECT_EQ(XTP_DIAGV_NO_LISTENER, d.diag_value);
	EXPECT_EQ(1, rd32(buf + 32));
	EXPECT_EQ(1, rd32(buf + 36));
	EXPECT_EQ(d.hdr.dlen - 8, d.data_len);
	EXPECT_EQ(0, memcmp(d.data, "no listener on port 9999", d.data_len));
}

TEST(decode_zeroes_unused_fields)
{
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	int n;

	n = encode_sample(S_CNTL, buf, sizeof(buf));
	memset(&d, 0xff, sizeof(d));
	ASSERT_EQ(0, xtp_wire_decode(buf, n, 0, &d));
	EXPECT_EQ(0, d.ctl.xkey);
	EXPECT_EQ(0, d.ctl.nspan);
	EXPECT_TRUE(d.ctl.raw_spans == NULL);
	EXPECT_TRUE(d.data == NULL);
	EXPECT_EQ(0, d.data_len);
	EXPECT_EQ(0, d.addr.aformat);
	EXPECT_EQ(0, d.btag);
}

/* ---------------------------------------------------------------- */
/* Checksum.                                                        */

TEST(checksum_reference_rfc1071)
{
	/* RFC 1071 section 3 example: folded sum 0xddf2. */
	static const u8 ex[] = { 0x00, 0x01, 0xf2, 0x03,
				 0xf4, 0xf5, 0xf6, 0xf7 };

	EXPECT_EQ(0xddf2, ref_sum16(ex, sizeof(ex)));
	EXPECT_EQ(0x0100, ref_sum16(ex + 1, 1));
}

TEST(checksum_matches_reference)
{
	struct xtp_wire_pkt p = { 0 };
	u8 data[1500], buf[1600];
	unsigned int len, seed = 1;
	int n;

	/* Odd and even lengths, random contents, both coverage modes. */
	p.hdr.pformat = XTP_PF_DATA;
	p.data = data;
	for (len = 0; len < 1500; len += 1 + len / 3) {
		unsigned int i;

		for (i = 0; i < len; i++) {
			seed = seed * 1103515245 + 12345;
			data[i] = seed >> 16;
		}
		p.data_len = len;
		p.hdr.key = seed;
		p.hdr.options = len & 1 ? XTP_CMD_NOCHECK : 0;
		n = xtp_wire_encode(&p, buf, sizeof(buf));
		ASSERT_EQ(32 + len, (unsigned int)n);
		EXPECT_EQ(0xffff, ref_sum16(buf, len & 1 ? 32 : n));
		EXPECT_TRUE(xtp_wire_csum_ok(buf, n));
		EXPECT_EQ(rd16(buf + 16), xtp_wire_csum(buf, n));
	}
	EXPECT_EQ(0, xtp_wire_csum(buf, 31));
	EXPECT_FALSE(xtp_wire_csum_ok(buf, 31));
}

TEST(checksum_nocheck_covers_header_only)
{
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	int n;

	n = encode_sample(S_DATA_NOCHECK, buf, sizeof(buf));
	EXPECT_EQ(0xffff, ref_sum16(buf, 32));
	buf[n - 1] ^= 0xff;
	buf[40] ^= 0x01;
	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	/* Clearing NOCHECK without fixing CHECK now fails. */
	buf[8] &= ~(XTP_CMD_NOCHECK >> 24);
	EXPECT_EQ(E(ECSUM), decode_copy(buf, n, 0, &d));
}

TEST(checksum_full_covers_payload)
{
	struct xtp_wire_pkt d;
	u8 buf[SAMPLE_MAX_LEN];
	int n;

	n = encode_sample(S_DATA, buf, sizeof(buf));
	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	buf[n - 1] ^= 0x01;
	EXPECT_EQ(E(ECSUM), decode_copy(buf, n, 0, &d));
	EXPECT_EQ(0, decode_copy(buf, n, XTP_WIRE_F_NOCSUM, &d));
	/* Compensating changes in two words cancel, as RFC 1071 allows. */
	buf[n - 1] ^= 0x01;
	buf[40] += 1;
	buf[42] -= 1;
	EXPECT_EQ(0, decode_copy(buf, n, 0, &d));
}

/*
 * Without the CHECK test, a DATA packet's decoder reads the header and the
 * beginning tag and nothing after them: the kernel hands it the packet's
 * length with only that much of it in the skb's linear area, the data in
 * pages.  Here the rest of the packet is not even allocated (ASan).
 */
TEST(data_decoded_from_header_alone)
{
	static const unsigned int ids[] = {
		S_DATA, S_DATA_BTAG, S_DATA_ALLOPTS, S_DATA_NOCHECK,
	};
	struct xtp_wire_pkt d, want;
	u8 buf[SAMPLE_MAX_LEN], *head;
	unsigned int i;
	size_t hlen;
	int n;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		n = encode_sample(ids[i], buf, sizeof(buf));
		ASSERT_EQ(0, xtp_wire_decode(buf, n, 0, &want));
		hlen = want.data - buf;
		/* What xtp_rcv_pull() makes linear. */
		ASSERT_LE(hlen, XTP_WIRE_HDR_LEN + XTP_WIRE_BTAG_LEN);
		ASSERT_GT(want.data_len, 0);
		head = malloc(hlen);
		ASSERT_NE(NULL, head);
		memcpy(head, buf, hlen);
		EXPECT_EQ(0, xtp_wire_decode(head, n, XTP_WIRE_F_NOCSUM, &d));
		EXPECT_EQ(hlen, (size_t)(d.data - head));
		EXPECT_EQ(want.data_len, d.data_len);
		EXPECT_EQ(want.btag, d.btag);
		EXPECT_EQ(want.hdr.seq, d.hdr.seq);
		free(head);
	}
}

TEST(checksum_stored_value)
{
	u8 buf[64];
	u16 stored;
	int n;

	n = encode_sample(S_CNTL, buf, sizeof(buf));
	stored = rd16(buf + 16);
	/* CHECK = ~sum of the covered bytes with the CHECK field zero. */
	buf[16] = 0;
	buf[17] = 0;
	EXPECT_EQ((u16)~ref_sum16(buf, n), stored);
	/* xtp_wire_csum() ignores whatever CHECK holds. */
	EXPECT_EQ(stored, xtp_wire_csum(buf, n));
	buf[16] = 0x12;
	buf[17] = 0x34;
	EXPECT_EQ(stored, xtp_wire_csum(buf, n));
	EXPECT_FALSE(xtp_wire_csum_ok(buf, n));
	xtp_wire_csum_set(buf, n);
	EXPECT_EQ(stored, rd16(buf + 16));
	EXPECT_TRUE(xtp_wire_csum_ok(buf, n));
}

TEST(checksum_both_zeros)
{
	struct xtp_wire_pkt d;
	struct sample s;
	u8 buf[64];
	int n;

	/* Choose SORT so the other bytes sum to 0xffff: CHECK is 0x0000. */
	sample_build(S_CNTL, &s);
	s.pkt.hdr.sort = 0;
	n = xtp_wire_encode(&s.pkt, buf, sizeof(buf));
	s.pkt.hdr.sort = rd16(buf + 16);
	n = xtp_wire_encode(&s.pkt, buf, sizeof(buf));
	ASSERT_EQ(52, n);
	EXPECT_EQ(0, rd16(buf + 16));
	ASSERT_EQ(0, decode_copy(buf, n, 0, &d));
	/* 0xffff, the other ones' complement zero, verifies too. */
	buf[16] = 0xff;
	buf[17] = 0xff;
	EXPECT_EQ(0, decode_copy(buf, n, 0, &d));
	EXPECT_TRUE(xtp_wire_csum_ok(buf, n));
}

/* ---------------------------------------------------------------- */
/* Encoder argument checks and error names.                         */

TEST(encode_invalid)
{
	struct sample s;
	u8 buf[SAMPLE_MAX_LEN];

	sample_build(S_CNTL, &s);
	s.pkt.hdr.options |= 0x4000;	/* OPTIONS-24 position by mistake */
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));

	sample_build(S_CNTL, &s);
	s.pkt.hdr.pformat = 4;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	s.pkt.hdr.pformat = 6;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	s.pkt.hdr.pformat = 9;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));

	sample_build(S_CNTL, &s);
	s.pkt.data = s.data;
	s.pkt.data_len = 1;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));

	sample_build(S_DATA, &s);
	s.pkt.data = NULL;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));

	sample_build(S_DATA, &s);
	s.pkt.data_len = 0x7fffffff;	/* too long, not dereferenced */
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	EXPECT_EQ(E(EINVAL), xtp_wire_pkt_len(&s.pkt));
	s.pkt.data_len = 0x7fffffff - 32;
	EXPECT_EQ(0x7fffffff, xtp_wire_pkt_len(&s.pkt));
	EXPECT_EQ(E(ENOSPC), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));

	sample_build(S_ECNTL1, &s);
	s.pkt.ctl.spans = NULL;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	sample_build(S_ECNTL1, &s);
	s.pkt.ctl.nspan = XTP_WIRE_MAX_NSPAN + 1;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	s.pkt.ctl.nspan = 0xffffffff;
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	s.pkt.ctl.nspan = XTP_WIRE_MAX_NSPAN;	/* too long for an int */
	EXPECT_EQ(E(EINVAL), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));

	sample_build(S_FIRST4_T0, &s);
	s.pkt.addr.aformat = 0;
	EXPECT_EQ(E(EAFORMAT), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	sample_build(S_FIRST4_T0, &s);
	s.pkt.traffic.tformat = 2;
	EXPECT_EQ(E(ETFORMAT), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	sample_build(S_TCNTL_T0, &s);
	s.pkt.traffic.tformat = 0xff;
	EXPECT_EQ(E(ETFORMAT), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	sample_build(S_JCNTL4_T0, &s);
	s.pkt.addr.aformat = 2;
	EXPECT_EQ(E(EAFORMAT), xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
	/* A TCNTL ignores the address segment it does not carry. */
	sample_build(S_TCNTL_T0, &s);
	s.pkt.addr.aformat = 99;
	EXPECT_EQ(40 + 32, xtp_wire_encode(&s.pkt, buf, sizeof(buf)));
}

TEST(error_names_distinct)
{
	const char *names[XTP_WIRE_NERR];
	int i, j;

	for (i = 0; i < XTP_WIRE_NERR; i++) {
		names[i] = xtp_wire_strerror(-i);
		ASSERT_NE(NULL, names[i]);
		EXPECT_STREQ(names[i], xtp_wire_strerror(i));
		EXPECT_STRNE("unknown error", names[i]);
		for (j = 0; j < i; j++)
			EXPECT_STRNE(names[j], names[i]);
	}
	EXPECT_STREQ("unknown error", xtp_wire_strerror(-XTP_WIRE_NERR));
	EXPECT_STREQ("unknown error", xtp_wire_strerror(-2147483647 - 1));
	EXPECT_STREQ("unknown error", xtp_wire_strerror(2147483647));
}

TEST_HARNESS_MAIN
