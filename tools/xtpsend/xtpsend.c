// SPDX-License-Identifier: GPL-2.0
/*
 * xtpsend: send a file or N bytes over one XTP association, every LinuxXTP
 * Appendix A socket option a command-line flag, and print the Appendix B
 * "Association Info" block at the end (the thesis' xtpsend).
 *
 *   xtpsend [-f FILE | -n BYTES] [-d SEC] [-b SIZE] [-s] [-W] [-q] [-t]
 *           [-k] [-i MS] [-T SEC] [-O] [--OPTION[=N] ...] HOST PORT
 *
 * -d sends generated data for a fixed time (bulk flows of the fairness
 * test), -t does the same over TCP for comparison, -O only sets the
 * options on a fresh socket (exit status 3 if the module rejects one),
 * -i prints the controller's state between sends (the BBR selftests
 * follow the pacing rate with it).
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
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
		"usage: xtpsend [options] HOST PORT\n"
		"  -f FILE   send FILE (default: standard input)\n"
		"  -n BYTES  send BYTES of generated data instead\n"
		"  -d SEC    send generated data for SEC seconds (at most -n)\n"
		"  -b SIZE   bytes per send() (default 65536)\n"
		"  -s        sendto() on the unconnected socket: data in the FIRST\n"
		"  -W        WCLOSE on the last data (MSG_XTP_WCLOSE), not shutdown()\n"
		"  -q        do not print the Association Info block\n"
		"  -t        over TCP instead of XTP (no XTP options)\n"
		"  -k        SO_KEEPALIVE: the CTIMER keep-alive (period --ctimer)\n"
		"  -i MS     at most every MS ms, between sends, print \"xtpsend:\n"
		"            state TIME BYTES PACING_RATE SRTT_US MIN_RTT_US CWND\"\n"
		"  -O        only set the XTP options on a socket: exit 0 if all\n"
		"            are accepted, 3 if one is rejected\n"
		"  -T SEC    give up after SEC seconds without progress (60)\n");
	xtpopt_usage(f);
	exit(rc);
}

/*
 * One line of the controller's state: monotonic seconds, bytes given to
 * send(), pacing rate (bytes/s), SRTT and least RTT (us), window (bytes).
 */
static void show_state(int fd, long long sent)
{
	struct xtp_mibstat m;
	socklen_t len = sizeof(m);

	memset(&m, 0, sizeof(m));
	if (getsockopt(fd, SOL_XTP, XTPSOCK_MIBSTAT, &m, &len))
		die("getsockopt XTPSOCK_MIBSTAT");
	fprintf(stderr, "xtpsend: state %.3f %lld %llu %u %u %u\n", now(),
		sent, (unsigned long long)m.pacing_rate, m.srtt_us,
		m.min_rtt_us, m.trainsize);
}

/* Wait until the association is over (EPOLLHUP), at most @sec seconds. */
static void wait_end(int fd, int sec)
{
	struct pollfd p = { .fd = fd, .events = 0 };
	double end = now() + sec;

	while (now() < end) {
		if (poll(&p, 1, 100) > 0 && (p.revents & (POLLHUP | POLLERR)))
			return;
	}
	fprintf(stderr, "xtpsend: association did not end in %d s\n", sec);
}

int main(int argc, char **argv)
{
	struct option lo[XTPOPT_N + 2];
	struct xtpopt_set xo;
	const char *file = NULL;
	long long nbytes = -1, sent = 0;
	size_t bsize = 65536;
	int use_sendto = 0, wclose = 0, quiet = 0, tmo = 60, tcp = 0;
	int optcheck = 0, keepalive = 0, every_ms = 0;
	double dur = 0, tick = 0;
	int c, fd, in = -1, first = 1, eof = 0, wclosed = 0;
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	struct timeval tv;
	char *buf;
	double t0, t1;

	memset(&xo, 0, sizeof(xo));
	memset(lo, 0, sizeof(lo));
	xtpopt_longopts(lo);
	lo[XTPOPT_N].name = "help";
	lo[XTPOPT_N].val = 'h';
	while ((c = getopt_long(argc, argv, "f:n:d:b:sWqtkOi:T:h", lo, NULL)) != -1) {
		switch (xtpopt_parse(&xo, c, optarg)) {
		case 1:
			continue;
		case -1:
			usage(2);
		}
		switch (c) {
		case 'f': file = optarg; break;
		case 'n': nbytes = strtoll(optarg, NULL, 0); break;
		case 'b': bsize = strtoul(optarg, NULL, 0); break;
		case 's': use_sendto = 1; break;
		case 'W': wclose = 1; break;
		case 'q': quiet = 1; break;
		case 'd': dur = atof(optarg); break;
		case 't': tcp = 1; break;
		case 'k': keepalive = 1; break;
		case 'O': optcheck = 1; break;
		case 'i': every_ms = atoi(optarg); break;
		case 'T': tmo = atoi(optarg); break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (optcheck) {
		fd = socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
		if (fd < 0)
			die("socket");
		if (xtpopt_apply(fd, &xo))
			return errno == ENOPROTOOPT || errno == EINVAL ? 3 : 1;
		return 0;
	}
	if (argc - optind != 2 || !bsize || bsize > (64 << 20) ||
	    (file && nbytes >= 0) || dur < 0 || (dur > 0 && file) ||
	    every_ms < 0 || (tcp && (use_sendto || wclose || every_ms)))
		usage(2);
	/* A timed run sends generated data until time is up. */
	if (dur > 0 && nbytes < 0)
		nbytes = 1LL << 62;
	signal(SIGPIPE, SIG_IGN);
	if (getaddrinfo(argv[optind], argv[optind + 1], &hints, &ai)) {
		fprintf(stderr, "xtpsend: cannot resolve %s %s\n",
			argv[optind], argv[optind + 1]);
		return 1;
	}
	if (nbytes < 0) {
		in = file ? open(file, O_RDONLY) : 0;
		if (in < 0)
			die(file);
	}
	buf = malloc(bsize);
	if (!buf)
		die("malloc");
	memset(buf, 'x', bsize);

	fd = tcp ? socket(AF_INET, SOCK_STREAM, IPPROTO_TCP) :
		   socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	if (fd < 0)
		die("socket");
	if (!tcp && xtpopt_apply(fd, &xo))
		return 1;
	if (keepalive &&
	    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &keepalive, sizeof(int)))
		die("SO_KEEPALIVE");
	tv.tv_sec = tmo;
	tv.tv_usec = 0;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	t0 = now();
	if (!use_sendto && connect(fd, ai->ai_addr, ai->ai_addrlen))
		die("connect");

	while (!eof) {
		size_t n = bsize, off = 0;
		int flags = MSG_NOSIGNAL;

		if (nbytes >= 0) {
			if ((long long)n > nbytes - sent)
				n = nbytes - sent;
		} else {
			/* Fill the buffer so the last chunk is known as last. */
			for (off = 0; off < bsize; ) {
				ssize_t r = read(in, buf + off, bsize - off);

				if (r < 0)
					die("read");
				if (!r)
					break;
				off += r;
			}
			n = off;
		}
		if (n < bsize || (nbytes >= 0 && sent + (long long)n == nbytes) ||
		    (dur > 0 && now() >= t0 + dur))
			eof = 1;
		if (!n && !(first && use_sendto))
			break;
		if (eof && wclose)
			flags |= MSG_XTP_WCLOSE;
		for (off = 0; off < n || (first && !n); ) {
			ssize_t r = sendto(fd, buf + off, n - off, flags,
					   first && use_sendto ? ai->ai_addr : NULL,
					   first && use_sendto ? ai->ai_addrlen : 0);

			if (r < 0)
				die("send");
			first = 0;
			off += r;
		}
		if (flags & MSG_XTP_WCLOSE)
			wclosed = 1;
		sent += n;
		if (every_ms && now() >= tick) {
			show_state(fd, sent);
			tick = now() + every_ms / 1000.0;
		}
	}
	if (!wclosed && shutdown(fd, SHUT_WR))
		die("shutdown");
	/*
	 * Drain what the peer sends back, then wait for the END.  An error
	 * here is the association's (ETIMEDOUT when the peer vanished): the
	 * data may not have arrived, so it fails the run.
	 */
	for (;;) {
		ssize_t r = recv(fd, buf, bsize, 0);

		if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			die("recv");
		if (r <= 0)
			break;
	}
	wait_end(fd, tmo);
	t1 = now();
	fprintf(stderr, "xtpsend: %lld bytes in %.3f s (%.3f Mbit/s)\n", sent,
		t1 - t0, t1 > t0 ? sent * 8 / (t1 - t0) / 1e6 : 0.0);
	if (!quiet && !tcp && xtp_show_mibstat(stdout, fd))
		return 1;
	close(fd);
	freeaddrinfo(ai);
	free(buf);
	return 0;
}
