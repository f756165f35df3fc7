// SPDX-License-Identifier: GPL-2.0
/*
 * libwithxtp: LD_PRELOAD shim that runs unmodified TCP programs over XTP
 * (see withxtp(1)).
 *
 * socket(AF_INET, SOCK_STREAM[|SOCK_NONBLOCK|SOCK_CLOEXEC], 0 or
 * IPPROTO_TCP) becomes socket(AF_INET, SOCK_STREAM, IPPROTO_XTP): still a
 * byte stream with the same calls, so the program cannot tell.  When the
 * kernel has no XTP the call fails with its errno (EPROTONOSUPPORT); no
 * silent fallback to TCP.
 *
 * AF_INET6 stream sockets: XTP contexts are IPv4 only, so by default they
 * fail with EAFNOSUPPORT, as TCP does on a kernel without IPv6; programs
 * that walk getaddrinfo() results then use the IPv4 address.
 * WITHXTP_INET6=tcp leaves them TCP instead.
 *
 * TCP-level options on an XTP socket (recognised by SO_PROTOCOL):
 *   TCP_NODELAY, TCP_CORK, TCP_QUICKACK, TCP_DEFER_ACCEPT, TCP_FASTOPEN,
 *   TCP_FASTOPEN_CONNECT, TCP_KEEPINTVL, TCP_KEEPCNT, TCP_CONGESTION,
 *   TCP_NOTSENT_LOWAT, TCP_WINDOW_CLAMP: accepted, no effect (XTP sends
 *   each write at once, ends it with EOM, and acknowledges on SREQ);
 *   TCP_KEEPIDLE (s): XTPSOCK_CTIMER_TMO (ms);
 *   TCP_USER_TIMEOUT (ms): XTPSOCK_CTIMEOUT_TMO;
 *   TCP_MAXSEG: XTPSOCK_MAXDATA (clamped to 25..1448);
 *   other TCP options: ENOPROTOOPT.
 * getsockopt(IPPROTO_TCP): TCP_NODELAY reads 1, TCP_MAXSEG reads
 * XTPSOCK_MAXDATA, TCP_KEEPIDLE/TCP_USER_TIMEOUT the mapped timers, the
 * rest ENOPROTOOPT.
 *
 * WITHXTP_DEBUG=1 reports each conversion on standard error.
 */
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/xtp.h>

typedef int (*socket_fn)(int, int, int);
typedef int (*setsockopt_fn)(int, int, int, const void *, socklen_t);
typedef int (*getsockopt_fn)(int, int, int, void *, socklen_t *);

static socket_fn real_socket;
static setsockopt_fn real_setsockopt;
static getsockopt_fn real_getsockopt;

static void resolve(void)
{
	if (!real_socket)
		real_socket = (socket_fn)dlsym(RTLD_NEXT, "socket");
	if (!real_setsockopt)
		real_setsockopt = (setsockopt_fn)dlsym(RTLD_NEXT, "setsockopt");
	if (!real_getsockopt)
		real_getsockopt = (getsockopt_fn)dlsym(RTLD_NEXT, "getsockopt");
}

static int debug(void)
{
	const char *d = getenv("WITHXTP_DEBUG");

	return d && *d && strcmp(d, "0");
}

int socket(int domain, int type, int protocol)
{
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	int fd;

	resolve();
	if (base != SOCK_STREAM || (protocol && protocol != IPPROTO_TCP))
		return real_socket(domain, type, protocol);
	if (domain == AF_INET6) {
		const char *v6 = getenv("WITHXTP_INET6");

		if (v6 && !strcmp(v6, "tcp"))
			return real_socket(domain, type, protocol);
		if (debug())
			fprintf(stderr, "withxtp: AF_INET6 stream socket refused (EAFNOSUPPORT)\n");
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (domain != AF_INET)
		return real_socket(domain, type, protocol);
	fd = real_socket(AF_INET, type, IPPROTO_XTP);
	if (debug())
		fprintf(stderr, "withxtp: TCP socket -> XTP fd %d%s%s\n", fd,
			fd < 0 ? ": " : "", fd < 0 ? strerror(errno) : "");
	return fd;
}

static int is_xtp(int fd)
{
	int proto = 0;
	socklen_t len = sizeof(proto);

	return !real_getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) &&
	       proto == IPPROTO_XTP;
}

static int xtp_int(int fd, int opt, int val)
{
	return real_setsockopt(fd, SOL_XTP, opt, &val, sizeof(val));
}

int setsockopt(int fd, int level, int opt, const void *val, socklen_t len)
{
	int v;

	resolve();
	if (level != IPPROTO_TCP || !is_xtp(fd))
		return real_setsockopt(fd, level, opt, val, len);
	switch (opt) {
	case TCP_NODELAY: case TCP_CORK: case TCP_QUICKACK:
	case TCP_DEFER_ACCEPT: case TCP_FASTOPEN: case TCP_FASTOPEN_CONNECT:
	case TCP_KEEPINTVL: case TCP_KEEPCNT: case TCP_CONGESTION:
	case TCP_NOTSENT_LOWAT: case TCP_WINDOW_CLAMP:
		return 0;
	}
	if (len < sizeof(int) || !val) {
		errno = EINVAL;
		return -1;
	}
	memcpy(&v, val, sizeof(v));
	switch (opt) {
	case TCP_KEEPIDLE:
		if (v < 1 || v > 0x7fffffff / 1000) {
			errno = EINVAL;
			return -1;
		}
		return xtp_int(fd, XTPSOCK_CTIMER_TMO, v * 1000);
	case TCP_USER_TIMEOUT:
		/* 0 means "the system default" for TCP. */
		return v ? xtp_int(fd, XTPSOCK_CTIMEOUT_TMO, v) : 0;
	case TCP_MAXSEG:
		return xtp_int(fd, XTPSOCK_MAXDATA,
			       v < 25 ? 25 : v > 1448 ? 1448 : v);
	}
	errno = ENOPROTOOPT;
	return -1;
}

int getsockopt(int fd, int level, int opt, void *val, socklen_t *len)
{
	int xopt, v = 1;

	resolve();
	if (level != IPPROTO_TCP || !is_xtp(fd))
		return real_getsockopt(fd, level, opt, val, len);
	switch (opt) {
	case TCP_NODELAY:
		xopt = 0;
		break;
	case TCP_MAXSEG:
		xopt = XTPSOCK_MAXDATA;
		break;
	case TCP_KEEPIDLE:
		xopt = XTPSOCK_CTIMER_TMO;
		break;
	case TCP_USER_TIMEOUT:
		xopt = XTPSOCK_CTIMEOUT_TMO;
		break;
	default:
		errno = ENOPROTOOPT;
		return -1;
	}
	if (xopt) {
		socklen_t l = sizeof(v);

		if (real_getsockopt(fd, SOL_XTP, xopt, &v, &l))
			return -1;
		if (opt == TCP_KEEPIDLE)
			v /= 1000;
	}
	if (!len || !val || *len < sizeof(int)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(val, &v, sizeof(v));
	*len = sizeof(v);
	return 0;
}
