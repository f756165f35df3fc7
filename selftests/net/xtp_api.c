// SPDX-License-Identifier: GPL-2.0
/*
 * The BSD socket API of XTP over loopback: the errno values TCP gives for
 * the same mistakes, blocking and non-blocking connect, accept and poll,
 * MSG_PEEK/MSG_DONTWAIT/MSG_WAITALL, socket options and XTPSOCK_MIBSTAT.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/sockios.h>
#include <linux/xtp.h>

#include "kselftest_harness.h"
#include "task_stat.h"
#include "xtp_selftest.h"

FIXTURE(pair) {
	int ls, c, s;
};

FIXTURE_SETUP(pair)
{
	self->ls = listener(7001);
	ASSERT_LE(0, self->ls);
	self->c = xtp_socket();
	ASSERT_LE(0, self->c);
	ASSERT_EQ(0, connect_to(self->c, 7001));
	self->s = accept(self->ls, NULL, NULL);
	ASSERT_LE(0, self->s);
}

FIXTURE_TEARDOWN(pair)
{
	close(self->c);
	close(self->s);
	close(self->ls);
}

/*
 * A listener on @port whose children take SO_RCVBUF @rcvbuf, and an
 * unconnected socket with SO_SNDBUF @sndbuf (0 leaves either alone).
 */
static int buf_sockets(int port, int rcvbuf, int sndbuf, int *ls, int *c)
{
	*ls = listener(port);
	*c = xtp_socket();
	if (*ls < 0 || *c < 0)
		return -1;
	if (rcvbuf && setsockopt(*ls, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				 sizeof(rcvbuf)))
		return -1;
	if (sndbuf && setsockopt(*c, SOL_SOCKET, SO_SNDBUF, &sndbuf,
				 sizeof(sndbuf)))
		return -1;
	return 0;
}

TEST(connect_refused)
{
	int fd = xtp_socket();

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, connect_to(fd, 7002));
	EXPECT_EQ(ECONNREFUSED, errno);
	close(fd);
}

TEST(nonblocking_connect_refused)
{
	struct pollfd pfd;
	int fd, err = 0;
	socklen_t len = sizeof(err);

	fd = socket(AF_INET, SOCK_XTP | SOCK_NONBLOCK, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, connect_to(fd, 7003));
	EXPECT_EQ(EINPROGRESS, errno);
	pfd.fd = fd;
	pfd.events = POLLOUT;
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	EXPECT_TRUE(pfd.revents & (POLLERR | POLLHUP));
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(ECONNREFUSED, err);
	close(fd);
}

TEST(nonblocking_connect_and_accept)
{
	struct pollfd pfd;
	int ls, fd, s, err = -1;
	socklen_t len = sizeof(err);

	ls = listener(7004);
	ASSERT_LE(0, ls);
	ASSERT_EQ(0, fcntl(ls, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, accept(ls, NULL, NULL));
	EXPECT_EQ(EAGAIN, errno);
	fd = socket(AF_INET, SOCK_XTP | SOCK_NONBLOCK, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, connect_to(fd, 7004));
	EXPECT_EQ(EINPROGRESS, errno);
	/* Still connecting, or (loopback is quick) already connected. */
	EXPECT_EQ(-1, connect_to(fd, 7004));
	EXPECT_TRUE(errno == EALREADY || errno == EISCONN);
	pfd.fd = fd;
	pfd.events = POLLOUT;
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	EXPECT_TRUE(pfd.revents & POLLOUT);
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(0, err);
	pfd.fd = ls;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	s = accept(ls, NULL, NULL);
	EXPECT_LE(0, s);
	EXPECT_EQ(-1, connect_to(fd, 7004));
	EXPECT_EQ(EISCONN, errno);
	close(s);
	close(fd);
	close(ls);
}

TEST(listener_close_resets_unaccepted)
{
	int ls, c1, c2;
	char buf[4];

	ls = listener(7008);
	ASSERT_LE(0, ls);
	c1 = xtp_socket();
	c2 = xtp_socket();
	ASSERT_LE(0, c1);
	ASSERT_LE(0, c2);
	ASSERT_EQ(0, connect_to(c1, 7008));
	ASSERT_EQ(0, connect_to(c2, 7008));
	/* Both wait in the accept queue; closing the listener aborts them. */
	close(ls);
	EXPECT_EQ(-ECONNRESET, read_full(c1, buf, sizeof(buf)));
	EXPECT_EQ(-ECONNRESET, read_full(c2, buf, sizeof(buf)));
	close(c1);
	close(c2);
}

/*
 * shutdown(SHUT_RD) on a listener, as on TCP's, stops it and resets the
 * associations waiting in its accept queue: their peers read ECONNRESET,
 * accept() gives EINVAL, and after close() nothing of the server side is
 * left (CurrSockets counts only the three clients).
 */
TEST(listener_shutdown_rd_resets_unaccepted)
{
	struct timeval tv = { .tv_sec = 5 };
	int ls, c[3], i;
	char buf[4];
	long base;

	/* A namespace of its own: no other test's contexts in the count. */
	ASSERT_EQ(0, own_netns());
	base = xtp_snmp("CurrSockets");
	ls = listener(7011);
	ASSERT_LE(0, ls);
	for (i = 0; i < 3; i++) {
		c[i] = xtp_socket();
		ASSERT_LE(0, c[i]);
		ASSERT_EQ(0, setsockopt(c[i], SOL_SOCKET, SO_RCVTIMEO, &tv,
					sizeof(tv)));
		ASSERT_EQ(0, connect_to(c[i], 7011));
	}
	EXPECT_EQ(base + 7, xtp_snmp("CurrSockets"));
	ASSERT_EQ(0, shutdown(ls, SHUT_RD));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-ECONNRESET, read_full(c[i], buf, sizeof(buf)));
	EXPECT_EQ(-1, accept(ls, NULL, NULL));
	EXPECT_EQ(EINVAL, errno);
	close(ls);
	for (i = 0; i < 50 && xtp_snmp("CurrSockets") != base + 3; i++)
		usleep(100000);
	EXPECT_EQ(base + 3, xtp_snmp("CurrSockets"));
	for (i = 0; i < 3; i++)
		close(c[i]);
}

/*
 * InFiltered: a socket filter that drops everything keeps FIRSTs from a
 * listener (counted); once detached, the FIRST's retransmission opens the
 * association.
 */
TEST(listener_socket_filter)
{
	struct sock_filter drop[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog prog = { 1, drop };
	struct pollfd p = { .events = POLLIN };
	long f0 = xtp_snmp("InFiltered");
	int ls, c, a, off = 0;

	ls = listener(7012);
	ASSERT_LE(0, ls);
	ASSERT_EQ(0, setsockopt(ls, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
				sizeof(prog)));
	c = xtp_socket();
	ASSERT_LE(0, c);
	ASSERT_EQ(0, fcntl(c, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, connect_to(c, 7012));
	EXPECT_EQ(EINPROGRESS, errno);
	EXPECT_LT(f0, xtp_snmp_wait_change("InFiltered", f0));
	p.fd = ls;
	EXPECT_EQ(0, poll(&p, 1, 200));
	ASSERT_EQ(0, setsockopt(ls, SOL_SOCKET, SO_DETACH_FILTER, &off,
				sizeof(off)));
	ASSERT_EQ(1, poll(&p, 1, 15000));
	a = accept(ls, NULL, NULL);
	EXPECT_LE(0, a);
	close(a);
	close(c);
	close(ls);
}

#define ACCEPTORS 6

struct acceptor {
	int ls;
	pid_t tid;
	int fd;
};

static void *acceptor_run(void *arg)
{
	struct acceptor *a = arg;

	__atomic_store_n(&a->tid, gettid(), __ATOMIC_RELEASE);
	a->fd = accept(a->ls, NULL, NULL);
	return NULL;
}

/*
 * Threads blocked in accept() on one listener wait exclusively, as TCP's
 * do: a new association wakes one of them, not all (a server with 64
 * threads woke 64 for each FIRST, and they fought for the listener's
 * lock while its FIRSTs waited in the backlog).
 */
TEST(accept_wakes_one_waiter)
{
	struct timeval tv = { .tv_sec = 10 };
	struct acceptor a[ACCEPTORS];
	long csw[ACCEPTORS];
	pthread_t th[ACCEPTORS];
	int i, tries, ls, fd, done, woke;

	ls = listener(7060);
	ASSERT_LE(0, ls);
	ASSERT_EQ(0, setsockopt(ls, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	for (i = 0; i < ACCEPTORS; i++) {
		a[i] = (struct acceptor){ .ls = ls, .fd = -1 };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, acceptor_run, &a[i]));
	}
	/* All of them asleep in accept(), then a settled count of switches. */
	for (tries = 0; tries < 500; tries++) {
		for (i = 0; i < ACCEPTORS; i++)
			if (!__atomic_load_n(&a[i].tid, __ATOMIC_ACQUIRE) ||
			    !task_sleeps(a[i].tid))
				break;
		if (i == ACCEPTORS)
			break;
		usleep(10000);
	}
	ASSERT_EQ(ACCEPTORS, i);
	usleep(200000);
	for (i = 0; i < ACCEPTORS; i++)
		csw[i] = task_switches(a[i].tid);

	fd = xtp_socket();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, connect_to(fd, 7060));
	for (tries = 0, done = 0; tries < 500 && !done; tries++) {
		for (i = 0; i < ACCEPTORS; i++)
			done += __atomic_load_n(&a[i].fd, __ATOMIC_ACQUIRE) >= 0;
		if (!done)
			usleep(10000);
	}
	EXPECT_EQ(1, done);
	/* Time for any other waiter that was woken to run and sleep again. */
	usleep(300000);
	for (i = 0, woke = 0; i < ACCEPTORS; i++)
		if (a[i].fd < 0 &&
		    task_switches(a[i].tid) != csw[i])
			woke++;
	EXPECT_EQ(0, woke);

	/* The rest leave accept() when the listener shuts down. */
	shutdown(ls, SHUT_RDWR);
	for (i = 0; i < ACCEPTORS; i++) {
		pthread_join(th[i], NULL);
		if (a[i].fd >= 0)
			close(a[i].fd);
	}
	close(fd);
	close(ls);
}

/*
 * /proc/net/xtp/contexts: a header, then one line per XTP socket of the
 * namespace with its addresses, state, both keys, sequence numbers,
 * queues, uid and inode.  A listener, a client and its accepted peer: the
 * two ends show the same association from both sides, each one's key
 * the other's peer key; /proc/net/xtp/atm has the one ATM entry, the
 * initiator's address and key, LIVE.
 */
TEST(proc_contexts)
{
	char line[512], la[32], ra[32], st[16], want[64];
	unsigned long long key[2] = { 0 }, pkey[2] = { 0 };
	unsigned long ino = 0, cino = 0;
	int ls, c, s, n = 0, found = 0;
	struct sockaddr_in cs;
	socklen_t l = sizeof(cs);
	struct stat sb;
	FILE *f;

	ASSERT_EQ(0, own_netns());
	ls = listener(7016);
	ASSERT_LE(0, ls);
	c = xtp_socket();
	ASSERT_LE(0, c);
	ASSERT_EQ(0, connect_to(c, 7016));
	s = accept(ls, NULL, NULL);
	ASSERT_LE(0, s);
	ASSERT_EQ(0, getsockname(c, (struct sockaddr *)&cs, &l));
	ASSERT_EQ(0, fstat(c, &sb));
	snprintf(want, sizeof(want), "127.0.0.1:%u", ntohs(cs.sin_port));
	f = fopen("/proc/net/xtp/contexts", "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long k, pk;

		if (n++ == 0)
			continue;
		ASSERT_EQ(6, sscanf(line, "%31s %31s %15s %llx %llx %*u %*u %*u %*d %*d %*u %lu",
				    la, ra, st, &k, &pk, &ino));
		if (!strcmp(st, "LISTEN") && !strcmp(la, "127.0.0.1:7016")) {
			found |= 1;
		} else if (!strcmp(la, want) &&
			   !strcmp(ra, "127.0.0.1:7016") &&
			   !strcmp(st, "ACTIVE")) {
			found |= 2;
			key[0] = k;
			pkey[0] = pk;
			cino = ino;
		} else if (!strcmp(la, "127.0.0.1:7016") && !strcmp(ra, want) &&
			   !strcmp(st, "ACTIVE")) {
			found |= 4;
			key[1] = k;
			pkey[1] = pk;
		}
	}
	fclose(f);
	EXPECT_EQ(4, n);
	EXPECT_EQ(7, found);
	EXPECT_NE(0, key[0]);
	EXPECT_NE(0, key[1]);
	EXPECT_EQ(key[0], pkey[1]);
	EXPECT_EQ(key[1], pkey[0]);
	EXPECT_EQ(sb.st_ino, cino);
	/* The responder's ATM maps the initiator's address and key. */
	f = fopen("/proc/net/xtp/atm", "r");
	ASSERT_NE(NULL, f);
	found = 0;
	n = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long k;

		if (n++ == 0)
			continue;
		if (sscanf(line, "%31s %llx %15s", la, &k, st) == 3 &&
		    !strcmp(la, "127.0.0.1") && k == key[0] &&
		    !strcmp(st, "LIVE"))
			found++;
	}
	fclose(f);
	EXPECT_EQ(2, n);
	EXPECT_EQ(1, found);
	close(s);
	close(c);
	close(ls);
}

/* Entries of /proc/net/xtp/atm in @state (LIVE or REPLAY), or -1. */
static int atm_entries(const char *state)
{
	FILE *f = fopen("/proc/net/xtp/atm", "r");
	char line[128], st[16];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %15s", st) == 1 && !strcmp(st, state))
			n++;
	fclose(f);
	return n;
}

/*
 * At net.xtp.atm_max the entry of the oldest finished association makes
 * way (AtmRecycled), as TCP lets TIME_WAIT go beyond tcp_max_tw_buckets:
 * with room for 2, six associations one after the other all open and the
 * last 2 stay in their replay time.  Only live entries refuse a FIRST
 * (AtmFull; xtp_inject.sh).
 */
TEST(atm_cap_recycles_finished_entries)
{
	long recycled, full;
	int one = 1, ls;
	char buf[4];
	FILE *f;

	ASSERT_EQ(0, own_netns());
	f = fopen("/proc/sys/net/xtp/atm_max", "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "2\n");
	ASSERT_EQ(0, fclose(f));
	ls = listener(7011);
	ASSERT_LE(0, ls);
	/* ZOMBIEs of 1 ms: each entry enters its replay time at once. */
	ASSERT_EQ(0, setsockopt(ls, SOL_XTP, XTPSOCK_ZOMBIE_TMO, &one,
				sizeof(one)));
	recycled = xtp_snmp("AtmRecycled");
	full = xtp_snmp("AtmFull");
	for (int i = 0; i < 6; i++) {
		int c = xtp_socket(), s, k;

		ASSERT_LE(0, c);
		ASSERT_EQ(0, setsockopt(c, SOL_XTP, XTPSOCK_ZOMBIE_TMO, &one,
					sizeof(one)));
		ASSERT_EQ(0, connect_to(c, 7011))
			TH_LOG("association %d: %s", i, strerror(errno));
		s = accept(ls, NULL, NULL);
		ASSERT_LE(0, s);
		ASSERT_EQ(4, send(c, "ping", 4, 0));
		ASSERT_EQ(4, read_full(s, buf, sizeof(buf)));
		close(c);
		close(s);
		for (k = 0; k < 500 && atm_entries("LIVE"); k++)
			usleep(10000);
		ASSERT_EQ(0, atm_entries("LIVE"));
	}
	EXPECT_EQ(2, atm_entries("REPLAY"));
	EXPECT_EQ(recycled + 4, xtp_snmp("AtmRecycled"));
	EXPECT_EQ(full, xtp_snmp("AtmFull"));
	close(ls);
}

TEST(accept_not_listening)
{
	int fd = xtp_socket();

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, accept(fd, NULL, NULL));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(bind_errors)
{
	struct sockaddr_in sin = loopback(7005), other = loopback(7005);
	int a = xtp_socket(), b = xtp_socket();

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_EQ(0, bind(a, (struct sockaddr *)&sin, sizeof(sin)));
	EXPECT_EQ(-1, bind(a, (struct sockaddr *)&sin, sizeof(sin)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, bind(b, (struct sockaddr *)&other, sizeof(other)));
	EXPECT_EQ(EADDRINUSE, errno);
	other.sin_addr.s_addr = inet_addr("198.51.100.7");
	other.sin_port = 0;
	EXPECT_EQ(-1, bind(b, (struct sockaddr *)&other, sizeof(other)));
	EXPECT_EQ(EADDRNOTAVAIL, errno);
	EXPECT_EQ(-1, bind(b, (struct sockaddr *)&sin, 4));
	EXPECT_EQ(EINVAL, errno);
	close(a);
	close(b);
}

TEST(unconnected_calls)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	char c = 'x';
	int fd = xtp_socket();

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, getpeername(fd, (struct sockaddr *)&sin, &len));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, send(fd, &c, 1, MSG_NOSIGNAL));
	EXPECT_EQ(EPIPE, errno);
	EXPECT_EQ(-1, recv(fd, &c, 1, 0));
	EXPECT_EQ(ENOTCONN, errno);
	EXPECT_EQ(-1, shutdown(fd, SHUT_WR));
	EXPECT_EQ(ENOTCONN, errno);
	close(fd);
}

TEST(socket_options)
{
	struct xtp_mibstat m;
	socklen_t len;
	int fd, v;

	fd = xtp_socket();
	ASSERT_LE(0, fd);
	v = XTP_ASSOC_SDT;
	EXPECT_EQ(-1, setsockopt(fd, SOL_XTP, XTPSOCK_ASSOCTYPE, &v, 2));
	EXPECT_EQ(EINVAL, errno);
	v = 99;
	EXPECT_EQ(-1, setsockopt(fd, SOL_XTP, XTPSOCK_ASSOCTYPE, &v, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(fd, SOL_XTP, XTPSOCK_RTT_CACHE_SIZE, &v, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(fd, SOL_XTP, 1000, &v, 4));
	EXPECT_EQ(ENOPROTOOPT, errno);
	v = XTP_SERVICE_FILETRANSFER;
	ASSERT_EQ(0, setsockopt(fd, SOL_XTP, XTPSOCK_TTS, &v, 4));
	len = sizeof(v);
	ASSERT_EQ(0, getsockopt(fd, SOL_XTP, XTPSOCK_ASSOCTYPE, &v, &len));
	EXPECT_EQ(XTP_ASSOC_SDT, v);
	len = 2;
	EXPECT_EQ(-1, getsockopt(fd, SOL_XTP, XTPSOCK_ASSOCTYPE, &v, &len));
	EXPECT_EQ(EINVAL, errno);
	len = sizeof(v);
	ASSERT_EQ(0, getsockopt(fd, SOL_XTP, XTPSOCK_ZOMBIE_TMO, &v, &len));
	EXPECT_EQ(1000, v);
	/* MIBSTAT is size tolerant: a short buffer gets the prefix. */
	memset(&m, 0xff, sizeof(m));
	len = 8;
	ASSERT_EQ(0, getsockopt(fd, SOL_XTP, XTPSOCK_MIBSTAT, &m, &len));
	EXPECT_EQ(8, len);
	EXPECT_EQ(XTP_ASSOC_SDT, m.assoc_type);
	EXPECT_EQ(0xffffffffu, m.profile_type);
	close(fd);
}

TEST_F(pair, send_after_shutdown_is_epipe)
{
	char buf[4] = "abc";

	ASSERT_EQ(0, shutdown(self->c, SHUT_WR));
	EXPECT_EQ(-1, send(self->c, buf, 3, MSG_NOSIGNAL));
	EXPECT_EQ(EPIPE, errno);
	/* The peer sees EOF. */
	EXPECT_EQ(0, read_full(self->s, buf, sizeof(buf)));
}

TEST_F(pair, peek_dontwait_waitall)
{
	char buf[16];

	EXPECT_EQ(-1, recv(self->s, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(5, send(self->c, "hello", 5, 0));
	ASSERT_EQ(5, send(self->c, "world", 5, 0));
	EXPECT_EQ(10, recv(self->s, buf, 10, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(buf, "helloworld", 10));
	ASSERT_EQ(3, send(self->c, "abc", 3, 0));
	EXPECT_EQ(3, recv(self->s, buf, sizeof(buf), MSG_PEEK));
	EXPECT_EQ(3, recv(self->s, buf + 3, sizeof(buf), 0));
	EXPECT_EQ(0, memcmp(buf, "abcabc", 6));
}

TEST_F(pair, names)
{
	struct sockaddr_in a, b;
	socklen_t la = sizeof(a), lb = sizeof(b);

	ASSERT_EQ(0, getsockname(self->c, (struct sockaddr *)&a, &la));
	ASSERT_EQ(0, getpeername(self->s, (struct sockaddr *)&b, &lb));
	EXPECT_EQ(a.sin_port, b.sin_port);
	EXPECT_EQ(a.sin_addr.s_addr, b.sin_addr.s_addr);
	ASSERT_EQ(0, getpeername(self->c, (struct sockaddr *)&a, &la));
	EXPECT_EQ(htons(7001), a.sin_port);
}

TEST_F(pair, abort_gives_econnreset)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	char buf[8];

	ASSERT_EQ(0, setsockopt(self->s, SOL_SOCKET, SO_LINGER, &lg,
				sizeof(lg)));
	close(self->s);
	self->s = -1;
	EXPECT_EQ(-ECONNRESET, read_full(self->c, buf, sizeof(buf)));
}

TEST_F(pair, graceful_end_reads_eof)
{
	char buf[8];
	int n = -1;

	ASSERT_EQ(4, send(self->s, "data", 4, 0));
	ASSERT_EQ(0, shutdown(self->s, SHUT_WR));
	EXPECT_EQ(4, read_full(self->c, buf, sizeof(buf)));
	EXPECT_EQ(0, recv(self->c, buf, sizeof(buf), 0));
	ASSERT_EQ(0, ioctl(self->c, SIOCINQ, &n));
	EXPECT_EQ(0, n);
}

TEST_F(pair, mibstat_counts_packets)
{
	struct xtp_mibstat m;
	socklen_t len = sizeof(m);
	socklen_t slen = sizeof(int);
	char buf[2000];
	int seg = 0;

	memset(buf, 7, sizeof(buf));
	ASSERT_EQ(0, getsockopt(self->c, SOL_XTP, XTPSOCK_MAXDATA, &seg, &slen));
	ASSERT_LT(0, seg);
	ASSERT_EQ(sizeof(buf), send(self->c, buf, sizeof(buf), 0));
	ASSERT_EQ(0, shutdown(self->c, SHUT_WR));
	EXPECT_EQ(sizeof(buf), read_full(self->s, buf, sizeof(buf)));
	ASSERT_EQ(0, getsockopt(self->c, SOL_XTP, XTPSOCK_MIBSTAT, &m, &len));
	EXPECT_EQ(sizeof(m), len);
	EXPECT_EQ(1, m.fpk_out);
	/* Two of Ethernet's packets, one of loopback's larger ones. */
	EXPECT_EQ((sizeof(buf) + seg - 1) / seg, m.dpk_out);
	EXPECT_EQ(1, m.tpk_in);
	EXPECT_EQ(2000, m.bytes_sent);
	EXPECT_LE(1, m.rtt_updates);
	EXPECT_EQ(XTP_ASSOC_S_D_T, m.assoc_type);
	EXPECT_EQ(XTP_TEARDOWN_ABBREV, m.teardown_type);
	EXPECT_EQ(4, m.profile_type);
}

TEST(stream_and_seqpacket_types)
{
	int fd, v;
	socklen_t len = sizeof(v);

	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_XTP);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &len));
	EXPECT_EQ(IPPROTO_XTP, v);
	close(fd);
	/* Protocol 0 stays TCP's. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &len));
	EXPECT_EQ(IPPROTO_TCP, v);
	close(fd);
}

/* fd[]: a SEQPACKET listener on @port, a client of it, the accepted end. */
static int seqpacket_pair(int port, int fd[3])
{
	struct sockaddr_in sin = loopback(port);

	fd[0] = socket(AF_INET, SOCK_SEQPACKET, IPPROTO_XTP);
	fd[1] = socket(AF_INET, SOCK_SEQPACKET, IPPROTO_XTP);
	if (fd[0] < 0 || fd[1] < 0 ||
	    bind(fd[0], (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd[0], 4) || connect_to(fd[1], port))
		return -1;
	fd[2] = accept(fd[0], NULL, NULL);
	return fd[2] < 0 ? -1 : 0;
}

TEST(seqpacket_keeps_records)
{
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	char buf[100];
	int fd[3], ls, c, s;

	ASSERT_EQ(0, seqpacket_pair(7006, fd));
	ls = fd[0], c = fd[1], s = fd[2];
	ASSERT_EQ(3, send(c, "abc", 3, 0));
	ASSERT_EQ(5, send(c, "defgh", 5, 0));
	ASSERT_EQ(4, send(c, "ijkl", 4, 0));
	ASSERT_EQ(0, shutdown(c, SHUT_WR));

	/* Wait for all three, then read them one record at a time. */
	for (int i = 0, n = 0; i < 200 && n < 12; i++) {
		ASSERT_EQ(0, ioctl(s, SIOCINQ, &n));
		usleep(10000);
	}
	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	/* A peek shows one record, as recvmsg() would read it. */
	EXPECT_EQ(3, recvmsg(s, &mh, MSG_PEEK));
	EXPECT_TRUE(mh.msg_flags & MSG_EOR);
	iov.iov_len = 2;
	mh.msg_flags = 0;
	EXPECT_EQ(2, recvmsg(s, &mh, MSG_PEEK));
	EXPECT_TRUE(mh.msg_flags & MSG_TRUNC);
	EXPECT_FALSE(mh.msg_flags & MSG_EOR);
	iov.iov_len = sizeof(buf);
	mh.msg_flags = 0;
	EXPECT_EQ(3, recvmsg(s, &mh, 0));
	EXPECT_TRUE(mh.msg_flags & MSG_EOR);
	EXPECT_EQ(0, memcmp(buf, "abc", 3));
	/* A short buffer truncates the record and drops its rest. */
	iov.iov_len = 2;
	EXPECT_EQ(2, recvmsg(s, &mh, 0));
	EXPECT_TRUE(mh.msg_flags & MSG_TRUNC);
	EXPECT_EQ(0, memcmp(buf, "de", 2));
	iov.iov_len = sizeof(buf);
	EXPECT_EQ(4, recvmsg(s, &mh, 0));
	EXPECT_EQ(0, memcmp(buf, "ijkl", 4));
	EXPECT_EQ(0, recv(s, buf, sizeof(buf), 0));
	close(s);
	close(c);
	close(ls);
}

TEST_F(pair, keepalive_probes_idle_peer)
{
	struct xtp_mibstat m;
	socklen_t len = sizeof(m);
	int on = 1, ms = 300;
	char buf[4];

	ASSERT_EQ(0, setsockopt(self->c, SOL_XTP, XTPSOCK_CTIMER_TMO, &ms,
				sizeof(ms)));
	ASSERT_EQ(0, setsockopt(self->c, SOL_SOCKET, SO_KEEPALIVE, &on,
				sizeof(on)));
	/* Idle for several CTIMER periods (bounded). */
	for (int i = 0; i < 100; i++) {
		ASSERT_EQ(0, getsockopt(self->c, SOL_XTP, XTPSOCK_MIBSTAT, &m,
					&len));
		/* An answer trails its probe: wait for both counts. */
		if (m.handshakes >= 2 && m.cpk_in >= 2)
			break;
		usleep(100 * 1000);
	}
	EXPECT_LE(2, m.handshakes);
	EXPECT_LE(2, m.cpk_in);
	/* The peer answered every probe: the association still works. */
	ASSERT_EQ(4, send(self->c, "ping", 4, 0));
	EXPECT_EQ(4, recv(self->s, buf, 4, MSG_WAITALL));
}

/*
 * A blocking sendto() larger than SO_SNDBUF on an SDT socket, whose FIRST
 * waits for the first data: the FIRST leaves with what fits instead of
 * the writer waiting for room that only the FIRST's association can make.
 * A child reads everything; the send completes whole within its timeout.
 */
TEST(deferred_first_larger_than_sndbuf)
{
	static char buf[262144], got[262144];
	struct sockaddr_in sin = loopback(7013);
	struct timeval tv = { .tv_sec = 20 };
	int ls, c, sndbuf = 8192, sdt = XTP_ASSOC_SDT, status;
	pid_t pid;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i * 13;
	ls = listener(7013);
	ASSERT_LE(0, ls);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int s = accept(ls, NULL, NULL);

		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		_exit(read_full(s, got, sizeof(got)) == sizeof(got) &&
		      !memcmp(buf, got, sizeof(got)) ? 0 : 1);
	}
	c = xtp_socket();
	ASSERT_LE(0, c);
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sndbuf,
				sizeof(sndbuf)));
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)));
	ASSERT_EQ(0, setsockopt(c, SOL_XTP, XTPSOCK_ASSOCTYPE, &sdt,
				sizeof(sdt)));
	EXPECT_EQ((ssize_t)sizeof(buf),
		  sendto(c, buf, sizeof(buf), MSG_XTP_WCLOSE,
			 (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(c);
	close(ls);
}

/* Voluntary context switches of process PID so far, or -1. */
static long ctxt_switches(pid_t pid)
{
	char path[64], line[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* Has process PID gone to sleep (state S) within 5 s? */
static bool sleeping(pid_t pid)
{
	char path[64], buf[512], *p;
	int i, fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (i = 0; i < 500; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return false;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = 0;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * Acknowledgements are not reader events: a process blocked in recv() on
 * a socket that only sends (2 MB, hundreds of ACKs coming back) is not
 * woken by them; before, every ACK woke it to find nothing and sleep
 * again.  The send buffer holds all 2 MB, so no writer waits for room
 * (waking a writer wakes the shared wait queue, as TCP's does).
 */
TEST(acks_do_not_wake_readers)
{
	static char buf[65536];
	int ls, c, s, i, status, sndbuf = 4 << 20;
	pid_t reader, drain;
	long v0, v1;

	ls = listener(7014);
	ASSERT_LE(0, ls);
	c = xtp_socket();
	ASSERT_LE(0, c);
	ASSERT_EQ(0, setsockopt(c, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf,
				sizeof(sndbuf)));
	ASSERT_EQ(0, connect_to(c, 7014));
	s = accept(ls, NULL, NULL);
	ASSERT_LE(0, s);
	reader = fork();
	ASSERT_LE(0, reader);
	if (reader == 0)
		_exit(recv(c, buf, 1, 0) == 1 ? 0 : 1);
	drain = fork();
	ASSERT_LE(0, drain);
	if (drain == 0) {
		long total = 0;
		ssize_t n;

		while ((n = recv(s, buf, sizeof(buf), 0)) > 0)
			total += n;
		_exit(total == 32L * sizeof(buf) ? 0 : 1);
	}
	ASSERT_TRUE(sleeping(reader));
	v0 = ctxt_switches(reader);
	for (i = 0; i < 32; i++)
		ASSERT_EQ((ssize_t)sizeof(buf), send(c, buf, sizeof(buf), 0));
	ASSERT_EQ(0, shutdown(c, SHUT_WR));
	ASSERT_EQ(drain, waitpid(drain, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	v1 = ctxt_switches(reader);
	TH_LOG("reader woken %ld times by 2 MB of ACKs", v1 - v0);
	EXPECT_LE(v1 - v0, 2);
	kill(reader, SIGKILL);
	waitpid(reader, &status, 0);
	close(s);
	close(c);
	close(ls);
}

/*
 * A sender is writable again once a third of its send buffer is free, as
 * TCP's, not as soon as an acknowledgment frees a packet's room: then a
 * writer woken by every acknowledgment copies a packet per wakeup.  With
 * a receiver's window of 8000 bytes, a filled 300000-byte buffer frees
 * only what the reader takes: it must take a quarter of the bytes queued
 * (16 KB was enough before).
 */
TEST(writable_at_a_third_free)
{
	int ls, c, s, i, rcvbuf = 16000, sndbuf = 150000;
	struct pollfd pfd = { .events = POLLOUT };
	static char buf[65536];
	long sent = 0, got = 0;
	ssize_t n;

	ASSERT_EQ(0, buf_sockets(7041, rcvbuf, sndbuf, &ls, &c));
	ASSERT_EQ(0, connect_to(c, 7041));
	s = accept(ls, NULL, NULL);
	ASSERT_LE(0, s);
	pfd.fd = c;
	for (i = 0; i < 1000; i++) {
		n = send(c, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0)
			break;
		sent += n;
	}
	ASSERT_EQ(EAGAIN, errno);
	/* What the window lets through is acknowledged by now. */
	usleep(300000);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	TH_LOG("%ld bytes queued, writable before the reader reads: %s",
	       sent, pfd.revents & POLLOUT ? "yes" : "no");
	for (i = 0; i < 5000 && !(pfd.revents & POLLOUT); i++) {
		n = recv(s, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			got += n;
		else
			usleep(1000);
		ASSERT_LE(0, poll(&pfd, 1, 0));
	}
	EXPECT_TRUE(pfd.revents & POLLOUT);
	TH_LOG("writable after the reader took %ld bytes", got);
	/* A third of the buffer's truesize is about a third of the bytes. */
	EXPECT_GE(got, sent / 4);
	close(s);
	close(c);
	close(ls);
}

/*
 * An edge-triggered epoll writer that sent until EAGAIN, and never
 * called poll() since, is told when room comes back: send()'s EAGAIN
 * asks for the wakeup as poll() does (SOCK_NOSPACE).
 */
TEST(epoll_et_writer_woken)
{
	int ls, c, s, ep, i, n = 0, sndbuf = 32768;
	struct epoll_event ev = { .events = EPOLLOUT | EPOLLET };
	static char buf[65536];
	long got = 0;
	ssize_t r;

	ASSERT_EQ(0, buf_sockets(7042, 0, sndbuf, &ls, &c));
	ASSERT_EQ(0, connect_to(c, 7042));
	s = accept(ls, NULL, NULL);
	ASSERT_LE(0, s);
	ep = epoll_create1(0);
	ASSERT_LE(0, ep);
	ASSERT_EQ(0, epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev));
	/* Writable when added: that edge is taken now. */
	ASSERT_EQ(1, epoll_wait(ep, &ev, 1, 1000));
	for (i = 0; i < 1000; i++)
		if (send(c, buf, sizeof(buf), MSG_DONTWAIT) < 0)
			break;
	ASSERT_EQ(EAGAIN, errno);
	/* The reader drains; the writer only waits in epoll_wait(). */
	for (i = 0; i < 200 && !n; i++) {
		while ((r = recv(s, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
			got += r;
		n = epoll_wait(ep, &ev, 1, 20);
	}
	TH_LOG("the reader took %ld bytes; epoll_wait() gave %d", got, n);
	ASSERT_EQ(1, n);
	EXPECT_TRUE(ev.events & EPOLLOUT);
	close(ep);
	close(s);
	close(c);
	close(ls);
}

/*
 * A closed sender whose data is still flowing is not given up at
 * CTIMEOUT: with CTIMEOUT 1 s, 200 KB written and closed at once, and a
 * reader that takes 4 KB every 100 ms (about 5 s), the reader still gets
 * all of it and then the end of the stream.
 */
TEST(orphan_with_progress_outlives_ctimeout)
{
	static char buf[200000], got[200000];
	int ls, c, s, rcvbuf = 4608, sndbuf = 1 << 20, ctimeout = 1000;
	struct timeval tv = { .tv_sec = 30 };
	size_t n = 0;
	ssize_t r;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i * 11;
	ASSERT_EQ(0, buf_sockets(7015, rcvbuf, sndbuf, &ls, &c));
	ASSERT_EQ(0, setsockopt(c, SOL_XTP, XTPSOCK_CTIMEOUT_TMO, &ctimeout,
				sizeof(ctimeout)));
	ASSERT_EQ(0, connect_to(c, 7015));
	s = accept(ls, NULL, NULL);
	ASSERT_LE(0, s);
	ASSERT_EQ(0, setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	ASSERT_EQ((ssize_t)sizeof(buf), send(c, buf, sizeof(buf), 0));
	close(c);
	while (n < sizeof(got)) {
		r = recv(s, got + n, 4096, 0);
		if (r <= 0)
			break;
		n += r;
		usleep(100000);
	}
	EXPECT_EQ(sizeof(got), n);
	EXPECT_EQ(0, memcmp(buf, got, n));
	EXPECT_EQ(0, recv(s, got, 1, 0));
	close(s);
	close(ls);
}

TEST(small_rcvbuf_flow_control)
{
	int ls, c, s, rcvbuf = 4608;
	static char buf[200000], got[200000];
	struct xtp_mibstat m;
	socklen_t len = sizeof(m);
	size_t n = 0, sent = 0;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = i * 7;
	ASSERT_EQ(0, buf_sockets(7007, rcvbuf, 0, &ls, &c));
	ASSERT_EQ(0, connect_to(c, 7007));
	s = accept(ls, NULL, NULL);
	ASSERT_LE(0, s);
	/* The window is a few KB: the writer must wait for ALLOC. */
	for (int loops = 0; n < sizeof(got) && loops < 100000; loops++) {
		struct pollfd pfd[2] = { { .fd = c, .events = POLLOUT },
					 { .fd = s, .events = POLLIN } };
		ssize_t r;

		if (sent == sizeof(buf))
			pfd[0].events = 0;
		ASSERT_LT(0, poll(pfd, 2, 10000));
		if (pfd[0].revents & POLLOUT) {
			r = send(c, buf + sent, sizeof(buf) - sent,
				 MSG_DONTWAIT);
			ASSERT_TRUE(r > 0 || errno == EAGAIN);
			if (r > 0)
				sent += r;
			if (sent == sizeof(buf))
				ASSERT_EQ(0, shutdown(c, SHUT_WR));
		}
		if (pfd[1].revents & POLLIN) {
			r = recv(s, got + n, 1000, MSG_DONTWAIT);
			ASSERT_TRUE(r > 0 || errno == EAGAIN);
			if (r > 0)
				n += r;
		}
	}
	ASSERT_EQ(sizeof(got), n);
	EXPECT_EQ(0, memcmp(buf, got, sizeof(buf)));
	ASSERT_EQ(0, getsockopt(c, SOL_XTP, XTPSOCK_MIBSTAT, &m, &len));
	EXPECT_LE(1, m.fc_wait);
	close(s);
	close(c);
	close(ls);
}

TEST_F(pair, no_urgent_data)
{
	char c = '!';

	/* What withxtp(1) documents for programs that use urgent data. */
	EXPECT_EQ(-1, send(self->c, &c, 1, MSG_OOB));
	EXPECT_EQ(EOPNOTSUPP, errno);
	EXPECT_EQ(-1, recv(self->s, &c, 1, MSG_OOB));
	EXPECT_EQ(EINVAL, errno);
}

static __u64 cntl_sent(int fd)
{
	struct xtp_mibstat m;
	socklen_t len = sizeof(m);

	if (getsockopt(fd, SOL_XTP, XTPSOCK_MIBSTAT, &m, &len))
		return ~0ULL;
	return m.cpk_out;
}

TEST_F(pair, dreq_confirms_delivery_to_the_application)
{
	struct pollfd pfd = { .fd = self->s, .events = POLLIN };
	char buf[8];
	__u64 before;

	/* Without DREQ, reading sends nothing. */
	ASSERT_EQ(4, send(self->c, "none", 4, 0));
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	before = cntl_sent(self->s);
	ASSERT_EQ(4, recv(self->s, buf, sizeof(buf), 0));
	EXPECT_EQ(before, cntl_sent(self->s));
	/* With DREQ the read itself is confirmed by a CNTL. */
	ASSERT_EQ(4, send(self->c, "dreq", 4, MSG_XTP_DREQ));
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	before = cntl_sent(self->s);
	ASSERT_EQ(4, recv(self->s, buf, sizeof(buf), 0));
	EXPECT_EQ(before + 1, cntl_sent(self->s));
}

/*
 * sendfile() into an XTP socket (sendmsg with MSG_SPLICE_PAGES, or
 * sendpage on 6.1) and splice() out of one: 256 KiB of a memfd arrive
 * byte for byte.
 */
TEST_F(pair, sendfile_and_splice)
{
	const size_t len = 256 * 1024;
	unsigned char *src, *dst;
	size_t got = 0;
	int mfd, p[2], status;
	unsigned int x = 12345;
	pid_t pid;
	ssize_t n;

	src = malloc(len);
	dst = malloc(len);
	ASSERT_TRUE(src && dst);
	for (size_t i = 0; i < len; i++) {
		x = x * 1103515245 + 12345;
		src[i] = x >> 16;
	}
	mfd = memfd_create("xtp-sendfile", 0);
	ASSERT_LE(0, mfd);
	ASSERT_EQ((ssize_t)len, write(mfd, src, len));
	ASSERT_EQ(0, pipe(p));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		off_t off = 0;

		while ((size_t)off < len) {
			n = sendfile(self->c, mfd, &off, len - off);
			if (n <= 0)
				_exit(n < 0 ? errno : 100);
		}
		_exit(shutdown(self->c, SHUT_WR) ? 101 : 0);
	}
	/* The child's end alone: its exit ends the stream. */
	close(self->c);
	self->c = -1;
	for (int i = 0; i < 10000 && got <= len; i++) {
		n = splice(self->s, NULL, p[1], NULL, 65536, 0);
		ASSERT_LE(0, n) TH_LOG("splice: %s", strerror(errno));
		if (!n)
			break;
		ASSERT_GE(len - got, (size_t)n);
		for (ssize_t r; n > 0; n -= r, got += r) {
			r = read(p[0], dst + got, n);
			ASSERT_LT(0, r);
		}
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("sendfile: status %#x (%s)", status,
		       strerror(WEXITSTATUS(status)));
	EXPECT_EQ(len, got);
	EXPECT_EQ(0, memcmp(src, dst, len));
	close(p[0]);
	close(p[1]);
	close(mfd);
	free(src);
	free(dst);
}

/*
 * Bytes of the next SEQPACKET record, read up to its MSG_EOR; the buffer
 * holds any record of the test whole, so none is truncated.
 */
static ssize_t record_len(int fd)
{
	static char buf[1 << 20];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t total = 0, n;

	for (int i = 0; i < 100000; i++) {
		mh.msg_flags = 0;
		n = recvmsg(fd, &mh, 0);
		if (n <= 0)
			return n ? -errno : total;
		total += n;
		if (mh.msg_flags & MSG_EOR)
			return total;
	}
	return -ETIMEDOUT;
}

/*
 * On a SEQPACKET, a sendfile() is one record however the kernel cuts it
 * into chunks (pipe-sized since 6.5, pages on 6.1).
 */
TEST(seqpacket_sendfile_is_one_record)
{
	const size_t big = 256 * 1024, small = 10000;
	int fd[3], ls, c, s, mfd, status;
	char *data;
	pid_t pid;

	ASSERT_EQ(0, seqpacket_pair(7007, fd));
	ls = fd[0], c = fd[1], s = fd[2];
	data = calloc(1, big + small);
	ASSERT_NE(NULL, data);
	mfd = memfd_create("xtp-seqpacket", 0);
	ASSERT_LE(0, mfd);
	ASSERT_EQ((ssize_t)(big + small), write(mfd, data, big + small));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		off_t off = 0;

		if (sendfile(c, mfd, &off, big) != (ssize_t)big ||
		    sendfile(c, mfd, &off, small) != (ssize_t)small)
			_exit(1);
		_exit(shutdown(c, SHUT_WR) ? 2 : 0);
	}
	close(c);
	EXPECT_EQ((ssize_t)big, record_len(s));
	EXPECT_EQ((ssize_t)small, record_len(s));
	EXPECT_EQ(0, record_len(s));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("status %#x", status);
	free(data);
	close(mfd);
	close(s);
	close(ls);
}

/*
 * A SEQPACKET record truncated while the rest of it is still on its way:
 * the rest is dropped when it arrives, and the next read gets the next
 * record.
 */
TEST(seqpacket_truncation_drops_the_rest)
{
	const size_t big = 200 * 1024;
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	int fd[3], ls, c, s, status;
	char buf[1000];
	char *data;
	pid_t pid;

	ASSERT_EQ(0, seqpacket_pair(7008, fd));
	ls = fd[0], c = fd[1], s = fd[2];
	data = calloc(1, big);
	ASSERT_NE(NULL, data);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* The reader is asleep by now: it wakes at the first part. */
		usleep(200000);
		if (send(c, data, big, 0) != (ssize_t)big ||
		    send(c, "tail", 4, 0) != 4)
			_exit(1);
		_exit(shutdown(c, SHUT_WR) ? 2 : 0);
	}
	close(c);
	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	EXPECT_EQ((ssize_t)sizeof(buf), recvmsg(s, &mh, 0));
	EXPECT_TRUE(mh.msg_flags & MSG_TRUNC);
	memset(buf, 0, sizeof(buf));
	mh.msg_flags = 0;
	/* A peek waits for the next record, past the rest being dropped. */
	EXPECT_EQ(4, recvmsg(s, &mh, MSG_PEEK));
	EXPECT_EQ(0, memcmp(buf, "tail", 4));
	EXPECT_TRUE(mh.msg_flags & MSG_EOR);
	memset(buf, 0, sizeof(buf));
	mh.msg_flags = 0;
	EXPECT_EQ(4, recvmsg(s, &mh, 0));
	EXPECT_EQ(0, memcmp(buf, "tail", 4));
	EXPECT_TRUE(mh.msg_flags & MSG_EOR);
	EXPECT_EQ(0, recv(s, buf, sizeof(buf), 0));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("status %#x", status);
	free(data);
	close(s);
	close(ls);
}

TEST_HARNESS_MAIN
