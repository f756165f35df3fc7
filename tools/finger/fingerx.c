// SPDX-License-Identifier: GPL-2.0
/*
 * fingerx: RFC 1288 finger client over XTP.  The query and WCLOSE travel
 * in the FIRST (sendto() with MSG_XTP_WCLOSE on an unconnected socket), so
 * a query is XTP's minimum exchange: FIRST, TCNTL, the answer with WCLOSE,
 * and the closing control packet.  -t asks over TCP instead.
 *
 *   fingerx [-t] [-l] [-p PORT] [-T SEC] [USER][@HOST] ...
 *
 * Without @HOST the query goes to localhost.  -l sends the RFC 1288 "/W"
 * (verbose) prefix.  Control characters in the answer are shown as ^X,
 * CR LF becomes LF.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "toolutil.h"

static int tcp, verbose, tmo = 60;
static const char *port = "79";

static void usage(void)
{
	fprintf(stderr, "usage: fingerx [-t] [-l] [-p PORT] [-T SEC] [USER][@HOST] ...\n");
	exit(2);
}

/* Print the answer: CR LF as LF, other control characters as ^X. */
static void show(const unsigned char *p, size_t n, int *cr)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = p[i];

		if (*cr && ch != '\n')
			fputs("^M", stdout);
		*cr = ch == '\r';
		if (ch == '\r')
			continue;
		if (ch == '\n' || ch == '\t' || isprint(ch) || ch >= 0x80)
			putchar(ch);
		else
			printf("^%c", ch ^ 0x40);
	}
}

static int query(const char *arg)
{
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	char *user = strdup(arg), *host = strrchr(user, '@');
	char req[1100];
	unsigned char buf[4096];
	struct timeval tv = { .tv_sec = tmo };
	int fd, len, cr = 0, rc = 0, e;

	if (host)
		*host++ = 0;
	else
		host = "localhost";
	len = snprintf(req, sizeof(req), "%s%s\r\n", verbose ? "/W " : "",
		       user);
	if (len >= (int)sizeof(req)) {
		fprintf(stderr, "fingerx: query too long\n");
		return 1;
	}
	e = getaddrinfo(host, port, &hints, &ai);
	if (e) {
		fprintf(stderr, "fingerx: %s: %s\n", host, gai_strerror(e));
		return 1;
	}
	fd = tcp ? socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) :
		   socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	if (fd < 0) {
		return fail("socket");
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	printf("[%s]\n", host);
	if (tcp) {
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) ||
		    send(fd, req, len, MSG_NOSIGNAL) != len) {
			rc = fail("connect");
			goto out;
		}
		shutdown(fd, SHUT_WR);
	} else if (sendto(fd, req, len, MSG_XTP_WCLOSE | MSG_NOSIGNAL,
			  ai->ai_addr, ai->ai_addrlen) != len) {
		rc = fail("sendto");
		goto out;
	}
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < 0) {
			rc = fail("recv");
			break;
		}
		if (!n)
			break;
		show(buf, n, &cr);
	}
out:
	fflush(stdout);
	close(fd);
	freeaddrinfo(ai);
	free(user);
	return rc;
}

int main(int argc, char **argv)
{
	int c, rc = 0;

	while ((c = getopt(argc, argv, "tlp:T:")) != -1) {
		switch (c) {
		case 't': tcp = 1; break;
		case 'l': verbose = 1; break;
		case 'p': port = optarg; break;
		case 'T': tmo = atoi(optarg); break;
		default: usage();
		}
	}
	signal(SIGPIPE, SIG_IGN);
	if (optind == argc)
		return query("");
	for (; optind < argc; optind++)
		rc |= query(argv[optind]);
	return rc;
}
