// SPDX-License-Identifier: GPL-2.0
/*
 * xtp_spoof: send FIRSTs with a forged source address through a raw IP
 * socket, for xtp_spoof.sh.
 *
 *   xtp_spoof [-s SADDR] [-m SPREAD] [-n COUNT] [-l LEN] [-p PORT]
 *             [-r RATE] DADDR
 *
 * Each FIRST opens an SDT association (SREQ, WCLOSE and EOM set) with LEN
 * bytes of request (default 100) and a random key, to DADDR:PORT (default
 * 9999) from SADDR (default 198.19.0.1), or with -m from SADDR + 0 ..
 * SPREAD - 1 in turn, at most RATE per second if given.  Prints the IP
 * bytes sent.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "wire.h"

static void usage(void)
{
	fprintf(stderr, "usage: xtp_spoof [-s saddr] [-m spread] [-n count] [-l len] [-p port] [-r rate] daddr\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	unsigned long count = 1, spread = 1, rate = 0, i, retries = 0;
	struct timespec t0, now;
	unsigned int len = 100, port = 9999;
	const char *saddr = "198.19.0.1";
	unsigned long long total = 0;
	struct in_addr src;
	u8 pkt[1500], data[1400];
	struct xtp_wire_pkt p;
	int opt, fd, n;

	while ((opt = getopt(argc, argv, "s:m:n:l:p:r:")) != -1) {
		switch (opt) {
		case 's': saddr = optarg; break;
		case 'm': spread = strtoul(optarg, NULL, 0); break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 'l': len = strtoul(optarg, NULL, 0); break;
		case 'p': port = strtoul(optarg, NULL, 0); break;
		case 'r': rate = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || !spread || len > sizeof(data) ||
	    inet_pton(AF_INET, argv[optind], &to.sin_addr) != 1 ||
	    inet_pton(AF_INET, saddr, &src) != 1)
		usage();
	memset(data, 'q', sizeof(data));
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		perror("xtp_spoof: raw socket");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count; i++) {
		struct iphdr *ip = (struct iphdr *)pkt;
		u32 from = htonl(ntohl(src.s_addr) + i % spread);
		unsigned long long key;

		if (getrandom(&key, sizeof(key), 0) != sizeof(key))
			return 1;
		/* Ahead of RATE: wait for the schedule (i / RATE seconds). */
		while (rate) {
			double ahead;

			clock_gettime(CLOCK_MONOTONIC, &now);
			ahead = (double)i / rate - (now.tv_sec - t0.tv_sec) -
				(now.tv_nsec - t0.tv_nsec) / 1e9;
			if (ahead <= 0)
				break;
			usleep(ahead * 1e6);
		}
		memset(&p, 0, sizeof(p));
		p.hdr.key = key & ~XTP_KEY_RETURN;
		p.hdr.pformat = XTP_PF_FIRST;
		p.hdr.options = XTP_CMD_SREQ | XTP_CMD_WCLOSE | XTP_CMD_EOM;
		p.hdr.sync = 1;
		p.hdr.seq = 90000;
		p.addr.adomain = XTP_ADOMAIN_IP;
		p.addr.aformat = XTP_AFORMAT_IPV4;
		p.addr.dsthost.v4 = to.sin_addr.s_addr;
		p.addr.srchost.v4 = from;
		p.addr.dstport = port;
		p.addr.srcport = 40000 + i % 20000;
		p.traffic.service = XTP_SVC_STREAM;
		p.data = data;
		p.data_len = len;
		n = xtp_wire_encode(&p, pkt + sizeof(*ip),
				    sizeof(pkt) - sizeof(*ip));
		if (n < 0) {
			fprintf(stderr, "xtp_spoof: encode: %s\n",
				xtp_wire_strerror(n));
			return 1;
		}
		memset(ip, 0, sizeof(*ip));
		ip->version = 4;
		ip->ihl = 5;
		ip->ttl = 64;
		ip->protocol = IPPROTO_XTP;
		ip->tot_len = htons(sizeof(*ip) + n);
		ip->saddr = from;
		ip->daddr = to.sin_addr.s_addr;
		n += sizeof(*ip);
		if (sendto(fd, pkt, n, 0, (struct sockaddr *)&to,
			   sizeof(to)) != n) {
			/* A full device queue: wait, at most 10 s in all. */
			if (errno == ENOBUFS && retries++ < 10000) {
				usleep(1000);
				i--;
				continue;
			}
			perror("xtp_spoof: sendto");
			return 1;
		}
		total += n;
	}
	printf("%llu\n", total);
	return 0;
}
