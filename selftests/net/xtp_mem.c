// SPDX-License-Identifier: GPL-2.0
/*
 * XTP's protocol memory accounting, read where TCP's is: the XTP line of
 * /proc/net/protocols counts sockets, pages in use and memory pressure,
 * and net.xtp.mem bounds the pages.
 *
 *   - opening and closing contexts moves the socket count by as many;
 *   - an XTP socket object is no larger than a TCP one;
 *   - net.xtp.mem exists in the initial namespace only;
 *   - a listener's children are charged to the listener's memory cgroup;
 *   - a receiver that does not read, behind a sender with a huge send
 *     buffer, holds the protocol's pages at net.xtp.mem's hard limit
 *     (plus the per-CPU reserves the core keeps), in pressure, and the
 *     sender stalls; once the receiver reads, every byte arrives intact,
 *     and the pages go back.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"
#include "xtp_selftest.h"

#define MEM_SYSCTL	"/proc/sys/net/xtp/mem"
/* SK_MEMORY_PCPU_RESERVE: what each CPU may hold back from the total */
#define PCPU_PAGES	((1L << 20) / sysconf(_SC_PAGESIZE))
#define LIMIT_PAGES	((8L << 20) / sysconf(_SC_PAGESIZE))
#define TOTAL		(16 << 20)
#define BUF		(64 << 20)

static char self_buf[64 << 10];

struct proto_line {
	long size;		/* one socket object, in bytes */
	long sockets;
	long pages;
	char press[8];
};

/* @proto's line of /proc/net/protocols. */
static int read_protocols(const char *proto, struct proto_line *p)
{
	char line[512], name[32];
	FILE *f = fopen("/proc/net/protocols", "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %ld %ld %ld %7s", name, &p->size,
			   &p->sockets, &p->pages, p->press) == 5 &&
		    !strcmp(name, proto)) {
			found = 1;
			break;
		}
	fclose(f);
	return found ? 0 : -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int rw_sysctl(const char *path, char *old, size_t len, const char *val)
{
	int fd = open(path, O_RDWR);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = old ? read(fd, old, len - 1) : 0;
	if (n < 0 || (val && pwrite(fd, val, strlen(val), 0) < 0)) {
		close(fd);
		return -1;
	}
	if (old)
		old[n] = 0;
	close(fd);
	return 0;
}

/* The byte at stream offset @off: no period a lost packet could hide in. */
static unsigned char pattern(size_t off)
{
	return (off * 2654435761u) >> 13;
}

TEST(socket_count)
{
	int hold = xtp_socket(), fds[5], i, try;
	struct proto_line a, b, c;

	ASSERT_LE(0, hold);	/* the module, and its line, stay */
	for (try = 0; try < 5; try++) {
		ASSERT_EQ(0, read_protocols("XTP", &a));
		for (i = 0; i < 5; i++)
			ASSERT_LE(0, fds[i] = xtp_socket());
		ASSERT_EQ(0, read_protocols("XTP", &b));
		for (i = 0; i < 5; i++)
			close(fds[i]);
		ASSERT_EQ(0, read_protocols("XTP", &c));
		/* Another test's contexts may end meanwhile: try again. */
		if (b.sockets == a.sockets + 5 && c.sockets == a.sockets)
			break;
	}
	EXPECT_LE(0, a.pages);
	EXPECT_TRUE(!strcmp(a.press, "no") || !strcmp(a.press, "yes"));
	EXPECT_EQ(a.sockets + 5, b.sockets);
	EXPECT_EQ(a.sockets, c.sockets);
	close(hold);
}

/*
 * An idle association costs a socket at each end, and the socket is most
 * of it: XTP's is to be no larger than TCP's.
 */
TEST(socket_no_larger_than_tcp)
{
	int hold = xtp_socket(), tcp = socket(AF_INET, SOCK_STREAM, 0);
	struct proto_line x, t;

	ASSERT_LE(0, hold);
	ASSERT_LE(0, tcp);
	ASSERT_EQ(0, read_protocols("XTP", &x));
	ASSERT_EQ(0, read_protocols("TCP", &t));
	ASSERT_LT(1000, x.size);
	ASSERT_LT(1000, t.size);
	TH_LOG("socket objects: XTP %ld bytes, TCP %ld", x.size, t.size);
	EXPECT_LE(x.size, t.size);
	close(tcp);
	close(hold);
}

/* The limit is the host's: a namespace's root does not see it. */
TEST(no_limit_in_other_namespaces)
{
	int fd = xtp_socket();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, access(MEM_SYSCTL, W_OK));
	ASSERT_EQ(0, own_netns());
	EXPECT_EQ(0, access("/proc/sys/net/xtp/msl_ms", W_OK));
	EXPECT_EQ(-1, access(MEM_SYSCTL, F_OK));
	EXPECT_EQ(ENOENT, errno);
	close(fd);
}

#define CG	"/sys/fs/cgroup/xtp_mem"

/* memory.stat's @key of the test's cgroup, in bytes; -1 if none. */
static long cg_stat(const char *key)
{
	char line[256], name[64];
	FILE *f = fopen(CG "/memory.stat", "r");
	long v, found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &v) == 2 &&
		    !strcmp(name, key))
			found = v;
	fclose(f);
	return found;
}

/*
 * A listener in a memory cgroup: the data queued on its children,
 * born in softirq context, is charged to that cgroup ("sock").
 */
TEST(children_charge_the_listeners_cgroup)
{
	int ready[2], hold[2], fd, status;
	char pid[16], c;
	size_t sent = 0;
	long sock;
	double t0;
	pid_t srv;

	ASSERT_LE(0, fd = xtp_socket());
	close(fd);
	if (access("/sys/fs/cgroup/cgroup.subtree_control", W_OK) ||
	    rw_sysctl("/sys/fs/cgroup/cgroup.subtree_control", NULL, 0,
		      "+memory"))
		SKIP(return, "no cgroup v2 memory controller");
	rmdir(CG);
	ASSERT_EQ(0, mkdir(CG, 0755));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(hold));
	srv = fork();
	ASSERT_LE(0, srv);
	if (!srv) {
		snprintf(pid, sizeof(pid), "%d", getpid());
		if (rw_sysctl(CG "/cgroup.procs", NULL, 0, pid))
			_exit(1);
		struct sockaddr_in sin = loopback(7782);
		int big = 8 << 20;

		fd = xtp_socket();
		if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big,
					 sizeof(big)) ||
		    bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
		    listen(fd, 4) || write(ready[1], "r", 1) != 1)
			_exit(2);
		/* Hold the listener, never accept, until told. */
		_exit(read(hold[0], &c, 1) == 1 ? 0 : 3);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_LE(0, fd = xtp_socket());
	ASSERT_EQ(0, connect_to(fd, 7782));
	memset(self_buf, 0x5a, sizeof(self_buf));
	t0 = now();
	while (sent < (2 << 20) && now() - t0 < 20) {
		ssize_t r = send(fd, self_buf, sizeof(self_buf), MSG_DONTWAIT);

		if (r > 0)
			sent += r;
		else
			usleep(10000);
	}
	/* Until the child's queue holds 1 MiB, or 5 s. */
	t0 = now();
	while ((sock = cg_stat("sock")) < (1L << 20) && now() - t0 < 5)
		usleep(50000);
	TH_LOG("cgroup sock %ld bytes for %zu sent", sock, sent);
	EXPECT_LE(1L << 20, sock);
	close(fd);
	ASSERT_EQ(1, write(hold[1], "q", 1));
	ASSERT_EQ(srv, waitpid(srv, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, rmdir(CG));
}

FIXTURE(limit) {
	char saved[128];
	int lfd, snd, rcv;
	char *buf;
};

/* SOCK_STREAM: the core halves the send buffer of a sender it refuses. */
FIXTURE_VARIANT(limit) {
	int type;
};

FIXTURE_VARIANT_ADD(limit, xtp) {
	.type = SOCK_XTP,
};

FIXTURE_VARIANT_ADD(limit, stream) {
	.type = SOCK_STREAM,
};

FIXTURE_SETUP(limit)
{
	struct sockaddr_in sin = loopback(7781);
	char val[64];
	int big = BUF;

	ASSERT_LE(0, self->lfd = socket(AF_INET, variant->type, IPPROTO_XTP));
	ASSERT_EQ(0, setsockopt(self->lfd, SOL_SOCKET, SO_RCVBUFFORCE, &big,
				sizeof(big)));
	ASSERT_EQ(0, bind(self->lfd, (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_EQ(0, listen(self->lfd, 4));
	ASSERT_LE(0, self->snd = socket(AF_INET, variant->type, IPPROTO_XTP));
	ASSERT_EQ(0, connect_to(self->snd, 7781));
	ASSERT_LE(0, self->rcv = accept(self->lfd, NULL, NULL));
	ASSERT_NE(NULL, self->buf = malloc(1 << 20));
	/* Last: a failed setup skips the teardown that restores it. */
	ASSERT_EQ(0, rw_sysctl(MEM_SYSCTL, self->saved, sizeof(self->saved),
			       NULL));
	snprintf(val, sizeof(val), "%ld %ld %ld", LIMIT_PAGES / 4,
		 LIMIT_PAGES / 2, LIMIT_PAGES);
	ASSERT_EQ(0, rw_sysctl(MEM_SYSCTL, NULL, 0, val));
}

FIXTURE_TEARDOWN(limit)
{
	close(self->snd);
	close(self->rcv);
	close(self->lfd);
	free(self->buf);
	rw_sysctl(MEM_SYSCTL, NULL, 0, self->saved);
}

/* Send from @off on without blocking; returns the new offset. */
static size_t send_some(int fd, char *buf, size_t off)
{
	while (off < TOTAL) {
		size_t n = TOTAL - off < (1 << 20) ? TOTAL - off : 1 << 20;
		ssize_t r;
		size_t i;

		for (i = 0; i < n; i++)
			buf[i] = pattern(off + i);
		r = send(fd, buf, n, MSG_DONTWAIT);
		if (r <= 0)
			break;
		off += r;
	}
	return off;
}

/* The debug kernel takes minutes; the release kernel 10 to 20 s. */
TEST_F_TIMEOUT(limit, hard_limit_then_drain, 330)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	long pressures = xtp_snmp("MemoryPressures");
	long qdrops = xtp_snmp("RcvQDrop");
	size_t sent = 0, got = 0, last = 0, bad = 0;
	struct proto_line held, after;
	double t0 = now(), moved = t0;

	/* Phase 1: nobody reads; send until nothing moves for 2 s. */
	while (now() - moved < 2 && now() - t0 < 30) {
		sent = send_some(self->snd, self->buf, sent);
		if (sent != last) {
			last = sent;
			moved = now();
		}
		usleep(20000);
	}
	ASSERT_EQ(0, read_protocols("XTP", &held));
	TH_LOG("stalled at %zu bytes, %ld pages, pressure %s", sent,
	       held.pages, held.press);
	EXPECT_GT(TOTAL, sent);
	EXPECT_GE(LIMIT_PAGES + ncpu * PCPU_PAGES, held.pages);
	EXPECT_LE(LIMIT_PAGES / 2 - ncpu * PCPU_PAGES, held.pages);
	EXPECT_STREQ("yes", held.press);
	EXPECT_LT(pressures, xtp_snmp("MemoryPressures"));
	/* The receiver dropped what the limit left no room for. */
	EXPECT_LT(qdrops, xtp_snmp("RcvQDrop"));

	/* Phase 2: read it all, still under the limit; every byte intact. */
	while (got < TOTAL && now() - t0 < 300) {
		struct pollfd p = { .fd = self->rcv, .events = POLLIN };
		ssize_t r, i;

		sent = send_some(self->snd, self->buf, sent);
		if (poll(&p, 1, 100) <= 0)
			continue;
		r = recv(self->rcv, self->buf, 1 << 20, MSG_DONTWAIT);
		if (!r || (r < 0 && errno != EAGAIN)) {
			TH_LOG("recv: %zd, %s", r, strerror(errno));
			break;
		}
		if (r < 0)
			continue;
		for (i = 0; i < r; i++)
			bad += (unsigned char)self->buf[i] != pattern(got + i);
		got += r;
	}
	TH_LOG("%zu bytes read in %.1f s", got, now() - t0);
	EXPECT_EQ(TOTAL, sent);
	EXPECT_EQ(TOTAL, got);
	EXPECT_EQ(0, bad);

	/* Phase 3: back below the limit, the queues empty, pages returned. */
	ASSERT_EQ(0, read_protocols("XTP", &after));
	EXPECT_GE(held.pages, after.pages);
	EXPECT_GE(ncpu * PCPU_PAGES + 64, after.pages);
}

TEST_HARNESS_MAIN
