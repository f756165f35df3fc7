// SPDX-License-Identifier: GPL-2.0
/*
 * xtprecv: accept XTP associations and receive what xtpsend sends, every
 * Appendix A socket option a command-line flag; after each association
 * print the Appendix B "Association Info" block (the thesis' xtprecv).
 *
 *   xtprecv [-o FILE] [-c COUNT] [-a ADDR] [-q] [-t] [-i MS] [-T SEC]
 *           [--OPTION[=N] ...] PORT
 *
 * -t receives over TCP instead, for comparison; -i prints progress lines
 * "xtprecv: progress TIME BYTES" (monotonic seconds) every MS ms, so that
 * two flows' goodputs can be measured over the same interval.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "xtpopts.h"

#include "toolutil.h"

static void usage(int rc)
{
	FILE *f = rc ? stderr : stdout;

	fprintf(f,
		"usage: xtprecv [options] PORT\n"
		"  -o FILE   write what arrives to FILE (default: discard)\n"
		"  -c COUNT  accept COUNT associations, then exit (1; 0 = forever)\n"
		"  -a ADDR   listen on ADDR only\n"
		"  -q        do not print the Association Info block\n"
		"  -t        over TCP instead of XTP (no XTP options)\n"
		"  -i MS     print \"xtprecv: progress TIME BYTES\" every MS ms\n"
		"  -T SEC    give up after SEC seconds without progress (60)\n");
	xtpopt_usage(f);
	exit(rc);
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r <= 0)
			die("write");
		p += r;
		n -= r;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in sin = { .sin_family = AF_INET }, peer;
	struct option lo[XTPOPT_N + 2];
	struct xtpopt_set xo;
	const char *file = NULL;
	int count = 1, quiet = 0, tmo = 60, tcp = 0, ival = 0, c, ls, i;
	static char buf[1 << 16];

	memset(&xo, 0, sizeof(xo));
	memset(lo, 0, sizeof(lo));
	xtpopt_longopts(lo);
	lo[XTPOPT_N].name = "help";
	lo[XTPOPT_N].val = 'h';
	while ((c = getopt_long(argc, argv, "o:c:a:qti:T:h", lo, NULL)) != -1) {
		switch (xtpopt_parse(&xo, c, optarg)) {
		case 1:
			continue;
		case -1:
			usage(2);
		}
		switch (c) {
		case 'o': file = optarg; break;
		case 'c': count = atoi(optarg); break;
		case 'a':
			if (inet_pton(AF_INET, optarg, &sin.sin_addr) != 1)
				usage(2);
			break;
		case 'q': quiet = 1; break;
		case 't': tcp = 1; break;
		case 'i': ival = atoi(optarg); break;
		case 'T': tmo = atoi(optarg); break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (argc - optind != 1)
		usage(2);
	sin.sin_port = htons(atoi(argv[optind]));
	signal(SIGPIPE, SIG_IGN);

	ls = tcp ? socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) :
		   socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	if (ls < 0)
		die("socket");
	if (tcp) {
		int one = 1;

		setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* Accepted contexts inherit the listener's options. */
	} else if (xtpopt_apply(ls, &xo)) {
		return 1;
	}
	if (bind(ls, (struct sockaddr *)&sin, sizeof(sin)))
		die("bind");
	if (listen(ls, 16))
		die("listen");
	fprintf(stderr, "xtprecv: listening on port %s\n", argv[optind]);

	for (i = 0; !count || i < count; i++) {
		socklen_t plen = sizeof(peer);
		struct pollfd p = { .events = 0 };
		struct timeval tv = { .tv_sec = tmo };
		long long got = 0;
		int fd, out = -1;
		double t0, t1, end, next;
		char addr[INET_ADDRSTRLEN];

		fd = accept(ls, (struct sockaddr *)&peer, &plen);
		if (fd < 0)
			die("accept");
		t0 = now();
		next = t0 + ival / 1e3;
		if (ival)
			fprintf(stderr, "xtprecv: progress %.3f 0\n", t0);
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		if (file) {
			out = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (out < 0)
				die(file);
		}
		for (;;) {
			ssize_t r = recv(fd, buf, sizeof(buf), 0);

			if (r < 0)
				die("recv");
			if (!r)
				break;
			if (out >= 0)
				write_all(out, buf, r);
			got += r;
			if (ival && now() >= next) {
				fprintf(stderr, "xtprecv: progress %.3f %lld\n",
					now(), got);
				next += ival / 1e3;
			}
		}
		t1 = now();
		if (out >= 0 && close(out))
			die("close");
		/* Close our side too and wait for the association's end. */
		shutdown(fd, SHUT_WR);
		p.fd = fd;
		for (end = now() + tmo; now() < end; )
			if (poll(&p, 1, 100) > 0 &&
			    (p.revents & (POLLHUP | POLLERR)))
				break;
		inet_ntop(AF_INET, &peer.sin_addr, addr, sizeof(addr));
		fprintf(stderr,
			"xtprecv: %lld bytes from %s:%u in %.3f s (%.3f Mbit/s)\n",
			got, addr, ntohs(peer.sin_port), t1 - t0,
			t1 > t0 ? got * 8 / (t1 - t0) / 1e6 : 0.0);
		if (ival)
			fprintf(stderr, "xtprecv: progress %.3f %lld\n", t1, got);
		if (!quiet && !tcp)
			xtp_show_mibstat(stdout, fd);
		fflush(stdout);
		close(fd);
	}
	close(ls);
	return 0;
}
