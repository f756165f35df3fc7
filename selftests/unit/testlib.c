// SPDX-License-Identifier: GPL-2.0
#include "testlib.h"

#include <stdio.h>

u16 rd16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

u32 rd32(const u8 *p)
{
	return (u32)rd16(p) << 16 | rd16(p + 2);
}

u64 rd64(const u8 *p)
{
	return (u64)rd32(p) << 32 | rd32(p + 4);
}

u16 ref_sum16(const u8 *p, size_t len)
{
	u32 sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		sum += (u32)(p[i] << 8 | p[i + 1]);
		sum = (sum & 0xffff) + (sum >> 16);
	}
	if (len & 1) {
		sum += (u32)p[len - 1] << 8;
		sum = (sum & 0xffff) + (sum >> 16);
	}
	return (u16)sum;
}

void fix_csum(u8 *p, size_t len)
{
	size_t cover = len;
	u16 c;

	if (rd32(p + 8) & XTP_CMD_NOCHECK)
		cover = XTP_WIRE_HDR_LEN;
	p[16] = 0;
	p[17] = 0;
	c = (u16)~ref_sum16(p, cover);
	p[16] = c >> 8;
	p[17] = c & 0xff;
}

/* 2001:db8::1 and 2001:db8::2, documentation addresses. */
static const u8 v6_a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const u8 v6_b[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

static void set_v4(struct xtp_wire_addr *a, u16 dport, u16 sport)
{
	/* 198.18.0.2 <- 198.18.0.1 */
	static const u8 d[4] = { 198, 18, 0, 2 }, s[4] = { 198, 18, 0, 1 };

	a->adomain = XTP_ADOMAIN_IP;
	a->aformat = XTP_AFORMAT_IPV4;
	memcpy(&a->dsthost.v4, d, 4);
	memcpy(&a->srchost.v4, s, 4);
	a->dstport = dport;
	a->srcport = sport;
}

static void set_v6(struct xtp_wire_addr *a, u16 dport, u16 sport)
{
	a->adomain = XTP_ADOMAIN_IP;
	a->aformat = XTP_AFORMAT_IPV6;
	memcpy(a->dsthost.v6, v6_b, 16);
	memcpy(a->srchost.v6, v6_a, 16);
	a->dstport = dport;
	a->srcport = sport;
}

static void set_rate(struct xtp_wire_traffic *t)
{
	t->service = XTP_SVC_STREAM;
	t->tformat = XTP_TFORMAT_RATE;
	t->maxdata = 1448;
	t->inrate = 125000;
	t->inburst = 4344;
	t->outrate = 250000;
	t->outburst = 8688;
}

static void set_null(struct xtp_wire_traffic *t, u8 service)
{
	t->service = service;
	t->tformat = XTP_TFORMAT_NULL;
}

static void set_data(struct sample *s, u32 len, u8 seed)
{
	u32 i;

	for (i = 0; i < len; i++)
		s->data[i] = (u8)(seed + i * 7);
	s->pkt.data = len ? s->data : NULL;
	s->pkt.data_len = len;
}

static void set_ctl(struct xtp_wire_pkt *p)
{
	p->ctl.rseq = 0x0000000100000018ULL;
	p->ctl.alloc = 0x00000001000160b8ULL;
	p->ctl.echo = 0xdeadbeef;
}

static void set_spans(struct sample *s, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		s->spans[i].left = 0x0102030405060000ULL + 4000 * i + 1448;
		s->spans[i].right = s->spans[i].left + 1448 + i;
	}
	s->pkt.ctl.nspan = n;
	s->pkt.ctl.spans = n ? s->spans : NULL;
}


static const char * const sample_names[S_COUNT] = {
	[S_DATA] = "data",
	[S_DATA_EMPTY] = "data_empty",
	[S_DATA_BTAG] = "data_btag",
	[S_DATA_NOCHECK] = "data_nocheck",
	[S_DATA_ALLOPTS] = "data_all_options",
	[S_CNTL] = "cntl",
	[S_FIRST4_T0] = "first_ipv4_tf0",
	[S_FIRST4_T1] = "first_ipv4_tf1",
	[S_FIRST6_T0] = "first_ipv6_tf0",
	[S_FIRST6_T1] = "first_ipv6_tf1",
	[S_ECNTL0] = "ecntl_0_spans",
	[S_ECNTL1] = "ecntl_1_span",
	[S_ECNTL5] = "ecntl_5_spans",
	[S_TCNTL_T0] = "tcntl_tf0",
	[S_TCNTL_T1] = "tcntl_tf1",
	[S_JCNTL4_T0] = "jcntl_ipv4_tf0",
	[S_JCNTL6_T1] = "jcntl_ipv6_tf1",
	[S_DIAG] = "diag",
	[S_DIAG_EMPTY] = "diag_empty",
};

unsigned int sample_count(void)
{
	return S_COUNT;
}

void sample_build(unsigned int i, struct sample *s)
{
	struct xtp_wire_pkt *p = &s->pkt;
	static const char msg[] = "no listener on port 9999";

	memset(s, 0, sizeof(*s));
	s->name = sample_names[i];
	p->hdr.key = 0x00000000c0ffee42ULL | XTP_KEY_RETURN;
	p->hdr.sync = 0x01020304;
	p->hdr.seq = 0x1122334455667788ULL;
	p->hdr.options = XTP_CMD_SREQ;

	switch (i) {
	case S_DATA:
		p->hdr.pformat = XTP_PF_DATA;
		p->hdr.options |= XTP_CMD_EOM | XTP_CMD_SORT;
		p->hdr.sort = 0xa5c3;
		set_data(s, 100, 1);
		break;
	case S_DATA_EMPTY:
		p->hdr.pformat = XTP_PF_DATA;
		break;
	case S_DATA_BTAG:
		p->hdr.pformat = XTP_PF_DATA;
		p->hdr.options |= XTP_CMD_BTAG;
		p->btag = 0x8877665544332211ULL;
		set_data(s, 33, 2);
		break;
	case S_DATA_NOCHECK:
		p->hdr.pformat = XTP_PF_DATA;
		p->hdr.options |= XTP_CMD_NOCHECK;
		set_data(s, 51, 3);
		break;
	case S_DATA_ALLOPTS:
		/* Every option bit but BTAG, the undefined one included. */
		p->hdr.pformat = XTP_PF_DATA;
		p->hdr.options = XTP_CMD_OPTIONS & ~XTP_CMD_BTAG;
		p->hdr.sort = 7;
		p->hdr.key = 0x7fffffffffffffffULL;
		set_data(s, 10, 4);
		break;
	case S_CNTL:
		p->hdr.pformat = XTP_PF_CNTL;
		set_ctl(p);
		break;
	case S_FIRST4_T0:
		p->hdr.pformat = XTP_PF_FIRST;
		p->hdr.key = 0x1234;
		p->hdr.seq = 90000;
		set_v4(&p->addr, 9999, 40000);
		set_null(&p->traffic, XTP_SVC_STREAM);
		set_data(s, 17, 5);
		break;
	case S_FIRST4_T1:
		p->hdr.pformat = XTP_PF_FIRST;
		p->hdr.key = 0x1235;
		set_v4(&p->addr, 79, 1023);
		set_rate(&p->traffic);
		break;
	case S_FIRST6_T0:
		p->hdr.pformat = XTP_PF_FIRST;
		p->hdr.key = 0x1236;
		set_v6(&p->addr, 9998, 50000);
		set_null(&p->traffic, XTP_SVC_TRANSACTION);
		set_data(s, 200, 6);
		break;
	case S_FIRST6_T1:
		p->hdr.pformat = XTP_PF_FIRST;
		p->hdr.key = 0x1237;
		set_v6(&p->addr, 21, 65535);
		set_rate(&p->traffic);
		break;
	case S_ECNTL0:
	case S_ECNTL1:
	case S_ECNTL5:
		p->hdr.pformat = XTP_PF_ECNTL;
		p->hdr.options = 0;
		set_ctl(p);
		set_spans(s, i == S_ECNTL0 ? 0 : i == S_ECNTL1 ? 1 : 5);
		break;
	case S_TCNTL_T0:
		p->hdr.pformat = XTP_PF_TCNTL;
		set_ctl(p);
		p->ctl.xkey = 0x00000000000004a4ULL;
		set_null(&p->traffic, XTP_SVC_STREAM);
		break;
	case S_TCNTL_T1:
		p->hdr.pformat = XTP_PF_TCNTL;
		set_ctl(p);
		p->ctl.xkey = 0x0abcdef012345678ULL;
		set_rate(&p->traffic);
		break;
	case S_JCNTL4_T0:
		p->hdr.pformat = XTP_PF_JCNTL;
		p->hdr.options |= XTP_CMD_MULTI;
		set_ctl(p);
		p->ctl.xkey = 77;
		set_v4(&p->addr, 5000, 5001);
		set_null(&p->traffic, XTP_SVC_RMCAST);
		break;
	case S_JCNTL6_T1:
		p->hdr.pformat = XTP_PF_JCNTL;
		p->hdr.options |= XTP_CMD_MULTI;
		set_ctl(p);
		p->ctl.xkey = 78;
		set_v6(&p->addr, 5002, 5003);
		set_rate(&p->traffic);
		break;
	case S_DIAG:
		p->hdr.pformat = XTP_PF_DIAG;
		p->hdr.options = 0;
		p->diag_code = XTP_DIAG_CONTEXT_REFUSED;
		p->diag_value = XTP_DIAGV_NO_LISTENER;
		memcpy(s->data, msg, sizeof(msg) - 1);
		p->data = s->data;
		p->data_len = sizeof(msg) - 1;
		break;
	case S_DIAG_EMPTY:
		p->hdr.pformat = XTP_PF_DIAG;
		p->hdr.options = 0;
		p->diag_code = XTP_DIAG_PROTOCOL_ERROR;
		p->diag_value = XTP_DIAGV_IMPROPER_STATE;
		break;
	}
}

#define DIFF(field)							\
	do {								\
		if (a->field != b->field) {				\
			snprintf(why, whylen, "%s: %llu != %llu", #field, \
				 (unsigned long long)a->field,		\
				 (unsigned long long)b->field);		\
			return 1;					\
		}							\
	} while (0)

static int addr_cmp(const struct xtp_wire_pkt *a, const struct xtp_wire_pkt *b,
		    char *why, size_t whylen)
{
	size_t n = a->addr.aformat == XTP_AFORMAT_IPV4 ? 4 : 16;

	DIFF(addr.adomain);
	DIFF(addr.aformat);
	DIFF(addr.dstport);
	DIFF(addr.srcport);
	if (memcmp(&a->addr.dsthost, &b->addr.dsthost, n) ||
	    memcmp(&a->addr.srchost, &b->addr.srchost, n)) {
		snprintf(why, whylen, "address hosts differ");
		return 1;
	}
	return 0;
}

static int traffic_cmp(const struct xtp_wire_pkt *a,
		       const struct xtp_wire_pkt *b, char *why, size_t whylen)
{
	DIFF(traffic.service);
	DIFF(traffic.tformat);
	if (a->traffic.tformat == XTP_TFORMAT_NULL) {
		DIFF(traffic.traffic);
		return 0;
	}
	DIFF(traffic.maxdata);
	DIFF(traffic.inrate);
	DIFF(traffic.inburst);
	DIFF(traffic.outrate);
	DIFF(traffic.outburst);
	return 0;
}

int pkt_cmp(const struct xtp_wire_pkt *a, const struct xtp_wire_pkt *b,
	    char *why, size_t whylen)
{
	u64 al, ar, bl, br;
	u32 i;

	DIFF(hdr.key);
	DIFF(hdr.options);
	DIFF(hdr.rsvd);
	DIFF(hdr.pformat);
	DIFF(hdr.sort);
	DIFF(hdr.sync);
	DIFF(hdr.seq);
	DIFF(data_len);
	if (a->data_len && memcmp(a->data, b->data, a->data_len)) {
		snprintf(why, whylen, "data differs");
		return 1;
	}

	switch (a->hdr.pformat) {
	case XTP_PF_DATA:
		if (a->hdr.options & XTP_CMD_BTAG)
			DIFF(btag);
		return 0;
	case XTP_PF_ECNTL:
		DIFF(ctl.nspan);
		for (i = 0; i < a->ctl.nspan; i++) {
			if (xtp_wire_span(a, i, &al, &ar) ||
			    xtp_wire_span(b, i, &bl, &br) ||
			    al != bl || ar != br) {
				snprintf(why, whylen, "span %u differs", i);
				return 1;
			}
		}
		/* fall through */
	case XTP_PF_CNTL:
		DIFF(ctl.rseq);
		DIFF(ctl.alloc);
		DIFF(ctl.echo);
		return 0;
	case XTP_PF_TCNTL:
	case XTP_PF_JCNTL:
		DIFF(ctl.rseq);
		DIFF(ctl.alloc);
		DIFF(ctl.echo);
		DIFF(ctl.rsvd);
		DIFF(ctl.xkey);
		if (a->hdr.pformat == XTP_PF_JCNTL &&
		    addr_cmp(a, b, why, whylen))
			return 1;
		return traffic_cmp(a, b, why, whylen);
	case XTP_PF_FIRST:
		if (addr_cmp(a, b, why, whylen))
			return 1;
		return traffic_cmp(a, b, why, whylen);
	case XTP_PF_DIAG:
		DIFF(diag_code);
		DIFF(diag_value);
		return 0;
	}
	snprintf(why, whylen, "unknown pformat %u", a->hdr.pformat);
	return 1;
}
