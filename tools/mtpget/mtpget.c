// SPDX-License-Identifier: GPL-2.0
/*
 * mtpget: fetch a file from mtpd with one MTP transaction and print the
 * transaction's statistics.
 *
 *   mtpget [-p port] [-o out] [-r repeat_ms] [-e expire_ms] [-b rcvbuf]
 *          host file
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mtpapi.h"

#define BUFSZ	(1 << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct mtp_request r = { .action = MTP_ACT_DATA };
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	const char *out = NULL;
	unsigned long long total = 0;
	struct mtp_info info;
	int fd, ofd = 1, opt, rcvbuf = 0, flags = 0;
	double t0;
	char *buf;

	to.sin_port = htons(8080);
	while ((opt = getopt(argc, argv, "p:o:r:e:b:")) != -1) {
		switch (opt) {
		case 'p':
			to.sin_port = htons(atoi(optarg));
			break;
		case 'o':
			out = optarg;
			break;
		case 'r':
			r.repeat = atoi(optarg);
			break;
		case 'e':
			r.expire = atoi(optarg);
			break;
		case 'b':
			rcvbuf = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 2)
		goto usage;
	if (getaddrinfo(argv[optind], NULL, &hints, &ai)) {
		fprintf(stderr, "mtpget: unknown host %s\n", argv[optind]);
		return 1;
	}
	to.sin_addr = ((struct sockaddr_in *)ai->ai_addr)->sin_addr;
	freeaddrinfo(ai);
	if (out) {
		ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (ofd < 0) {
			perror(out);
			return 1;
		}
	}
	buf = malloc(BUFSZ);
	fd = socket(AF_INET, SOCK_MTP, 0);
	if (fd < 0 || !buf) {
		perror("mtpget");
		return 1;
	}
	/* A bigger receive buffer allows a bigger window. */
	if (rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
				 sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	t0 = now();
	if (mtp_sendcm(fd, &to, MTP_REQUEST, &r, sizeof(r), argv[optind + 1],
		       strlen(argv[optind + 1])) < 0) {
		perror("mtpget: sendmsg");
		return 1;
	}
	while (!(flags & MSG_EOR)) {
		ssize_t n = mtp_recvinfo(fd, buf, BUFSZ, &info, NULL, &flags,
					 0);

		if (n < 0) {
			perror("mtpget: recvmsg");
			return 1;
		}
		if (n && pwrite(ofd, buf, n, info.address) != n) {
			perror("mtpget: write");
			return 1;
		}
		total += n;
	}
	t0 = now() - t0;
	fprintf(stderr,
		"%s: %llu bytes in %.2f s (%.1f KB/s) error %u/%u requests %u repeats %u losses %u duplicates %u rtt %u/%u us window %u..%u dgram %u\n",
		argv[optind + 1], total, t0, total / 1024.0 / (t0 ? t0 : 1),
		info.error, info.response, info.requests, info.repeats,
		info.losses, info.duplicates, info.rtt_avg_us, info.rtt_min_us,
		info.window_min, info.window_max, info.dgram);
	return info.error ? 1 : 0;
usage:
	fprintf(stderr, "usage: mtpget [-p port] [-o out] [-r repeat_ms] [-e expire_ms] [-b rcvbuf] host file\n");
	return 2;
}
