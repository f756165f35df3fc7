// SPDX-License-Identifier: GPL-2.0
/*
 * Packet writer for the tshark cross-check and the fuzzer's seed corpus.
 *
 *   oracle pcap FILE   write every golden and sample packet, plus one with a
 *                      deliberately wrong CHECK, to FILE (pcap, LINKTYPE_RAW,
 *                      each in an IPv4 header with protocol 36), and print
 *                      per packet, tab separated, what wire.c decodes:
 *                      the columns tshark_oracle.sh asks tshark for.
 *   oracle corpus DIR  write the same packets, XTP bytes only, one file each
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "golden.h"
#include "testlib.h"
#include "wire.h"

#define LINKTYPE_RAW	101
#define IP_HDR_LEN	20
#define MAX_PKT		4096

struct out_pkt {
	char name[64];
	bool c2s;
	int len;
	u8 buf[MAX_PKT];
};

static u16 ip_csum(const u8 *p, size_t len)
{
	return (u16)~ref_sum16(p, len);
}

static void put32le(FILE *f, u32 v)
{
	u8 b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

	fwrite(b, 1, 4, f);
}

static void put16le(FILE *f, u16 v)
{
	u8 b[2] = { v & 0xff, v >> 8 };

	fwrite(b, 1, 2, f);
}

/* pcap file header, little-endian, microsecond timestamps. */
static void pcap_header(FILE *f)
{
	put32le(f, 0xa1b2c3d4);
	put16le(f, 2);
	put16le(f, 4);
	put32le(f, 0);			/* thiszone */
	put32le(f, 0);			/* sigfigs */
	put32le(f, 65535);		/* snaplen */
	put32le(f, LINKTYPE_RAW);
}

static void pcap_record(FILE *f, unsigned int seq, const struct out_pkt *o)
{
	static const u8 a[4] = { 198, 18, 0, 1 }, b[4] = { 198, 18, 0, 2 };
	u8 ip[IP_HDR_LEN] = { 0x45, 0 };
	u16 tot = IP_HDR_LEN + o->len, c;

	ip[2] = tot >> 8;
	ip[3] = tot & 0xff;
	ip[4] = seq >> 8;		/* identification */
	ip[5] = seq & 0xff;
	ip[6] = 0x40;			/* DF */
	ip[8] = 64;			/* TTL */
	ip[9] = 36;			/* IPPROTO_XTP */
	memcpy(ip + 12, o->c2s ? a : b, 4);
	memcpy(ip + 16, o->c2s ? b : a, 4);
	c = ip_csum(ip, IP_HDR_LEN);
	ip[10] = c >> 8;
	ip[11] = c & 0xff;

	put32le(f, 1000000000 + seq);	/* ts_sec */
	put32le(f, 0);			/* ts_usec */
	put32le(f, tot);
	put32le(f, tot);
	fwrite(ip, 1, IP_HDR_LEN, f);
	fwrite(o->buf, 1, o->len, f);
}

/* Build the list: golden packets, samples, a bad-checksum packet. */
static int build_all(struct out_pkt **outp)
{
	unsigned int ns = sample_count(), n = 0, i;
	struct out_pkt *out;
	struct xtp_wire_pkt pkt;
	u8 data[GOLDEN_MAX_LEN];
	struct sample s;

	out = calloc(golden_count + ns + 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 0; i < golden_count; i++, n++) {
		golden_build(&golden[i], &pkt, data);
		snprintf(out[n].name, sizeof(out[n].name), "%s_%u",
			 golden[i].fig, golden[i].no);
		out[n].c2s = golden[i].c2s;
		out[n].len = xtp_wire_encode(&pkt, out[n].buf, MAX_PKT);
	}
	for (i = 0; i < ns; i++, n++) {
		sample_build(i, &s);
		snprintf(out[n].name, sizeof(out[n].name), "sample_%s",
			 s.name);
		out[n].c2s = true;
		out[n].len = xtp_wire_encode(&s.pkt, out[n].buf, MAX_PKT);
	}
	/* A copy of the first golden CNTL with CHECK off by one. */
	golden_build(&golden[2], &pkt, data);
	snprintf(out[n].name, sizeof(out[n].name), "bad_checksum");
	out[n].c2s = false;
	out[n].len = xtp_wire_encode(&pkt, out[n].buf, MAX_PKT);
	if (out[n].len > 0)
		out[n].buf[17] ^= 0x01;
	n++;

	for (i = 0; i < n; i++) {
		if (out[i].len < 0) {
			fprintf(stderr, "oracle: %s: %s\n", out[i].name,
				xtp_wire_strerror(out[i].len));
			free(out);
			return -EINVAL;
		}
	}
	*outp = out;
	return n;
}

static void print_host(const struct xtp_wire_addr *a,
			const union xtp_wire_host *h)
{
	char s[64];

	inet_ntop(a->aformat == XTP_AFORMAT_IPV4 ? AF_INET : AF_INET6, h, s,
		  sizeof(s));
	printf("\t%s", s);
}

static void print_ctl(const struct xtp_wire_ctl *c, bool on)
{
	if (on)
		printf("\t%llu\t%llu\t%u", (unsigned long long)c->rseq,
		       (unsigned long long)c->alloc, c->echo);
	else
		printf("\t\t\t");
}

/* Option bits in the order of the xtp.cmd.options.* columns. */
static const u32 opts[] = {
	XTP_CMD_NOCHECK, XTP_CMD_EDGE, XTP_CMD_NOERR, XTP_CMD_MULTI,
	XTP_CMD_RES, XTP_CMD_SORT, XTP_CMD_NOFLOW, XTP_CMD_FASTNAK,
	XTP_CMD_SREQ, XTP_CMD_DREQ, XTP_CMD_RCLOSE, XTP_CMD_WCLOSE,
	XTP_CMD_EOM, XTP_CMD_END, XTP_CMD_BTAG,
};

/*
 * One line per packet: the columns ORACLE_FIELDS in tshark_oracle.sh asks
 * tshark for, formatted as tshark prints them (empty where the packet has
 * no such field), then our RETURN bit and the packet's name.
 */
static void print_decoded(unsigned int no, const struct out_pkt *o)
{
	struct xtp_wire_pkt d;
	const struct xtp_wire_ctl *c = &d.ctl;
	const struct xtp_wire_traffic *t = &d.traffic;
	int rc = xtp_wire_decode(o->buf, o->len, 0, &d);
	bool ok = rc == 0, tc, addr, tspec;
	unsigned int i;
	u8 pf;

	if (rc == -XTP_WIRE_ECSUM)
		rc = xtp_wire_decode(o->buf, o->len, XTP_WIRE_F_NOCSUM, &d);
	if (rc) {
		printf("%u\tdecode error: %s\t%s\n", no,
		       xtp_wire_strerror(rc), o->name);
		return;
	}
	pf = d.hdr.pformat;
	tc = pf == XTP_PF_TCNTL || pf == XTP_PF_JCNTL;
	addr = pf == XTP_PF_FIRST || pf == XTP_PF_JCNTL;
	tspec = addr || pf == XTP_PF_TCNTL;

	printf("%u\t0x%016llx\t%u\t0x%06x\t%u\t%u\t%llu\t%d", no,
	       (unsigned long long)d.hdr.key, pf,
	       (d.hdr.options | (u32)d.hdr.rsvd << 8) >> 8, d.hdr.dlen,
	       d.hdr.sync, (unsigned long long)d.hdr.seq, ok);
	print_ctl(c, pf == XTP_PF_CNTL);
	print_ctl(c, pf == XTP_PF_ECNTL);
	if (pf == XTP_PF_ECNTL)
		printf("\t%u", c->nspan);
	else
		printf("\t");
	print_ctl(c, tc);
	if (tc)
		printf("\t%u\t0x%016llx", c->rsvd, (unsigned long long)c->xkey);
	else
		printf("\t\t");
	if (addr) {
		printf("\t%u\t%u\t%u", d.addr.alen, d.addr.adomain,
		       d.addr.aformat);
		print_host(&d.addr, &d.addr.dsthost);
		print_host(&d.addr, &d.addr.srchost);
		printf("\t%u\t%u", d.addr.dstport, d.addr.srcport);
	} else {
		printf("\t\t\t\t\t\t\t");
	}
	if (tspec)
		printf("\t%u\t%u\t%u", t->tlen, t->service, t->tformat);
	else
		printf("\t\t\t");
	if (tspec && t->tformat == XTP_TFORMAT_NULL)
		printf("\t%u", t->traffic);
	else
		printf("\t");
	if (tspec && t->tformat == XTP_TFORMAT_RATE)
		printf("\t%u\t%u\t%u\t%u\t%u", t->maxdata, t->inrate,
		       t->inburst, t->outrate, t->outburst);
	else
		printf("\t\t\t\t\t");
	if (pf == XTP_PF_DATA && (d.hdr.options & XTP_CMD_BTAG))
		printf("\t0x%016llx", (unsigned long long)d.btag);
	else
		printf("\t");
	if (pf == XTP_PF_DIAG)
		printf("\t%u\t%u\t%.*s", d.diag_code, d.diag_value,
		       (int)d.data_len, (const char *)d.data);
	else
		printf("\t\t\t");
	for (i = 0; i < ARRAY_SIZE(opts); i++)
		printf("\t%d", !!(d.hdr.options & opts[i]));
	printf("\t%d\t%s\n", !!(d.hdr.key & XTP_KEY_RETURN), o->name);
}

static int do_pcap(const char *file)
{
	struct out_pkt *out;
	int n, i;
	FILE *f;

	n = build_all(&out);
	if (n < 0)
		return 1;
	f = fopen(file, "wb");
	if (!f) {
		perror(file);
		free(out);
		return 1;
	}
	pcap_header(f);
	for (i = 0; i < n; i++) {
		pcap_record(f, i + 1, &out[i]);
		print_decoded(i + 1, &out[i]);
	}
	free(out);
	return fclose(f) ? 1 : 0;
}

static int do_corpus(const char *dir)
{
	struct out_pkt *out;
	char path[4096];
	int n, i;
	FILE *f;

	n = build_all(&out);
	if (n < 0)
		return 1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, out[i].name);
		f = fopen(path, "wb");
		if (!f) {
			perror(path);
			free(out);
			return 1;
		}
		fwrite(out[i].buf, 1, out[i].len, f);
		fclose(f);
	}
	free(out);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "pcap"))
		return do_pcap(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "corpus"))
		return do_corpus(argv[2]);
	fprintf(stderr, "usage: %s pcap FILE | corpus DIR\n", argv[0]);
	return 2;
}
