// SPDX-License-Identifier: GPL-2.0
/*
 * mtp_decode: decode the MTP datagrams of a capture with the MTP module's own
 * codec (net/mtp/wire.c, built in user space as net/mtp/wire.mk says) and
 * print, one line per UDP datagram, the fields our tcpdump prints at -nv
 * after "MTP", in the same words (tools/tcpdump/README.md).  mtp_compare.py
 * compares the two field by field.
 *
 *   mtp_decode PCAP
 *
 * Line format: "<n> <flags>\t<fields>" where flags is "full" when the
 * whole datagram was captured and "snap" when the capture was cut short
 * (the missing bytes are decoded as zeros: tcpdump's line must then be a
 * prefix of ours).  Only little-endian LINKTYPE_RAW captures, as
 * mkpcaps.py writes them; IPv4 and IPv6 without extension headers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/mtp.h>

#include "wire.h"

#define LINKTYPE_RAW	101

static const char *const actions[] = {
	[MTP_ACT_PING] = "PING", [MTP_ACT_IDSTR] = "IDSTR",
	[MTP_ACT_REGISTER] = "REGISTER", [MTP_ACT_TERMINATE] = "TERMINATE",
	[MTP_ACT_DATA] = "DATA", [MTP_ACT_GRANT] = "GRANT",
	[MTP_ACT_REVOKE] = "REVOKE", [MTP_ACT_HOLD] = "HOLD",
	[MTP_ACT_RESUME] = "RESUME", [MTP_ACT_NOTIFY] = "NOTIFY",
	[MTP_ACT_REQKEY] = "REQKEY", [MTP_ACT_STAT] = "STAT",
};

static const char *const classes[] = {
	[MTP_ERR_CLIENT] = "CLIENT", [MTP_ERR_NET] = "NET",
	[MTP_ERR_SERVER] = "SERVER", [MTP_ERR_APP] = "APP",
	[MTP_ERR_ROUTE] = "ROUTE",
};

static const char *const dmn_codes[] = {
	[MTP_ERR_DMN_SYS] = "SYS", [MTP_ERR_DMN_ACTION] = "ACTION",
	[MTP_ERR_DMN_DEL] = "DEL", [MTP_ERR_DMN_RSPSZ] = "RSPSZ",
	[MTP_ERR_DMN_VERSION] = "VERSION", [MTP_ERR_DMN_NORSRC] = "NORSRC",
	[MTP_ERR_DMN_REQSZ] = "REQSZ", [MTP_ERR_DMN_PROTO] = "PROTO",
	[MTP_ERR_DMN_CHECK] = "CHECK",
};

static const char *const net_codes[] = {
	[MTP_ERR_NET_CLIENT] = "CLIENT", [MTP_ERR_NET_SERVER] = "SERVER",
	[MTP_ERR_NET_UNAVAIL] = "UNAVAIL", [MTP_ERR_NET_DOWN] = "DOWN",
	[MTP_ERR_NET_TRANS] = "TRANS", [MTP_ERR_NET_EXPIRE] = "EXPIRE",
};

static const char *const app_codes[] = {
	[MTP_ERR_APP_ACTION] = "ACTION", [MTP_ERR_APP_CHANNEL] = "CHANNEL",
	[MTP_ERR_APP_FLAG] = "FLAG", [MTP_ERR_APP_ADDRESS] = "ADDRESS",
	[MTP_ERR_APP_DATA] = "DATA", [MTP_ERR_APP_EOD] = "EOD",
	[MTP_ERR_APP_SIZE] = "SIZE", [MTP_ERR_APP_UNAVAIL] = "UNAVAIL",
	[MTP_ERR_APP_AUTH] = "AUTH", [MTP_ERR_APP_BUSY] = "BUSY",
	[MTP_ERR_APP_HOLD] = "HOLD", [MTP_ERR_APP_TIMEOUT] = "TIMEOUT",
	[MTP_ERR_APP_PROXY] = "PROXY", [MTP_ERR_APP_VERSION] = "VERSION",
};

static const struct {
	unsigned int bit;
	const char *name;
} options[] = {
	{ MTP_OPT_SINGLE, "SINGLE" }, { MTP_OPT_NOPAYLOAD, "NOPAYLOAD" },
	{ MTP_OPT_STREAM, "STREAM" }, { MTP_OPT_SUPPRESS, "SUPPRESS" },
	{ MTP_OPT_NORESP, "NORESP" }, { MTP_OPT_TOKEN, "TOKEN" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A table entry, or the number. */
static void name(const char *const *t, size_t n, unsigned int v)
{
	if (v < n && t[v])
		fputs(t[v], stdout);
	else
		printf("%u", v);
}

static unsigned int be16(const unsigned char *p)
{
	return p[0] << 8 | p[1];
}

static void decode(const unsigned char *m, size_t len)
{
	struct mtp_wire_msg w;
	const char *sep = " opts ";
	unsigned int i;
	int err;

	err = mtp_wire_decode_hdr(m, len, &w);
	if (err == -MTP_WIRE_ETRUNC) {
		printf("MTP %zu bytes (%s) [|mtp]\n", len,
		       mtp_wire_strerror(err));
		return;
	}
	if (err == -MTP_WIRE_EVERSION) {
		printf("MTP version 0x%02x (%s) [|mtp]\n", m[0],
		       mtp_wire_strerror(err));
		return;
	}
	if (err) {
		printf("MTP ?? decode_hdr %d\n", err);
		return;
	}
	fputs("MTP", stdout);
	if (w.error) {
		fputs(" error ", stdout);
		name(classes, N(classes), w.error);
		putchar('/');
		switch (w.error) {
		case MTP_ERR_CLIENT:
		case MTP_ERR_SERVER:
			name(dmn_codes, N(dmn_codes), w.response);
			break;
		case MTP_ERR_NET:
			name(net_codes, N(net_codes), w.response);
			break;
		case MTP_ERR_APP:
			name(app_codes, N(app_codes), w.response);
			break;
		default:
			printf("%u", w.response);
		}
	} else if (mtp_wire_is_request(&w)) {
		fputs(" request", stdout);
	} else if (w.response == MTP_RES_REPLY) {
		fputs(" reply", stdout);
	} else if (w.response == MTP_RES_PENDING) {
		fputs(" pending", stdout);
	} else if (w.response == MTP_RES_VALIDATE) {
		fputs(" validate", stdout);
	} else {
		printf(" reply code %u", w.response);
	}
	printf(" id %08x act ", w.reqid);
	name(actions, N(actions), w.action);
	printf(" flag %u ch %08x addr %u rsize %u limit %u", w.flag, w.channel,
	       w.address, w.rsize, mtp_wire_limit_bytes(w.limit));
	for (i = 0; i < N(options); i++) {
		if (w.options & options[i].bit) {
			printf("%s%s", sep, options[i].name);
			sep = ",";
		}
	}
	if (w.options & ~MTP_OPT_ALL)
		printf("%s0x%02x", sep, w.options & ~MTP_OPT_ALL);
	if (w.options & MTP_OPT_TOKEN)
		printf(" token %016llx", (unsigned long long)w.token);
	printf(" appver %u shift %u tag %u", w.appversion, w.dgram_shift,
	       w.tag);
	if (mtp_wire_is_request(&w) && !(w.options & MTP_OPT_SINGLE) &&
	    w.address == MTP_STREAM_CLOSE && w.rsize == MTP_STREAM_CLOSE)
		fputs(" close", stdout);
	printf(", length %u", w.payload_len);
	err = mtp_wire_check(&w);
	if (err)
		printf(" (%s) [|mtp]", mtp_wire_strerror(err));
	putchar('\n');
}

int main(int argc, char **argv)
{
	unsigned char gh[24], ph[16], *pkt, *m;
	unsigned int incl, ihl, pay, ulen, n = 0;
	size_t len, have;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: mtp_decode PCAP\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fread(gh, 1, 24, f) != 24 ||
	    memcmp(gh, "\xd4\xc3\xb2\xa1", 4) || gh[20] != LINKTYPE_RAW) {
		fprintf(stderr, "%s: not a little-endian LINKTYPE_RAW pcap\n",
			argv[1]);
		return 1;
	}
	while (fread(ph, 1, 16, f) == 16) {
		incl = ph[8] | ph[9] << 8 | ph[10] << 16 | (unsigned)ph[11] << 24;
		n++;
		/* The whole packet, zeros where the capture was cut (room for
		 * any length IP and UDP may claim). */
		pkt = calloc(1, 70000);
		if (!pkt || incl > 70000 || fread(pkt, 1, incl, f) != incl) {
			fprintf(stderr, "%s: short record %u\n", argv[1], n);
			return 1;
		}
		/* The IP payload as IP's length field bounds it. */
		if ((pkt[0] >> 4) == 4) {
			ihl = (pkt[0] & 0xf) * 4;
			pay = be16(pkt + 2) - ihl;
			if (pkt[9] != 17)
				goto skip;
		} else if ((pkt[0] >> 4) == 6) {
			ihl = 40;
			pay = be16(pkt + 4);
			if (pkt[6] != 17)
				goto skip;
		} else {
			goto skip;
		}
		if (incl < ihl + 8 || pay < 8)
			goto skip;	/* not even the UDP header */
		/* As tcpdump: the shorter of the UDP and IP lengths. */
		ulen = be16(pkt + ihl + 4);
		len = pay - 8;
		if (ulen >= 8 && ulen - 8 < len)
			len = ulen - 8;
		m = pkt + ihl + 8;
		have = incl - ihl - 8;
		printf("%u %s\t", n, have >= len ? "full" : "snap");
		decode(m, len);
skip:
		free(pkt);
	}
	fclose(f);
	return 0;
}
