// SPDX-License-Identifier: GPL-2.0
/*
 * mtp_rawreq: send MTP requests with a forged source address through a raw
 * IP socket, for mtp_spoof.sh; or serve a long ID string.
 *
 *   mtp_rawreq [-s saddr] [-S sport] [-p dport] [-a action] [-x shift]
 *              [-r reqid] [-A address] [-R rsize] [-l limit] [-1] [-b]
 *              [-n count] [-t token] [-f payload] daddr
 *	Sends COUNT requests (transaction REQID, then REQID+1, ... with -N;
 *	by default all of the same transaction, the address advancing by
 *	one datagram each time, as subrequests do) from SADDR:SPORT to
 *	DADDR:DPORT, and prints the IP bytes sent.  -1 makes them single
 *	requests, -b allows a broadcast destination, -t echoes TOKEN.
 *   mtp_rawreq -L port -i len
 *	Binds an MTP socket to PORT whose kernel answers IDSTR with LEN
 *	bytes, and waits to be killed.
 *   mtp_rawreq -L port -j len
 *	Binds an MTP socket to PORT and answers every request, PING and
 *	IDSTR included, with LEN bytes of the ID-string pattern, until killed;
 *	exits with 1 if the kernel lets it answer with its own reply code
 *	MTP_RES_VALIDATE (it must say EINVAL).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/mtp.h>

#include "mtpapi.h"
#include "wire.h"

/* The kernel (@app 0) or the application answers IDSTR with @len bytes. */
static int serve_idstr(int port, int len, int app)
{
	struct sockaddr_in me = { .sin_family = AF_INET }, from;
	int fd, i, zero = 0;
	char id[1024], req[1024];

	if (len < 1 || len > (app ? (int)sizeof(id) : 255))
		return 2;
	for (i = 0; i < len; i++)
		id[i] = 'a' + i % 26;
	me.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_MTP, 0);
	/* Options first: a request before them would get the default. */
	if (fd < 0 ||
	    (!app && setsockopt(fd, SOL_MTP, MTP_IDSTR, id, len)) ||
	    (app && setsockopt(fd, SOL_MTP, MTP_KERNEL_PING, &zero,
			       sizeof(zero))) ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("mtp_rawreq: idstr server");
		return 1;
	}
	for (;;) {
		struct mtp_response a = { 0 };
		struct mtp_info ri;

		if (!app) {
			pause();
			continue;
		}
		if (mtp_recvinfo(fd, req, sizeof(req), &ri, &from, NULL, 0) < 0)
			return 1;
		a.reqid = ri.reqid;
		a.action = ri.action;
		a.rsize = len;
		a.response = MTP_RES_VALIDATE;
		if (mtp_sendcm(fd, &from, MTP_RESPOND, &a, sizeof(a), NULL,
			       0) != -1 || errno != EINVAL) {
			fprintf(stderr, "mtp_rawreq: MTP_RES_VALIDATE not refused\n");
			return 1;
		}
		a.response = MTP_RES_REPLY;
		if (mtp_sendcm(fd, &from, MTP_RESPOND, &a, sizeof(a), id,
			       len) < 0)
			perror("mtp_rawreq: respond");
	}
}

/* The Internet checksum of @len bytes at @p, folded, not inverted. */
static unsigned int csum_add(unsigned int sum, const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += b[i] << 8 | b[i + 1];
	if (len & 1)
		sum += b[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct mtp_wire_msg m = {
		.action = MTP_ACT_DATA,
		.dgram_shift = MTP_WIRE_SHIFT_MAX,
	};
	unsigned int count = 1, i, total = 0, sport = 40000, dport = 8080;
	const char *payload = "", *saddr = "198.18.1.99";
	int fd, opt, bcast = 0, newtxn = 0, one = 1, port = 0;
	unsigned char pkt[1500];

	while ((opt = getopt(argc, argv, "s:S:p:a:x:r:A:R:l:1bNn:t:f:L:i:j:")) != -1) {
		switch (opt) {
		case 's':
			saddr = optarg;
			break;
		case 'S':
			sport = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			dport = strtoul(optarg, NULL, 0);
			break;
		case 'a':
			m.action = strtoul(optarg, NULL, 0);
			break;
		case 'x':
			m.dgram_shift = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			m.reqid = strtoul(optarg, NULL, 0);
			break;
		case 'A':
			m.address = strtoul(optarg, NULL, 0);
			break;
		case 'R':
			m.rsize = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			m.limit = strtoul(optarg, NULL, 0);
			break;
		case '1':
			m.options |= MTP_OPT_SINGLE;
			m.dgram_shift = 0;
			break;
		case 'b':
			bcast = 1;
			break;
		case 'N':
			newtxn = 1;
			break;
		case 'n':
			count = strtoul(optarg, NULL, 0);
			break;
		case 't':
			m.options |= MTP_OPT_TOKEN;
			m.token = strtoull(optarg, NULL, 0);
			break;
		case 'f':
			payload = optarg;
			break;
		case 'L':
			port = strtoul(optarg, NULL, 0);
			break;
		case 'i':
		case 'j':
			return serve_idstr(port, atoi(optarg), opt == 'j');
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || strlen(payload) > MTP_WIRE_MAX_REQUEST)
		goto usage;
	to.sin_port = htons(dport);
	if (inet_pton(AF_INET, argv[optind], &to.sin_addr) != 1)
		goto usage;
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0 || (bcast && setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one,
					   sizeof(one)))) {
		perror("mtp_rawreq: raw socket");
		return 1;
	}
	for (i = 0; i < count; i++) {
		struct iphdr *ip = (struct iphdr *)pkt;
		struct udphdr *uh = (struct udphdr *)(ip + 1);
		unsigned char *mtp = (unsigned char *)(uh + 1);
		size_t plen = strlen(payload), ulen, len;
		unsigned int sum;
		int hl;

		memset(pkt, 0, sizeof(pkt));
		hl = mtp_wire_encode_hdr(&m, mtp, sizeof(pkt) - 28);
		if (hl < 0)
			return 1;
		memcpy(mtp + hl, payload, plen);
		ulen = sizeof(*uh) + hl + plen;
		len = sizeof(*ip) + ulen;
		ip->version = 4;
		ip->ihl = 5;
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		ip->tot_len = htons(len);
		ip->daddr = to.sin_addr.s_addr;
		if (inet_pton(AF_INET, saddr, &ip->saddr) != 1)
			goto usage;
		uh->source = htons(sport);
		uh->dest = to.sin_port;
		uh->len = htons(ulen);
		/* The pseudo-header, then the UDP header and data. */
		sum = csum_add(0, &ip->saddr, 8);
		sum = csum_add(sum + IPPROTO_UDP + ulen, uh, ulen);
		uh->check = htons(~sum & 0xffff) ?: 0xffff;
		if (sendto(fd, pkt, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) != (ssize_t)len) {
			perror("mtp_rawreq: sendto");
			return 1;
		}
		total += len;
		if (newtxn)
			m.reqid++;
		else if (!(m.options & MTP_OPT_SINGLE))
			m.address += 1U << m.dgram_shift;
	}
	printf("%u\n", total);
	return 0;
usage:
	fprintf(stderr, "usage: mtp_rawreq [-s saddr] [-S sport] [-p dport] [-a action] [-x shift] [-r reqid]\n"
		"       [-A address] [-R rsize] [-l limit] [-1] [-b] [-N] [-n count] [-t token]\n"
		"       [-f payload] daddr\n"
		"       mtp_rawreq -L port -i|-j len\n");
	return 2;
}
