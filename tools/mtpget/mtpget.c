// SPDX-License-Identifier: GPL-2.0
/*
 * mtpget: fetch files from mtpd, one MTP transaction each, in turn on one
 * socket (so that later ones start from what the socket learnt of the
 * path), and print each transaction's statistics.
 *
 *   mtpget [-p port] [-o out] [-r repeat_ms] [-e expire_ms] [-b rcvbuf]
 *          host file...
 *
 * With one file, -o names the output (default stdout); with several, a
 * directory that receives each under its own name.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "toolutil.h"
#include "mtpapi.h"

#define BUFSZ	(1 << 20)

/* Where @file goes: stdout, @out itself, or @out/<file's last name>. */
static int open_out(const char *out, const char *file, int many)
{
	const char *base = strrchr(file, '/');
	char path[PATH_MAX];
	int fd;

	if (!out)
		return 1;
	if (many) {
		snprintf(path, sizeof(path), "%s/%s", out, base ? base + 1 : file);
		out = path;
	}
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fail(out);
	return fd;
}

/* One transaction for @file into @ofd; prints its statistics. */
static int fetch(int fd, const struct sockaddr_in *to, struct mtp_request *r,
		 const char *file, int ofd, char *buf)
{
	unsigned long long total = 0;
	struct mtp_info info;
	int flags = 0;
	double t0;

	t0 = now();
	if (mtp_sendcm(fd, to, MTP_REQUEST, r, sizeof(*r), file,
		       strlen(file)) < 0) {
		return fail("sendmsg");
	}
	while (!(flags & MSG_EOR)) {
		ssize_t n = mtp_recvinfo(fd, buf, BUFSZ, &info, NULL, &flags,
					 0);

		if (n < 0) {
			return fail("recvmsg");
		}
		if (n && pwrite(ofd, buf, n, info.address) != n) {
			return fail("write");
		}
		total += n;
	}
	t0 = now() - t0;
	fprintf(stderr,
		"%s: %llu bytes in %.2f s (%.1f KB/s) error %u/%u requests %u repeats %u losses %u duplicates %u rtt %u/%u us window %u..%u dgram %u\n",
		file, total, t0, total / 1024.0 / (t0 ? t0 : 1),
		info.error, info.response, info.requests, info.repeats,
		info.losses, info.duplicates, info.rtt_avg_us, info.rtt_min_us,
		info.window_min, info.window_max, info.dgram);
	return info.error ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct mtp_request r = { .action = MTP_ACT_DATA };
	struct sockaddr_in to = { .sin_family = AF_INET };
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	int fd, ofd, opt, rcvbuf = 0, many, rc = 0, i;
	const char *out = NULL;
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
	if (optind > argc - 2)
		goto usage;
	many = optind < argc - 2;
	if (getaddrinfo(argv[optind], NULL, &hints, &ai)) {
		fprintf(stderr, "mtpget: unknown host %s\n", argv[optind]);
		return 1;
	}
	to.sin_addr = ((struct sockaddr_in *)ai->ai_addr)->sin_addr;
	freeaddrinfo(ai);
	buf = malloc(BUFSZ);
	fd = socket(AF_INET, SOCK_MTP, 0);
	if (fd < 0 || !buf)
		die("socket");
	/* A bigger receive buffer allows a bigger window. */
	if (rcvbuf && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
				 sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	for (i = optind + 1; i < argc; i++) {
		ofd = open_out(out, argv[i], many);
		if (ofd < 0)
			return 1;
		rc |= fetch(fd, &to, &r, argv[i], ofd, buf);
		if (ofd != 1)
			close(ofd);
	}
	return rc;
usage:
	fprintf(stderr, "usage: mtpget [-p port] [-o out] [-r repeat_ms] [-e expire_ms] [-b rcvbuf] host file...\n");
	return 2;
}
