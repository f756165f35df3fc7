// SPDX-License-Identifier: GPL-2.0
/*
 * xft: XTP File Transfer client, the LinuxXTP thesis' one-way file push.
 * The file goes over XTP with the FILETRANSFER service (SDT, RCLOSE on the
 * FIRST): the first sendto() opens the association with the header and
 * the first data in the FIRST, the last chunk carries MSG_XTP_WCLOSE, so a
 * file of up to one packet is a 3-packet exchange.  -t does the same over
 * TCP for comparison.  Prints the transfer time and goodput.
 *
 *   xft [-t] [-R] [-p PORT] [-n NAME] [-b SIZE] [-T SEC] FILE HOST
 *
 * Protocol: "XFT1 NAME\n", then the file's bytes until the end of the
 * stream.  With -R no header is sent (xftd -R names the file).
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <libgen.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>

#include <linux/xtp.h>

#include "toolutil.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: xft [-t] [-R] [-p PORT] [-n NAME] [-b SIZE] [-T SEC] FILE HOST\n"
		"  -t       over TCP instead of XTP\n"
		"  -R       raw: no name header (for xftd -R)\n"
		"  -p PORT  server port (9998)\n"
		"  -n NAME  name to store the file under (default: FILE's basename)\n"
		"  -b SIZE  bytes per send() (65536)\n"
		"  -T SEC   give up after SEC seconds without progress (60)\n");
	exit(2);
}

/* Fill @buf from @fd as far as possible; returns the count (short = EOF). */
static size_t fill(int fd, char *buf, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t r = read(fd, buf + off, len - off);

		if (r < 0)
			die("read");
		if (!r)
			break;
		off += r;
	}
	return off;
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	const char *port = "9998", *name = NULL;
	int tcp = 0, raw = 0, tmo = 60, c, in, fd, first = 1, done = 0;
	size_t bsize = 65536, hlen = 0;
	long long total = 0;
	struct timeval tv;
	char *buf, *fname;
	double t0, t1;
	int err = 0;
	socklen_t elen = sizeof(err);

	while ((c = getopt(argc, argv, "tRp:n:b:T:")) != -1) {
		switch (c) {
		case 't': tcp = 1; break;
		case 'R': raw = 1; break;
		case 'p': port = optarg; break;
		case 'n': name = optarg; break;
		case 'b': bsize = strtoul(optarg, NULL, 0); break;
		case 'T': tmo = atoi(optarg); break;
		default: usage();
		}
	}
	if (argc - optind != 2 || bsize < 512 || bsize > (64 << 20))
		usage();
	signal(SIGPIPE, SIG_IGN);
	in = open(argv[optind], O_RDONLY);
	if (in < 0)
		die(argv[optind]);
	fname = strdup(argv[optind]);
	if (!name)
		name = basename(fname);
	if (strlen(name) > 255 || strchr(name, '\n')) {
		fprintf(stderr, "xft: bad name\n");
		return 2;
	}
	if (getaddrinfo(argv[optind + 1], port, &hints, &ai)) {
		fprintf(stderr, "xft: cannot resolve %s\n", argv[optind + 1]);
		return 1;
	}
	buf = malloc(bsize + 300);
	if (!buf)
		die("malloc");
	if (!raw)
		hlen = snprintf(buf, 300, "XFT1 %s\n", name);

	t0 = now();
	if (tcp) {
		fd = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	} else {
		int tts = XTP_SERVICE_FILETRANSFER;

		fd = socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
		if (fd >= 0 && setsockopt(fd, SOL_XTP, XTPSOCK_TTS, &tts,
					  sizeof(tts)))
			die("setsockopt XTPSOCK_TTS");
	}
	if (fd < 0)
		die("socket");
	tv.tv_sec = tmo;
	tv.tv_usec = 0;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (tcp && connect(fd, ai->ai_addr, ai->ai_addrlen))
		die("connect");

	while (!done) {
		size_t n = hlen + fill(in, buf + hlen, bsize - hlen), off = 0;
		int flags = MSG_NOSIGNAL;

		total += n - hlen;
		hlen = 0;
		if (n < bsize)
			done = 1;
		/* The last chunk closes the stream (an empty one only when a
		 * full chunk ended the file). */
		if (done && !tcp)
			flags |= MSG_XTP_WCLOSE;
		if (!n && !first) {
			if (!tcp && shutdown(fd, SHUT_WR))
				die("shutdown");
			break;
		}
		do {
			int dst = first && !tcp;
			ssize_t r = sendto(fd, buf + off, n - off, flags,
					   dst ? ai->ai_addr : NULL,
					   dst ? ai->ai_addrlen : 0);

			if (r < 0)
				die("send");
			first = 0;
			off += r;
		} while (off < n);
	}
	if (tcp) {
		/* The server closes once the file is written. */
		if (shutdown(fd, SHUT_WR))
			die("shutdown");
		for (;;) {
			ssize_t r = recv(fd, buf, bsize, 0);

			if (r < 0)
				die("recv");
			if (!r)
				break;
		}
	} else {
		/* The initiator does not receive: wait for the END. */
		struct pollfd p = { .fd = fd, .events = 0 };
		double end = now() + tmo;

		while (now() < end)
			if (poll(&p, 1, 100) > 0 &&
			    (p.revents & (POLLHUP | POLLERR)))
				break;
		if (now() >= end) {
			fprintf(stderr, "xft: no END after %d s\n", tmo);
			return 1;
		}
	}
	if (!getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen) && err) {
		fprintf(stderr, "xft: transfer failed: %s\n", strerror(err));
		return 1;
	}
	t1 = now();
	printf("xft: %s %lld bytes over %s in %.3f s, goodput %.3f Mbit/s\n",
	       name, total, tcp ? "TCP" : "XTP", t1 - t0,
	       t1 > t0 ? total * 8 / (t1 - t0) / 1e6 : 0.0);
	close(fd);
	close(in);
	freeaddrinfo(ai);
	free(buf);
	free(fname);
	return 0;
}
