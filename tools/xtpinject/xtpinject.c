// SPDX-License-Identifier: GPL-2.0
/*
 * xtpinject: send one hand-made XTP packet through a raw IP socket, for
 * demonstrations and debugging.
 *
 *   xtpinject [-t first|cntl|diag] [-k KEY] [-p DPORT] [-s SRC] [-c] DST
 *   xtpinject -f FILE DST
 *   xtpinject -t data -k KEY [-R] [-q SEQ] [-y SYNC] [-o OPTIONS] DST
 *
 * -s sets the FIRST's source host, -c corrupts the checksum; -f sends the
 * XTP packet in FILE as it is (a replay).  A DATA packet carries "data";
 * -R sets the RETURN bit, -o the COMMAND option bits (hex); -S sends from
 * that local address (bind).  The packet is built by the module's own
 * codec (net/xtp/wire.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "toolutil.h"
#include "wire.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: xtpinject [-t first|cntl|diag] [-k KEY] [-p DPORT] [-s SRC] [-c] DST\n"
		"       xtpinject -f FILE DST\n"
		"       xtpinject -t data -k KEY [-R] [-q SEQ] [-y SYNC] [-o OPTS] DST\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct in_addr src = { 0 };
	struct sockaddr_in from = { .sin_family = AF_INET };
	const char *type = "first", *msg = "no listener", *file = NULL;
	unsigned long long seq = 0;
	unsigned int sync = 1, options = 0, ret = 0;
	struct xtp_wire_pkt p;
	int opt, fd, n, corrupt = 0;
	unsigned long long key = 1257;
	unsigned int dport = 9999;
	u8 buf[512];

	while ((opt = getopt(argc, argv, "t:k:p:s:cf:Rq:y:o:S:")) != -1) {
		switch (opt) {
		case 't': type = optarg; break;
		case 'k': key = strtoull(optarg, NULL, 0); break;
		case 'p': dport = strtoul(optarg, NULL, 0); break;
		case 's':
			if (inet_pton(AF_INET, optarg, &src) != 1)
				usage();
			break;
		case 'c': corrupt = 1; break;
		case 'f': file = optarg; break;
		case 'R': ret = 1; break;
		case 'S':
			if (inet_pton(AF_INET, optarg, &from.sin_addr) != 1)
				usage();
			break;
		case 'q': seq = strtoull(optarg, NULL, 0); break;
		case 'y': sync = strtoul(optarg, NULL, 0); break;
		case 'o': options = strtoul(optarg, NULL, 16); break;
		default: usage();
		}
	}
	if (optind != argc - 1 ||
	    inet_pton(AF_INET, argv[optind], &dst.sin_addr) != 1)
		usage();

	if (file) {
		FILE *f = fopen(file, "rb");

		n = f ? fread(buf, 1, sizeof(buf), f) : 0;
		if (f)
			fclose(f);
		if (n <= 0) {
			fprintf(stderr, "xtpinject: cannot read %s\n", file);
			return 1;
		}
		type = "file";
		goto send;
	}
	memset(&p, 0, sizeof(p));
	p.hdr.key = key;
	p.hdr.sync = 1;
	if (!strcmp(type, "first")) {
		/* The thesis' empty FIRST: dl24 sy1 sq90000 SRQ. */
		p.hdr.pformat = XTP_PF_FIRST;
		p.hdr.options = XTP_CMD_SREQ;
		p.hdr.seq = 90000;
		p.addr.adomain = XTP_ADOMAIN_IP;
		p.addr.aformat = XTP_AFORMAT_IPV4;
		p.addr.dsthost.v4 = dst.sin_addr.s_addr;
		p.addr.srchost.v4 = src.s_addr;
		p.addr.dstport = dport;
		p.addr.srcport = 40000;
		p.traffic.service = XTP_SVC_STREAM;
	} else if (!strcmp(type, "cntl")) {
		p.hdr.key |= XTP_KEY_RETURN;
		p.hdr.pformat = XTP_PF_CNTL;
		p.hdr.options = XTP_CMD_SREQ;
		p.ctl.rseq = 24;
		p.ctl.alloc = 90024;
	} else if (!strcmp(type, "data")) {
		p.hdr.key |= ret ? XTP_KEY_RETURN : 0;
		p.hdr.pformat = XTP_PF_DATA;
		p.hdr.options = options;
		p.hdr.seq = seq;
		p.hdr.sync = sync;
		p.data = (const u8 *)"data";
		p.data_len = 4;
	} else if (!strcmp(type, "diag")) {
		p.hdr.key |= XTP_KEY_RETURN;
		p.hdr.pformat = XTP_PF_DIAG;
		p.diag_code = XTP_DIAG_CONTEXT_REFUSED;
		p.diag_value = XTP_DIAGV_NO_LISTENER;
		p.data = (const u8 *)msg;
		p.data_len = strlen(msg);
	} else {
		usage();
	}
	n = xtp_wire_encode(&p, buf, sizeof(buf));
	if (n < 0) {
		fprintf(stderr, "xtpinject: encode: %s\n", xtp_wire_strerror(n));
		return 1;
	}
	if (corrupt)
		buf[n - 1] ^= 0x01;
send:
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_XTP);
	if (fd >= 0 && from.sin_addr.s_addr &&
	    bind(fd, (struct sockaddr *)&from, sizeof(from))) {
		return fail("bind");
	}
	if (fd < 0 || sendto(fd, buf, n, 0, (struct sockaddr *)&dst,
			     sizeof(dst)) != n) {
		return fail(fd < 0 ? "socket" : "sendto");
	}
	printf("sent %s, %d bytes, key %llu to %s\n", type, n, key,
	       argv[optind]);
	close(fd);
	return 0;
}
