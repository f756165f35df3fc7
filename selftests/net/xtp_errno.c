// SPDX-License-Identifier: GPL-2.0
/*
 * errno and poll conformance: each call sequence runs once on a TCP socket
 * and once on an XTP socket in the same run, and each call's result
 * (return value, errno, poll mask) must be the same for both, unless
 * Documentation/networking/xtp.rst documents a difference; then XTP must
 * give the documented value.  One KTAP result per call and comparison,
 * with both results in its message.
 *
 * The program runs in its own network namespace (loopback, and a veth
 * with 198.18.0.1/24 whose peer end is down, so that 198.18.0.2 never
 * answers), on ports 7300..7399.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/xtp.h>

#include "kselftest.h"

#define PORT_BASE	7300
#define SILENT_PEER	"198.18.0.2"	/* behind xe0, whose peer is down */
#define ALL_EVENTS	(POLLIN | POLLPRI | POLLOUT | POLLRDNORM | \
			 POLLRDBAND | POLLWRNORM | POLLWRBAND | POLLRDHUP)
#define WAIT_MS		10000
#define MAX_STEPS	48

struct proto {
	const char *name;
	int type;
	int protocol;
};

static const struct proto tcp_proto = { "TCP", SOCK_STREAM, 0 };
static const struct proto xtp_proto = { "XTP", SOCK_XTP, IPPROTO_XTP };

enum kind { K_CALL, K_MASK, K_VALUE };

struct step {
	char name[64];
	enum kind kind;
	long ret;
	int err;
	/* xtp.rst documents XTP's result: expect it, cite the sentence. */
	const char *doc;
	long doc_ret;
	int doc_err;
	/* A known, undocumented difference: where its cause is. */
	const char *xfail;
};

struct rec {
	const struct proto *p;
	int n;
	char broken[128];	/* a setup step failed: why */
	struct step s[MAX_STEPS];
};

static bool silent_peer_ok;
static volatile sig_atomic_t sigpipes;

static void on_sigpipe(int sig)
{
	sigpipes++;
}

static struct step *add(struct rec *r, const char *name, enum kind kind,
			long ret, int err)
{
	struct step *st;

	if (r->n == MAX_STEPS) {
		snprintf(r->broken, sizeof(r->broken), "too many steps");
		return NULL;
	}
	st = &r->s[r->n++];
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	st->kind = kind;
	st->ret = ret;
	st->err = ret < 0 ? err : 0;
	return st;
}

/* Record a call: its return value and, when it failed, errno. */
#define CALL(r, name, expr) do {					\
	long _v;							\
	errno = 0;							\
	_v = (long)(expr);						\
	add(r, name, K_CALL, _v, errno);				\
} while (0)

/* A call that returns a descriptor: record 0 for any valid one. */
#define CALL_FD(r, name, fdvar, expr) do {				\
	errno = 0;							\
	fdvar = (expr);							\
	add(r, name, K_CALL, fdvar < 0 ? fdvar : 0, errno);		\
} while (0)

#define VALUE(r, name, v)	add(r, name, K_VALUE, (v), 0)

/* The last step's XTP result is documented in xtp.rst as @cite says. */
#define DOC(r, xret, xerr, cite) do {					\
	struct step *_s = &(r)->s[(r)->n - 1];				\
	_s->doc = cite;							\
	_s->doc_ret = xret;						\
	_s->doc_err = xerr;						\
} while (0)

#define XFAIL(r, cause)	((r)->s[(r)->n - 1].xfail = cause)

#define SETUP(r, cond, what) do {					\
	if (!(cond)) {							\
		snprintf((r)->broken, sizeof((r)->broken),		\
			 "%s: %s", what, strerror(errno));		\
		goto out;						\
	}								\
} while (0)

static int sock(const struct proto *p, int flags)
{
	return socket(AF_INET, p->type | flags, p->protocol);
}

static struct sockaddr_in addr4(const char *ip, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	inet_pton(AF_INET, ip, &sin.sin_addr);
	sin.sin_port = htons(port);
	return sin;
}

static int bind_to(int fd, const char *ip, int port)
{
	struct sockaddr_in sin = addr4(ip, port);

	return bind(fd, (struct sockaddr *)&sin, sizeof(sin));
}

static int connect_to(int fd, const char *ip, int port)
{
	struct sockaddr_in sin = addr4(ip, port);

	return connect(fd, (struct sockaddr *)&sin, sizeof(sin));
}

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The full poll mask of @fd now. */
static int mask_now(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = ALL_EVENTS };

	if (poll(&pfd, 1, 0) < 0)
		return -1;
	return pfd.revents;
}

/* Wait (bounded) until all of @bits show; returns the mask then. */
static int wait_mask(int fd, int bits, int timeout_ms)
{
	long end = ms_now() + timeout_ms;
	struct pollfd pfd = { .fd = fd, .events = ALL_EVENTS };

	do {
		pfd.revents = 0;
		if (poll(&pfd, 1, 20) < 0 && errno != EINTR)
			return -1;
		if ((pfd.revents & bits) == bits)
			return pfd.revents;
	} while (ms_now() < end);
	return pfd.revents;
}

#define MASK(r, name, fd)	add(r, name, K_MASK, mask_now(fd), 0)

static int getsockopt_int(int fd, int level, int name, int *v)
{
	socklen_t len = sizeof(*v);

	return getsockopt(fd, level, name, v, &len);
}

static int so_error(int fd)
{
	int v = -1;

	if (getsockopt_int(fd, SOL_SOCKET, SO_ERROR, &v))
		return -1;
	return v;
}

/* Listener on 127.0.0.1:@port, a client connected to it, the accepted. */
static int make_pair(const struct proto *p, int port, int *ls, int *c, int *s)
{
	*ls = *c = *s = -1;
	*ls = sock(p, 0);
	if (*ls < 0 || bind_to(*ls, "127.0.0.1", port) || listen(*ls, 8))
		return -1;
	*c = sock(p, 0);
	if (*c < 0 || connect_to(*c, "127.0.0.1", port))
		return -1;
	*s = accept(*ls, NULL, NULL);
	return *s < 0 ? -1 : 0;
}

static void close_all(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* ------------------------------------------------------------------ */
/* The sequences: each runs once per protocol, on its own ports.       */

static void seq_bad_address(struct rec *r, int port)
{
	struct sockaddr_in sin = addr4("127.0.0.1", port);
	struct sockaddr_in v6fam = sin;
	struct sockaddr_in unspec = addr4("0.0.0.0", port + 1);
	int fd[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };

	v6fam.sin_family = AF_INET6;
	unspec.sin_family = AF_UNSPEC;
	for (int i = 0; i < 8; i++) {
		fd[i] = sock(r->p, 0);
		SETUP(r, fd[i] >= 0, "socket");
	}
	CALL(r, "bind AF_INET6 family",
	     bind(fd[0], (struct sockaddr *)&v6fam, sizeof(v6fam)));
	CALL(r, "bind short addrlen",
	     bind(fd[0], (struct sockaddr *)&sin, 4));
	CALL(r, "bind NULL, addrlen 0", bind(fd[0], NULL, 0));
	CALL(r, "bind NULL, full addrlen", bind(fd[0], NULL, sizeof(sin)));
	CALL(r, "bind non-local address",
	     bind_to(fd[0], "198.18.99.1", port));
	CALL(r, "bind AF_UNSPEC INADDR_ANY",
	     bind(fd[1], (struct sockaddr *)&unspec, sizeof(unspec)));
	CALL(r, "connect AF_INET6 family",
	     connect(fd[2], (struct sockaddr *)&v6fam, sizeof(v6fam)));
	CALL(r, "connect short addrlen",
	     connect(fd[2], (struct sockaddr *)&sin, 4));
	CALL(r, "connect AF_INET6 family, short addrlen",
	     connect(fd[2], (struct sockaddr *)&v6fam, 4));
	CALL(r, "connect NULL, addrlen 0", connect(fd[2], NULL, 0));
	CALL(r, "connect NULL, full addrlen",
	     connect(fd[2], NULL, sizeof(sin)));
	CALL(r, "connect AF_UNSPEC (unconnected)",
	     connect(fd[3], (struct sockaddr *)&unspec, sizeof(unspec)));
	DOC(r, -1, EAFNOSUPPORT,
	    "xtp.rst: there is no disconnect: connect() with AF_UNSPEC gives EAFNOSUPPORT");
out:
	close_all(fd, 8);
}

static void seq_refused(struct rec *r, int port)
{
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer);
	int fd = -1, nb = -1, ls = -1;

	fd = sock(r->p, 0);
	SETUP(r, fd >= 0, "socket");
	CALL(r, "blocking connect, nothing listening",
	     connect_to(fd, "127.0.0.1", port));
	VALUE(r, "SO_ERROR after refused blocking connect", so_error(fd));
	MASK(r, "poll after refused blocking connect", fd);
	DOC(r, POLLIN | POLLOUT | POLLHUP | POLLRDNORM | POLLWRNORM | POLLRDHUP, 0,
	    "xtp.rst: a finished context, refused or not, stays shut both ways");
	CALL(r, "getpeername after refusal",
	     getpeername(fd, (struct sockaddr *)&peer, &len));
	CALL(r, "connect again after refusal",
	     connect_to(fd, "127.0.0.1", port));
	ls = sock(r->p, 0);
	SETUP(r, ls >= 0 && !bind_to(ls, "127.0.0.1", port) &&
	      !listen(ls, 1), "listener");
	CALL(r, "connect after refusal, to a listener now",
	     connect_to(fd, "127.0.0.1", port));
	VALUE(r, "SO_ERROR after connecting at last", so_error(fd));
	MASK(r, "poll connected at last", fd);

	nb = sock(r->p, SOCK_NONBLOCK);
	SETUP(r, nb >= 0, "socket");
	CALL(r, "non-blocking connect, nothing listening",
	     connect_to(nb, "127.0.0.1", port));
	add(r, "poll when the refusal arrives", K_MASK,
	    wait_mask(nb, POLLERR, WAIT_MS), 0);
	VALUE(r, "SO_ERROR after refusal", so_error(nb));
	VALUE(r, "SO_ERROR read twice", so_error(nb));
	MASK(r, "poll after SO_ERROR read", nb);
out:
	close_all((int[]){ fd, nb, ls }, 3);
}

/* Established: connect twice, non-blocking calls, OOB, XTP options. */
static void seq_established(struct rec *r, int port)
{
	struct sockaddr_in sin = addr4("127.0.0.1", port), v6fam = sin;
	int ls = -1, c = -1, s = -1, v = XTP_ASSOC_SDT;
	char buf[8];

	v6fam.sin_family = AF_INET6;

	ls = sock(r->p, SOCK_NONBLOCK);
	SETUP(r, ls >= 0, "socket");
	SETUP(r, !bind_to(ls, "127.0.0.1", port), "bind");
	MASK(r, "poll bound, not listening", ls);
	CALL(r, "listen", listen(ls, 8));
	MASK(r, "poll listening", ls);
	CALL(r, "non-blocking accept, nothing pending",
	     accept(ls, NULL, NULL));
	c = sock(r->p, 0);
	SETUP(r, c >= 0, "socket");
	CALL(r, "connect", connect_to(c, "127.0.0.1", port));
	add(r, "poll listening, connection pending", K_MASK,
	    wait_mask(ls, POLLIN, WAIT_MS), 0);
	CALL(r, "connect twice", connect_to(c, "127.0.0.1", port));
	CALL(r, "connect twice, elsewhere", connect_to(c, "127.0.0.1", port + 1));
	CALL(r, "connect twice, short addrlen",
	     connect(c, (struct sockaddr *)&sin, 4));
	CALL(r, "connect twice, AF_INET6 family",
	     connect(c, (struct sockaddr *)&v6fam, sizeof(v6fam)));
	CALL_FD(r, "accept", s, accept(ls, NULL, NULL));
	SETUP(r, s >= 0, "accept");
	MASK(r, "poll listening, accepted", ls);
	MASK(r, "poll connected (client)", c);
	MASK(r, "poll connected (accepted)", s);
	CALL(r, "non-blocking recv, nothing queued",
	     recv(s, buf, sizeof(buf), MSG_DONTWAIT));
	CALL(r, "bind after connect", bind_to(c, "127.0.0.1", port + 2));
	CALL(r, "listen after connect", listen(c, 1));
	CALL(r, "accept on a connected socket", accept(c, NULL, NULL));
	CALL(r, "send", send(c, "x", 1, 0));
	add(r, "poll with data queued", K_MASK,
	    wait_mask(s, POLLIN, WAIT_MS), 0);
	CALL(r, "recv MSG_OOB, no urgent data", recv(s, buf, 1, MSG_OOB));
	CALL(r, "recv", recv(s, buf, sizeof(buf), 0));
	CALL(r, "send MSG_OOB", send(c, "!", 1, MSG_OOB));
	DOC(r, -1, EOPNOTSUPP,
	    "xtp.rst: XTP has no urgent data: sending with MSG_OOB fails with EOPNOTSUPP where TCP sends it");
	CALL(r, "setsockopt XTPSOCK_ASSOCTYPE after connect",
	     setsockopt(c, SOL_XTP, XTPSOCK_ASSOCTYPE, &v, sizeof(v)));
	DOC(r, -1, EISCONN,
	    "xtp.rst: association type and service can only change before connect()/listen() (EISCONN)");
	v = XTP_CC_SCC;
	CALL(r, "setsockopt XTPSOCK_CONGESTION after connect",
	     setsockopt(c, SOL_XTP, XTPSOCK_CONGESTION, &v, sizeof(v)));
	DOC(r, -1, EISCONN,
	    "xtp.rst: XTPSOCK_CONGESTION ... before the association starts (EISCONN after)");
out:
	close_all((int[]){ ls, c, s }, 3);
}

/* Still connecting: the FIRST or SYN goes to a peer that never answers. */
static void seq_connecting(struct rec *r, int port)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer);
	int fd = -1, bl = -1;

	SETUP(r, silent_peer_ok, "no veth for a silent peer");
	fd = sock(r->p, SOCK_NONBLOCK);
	SETUP(r, fd >= 0, "socket");
	CALL(r, "non-blocking connect", connect_to(fd, SILENT_PEER, port));
	CALL(r, "connect while connecting", connect_to(fd, SILENT_PEER, port));
	MASK(r, "poll while connecting", fd);
	CALL(r, "getpeername while connecting",
	     getpeername(fd, (struct sockaddr *)&peer, &len));
	CALL(r, "non-blocking send while connecting",
	     send(fd, "x", 1, MSG_NOSIGNAL));
	CALL(r, "non-blocking recv while connecting",
	     recv(fd, &peer, 1, 0));
	VALUE(r, "SO_ERROR while connecting", so_error(fd));

	bl = sock(r->p, 0);
	SETUP(r, bl >= 0, "socket");
	SETUP(r, !setsockopt(bl, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)),
	      "SO_SNDTIMEO");
	CALL(r, "blocking connect, SO_SNDTIMEO expires",
	     connect_to(bl, SILENT_PEER, port));
	CALL(r, "blocking connect again while connecting",
	     connect_to(bl, SILENT_PEER, port));
out:
	close_all((int[]){ fd, bl }, 2);
}

/* Orderly close: SHUT_WR on one side, then the other. */
static void seq_shutdown(struct rec *r, int port)
{
	int ls = -1, c = -1, s = -1, before;
	char buf[8];

	SETUP(r, !make_pair(r->p, port, &ls, &c, &s), "connected pair");
	CALL(r, "shutdown(SHUT_WR)", shutdown(c, SHUT_WR));
	MASK(r, "poll after local SHUT_WR", c);
	before = sigpipes;
	CALL(r, "send after SHUT_WR, MSG_NOSIGNAL",
	     send(c, "x", 1, MSG_NOSIGNAL));
	VALUE(r, "SIGPIPEs from it", sigpipes - before);
	before = sigpipes;
	CALL(r, "send after SHUT_WR", send(c, "x", 1, 0));
	VALUE(r, "SIGPIPEs from it", sigpipes - before);
	add(r, "poll after peer SHUT_WR", K_MASK,
	    wait_mask(s, POLLRDHUP, WAIT_MS), 0);
	CALL(r, "recv after peer SHUT_WR", recv(s, buf, sizeof(buf), 0));
	CALL(r, "send to a peer that shut down", send(s, "y", 1, 0));
	CALL(r, "shutdown(SHUT_WR) twice", shutdown(c, SHUT_WR));
	CALL(r, "shutdown(SHUT_WR) of the other side", shutdown(s, SHUT_WR));
	add(r, "poll after both SHUT_WR", K_MASK,
	    wait_mask(c, POLLIN | POLLRDHUP, WAIT_MS), 0);
	CALL(r, "recv after both SHUT_WR", recv(c, buf, sizeof(buf), 0));
	CALL(r, "recv the data sent to it", recv(c, buf, sizeof(buf), 0));
	CALL(r, "recv again", recv(c, buf, sizeof(buf), 0));
	CALL(r, "invalid shutdown how", shutdown(c, 7));
out:
	close_all((int[]){ ls, c, s }, 3);
}

/* The peer closes: EOF, or an abort (SO_LINGER 0 close). */
static void seq_peer_close(struct rec *r, int port)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int ls = -1, c = -1, s = -1, ls2 = -1, c2 = -1, s2 = -1;
	char buf[8];

	SETUP(r, !make_pair(r->p, port, &ls, &c, &s), "connected pair");
	close(s);
	s = -1;
	add(r, "poll after peer close", K_MASK,
	    wait_mask(c, POLLIN | POLLRDHUP, WAIT_MS), 0);
	CALL(r, "recv after peer close", recv(c, buf, sizeof(buf), 0));
	CALL(r, "non-blocking recv after peer close",
	     recv(c, buf, sizeof(buf), MSG_DONTWAIT));

	SETUP(r, !make_pair(r->p, port + 1, &ls2, &c2, &s2), "second pair");
	SETUP(r, !setsockopt(s2, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)),
	      "SO_LINGER");
	close(s2);
	s2 = -1;
	add(r, "poll after peer abort", K_MASK,
	    wait_mask(c2, POLLERR, WAIT_MS), 0);
	CALL(r, "recv after peer abort", recv(c2, buf, sizeof(buf), 0));
	MASK(r, "poll after the error was read", c2);
	CALL(r, "recv again after abort", recv(c2, buf, sizeof(buf), 0));
	CALL(r, "send after abort", send(c2, "x", 1, MSG_NOSIGNAL));
	VALUE(r, "SO_ERROR after abort", so_error(c2));
out:
	close_all((int[]){ ls, c, s, ls2, c2, s2 }, 6);
}

static void seq_listen(struct rec *r, int port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int ls = -1, fresh = -1, l0 = -1, c0 = -1;
	char c = 'x';

	ls = sock(r->p, 0);
	fresh = sock(r->p, 0);
	SETUP(r, ls >= 0 && fresh >= 0, "socket");
	CALL(r, "listen on an unbound socket", listen(ls, 4));
	SETUP(r, !getsockname(ls, (struct sockaddr *)&sin, &len),
	      "getsockname");
	VALUE(r, "autobound a port", sin.sin_port != 0);
	CALL(r, "listen twice", listen(ls, 8));
	CALL(r, "bind a listener", bind_to(ls, "127.0.0.1", port));
	CALL(r, "connect a listener", connect_to(ls, "127.0.0.1", port));
	CALL(r, "connect a listener, short addrlen",
	     connect(ls, (struct sockaddr *)&sin, 4));
	CALL(r, "recv on a listener", recv(ls, &c, 1, MSG_DONTWAIT));
	CALL(r, "send on a listener", send(ls, &c, 1, MSG_NOSIGNAL));
	CALL(r, "getpeername on a listener",
	     getpeername(ls, (struct sockaddr *)&sin, &len));
	CALL(r, "accept on a non-listener", accept(fresh, NULL, NULL));
	CALL(r, "shutdown(SHUT_RD) a listener", shutdown(ls, SHUT_RD));
	MASK(r, "poll after shutting the listener", ls);
	CALL(r, "accept after shutting the listener", accept(ls, NULL, NULL));

	/* A backlog of 0 still holds one association (sk_acceptq_is_full). */
	l0 = sock(r->p, 0);
	c0 = sock(r->p, SOCK_NONBLOCK);
	SETUP(r, l0 >= 0 && c0 >= 0 && !bind_to(l0, "127.0.0.1", port + 1),
	      "socket, bind");
	CALL(r, "listen(0)", listen(l0, 0));
	CALL(r, "connect to a listen(0) listener",
	     connect_to(c0, "127.0.0.1", port + 1));
	add(r, "listen(0): one association waits for accept()", K_MASK,
	    wait_mask(l0, POLLIN, WAIT_MS), 0);
out:
	close_all((int[]){ ls, fresh, l0, c0 }, 4);
}

static void seq_bind(struct rec *r, int port)
{
	int a = -1, b = -1, c = -1, d = -1, on = 1;

	a = sock(r->p, 0);
	b = sock(r->p, 0);
	c = sock(r->p, 0);
	d = sock(r->p, 0);
	SETUP(r, a >= 0 && b >= 0 && c >= 0 && d >= 0, "socket");
	CALL(r, "bind", bind_to(a, "127.0.0.1", port));
	CALL(r, "bind twice", bind_to(a, "127.0.0.1", port + 1));
	CALL(r, "bind in use", bind_to(b, "127.0.0.1", port));
	CALL(r, "bind in use, INADDR_ANY", bind_to(b, "0.0.0.0", port));
	CALL(r, "bind port 0 (ephemeral)", bind_to(b, "127.0.0.1", 0));
	CALL(r, "listen on the first", listen(a, 4));
	CALL(r, "bind a listening port", bind_to(c, "127.0.0.1", port));
	CALL(r, "SO_REUSEADDR", setsockopt(c, SOL_SOCKET, SO_REUSEADDR, &on,
					   sizeof(on)));
	CALL(r, "bind a listening port, SO_REUSEADDR",
	     bind_to(c, "127.0.0.1", port));
	CALL(r, "bind free port, both SO_REUSEADDR (1)",
	     bind_to(c, "127.0.0.1", port + 2));
	SETUP(r, !setsockopt(d, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)),
	      "SO_REUSEADDR");
	CALL(r, "bind same port, both SO_REUSEADDR (2)",
	     bind_to(d, "127.0.0.1", port + 2));
	CALL(r, "listen on one of two SO_REUSEADDR sockets", listen(c, 4));
	CALL(r, "listen on the other", listen(d, 4));
out:
	close_all((int[]){ a, b, c, d }, 4);
}

static void seq_unconnected(struct rec *r, int port)
{
	struct sockaddr_in sin = addr4("127.0.0.1", port);
	socklen_t len = sizeof(sin);
	int fd = -1, fd2 = -1, before;
	char c = 'x';

	fd = sock(r->p, 0);
	SETUP(r, fd >= 0, "socket");
	MASK(r, "poll a fresh socket", fd);
	CALL(r, "getpeername unconnected",
	     getpeername(fd, (struct sockaddr *)&sin, &len));
	before = sigpipes;
	CALL(r, "send unconnected, MSG_NOSIGNAL",
	     send(fd, &c, 1, MSG_NOSIGNAL));
	VALUE(r, "SIGPIPEs from it", sigpipes - before);
	before = sigpipes;
	CALL(r, "send unconnected", send(fd, &c, 1, 0));
	VALUE(r, "SIGPIPEs from it", sigpipes - before);
	CALL(r, "recv unconnected", recv(fd, &c, 1, 0));
	CALL(r, "non-blocking recv unconnected",
	     recv(fd, &c, 1, MSG_DONTWAIT));
	CALL(r, "shutdown unconnected", shutdown(fd, SHUT_WR));
	CALL(r, "accept unconnected", accept(fd, NULL, NULL));
	MASK(r, "poll after all that", fd);
	fd2 = sock(r->p, 0);
	SETUP(r, fd2 >= 0, "socket");
	CALL(r, "sendto with a destination, unconnected",
	     sendto(fd2, &c, 1, MSG_NOSIGNAL, (struct sockaddr *)&sin,
		    sizeof(sin)));
	DOC(r, 1, 0,
	    "xtp.rst: sendto() (or sendmsg() with a destination) on an unconnected socket opens the association with the data in the FIRST");
out:
	close_all((int[]){ fd, fd2 }, 2);
}

/* Drop CAP_NET_BIND_SERVICE from this process. */
static int drop_bind_cap(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	__u32 bit = 1u << CAP_NET_BIND_SERVICE;

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~bit;
	data[0].permitted &= ~bit;
	data[0].inheritable &= ~bit;
	return syscall(SYS_capset, &hdr, data);
}

static void seq_privileged_port(struct rec *r, int port)
{
	struct rec *shared;
	int fd = -1, status;
	pid_t pid;

	/* With the capability (root here) a low port binds. */
	fd = sock(r->p, 0);
	SETUP(r, fd >= 0, "socket");
	CALL(r, "bind port 1000 with CAP_NET_BIND_SERVICE",
	     bind_to(fd, "127.0.0.1", 1000));
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	SETUP(r, shared != MAP_FAILED, "mmap");
	*shared = *r;
	pid = fork();
	SETUP(r, pid >= 0, "fork");
	if (!pid) {
		int cfd = sock(r->p, 0);

		if (drop_bind_cap()) {
			snprintf(shared->broken, sizeof(shared->broken),
				 "capset: %s", strerror(errno));
			_exit(0);
		}
		CALL(shared, "bind port 1001 without CAP_NET_BIND_SERVICE",
		     bind_to(cfd, "127.0.0.1", 1001));
		CALL(shared, "bind port 0 without CAP_NET_BIND_SERVICE",
		     bind_to(cfd, "127.0.0.1", 0));
		_exit(0);
	}
	SETUP(r, waitpid(pid, &status, 0) == pid && WIFEXITED(status),
	      "child");
	*r = *shared;
	munmap(shared, sizeof(*shared));
out:
	if (fd >= 0)
		close(fd);
}

/* ------------------------------------------------------------------ */

struct sequence {
	const char *name;
	void (*run)(struct rec *r, int port);
};

static const struct sequence sequences[] = {
	{ "bad address", seq_bad_address },
	{ "refused", seq_refused },
	{ "established", seq_established },
	{ "connecting", seq_connecting },
	{ "shutdown", seq_shutdown },
	{ "peer close", seq_peer_close },
	{ "listen", seq_listen },
	{ "bind", seq_bind },
	{ "unconnected", seq_unconnected },
	{ "privileged port", seq_privileged_port },
};

#define NSEQ	ARRAY_SIZE(sequences)

static struct rec results[NSEQ][2];

static const char *mask_str(long m, char *buf, size_t len)
{
	static const struct { int bit; const char *name; } bits[] = {
		{ POLLIN, "IN" }, { POLLPRI, "PRI" }, { POLLOUT, "OUT" },
		{ POLLERR, "ERR" }, { POLLHUP, "HUP" }, { POLLNVAL, "NVAL" },
		{ POLLRDNORM, "RDNORM" }, { POLLRDBAND, "RDBAND" },
		{ POLLWRNORM, "WRNORM" }, { POLLWRBAND, "WRBAND" },
		{ POLLRDHUP, "RDHUP" },
	};
	size_t off = 0;

	snprintf(buf, len, "%s", m < 0 ? "poll failed" : "0");
	if (m <= 0)
		return buf;
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if (m & bits[i].bit)
			off += snprintf(buf + off, len - off, "%s%s",
					off ? "|" : "", bits[i].name);
	return buf;
}

static const char *step_str(enum kind kind, long ret, int err, char *buf,
			    size_t len)
{
	if (kind == K_MASK)
		return mask_str(ret, buf, len);
	if (kind == K_CALL && ret < 0)
		snprintf(buf, len, "%ld/%s", ret,
			 strerrorname_np(err) ? : "?");
	else
		snprintf(buf, len, "%ld", ret);
	return buf;
}

static bool same(const struct step *a, const struct step *b)
{
	return a->ret == b->ret && a->err == b->err;
}

static int count_results(void)
{
	int n = 0;

	for (size_t i = 0; i < NSEQ; i++) {
		const struct rec *t = &results[i][0], *x = &results[i][1];
		int steps = t->n > x->n ? t->n : x->n;

		n += steps + (t->broken[0] || x->broken[0]);
	}
	return n;
}

static void report(const struct sequence *seq, struct rec *t, struct rec *x)
{
	int steps = t->n > x->n ? t->n : x->n;
	char tb[96], xb[96];

	for (int i = 0; i < steps; i++) {
		const struct step *ts = i < t->n ? &t->s[i] : NULL;
		const struct step *xs = i < x->n ? &x->s[i] : NULL;
		const struct step *st = ts ? ts : xs;

		if (!ts || !xs || strcmp(ts->name, xs->name)) {
			ksft_test_result_fail("%s: %s: the sequences went apart\n",
					      seq->name, st->name);
			continue;
		}
		step_str(ts->kind, ts->ret, ts->err, tb, sizeof(tb));
		step_str(xs->kind, xs->ret, xs->err, xb, sizeof(xb));
		if (xs->doc) {
			bool ok = xs->ret == xs->doc_ret &&
				  xs->err == xs->doc_err;

			ksft_test_result(ok, "%s: %s: TCP %s, XTP %s (documented: %s)\n",
					 seq->name, xs->name, tb, xb, xs->doc);
		} else if (same(ts, xs)) {
			ksft_test_result_pass("%s: %s: TCP %s, XTP %s%s\n",
					      seq->name, xs->name, tb, xb,
					      xs->xfail ? " (XFAIL fixed?)" : "");
		} else if (xs->xfail) {
			ksft_test_result_xfail("%s: %s: TCP %s, XTP %s (%s)\n",
					       seq->name, xs->name, tb, xb,
					       xs->xfail);
		} else {
			ksft_test_result_fail("%s: %s: TCP %s, XTP %s\n",
					      seq->name, xs->name, tb, xb);
		}
	}
	if (t->broken[0] || x->broken[0])
		ksft_test_result_fail("%s: setup: TCP %s, XTP %s\n", seq->name,
				      t->broken[0] ? t->broken : "ok",
				      x->broken[0] ? x->broken : "ok");
}

/*
 * Bring up loopback, and xe0 towards a peer that never answers: the veth's
 * other end stays down, so what xe0 sends is dropped.  (Both the Debian
 * and the debug kernel have veth.)
 */
static void setup_netns(void)
{
	struct ifreq ifr = { .ifr_flags = IFF_UP };
	int fd;

	if (unshare(CLONE_NEWNET))
		ksft_exit_skip("unshare(CLONE_NEWNET): %s\n", strerror(errno));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (fd < 0 || ioctl(fd, SIOCSIFFLAGS, &ifr))
		ksft_exit_fail_msg("lo up: %s\n", strerror(errno));
	close(fd);
	silent_peer_ok = !system(
		"ip link add xe0 type veth peer name xe1 && "
		"ip addr add 198.18.0.1/24 dev xe0 && ip link set xe0 up && "
		"ip neigh replace " SILENT_PEER " lladdr 02:00:00:00:00:02 "
		"nud permanent dev xe0");
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_sigpipe };
	int fd;

	setup_netns();
	sigaction(SIGPIPE, &sa, NULL);
	fd = socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	if (fd < 0)
		ksft_exit_skip("no XTP sockets: %s\n", strerror(errno));
	close(fd);

	for (size_t i = 0; i < NSEQ; i++) {
		results[i][0].p = &tcp_proto;
		results[i][1].p = &xtp_proto;
		sequences[i].run(&results[i][0], PORT_BASE + 10 * i);
		sequences[i].run(&results[i][1], PORT_BASE + 10 * i);
	}
	ksft_print_header();
	ksft_set_plan(count_results());
	for (size_t i = 0; i < NSEQ; i++)
		report(&sequences[i], &results[i][0], &results[i][1]);
	ksft_finished();
}
