// SPDX-License-Identifier: GPL-2.0
/*
 * xtp_peer: one end of an XTP exchange, for the shell selftests.
 *
 *   xtp_peer server [OPTS] PORT      accept one association: write what
 *                                    arrives to stdout, then send the -r
 *                                    file back and close
 *   xtp_peer client [OPTS] ADDR PORT send stdin, then print what comes
 *                                    back to stdout
 *
 * OPTS: -t ASSOCTYPE  -d TEARDOWN  -v SERVICE  (numbers, see linux/xtp.h)
 *       -m sendto|connect   how the client opens (sendto: data in FIRST)
 *       -W                  close the outbound stream with the last data
 *                           (MSG_XTP_WCLOSE) instead of shutdown()
 *       -A                  server: no ATM replay timer
 *       -r FILE             server: reply with FILE's contents
 *       -n COUNT            server: accept COUNT associations in turn;
 *                           client: COUNT exchanges in turn, printing
 *                           "exchange I: MS ms" for each on stderr
 *       -T SECONDS          receive timeout (default 60)
 *       -K MS               SO_KEEPALIVE with this CTIMER period
 *       -C MS               CTIMEOUT
 *       -H                  client: send nothing and keep the outbound
 *                           stream open, just read (an idle association)
 *       -S                  server: write what arrives to stdout as it
 *                           arrives, not once the stream has ended
 *       -B DEV              server: SO_BINDTODEVICE to DEV before bind()
 *       -q BACKLOG          server: listen() backlog (default 128)
 *       -D MS               server: wait MS after listen() before the
 *                           first accept() (the queue fills meanwhile)
 *       -F                  IP_MTU_DISCOVER IP_PMTUDISC_DONT: packets leave
 *                           without DF, for a narrower hop to fragment
 *
 * Errors print "error: <call>: <errno name>" and exit 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/xtp.h>

static int assoc, teardown, service, wclose_flag, no_atm, count = 1;
static int use_sendto, timeout_s = 60, keepalive_ms, ctimeout_ms, hold;
static int stream_out, backlog = 128, accept_delay_ms, may_fragment;
static const char *reply, *bind_dev;

static void die(const char *what)
{
	fprintf(stderr, "error: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set_int(int fd, int opt, int val)
{
	if (val && setsockopt(fd, SOL_XTP, opt, &val, sizeof(val)))
		die("setsockopt");
}

static void configure(int fd)
{
	struct timeval tv = { .tv_sec = timeout_s };

	set_int(fd, XTPSOCK_TTS, service);
	set_int(fd, XTPSOCK_ASSOCTYPE, assoc);
	set_int(fd, XTPSOCK_TEARDOWNMETHOD, teardown);
	set_int(fd, XTPSOCK_NO_ATMAP_TIMER, no_atm);
	set_int(fd, XTPSOCK_CTIMEOUT_TMO, ctimeout_ms);
	if (keepalive_ms) {
		int on = 1;

		set_int(fd, XTPSOCK_CTIMER_TMO, keepalive_ms);
		if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on)))
			die("SO_KEEPALIVE");
	}
	if (may_fragment) {
		int dont = IP_PMTUDISC_DONT;

		if (setsockopt(fd, IPPROTO_IP, IP_MTU_DISCOVER, &dont,
			       sizeof(dont)))
			die("IP_MTU_DISCOVER");
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static size_t read_all(int fd, char **buf)
{
	size_t len = 0, cap = 1 << 16;
	ssize_t n;

	*buf = malloc(cap);
	for (;;) {
		if (len == cap)
			*buf = realloc(*buf, cap *= 2);
		if (!*buf)
			die("malloc");
		n = read(fd, *buf + len, cap - len);
		if (n < 0)
			die("read");
		if (!n)
			return len;
		len += n;
	}
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n <= 0)
			die("write");
		buf += n;
		len -= n;
	}
}

/* Send @len bytes; the last send carries MSG_XTP_WCLOSE with -W. */
static void send_all(int fd, const char *buf, size_t len,
		     const struct sockaddr_in *dst)
{
	size_t chunk = 65536;

	do {
		size_t n = len < chunk ? len : chunk;
		int flags = MSG_NOSIGNAL;
		ssize_t r;

		if (n == len && wclose_flag)
			flags |= MSG_XTP_WCLOSE;
		r = sendto(fd, buf, n, flags, (const struct sockaddr *)dst,
			   dst ? sizeof(*dst) : 0);
		if (r < 0)
			die("send");
		buf += r;
		len -= r;
		dst = NULL;
	} while (len);
	if (!wclose_flag && shutdown(fd, SHUT_WR))
		die("shutdown");
}

static int server(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char *in, *out = NULL;
	size_t outlen = 0;
	int ls, fd, i;

	ls = socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	if (ls < 0)
		die("socket");
	configure(ls);
	if (bind_dev && setsockopt(ls, SOL_SOCKET, SO_BINDTODEVICE, bind_dev,
				   strlen(bind_dev)))
		die("SO_BINDTODEVICE");
	sin.sin_port = htons(port);
	if (bind(ls, (struct sockaddr *)&sin, sizeof(sin)))
		die("bind");
	if (listen(ls, backlog))
		die("listen");
	fprintf(stderr, "listening\n");
	/*
	 * The reply is read once listening: 10 MB through the VM's 9p share
	 * took more than the test's 30 s wait for "listening" on the debug
	 * kernel, and a client that connects meanwhile waits in the backlog.
	 */
	if (reply) {
		int rf = open(reply, O_RDONLY);

		if (rf < 0)
			die("open");
		outlen = read_all(rf, &out);
		close(rf);
	}
	if (accept_delay_ms)
		usleep(accept_delay_ms * 1000);
	for (i = 0; i < count; i++) {
		size_t len;

		fd = accept(ls, NULL, NULL);
		if (fd < 0)
			die("accept");
		if (stream_out) {
			char b[4096];
			ssize_t n;

			while ((n = read(fd, b, sizeof(b))) > 0)
				write_all(1, b, n);
			if (n < 0)
				die("read");
		} else {
			len = read_all(fd, &in);
			write_all(1, in, len);
			free(in);
		}
		if (outlen)
			send_all(fd, out, outlen, NULL);
		close(fd);
	}
	close(ls);
	return 0;
}

/* One association: send @out, print what comes back, close. */
static void exchange(const struct sockaddr_in *sin, const char *out,
		     size_t outlen, int i)
{
	struct timespec t0, t1;
	size_t len;
	char *in;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	if (fd < 0)
		die("socket");
	configure(fd);
	if (use_sendto) {
		if (!outlen)
			die("sendto needs data");
		send_all(fd, out, outlen, sin);
	} else {
		if (connect(fd, (const struct sockaddr *)sin, sizeof(*sin)))
			die("connect");
		if (outlen)
			send_all(fd, out, outlen, NULL);
		else if (!hold && shutdown(fd, SHUT_WR))
			die("shutdown");
	}
	len = read_all(fd, &in);
	write_all(1, in, len);
	free(in);
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (count > 1)
		fprintf(stderr, "exchange %d: %ld ms\n", i + 1,
			(t1.tv_sec - t0.tv_sec) * 1000 +
			(t1.tv_nsec - t0.tv_nsec) / 1000000);
}

static int client(const char *addr, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char *out = NULL;
	size_t outlen;

	sin.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		die("address");
	outlen = hold ? 0 : read_all(0, &out);
	for (int i = 0; i < count; i++)
		exchange(&sin, out, outlen, i);
	return 0;
}

int main(int argc, char **argv)
{
	int opt;

	if (argc < 2)
		return 2;
	optind = 2;
	while ((opt = getopt(argc, argv, "t:d:v:m:WAr:n:T:K:C:HSB:q:D:F")) != -1) {
		switch (opt) {
		case 't': assoc = atoi(optarg); break;
		case 'd': teardown = atoi(optarg); break;
		case 'v': service = atoi(optarg); break;
		case 'm': use_sendto = !strcmp(optarg, "sendto"); break;
		case 'W': wclose_flag = 1; break;
		case 'A': no_atm = 1; break;
		case 'r': reply = optarg; break;
		case 'n': count = atoi(optarg); break;
		case 'q': backlog = atoi(optarg); break;
		case 'D': accept_delay_ms = atoi(optarg); break;
		case 'T': timeout_s = atoi(optarg); break;
		case 'K': keepalive_ms = atoi(optarg); break;
		case 'C': ctimeout_ms = atoi(optarg); break;
		case 'H': hold = 1; break;
		case 'S': stream_out = 1; break;
		case 'B': bind_dev = optarg; break;
		case 'F': may_fragment = 1; break;
		default: return 2;
		}
	}
	if (!strcmp(argv[1], "server") && optind == argc - 1)
		return server(atoi(argv[optind]));
	if (!strcmp(argv[1], "client") && optind == argc - 2)
		return client(argv[optind], atoi(argv[optind + 1]));
	fprintf(stderr, "usage: xtp_peer server|client [OPTS] ...\n");
	return 2;
}
