// SPDX-License-Identifier: GPL-2.0
/*
 * xtp_pcap: print the XTP packets of a capture the way the LinuxXTP thesis
 * prints its traces, so that a selftest can compare an exchange with the
 * thesis figures line by line.
 *
 *   xtp_pcap FILE CLIENT-IPv4 [N OUT]
 *
 * With N and OUT, the N-th XTP packet (from 1) is also written to OUT as
 * raw XTP bytes, for a test to replay it, with CHECK as the wire carries
 * it.  With "keys" instead, the key
 * names are followed by one line "keys A=<hex> B=<hex> ...", for a test
 * to address packets to a context.  With "sums", a last line counts the
 * packets whose CHECK verifies, those whose CHECK the sender left to its
 * device, and those whose CHECK is wrong, the IP datagrams that carried a
 * train of several XTP packets (a capture on the sending host sees trains
 * before segmentation), the most packets one carried, the largest XTP
 * packet and the IP headers whose checksum is wrong: "sums ok=N device=N
 * bad=N trains=N most=N largest=N ipbad=N".
 *
 * One line per XTP packet, e.g.
 *
 *   c>s F kyA dl1024 sy1 sq90000 EOM WCL SRQ
 *   s>c T kyA+RTN dl40 sy0 sq0 RCL rq1024 al91024 ec1 xkB
 *
 * Keys are named A, B, ... in order of appearance (the values are random);
 * c>s is a packet from CLIENT.  Packets the codec rejects print as
 * "BAD <reason>".  A capture on the sending host sees CHECK before a
 * device with checksum offload fills it in: zero, the seed, with the sum
 * wrong; such a packet prints as if its CHECK verified.  Reads pcap files with Ethernet, Linux cooked or raw IP
 * link types.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define MAXKEYS 16

static u64 keys[MAXKEYS];
static int nkeys;
static int sums_ok, sums_device, sums_bad, ip_bad;
static size_t largest;

/* Count an IP header whose checksum does not verify. */
static void check_ip(const u8 *ip, u32 ihl)
{
	u32 sum = 0, i;

	for (i = 0; i < ihl; i += 2)
		sum += ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	ip_bad += sum != 0xffff;
}

static char key_name(u64 key)
{
	int i;

	key &= ~XTP_KEY_RETURN;
	for (i = 0; i < nkeys; i++)
		if (keys[i] == key)
			return 'A' + i;
	if (nkeys == MAXKEYS)
		return '?';
	keys[nkeys] = key;
	return 'A' + nkeys++;
}

static const struct { u32 mask; const char *name; } opts[] = {
	{ XTP_CMD_BTAG, "BTG" }, { XTP_CMD_END, "END" },
	{ XTP_CMD_EOM, "EOM" }, { XTP_CMD_WCLOSE, "WCL" },
	{ XTP_CMD_RCLOSE, "RCL" }, { XTP_CMD_DREQ, "DRQ" },
	{ XTP_CMD_SREQ, "SRQ" }, { XTP_CMD_FASTNAK, "FSN" },
	{ XTP_CMD_NOFLOW, "NFL" }, { XTP_CMD_SORT, "SOR" },
	{ XTP_CMD_RES, "RES" }, { XTP_CMD_MULTI, "MUL" },
	{ XTP_CMD_NOERR, "NER" }, { XTP_CMD_EDGE, "EDG" },
	{ XTP_CMD_NOCHECK, "NCK" },
};

/* Print one packet; 1 if its CHECK was left to the device, else 0. */
static int print_xtp(const u8 *p, size_t len, int c2s)
{
	static const char letters[] = "DCFE?T?J?G";
	struct xtp_wire_pkt pkt;
	unsigned int i;
	int err, device = 0;

	if (len > largest)
		largest = len;
	err = xtp_wire_decode(p, len, 0, &pkt);
	if (err == -XTP_WIRE_ECSUM && len >= XTP_WIRE_HDR_LEN &&
	    !p[XTP_WIRE_OFF_CHECK] && !p[XTP_WIRE_OFF_CHECK + 1]) {
		err = xtp_wire_decode(p, len, XTP_WIRE_F_NOCSUM, &pkt);
		device = !err;
		sums_device += device;
	} else if (err == -XTP_WIRE_ECSUM) {
		sums_bad++;
	} else if (!err) {
		sums_ok++;
	}
	if (err) {
		printf("%s BAD %s\n", c2s ? "c>s" : "s>c", xtp_wire_strerror(err));
		return 0;
	}
	printf("%s %c ky%c%s dl%u sy%u sq%llu", c2s ? "c>s" : "s>c",
	       pkt.hdr.pformat < sizeof(letters) - 1 ?
	       letters[pkt.hdr.pformat] : '?', key_name(pkt.hdr.key),
	       pkt.hdr.key & XTP_KEY_RETURN ? "+RTN" : "", pkt.hdr.dlen,
	       pkt.hdr.sync, (unsigned long long)pkt.hdr.seq);
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (pkt.hdr.options & opts[i].mask)
			printf(" %s", opts[i].name);
	switch (pkt.hdr.pformat) {
	case XTP_PF_CNTL:
	case XTP_PF_ECNTL:
	case XTP_PF_TCNTL:
		printf(" rq%llu al%llu ec%u",
		       (unsigned long long)pkt.ctl.rseq,
		       (unsigned long long)pkt.ctl.alloc, pkt.ctl.echo);
		if (pkt.hdr.pformat == XTP_PF_TCNTL)
			printf(" xk%c", key_name(pkt.ctl.xkey));
		if (pkt.hdr.pformat == XTP_PF_ECNTL)
			printf(" ns%u", pkt.ctl.nspan);
		break;
	case XTP_PF_DIAG:
		printf(" cd%u vl%u", pkt.diag_code, pkt.diag_value);
		break;
	}
	printf("\n");
	return device;
}

static u32 get32(const u8 *p, int swap)
{
	u32 v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

int main(int argc, char **argv)
{
	static u8 buf[70000];
	struct in_addr client;
	u32 linktype, caplen;
	int swap, off, n = 0, want = 0, device, k, trains = 0, most = 0;
	u32 pos;
	FILE *o;
	FILE *f;

	if (argc < 3 || argc > 5 ||
	    inet_pton(AF_INET, argv[2], &client) != 1) {
		fprintf(stderr, "usage: xtp_pcap FILE CLIENT-IPv4 [N OUT | keys | sums]\n");
		return 2;
	}
	if (argc == 5)
		want = atoi(argv[3]);
	else if (argc == 4 && strcmp(argv[3], "keys") &&
		 strcmp(argv[3], "sums"))
		return 2;
	f = fopen(argv[1], "rb");
	if (!f || fread(buf, 1, 24, f) != 24) {
		perror(argv[1]);
		return 1;
	}
	swap = get32(buf, 0) == 0xd4c3b2a1 || get32(buf, 0) == 0x4d3cb2a1;
	linktype = get32(buf + 20, swap);
	switch (linktype) {
	case 1:
		off = 14;
		break;
	case 113:
		off = 16;
		break;
	case 101:
		off = 0;
		break;
	default:
		fprintf(stderr, "unsupported link type %u\n", linktype);
		return 1;
	}
	while (fread(buf, 1, 16, f) == 16) {
		const u8 *ip;
		u32 ihl, tot;

		caplen = get32(buf + 8, swap);
		if (caplen > sizeof(buf) || fread(buf, 1, caplen, f) != caplen)
			break;
		if (caplen < off + 20u)
			continue;
		ip = buf + off;
		if ((ip[0] >> 4) != 4 || ip[9] != 36)
			continue;
		ihl = (ip[0] & 15) * 4;
		tot = ip[2] << 8 | ip[3];
		if (tot > caplen - off || ihl > tot)
			continue;
		check_ip(ip, ihl);
		/* A train seen before segmentation: packets back to back. */
		for (pos = ihl, k = 0; tot - pos >= XTP_WIRE_HDR_LEN; k++) {
			u8 *p = buf + off + pos, *d = p + XTP_WIRE_OFF_DLEN;
			u32 plen = XTP_WIRE_HDR_LEN +
				   ((u32)d[0] << 24 | d[1] << 16 | d[2] << 8 | d[3]);

			if (plen > tot - pos || tot - pos - plen < XTP_WIRE_HDR_LEN)
				plen = tot - pos;
			device = print_xtp(p, plen,
					   !memcmp(ip + 12, &client, 4));
			pos += plen;
			if (++n != want)
				continue;
			/* Written as the wire carries it: CHECK filled in. */
			if (device)
				xtp_wire_csum_set(p, plen);
			o = fopen(argv[4], "wb");
			if (!o || fwrite(p, 1, plen, o) != plen)
				return 1;
			fclose(o);
		}
		if (k > 1)
			trains++;
		if (k > most)
			most = k;
	}
	fclose(f);
	if (argc == 4 && !strcmp(argv[3], "sums")) {
		printf("sums ok=%d device=%d bad=%d trains=%d most=%d largest=%zu ipbad=%d\n",
		       sums_ok, sums_device, sums_bad, trains, most, largest,
		       ip_bad);
	} else if (argc == 4) {
		printf("keys");
		for (n = 0; n < nkeys; n++)
			printf(" %c=%llx", 'A' + n, (unsigned long long)keys[n]);
		printf("\n");
	}
	return 0;
}
