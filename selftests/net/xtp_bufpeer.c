// SPDX-License-Identifier: GPL-2.0
/*
 * xtp_bufpeer: one end of a bulk XTP transfer that reports the socket
 * buffer sizes it ended with, for the autotuning selftest.
 *
 *   xtp_bufpeer recv PORT [-r BYTES/S] [-b SO_RCVBUF]
 *   xtp_bufpeer send ADDR PORT BYTES [-b SO_SNDBUF]
 *
 * The receiver accepts one association and reads it to its end, in 4 KB
 * reads paced to BYTES/S with -r (a token bucket of 20 ms; as fast as it
 * can without), checks
 * every byte against the pattern the sender writes, and prints
 * "bytes=N rcvbuf=R pattern=ok|bad".  The sender writes BYTES of the
 * pattern, closes its direction, waits for the receiver's end and prints
 * "bytes=N sndbuf=S".  -b sets the buffer before connect()/listen(),
 * which locks it against autotuning.  Exit status 1 on any error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/xtp.h>

#define CHUNK	4096
/* Most a paced reader reads ahead after waiting: 20 ms of its rate. */
#define PACE_BURST_S	0.02

/* Byte @off of the stream: a period that no power of two divides. */
static unsigned char pattern(unsigned long long off)
{
	return (unsigned char)(off % 251);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int sockbuf(int fd, int opt)
{
	socklen_t len = sizeof(int);
	int val = -1;

	getsockopt(fd, SOL_SOCKET, opt, &val, &len);
	return val;
}

static int xtp_open(int opt, int size)
{
	int fd = socket(AF_INET, SOCK_XTP, IPPROTO_XTP);

	if (fd < 0) {
		perror("socket");
		exit(1);
	}
	if (size && setsockopt(fd, SOL_SOCKET, opt, &size, sizeof(size))) {
		perror("setsockopt");
		exit(1);
	}
	return fd;
}

static int do_recv(int port, double rate, int size)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	unsigned long long got = 0, i;
	unsigned char buf[CHUNK];
	int lfd, fd, bad = 0;
	double t0;
	ssize_t n;

	lfd = xtp_open(SO_RCVBUF, size);
	sin.sin_port = htons(port);
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) || listen(lfd, 1)) {
		perror("bind/listen");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		perror("accept");
		return 1;
	}
	t0 = now_s();
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		for (i = 0; i < (unsigned long long)n; i++)
			bad |= buf[i] != pattern(got + i);
		got += n;
		/*
		 * Paced: no further than @rate allows by now.  Time spent
		 * waiting for data is not saved up beyond a burst of
		 * PACE_BURST_S: after a stall (slow start, a slow kernel)
		 * the reader keeps its rate instead of reading everything
		 * waiting at once.
		 */
		if (rate > 0) {
			double ahead = got / rate - (now_s() - t0);

			if (ahead > 0)
				usleep((useconds_t)(ahead * 1e6));
			else if (ahead < -PACE_BURST_S)
				t0 += -ahead - PACE_BURST_S;
		}
	}
	if (n < 0) {
		perror("recv");
		return 1;
	}
	printf("bytes=%llu rcvbuf=%d pattern=%s\n", got,
	       sockbuf(fd, SO_RCVBUF), bad ? "bad" : "ok");
	close(fd);
	close(lfd);
	return bad;
}

static int do_send(const char *addr, int port, unsigned long long bytes,
		   int size)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	unsigned long long sent = 0, i;
	unsigned char buf[65536];
	char c;
	int fd;

	fd = xtp_open(SO_SNDBUF, size);
	sin.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1 ||
	    connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		perror("connect");
		return 1;
	}
	while (sent < bytes) {
		size_t len = bytes - sent < sizeof(buf) ? bytes - sent :
			     sizeof(buf);
		ssize_t n;

		for (i = 0; i < len; i++)
			buf[i] = pattern(sent + i);
		n = send(fd, buf, len, 0);
		if (n <= 0) {
			perror("send");
			return 1;
		}
		sent += n;
	}
	/* Our end of the stream; the receiver's end says it has all. */
	if (shutdown(fd, SHUT_WR) || recv(fd, &c, 1, 0) != 0) {
		perror("shutdown/recv");
		return 1;
	}
	printf("bytes=%llu sndbuf=%d\n", sent, sockbuf(fd, SO_SNDBUF));
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	double rate = 0;
	int size = 0, opt;

	while ((opt = getopt(argc, argv, "r:b:")) != -1) {
		switch (opt) {
		case 'r':
			rate = atof(optarg);
			break;
		case 'b':
			size = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 2 && !strcmp(argv[0], "recv"))
		return do_recv(atoi(argv[1]), rate, size);
	if (argc == 4 && !strcmp(argv[0], "send"))
		return do_send(argv[1], atoi(argv[2]),
			       strtoull(argv[3], NULL, 0), size);
usage:
	fprintf(stderr, "usage: xtp_bufpeer recv PORT [-r BYTES/S] [-b SO_RCVBUF]\n"
		"       xtp_bufpeer send ADDR PORT BYTES [-b SO_SNDBUF]\n");
	return 2;
}
