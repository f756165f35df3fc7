// SPDX-License-Identifier: GPL-2.0
/*
 * xftd: XTP File Transfer daemon.  Accepts associations (or TCP
 * connections with -t) from xft and writes each pushed file into a
 * directory.  Names are single path components: "/", "." and "..",
 * control characters and empty names are refused, and the file is
 * opened relative to the directory without following symbolic links.
 *
 *   xftd [-t] [-d DIR] [-p PORT] [-a ADDR] [-c COUNT] [-R NAME] [-q]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "toolutil.h"

static int quiet;

static void usage(void)
{
	fprintf(stderr,
		"usage: xftd [-t] [-d DIR] [-p PORT] [-a ADDR] [-c COUNT] [-R NAME] [-q]\n"
		"  -t        TCP instead of XTP\n"
		"  -d DIR    store files in DIR (.)\n"
		"  -p PORT   port (9998)\n"
		"  -a ADDR   listen on ADDR only\n"
		"  -c COUNT  serve COUNT transfers, then exit (0 = forever)\n"
		"  -R NAME   raw: no name header, store every transfer as NAME\n");
	exit(2);
}

/* A name is one harmless path component. */
static int name_ok(const char *s)
{
	const unsigned char *p;

	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (p = (const unsigned char *)s; *p; p++)
		if (*p == '/' || *p < 0x20 || *p == 0x7f)
			return 0;
	return 1;
}

/* Read the "XFT1 NAME\n" header one byte at a time (no over-read). */
static int read_header(int fd, char *name, size_t size)
{
	char line[300];
	size_t n = 0;

	while (n < sizeof(line) - 1) {
		ssize_t r = recv(fd, line + n, 1, 0);

		if (r <= 0)
			return -1;
		if (line[n] == '\n')
			break;
		n++;
	}
	if (n == sizeof(line) - 1)
		return -1;
	line[n] = 0;
	if (strncmp(line, "XFT1 ", 5) || strlen(line + 5) >= size)
		return -1;
	strcpy(name, line + 5);
	return 0;
}

static int serve(int fd, int dirfd, const char *raw, const char *peer)
{
	static char buf[1 << 16];
	char name[256];
	long long got = 0;
	double t0 = now(), t;
	int out;

	if (raw) {
		snprintf(name, sizeof(name), "%s", raw);
	} else if (read_header(fd, name, sizeof(name))) {
		fprintf(stderr, "xftd: %s: bad header, rejected\n", peer);
		return -1;
	}
	if (!name_ok(name)) {
		fprintf(stderr, "xftd: %s: name \"%s\" rejected\n", peer, name);
		return -1;
	}
	out = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		     O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "xftd: %s: %s: %s\n", peer, name,
			strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0), w;
		char *p = buf;

		if (r < 0) {
			fprintf(stderr, "xftd: %s: %s: recv: %s\n", peer, name,
				strerror(errno));
			close(out);
			unlinkat(dirfd, name, 0);
			return -1;
		}
		if (!r)
			break;
		got += r;
		while (r > 0) {
			w = write(out, p, r);
			if (w <= 0)
				die("write");
			p += w;
			r -= w;
		}
	}
	if (close(out))
		die("close");
	t = now() - t0;
	if (!quiet)
		fprintf(stderr, "xftd: %s: %s %lld bytes in %.3f s\n", peer,
			name, got, t);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	const char *dir = ".", *raw = NULL;
	int tcp = 0, count = 0, port = 9998, c, ls, dirfd, i, one = 1;

	while ((c = getopt(argc, argv, "td:p:a:c:R:q")) != -1) {
		switch (c) {
		case 't': tcp = 1; break;
		case 'd': dir = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'a':
			if (inet_pton(AF_INET, optarg, &sin.sin_addr) != 1)
				usage();
			break;
		case 'c': count = atoi(optarg); break;
		case 'R': raw = optarg; break;
		case 'q': quiet = 1; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	signal(SIGPIPE, SIG_IGN);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		die(dir);
	ls = tcp ? socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) :
		   socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	if (ls < 0)
		die("socket");
	if (tcp)
		setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sin.sin_port = htons(port);
	if (bind(ls, (struct sockaddr *)&sin, sizeof(sin)))
		die("bind");
	if (listen(ls, 16))
		die("listen");
	fprintf(stderr, "xftd: listening on %s port %d\n", tcp ? "TCP" : "XTP",
		port);
	for (i = 0; !count || i < count; i++) {
		struct sockaddr_in peer;
		socklen_t plen = sizeof(peer);
		struct timeval tv = { .tv_sec = 60 };
		char addr[64];
		int fd = accept(ls, (struct sockaddr *)&peer, &plen);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			die("accept");
		}
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		inet_ntop(AF_INET, &peer.sin_addr, addr, sizeof(addr));
		snprintf(addr + strlen(addr), sizeof(addr) - strlen(addr),
			 ":%u", ntohs(peer.sin_port));
		if (serve(fd, dirfd, raw, addr)) {
			/* Refuse: abort rather than close gracefully. */
			struct linger l = { .l_onoff = 1, .l_linger = 0 };

			setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		}
		close(fd);
	}
	close(ls);
	return 0;
}
