// SPDX-License-Identifier: GPL-2.0
/*
 * mtp_flood: send many MTP requests, each with its own transaction id,
 * from several plain UDP sockets, as fast as the sockets take them.  Used
 * by mtp_flood.sh to check that a server's kept state stays within its
 * sysctl bounds.  Answers are never read.
 *
 *   mtp_flood [-n requests] [-k sockets] [-p port] [-f name] [-z size] host
 *
 * Each request is an ACT_DATA request for NAME (the payload) at an address
 * below SIZE, asking for one 512-byte datagram.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/mtp.h>

#include "wire.h"

#define MAX_SOCKS	64

int main(int argc, char **argv)
{
	unsigned int n = 1000, k = 4, size = 1 << 20, i, sent = 0;
	struct sockaddr_in to = { .sin_family = AF_INET };
	const char *name = "1m";
	int fds[MAX_SOCKS], opt;
	unsigned char buf[MTP_WIRE_HDR_LEN + 256];
	struct mtp_wire_msg m = {
		.action = MTP_ACT_DATA,
		.dgram_shift = MTP_WIRE_SHIFT_MIN,
		.rsize = 512,
		.limit = 1,
	};
	time_t t0 = time(NULL);

	to.sin_port = htons(8080);
	while ((opt = getopt(argc, argv, "n:k:p:f:z:")) != -1) {
		switch (opt) {
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			k = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			to.sin_port = htons(atoi(optarg));
			break;
		case 'f':
			name = optarg;
			break;
		case 'z':
			size = strtoul(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || !k || k > MAX_SOCKS || strlen(name) > 255 ||
	    size < 1024 || inet_pton(AF_INET, argv[optind], &to.sin_addr) != 1)
		goto usage;
	for (i = 0; i < k; i++) {
		fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
		if (fds[i] < 0) {
			perror("mtp_flood: socket");
			return 1;
		}
	}
	srandom(getpid());
	m.reqid = random();
	/* Bounded in count and in time. */
	for (i = 0; i < n && time(NULL) - t0 < 120; i++) {
		size_t len = strlen(name);

		m.reqid++;
		m.address = (random() % (size / 512 - 1)) * 512;
		if (mtp_wire_encode_hdr(&m, buf, sizeof(buf)) < 0)
			return 1;
		memcpy(buf + MTP_WIRE_HDR_LEN, name, len);
		if (sendto(fds[i % k], buf, MTP_WIRE_HDR_LEN + len, 0,
			   (struct sockaddr *)&to, sizeof(to)) > 0)
			sent++;
		else if ((i & 63) == 63)
			usleep(1000);	/* the device queue is full */
	}
	printf("sent %u of %u requests from %u sockets\n", sent, n, k);
	return sent ? 0 : 1;
usage:
	fprintf(stderr, "usage: mtp_flood [-n requests] [-k sockets] [-p port] [-f name] [-z size] host\n");
	return 2;
}
