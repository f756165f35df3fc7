// SPDX-License-Identifier: GPL-2.0
/*
 * Every MTP option, flag, sysctl and counter that mtp.rst documents, moved
 * and its effect observed.  Each test runs in a network namespace of its
 * own (unshare in the fixture's setup, loopback up), so the net.mtp.*
 * sysctls start at their defaults and the /proc/net/mtp/snmp counters move
 * only with what the test does: deltas can be exact.
 *
 * Where the other end has to misbehave (drop one answer, send more than
 * was asked, answer only "pending", or show exactly what goes on the
 * wire), it is a plain UDP socket that speaks the header mtp.rst draws
 * ("raw peer", encoded here independently of net/mtp/wire.c).
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mtp_selftest.h"

#define LO		"127.0.0.1"
#define HDR		28
#define OPT_SINGLE	0x01
#define OPT_NOPAYLOAD	0x02
#define OPT_SUPPRESS	0x08

/* ---- namespace, sysctls, counters ---------------------------------------- */

static int set_sysctl(const char *name, long val)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/sys/net/mtp/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", val) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static long get_sysctl(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/net/mtp/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Wait (bounded) until counter NAME is at least WANT; return it. */
static long snmp_wait_ge(const char *name, long want, double secs)
{
	double end = mtp_now() + secs;
	long v;

	while ((v = mtp_snmp(name)) < want && mtp_now() < end)
		usleep(10000);
	return v;
}

/* A socket of @type bound to an ephemeral loopback port, named in @sa. */
static int bound_socket(int type, struct sockaddr_in *sa)
{
	struct sockaddr_in a = mtp_addr(LO, 0);
	socklen_t l = sizeof(*sa);
	int fd = socket(AF_INET, type, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)sa, &l))
		return -1;
	mtp_rcvtimeo(fd, 20);
	return fd;
}

static int mtp_bound(struct sockaddr_in *sa)
{
	return bound_socket(SOCK_MTP, sa);
}

/* The misbehaving peers are plain UDP sockets. */
static int udp_bound(struct sockaddr_in *sa)
{
	return bound_socket(SOCK_DGRAM, sa);
}

static u_int32_t last_reqid(int fd)
{
	u_int32_t id = 0;
	socklen_t l = sizeof(id);

	getsockopt(fd, SOL_MTP, MTP_LAST_REQID, &id, &l);
	return id;
}

FIXTURE(ns) {
	int unused;
};

/* Loopback of the namespace we are in comes up. */
static void bring_lo_up(struct __test_metadata *_metadata)
{
	struct ifreq ifr = {};
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_LE(0, fd);
	strcpy(ifr.ifr_name, "lo");
	ASSERT_EQ(0, ioctl(fd, SIOCGIFFLAGS, &ifr));
	ifr.ifr_flags |= IFF_UP;
	ASSERT_EQ(0, ioctl(fd, SIOCSIFFLAGS, &ifr));
	close(fd);
}

FIXTURE_SETUP(ns)
{
	int fd;

	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	bring_lo_up(_metadata);
	/* the first MTP socket loads the module */
	fd = socket(AF_INET, SOCK_MTP, 0);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, mtp_snmp("CurrSockets"));	/* a namespace of our own */
}

FIXTURE_TEARDOWN(ns)
{
}

/* ---- the raw peer: the header of mtp.rst, big-endian ---------------------- */

struct hdr {
	unsigned char ver, appver, options, error, response, action, flag;
	unsigned char shift;
	u_int32_t reqid, channel, address, rsize;
	unsigned short limit, tag;
};

static void put32(unsigned char *b, u_int32_t v)
{
	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static u_int32_t get32(const unsigned char *b)
{
	return (u_int32_t)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

static void hdr_put(unsigned char *b, const struct hdr *h)
{
	b[0] = 0x30;
	b[1] = h->appver;
	b[2] = h->options;
	b[3] = h->error;
	b[4] = h->response;
	b[5] = h->action;
	b[6] = h->flag;
	b[7] = h->shift;
	put32(b + 8, h->reqid);
	put32(b + 12, h->channel);
	put32(b + 16, h->address);
	put32(b + 20, h->rsize);
	b[24] = h->limit >> 8;
	b[25] = h->limit;
	b[26] = h->tag >> 8;
	b[27] = h->tag;
}

static void hdr_get(const unsigned char *b, struct hdr *h)
{
	h->ver = b[0];
	h->appver = b[1];
	h->options = b[2];
	h->error = b[3];
	h->response = b[4];
	h->action = b[5];
	h->flag = b[6];
	h->shift = b[7];
	h->reqid = get32(b + 8);
	h->channel = get32(b + 12);
	h->address = get32(b + 16);
	h->rsize = get32(b + 20);
	h->limit = b[24] << 8 | b[25];
	h->tag = b[26] << 8 | b[27];
}

static ssize_t raw_send(int u, const struct sockaddr_in *to, const struct hdr *h,
			const void *data, size_t n)
{
	unsigned char b[HDR + 16384];

	hdr_put(b, h);
	if (n)
		memcpy(b + HDR, data, n);
	return sendto(u, b, HDR + n, 0, (const struct sockaddr *)to,
		      sizeof(*to));
}

/* One datagram from U within SECS: its header in *H; payload length or -1. */
static ssize_t raw_recv(int u, struct hdr *h, void *data, size_t cap,
			struct sockaddr_in *from, int ms)
{
	unsigned char b[HDR + 65536];
	struct pollfd p = { u, POLLIN, 0 };
	socklen_t l = sizeof(*from);
	struct sockaddr_in dummy;
	ssize_t n;

	if (poll(&p, 1, ms) != 1)
		return -1;
	n = recvfrom(u, b, sizeof(b), 0, (struct sockaddr *)(from ?: &dummy),
		     &l);
	if (n < HDR)
		return -1;
	hdr_get(b, h);
	n -= HDR;
	if (data)
		memcpy(data, b + HDR, n < (ssize_t)cap ? n : cap);
	return n;
}

/*
 * raw_recv() for an answer with data: a later request of a transaction
 * whose application the server found slow (as under KASAN) is told
 * MTP_RES_PENDING first, an empty reply the client may get at any time.
 */
static ssize_t raw_recv_data(int u, struct hdr *h, void *data, size_t cap,
			     int ms)
{
	ssize_t n;
	int i;

	for (i = 0; i < 4; i++) {
		n = raw_recv(u, h, data, cap, NULL, ms);
		if (n != 0 || h->error || h->response != MTP_RES_PENDING)
			break;
	}
	return n;
}

/*
 * A raw server for one MTP client transaction: answers each request with
 * the bytes of OBJ it asks for (its rsize and limit, our limit), in
 * datagrams of the size it asks for, or misbehaves as told.
 */
struct raw_srv {
	int u;
	const char *obj;
	u_int32_t len;
	unsigned short limit;	/* our limit field, 512-byte units */
	int limit_dgram;	/* limit: the first request's datagram size */
	int drop_tag;		/* leave the first request with it unanswered */
	int blast;		/* answer the first request with everything */
	int pending_only;	/* answer every request with MTP_RES_PENDING */
	/* what happened */
	int requests, pendings, dropped, answered;
	unsigned short first_limit;	/* limit field of the first request */
};

static void raw_serve_one(struct raw_srv *s)
{
	struct sockaddr_in from;
	struct hdr q, a;
	u_int32_t n, off, want;
	char pl[1100];

	if (raw_recv(s->u, &q, pl, sizeof(pl), &from, 0) < 0 ||
	    q.response || q.error)
		return;
	if (!s->requests++)
		s->first_limit = q.limit;
	a = q;
	a.options = 0;
	a.shift = 0;
	if (s->pending_only) {
		a.response = MTP_RES_PENDING;	/* echoes address, rsize, tag */
		if (raw_send(s->u, &from, &a, NULL, 0) > 0)
			s->pendings++;
		return;
	}
	if (q.address >= s->len)
		return;
	if (s->limit_dgram && !s->limit && q.shift)
		s->limit = (1U << q.shift) / 512;
	if (s->drop_tag && q.tag == s->drop_tag && !s->dropped) {
		s->dropped = 1;
		return;
	}
	want = s->len - q.address;
	if (!(s->blast && s->answered == 0)) {
		if (q.rsize && q.rsize < want)
			want = q.rsize;
		if (q.limit && q.limit * 512U < want)
			want = q.limit * 512U;
		if (s->limit && s->limit * 512U < want)
			want = s->limit * 512U;
	}
	a.response = MTP_RES_REPLY;
	a.limit = s->limit;
	for (off = 0; off < want; off += n) {
		n = want - off;
		if (q.shift && n > 1U << q.shift)
			n = 1U << q.shift;
		a.address = q.address + off;
		a.rsize = s->len - a.address;
		raw_send(s->u, &from, &a, s->obj + a.address, n);
	}
	s->answered++;
}

/*
 * Run S against the MTP client CLI until its transaction ends: the data
 * in OUT (from object address 0), the completion in *FIN.  Returns the
 * bytes received, or -1.
 */
static long raw_fetch(struct raw_srv *s, int cli, char *out, size_t outlen,
		      struct mtp_info *fin, double secs)
{
	double end = mtp_now() + secs;
	long got = 0;

	while (mtp_now() < end) {
		struct pollfd p[2] = { { s->u, POLLIN, 0 },
				       { cli, POLLIN, 0 } };

		if (poll(p, 2, 200) <= 0)
			continue;
		if (p[0].revents & POLLIN)
			raw_serve_one(s);
		if (p[1].revents & POLLIN) {
			int flags = 0;
			ssize_t n = mtp_recvinfo(cli, out + got, outlen - got,
						 fin, NULL, &flags, 0);

			if (n < 0)
				return -1;
			if (n && fin->address != (u_int32_t)got)
				return -1;	/* not in object order */
			got += n;
			if (flags & MSG_EOR)
				return got;
		}
	}
	return -1;
}

static void fill(char *obj, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		obj[i] = (char)(i * seed + (i >> 9));
}

/* ---- single exchange: exact counter deltas -------------------------------- */

static const char *const one_names[] = {
	"OutRequests", "InRequests", "OutResponses", "InResponses",
	"OutErrors", "OutRepeats", "TxnStarted", "TxnDone", "InDatagrams",
};

/*
 * One single-datagram transaction answered by the application with an
 * MTP_RESPOND control message: OutRequests, InRequests, OutResponses,
 * InResponses +1 each, OutErrors and OutRepeats unchanged.
 */
TEST_F(ns, single_exchange_counters)
{
	/* expected deltas, in the order of one_names[] */
	static const long want[] = { 1, 1, 1, 1, 0, 0, 1, 1, 2 };
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_SINGLE,
				 .repeat = 20000, .expire = 30000 };
	struct mtp_response a = { .response = MTP_RES_REPLY };
	struct sockaddr_in ss, cs, from;
	struct mtp_info info;
	long before[9];
	char buf[32];
	unsigned int i;
	int srv = mtp_bound(&ss), cli = mtp_bound(&cs);

	ASSERT_LE(0, srv);
	ASSERT_LE(0, cli);
	for (i = 0; i < 9; i++)
		before[i] = mtp_snmp(one_names[i]);
	ASSERT_EQ(3, mtp_request(cli, &ss, &r, "abc", 3));
	ASSERT_EQ(3, mtp_recvinfo(srv, buf, sizeof(buf), &info, &from, NULL,
				  0));
	a.reqid = info.reqid;
	a.action = info.action;
	ASSERT_EQ(4, mtp_respond(srv, &from, &a, "defg", 4));
	ASSERT_EQ(4, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	for (i = 0; i < 9; i++) {
		const char *name = one_names[i];

		EXPECT_EQ(before[i] + want[i], mtp_snmp(name))
			TH_LOG("counter %s", name ? name : "?");
	}
}

/*
 * OutErrors: a request that cannot be sent (no route to 198.18.0.1 in a
 * namespace with only loopback) is counted there, once per datagram.
 */
TEST_F(ns, out_errors_no_route)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .repeat = 20000,
				 .expire = 30000 };
	struct sockaddr_in to = mtp_addr("198.18.0.1", 9), cs;
	long err = mtp_snmp("OutErrors"), out = mtp_snmp("OutRequests");
	struct mtp_abort ab = { .level = MTP_ABORT_DESTROY };
	int cli = mtp_bound(&cs);

	ASSERT_LE(0, cli);
	ASSERT_EQ(2, mtp_request(cli, &to, &r, "xy", 2));
	EXPECT_EQ(err + 1, snmp_wait_ge("OutErrors", err + 1, 5));
	/* it was built and counted as a request, but it did not leave */
	EXPECT_EQ(out + 1, mtp_snmp("OutRequests"));
	ab.reqid = last_reqid(cli);
	EXPECT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
}

/* ---- request ids ---------------------------------------------------------- */

/*
 * Request ids are not predictable: errors forged for the ids after one an
 * eavesdropper saw, sent from the server's own address and port, do not
 * end the client's next transaction; its real answer does.
 */
TEST_F(ns, forged_error_predicted_id)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_SINGLE,
				 .repeat = 20000, .expire = 30000 };
	struct sockaddr_in ss, cs, from;
	struct mtp_info info;
	struct hdr q, f = { 0 };
	u_int32_t seen, k;
	char buf[64];
	int u = udp_bound(&ss), cli = mtp_bound(&cs);

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	ASSERT_EQ(3, mtp_request(cli, &ss, &r, "one", 3));
	ASSERT_EQ(3, raw_recv(u, &q, NULL, 0, &from, 5000));
	seen = q.reqid;
	EXPECT_EQ(seen, last_reqid(cli));
	ASSERT_EQ(3, mtp_request(cli, &ss, &r, "two", 3));
	ASSERT_EQ(3, raw_recv(u, &q, NULL, 0, &from, 5000));
	EXPECT_NE(seen, q.reqid);
	f.error = MTP_ERR_SERVER;
	f.response = MTP_ERR_DMN_DEL;
	for (k = 1; k <= 8; k++) {
		f.reqid = seen + k;
		ASSERT_EQ(HDR, raw_send(u, &from, &f, NULL, 0));
	}
	q.options = 0;
	q.response = MTP_RES_REPLY;
	q.address = 0;
	q.rsize = 4;
	ASSERT_EQ(HDR + 4, raw_send(u, &from, &q, "real", 4));
	memset(&info, 0, sizeof(info));
	ASSERT_EQ(4, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL, 0));
	EXPECT_EQ(0, memcmp(buf, "real", 4));
	EXPECT_EQ(q.reqid, info.reqid);
	EXPECT_EQ(MTP_ERR_NONE, info.error);
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	close(cli);
	close(u);
}

/*
 * 256 transactions of one socket get 256 different ids, and not a run of
 * consecutive ones: a counter would give 255 steps of one.
 */
TEST_F(ns, reqids_distinct_not_sequential)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_FORGET };
	struct sockaddr_in ss, cs;
	u_int32_t ids[256];
	int u = udp_bound(&ss), cli = mtp_bound(&cs);
	int i, j, steps = 0, same = 0;

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	for (i = 0; i < 256; i++) {
		ASSERT_EQ(1, mtp_request(cli, &ss, &r, "x", 1));
		ids[i] = last_reqid(cli);
	}
	for (i = 1; i < 256; i++)
		steps += ids[i] - ids[i - 1] == 1;
	for (i = 0; i < 256; i++)
		for (j = i + 1; j < 256; j++)
			same += ids[i] == ids[j];
	EXPECT_GE(1, steps);
	EXPECT_EQ(0, same);
	close(cli);
	close(u);
}

/* ---- sysctls ------------------------------------------------------------- */

/* A request with sendmsg() FLAGS. */
static ssize_t send_req_flags(int fd, const struct sockaddr_in *to,
			      const struct mtp_request *r, const void *buf,
			      size_t len, int flags)
{
	char cbuf[CMSG_SPACE(sizeof(*r))] = { 0 };
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_MTP;
	c->cmsg_type = MTP_REQUEST;
	c->cmsg_len = CMSG_LEN(sizeof(*r));
	memcpy(CMSG_DATA(c), r, sizeof(*r));
	return sendmsg(fd, &msg, flags);
}

/* Write VAL to net.mtp.NAME with one write(); 0 or the errno. */
static int write_sysctl(const char *name, long val)
{
	char path[128], v[32];
	int fd, n, err = 0;

	snprintf(path, sizeof(path), "/proc/sys/net/mtp/%s", name);
	n = snprintf(v, sizeof(v), "%ld\n", val);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, v, n) != n)
		err = errno;
	close(fd);
	return err;
}

/*
 * In a namespace other than the initial one, the limits on what strangers
 * make a socket keep or send cannot go above the initial namespace's
 * values (the defaults, in the VM); lowering them, and the other sysctls,
 * are free.
 */
TEST_F(ns, sysctls_capped_by_initial_ns)
{
	static const struct { const char *name; long init; } cap[] = {
		{ "cache_ms", 30000 }, { "cache_obj_bytes", 4 << 20 },
		{ "cache_sock_bytes", 32 << 20 }, { "srv_max_pending", 1024 },
		{ "max_txns", 256 }, { "kping_rate", 1000 },
		{ "rmem_max", 4 << 20 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cap) / sizeof(cap[0]); i++) {
		const char *n = cap[i].name;

		EXPECT_EQ(cap[i].init, get_sysctl(n)) TH_LOG("%s", n);
		EXPECT_EQ(EINVAL, write_sysctl(n, cap[i].init + 1))
			TH_LOG("%s", n);
		EXPECT_EQ(EINVAL, write_sysctl(n, INT_MAX)) TH_LOG("%s", n);
		EXPECT_EQ(0, write_sysctl(n, cap[i].init / 2)) TH_LOG("%s", n);
		EXPECT_EQ(cap[i].init / 2, get_sysctl(n)) TH_LOG("%s", n);
		EXPECT_EQ(0, write_sysctl(n, cap[i].init)) TH_LOG("%s", n);
	}
	EXPECT_EQ(0, write_sysctl("expire_ms", 600000));
	EXPECT_EQ(0, write_sysctl("reorder", 100));
}

/*
 * A namespace starts with the loss-based window (net.mtp.cc 1; mtp.rst
 * says why the model is not the default); 2 chooses the model, and
 * nothing else is a mode.
 */
TEST_F(ns, cc_default_window)
{
	EXPECT_EQ(1, get_sysctl("cc"));
	EXPECT_EQ(EINVAL, write_sysctl("cc", 0));
	EXPECT_EQ(EINVAL, write_sysctl("cc", 3));
	EXPECT_EQ(0, write_sysctl("cc", 2));
	EXPECT_EQ(2, get_sysctl("cc"));
	EXPECT_EQ(0, write_sysctl("cc", 1));
	EXPECT_EQ(1, get_sysctl("cc"));
}

/* Wait (bounded) until process PID sleeps; true if it did. */
static bool wait_sleeping(pid_t pid, double secs)
{
	double end = mtp_now() + secs;
	char path[64], st[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	while (mtp_now() < end) {
		f = fopen(path, "r");
		if (!f)
			return false;
		p = fgets(st, sizeof(st), f) ? strrchr(st, ')') : NULL;
		fclose(f);
		if (p && p[1] == ' ' && p[2] == 'S')
			return true;
		usleep(10000);
	}
	return false;
}

static void set_sndtimeo(int fd, long ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* poll() for POLLOUT up to MS milliseconds: the revents. */
static short poll_out(int fd, int ms)
{
	struct pollfd p = { fd, POLLOUT, 0 };

	return poll(&p, 1, ms) == 1 ? p.revents : 0;
}

/*
 * net.mtp.max_txns: with max_txns = 3 the fourth concurrent transaction
 * of a socket waits, like a UDP send waits for buffer space: EAGAIN at
 * once when non-blocking, EAGAIN after SO_SNDTIMEO when blocking, and
 * poll() does not say writable; it is not started meanwhile.  A blocked
 * sendmsg() starts its transaction as soon as one of the three completes;
 * an aborted one frees its slot too, and poll() says so.
 */
TEST_F(ns, max_txns)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_SINGLE,
				 .repeat = 20000, .expire = 30000 };
	struct mtp_abort ab = { .level = MTP_ABORT_DESTROY };
	struct mtp_response a = {};
	struct sockaddr_in ss, cs, from, c2s;
	struct mtp_info info;
	long started;
	char buf[16];
	int c2, i, st, srv = mtp_bound(&ss), cli = mtp_bound(&cs);
	double t0;
	pid_t pid;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, cli);
	EXPECT_EQ(256, get_sysctl("max_txns"));
	ASSERT_EQ(0, set_sysctl("max_txns", 3));
	started = mtp_snmp("TxnStarted");
	EXPECT_TRUE(poll_out(cli, 0) & POLLOUT);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(1, mtp_request(cli, &ss, &r, "q", 1));
	EXPECT_FALSE(poll_out(cli, 0) & POLLOUT);
	ASSERT_EQ(0, fcntl(cli, F_SETFL, O_NONBLOCK));
	EXPECT_EQ(-1, mtp_request(cli, &ss, &r, "q", 1));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, fcntl(cli, F_SETFL, 0));
	set_sndtimeo(cli, 300);
	t0 = mtp_now();
	EXPECT_EQ(-1, mtp_request(cli, &ss, &r, "q", 1));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_LE(0.25, mtp_now() - t0);
	EXPECT_EQ(started + 3, mtp_snmp("TxnStarted"));
	/* another socket has its own three */
	c2 = mtp_bound(&c2s);
	ASSERT_LE(0, c2);
	EXPECT_EQ(1, mtp_request(c2, &ss, &r, "q", 1));
	close(c2);

	/* a blocked sender goes on once the server answers one of three */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (!wait_sleeping(getppid(), 20) ||
		    mtp_recvinfo(srv, buf, sizeof(buf), &info, &from, NULL,
				 0) != 1)
			_exit(1);
		a.reqid = info.reqid;
		_exit(mtp_respond(srv, &from, &a, NULL, 0) == 0 ? 0 : 2);
	}
	set_sndtimeo(cli, 30000);
	t0 = mtp_now();
	EXPECT_EQ(1, mtp_request(cli, &ss, &r, "q", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
	EXPECT_EQ(started + 5, mtp_snmp("TxnStarted"));
	ASSERT_EQ(0, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	EXPECT_EQ(0, info.error);
	EXPECT_FALSE(poll_out(cli, 0) & POLLOUT);

	/* aborting one makes room, and poll() wakes up for it */
	ab.reqid = last_reqid(cli);
	EXPECT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	EXPECT_TRUE(poll_out(cli, 5000) & POLLOUT);
	EXPECT_EQ(1, mtp_request(cli, &ss, &r, "q", 1));
	close(cli);
	close(srv);
}

/*
 * SO_SNDBUF bounds the bytes of requests of live transactions: each
 * counts its header and payload (28 + 1024 here) until the transaction
 * ends, and, as for UDP, the send that finds the buffer not yet full
 * may overshoot it.  A silent server (a UDP socket) keeps them live.
 */
TEST_F(ns, sndbuf)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .repeat = 20000, .expire = 30000 };
	struct mtp_abort ab = { .level = MTP_ABORT_DESTROY };
	struct sockaddr_in us, cs;
	int u = udp_bound(&us), cli = mtp_bound(&cs), one = 1, big = 65536;
	int sndbuf = 0, i, want;
	socklen_t l = sizeof(sndbuf);
	char req[1024];
	double t0;

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	memset(req, 'r', sizeof(req));
	ASSERT_EQ(0, setsockopt(cli, SOL_SOCKET, SO_SNDBUF, &one,
				sizeof(one)));
	ASSERT_EQ(0, getsockopt(cli, SOL_SOCKET, SO_SNDBUF, &sndbuf, &l));
	want = (sndbuf + HDR + 1024 - 1) / (HDR + 1024);
	ASSERT_GT(50, want);
	for (i = 0; i < 300; i++)
		if (send_req_flags(cli, &us, &r, req, sizeof(req),
				   MSG_DONTWAIT) < 0)
			break;
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_EQ(want, i);
	EXPECT_FALSE(poll_out(cli, 0) & POLLOUT);
	set_sndtimeo(cli, 300);
	t0 = mtp_now();
	EXPECT_EQ(-1, mtp_request(cli, &us, &r, req, sizeof(req)));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_LE(0.25, mtp_now() - t0);
	/* ending one makes room for one */
	ab.reqid = last_reqid(cli);
	EXPECT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	EXPECT_TRUE(poll_out(cli, 5000) & POLLOUT);
	EXPECT_EQ(1024, send_req_flags(cli, &us, &r, req, sizeof(req),
				       MSG_DONTWAIT));
	EXPECT_EQ(-1, send_req_flags(cli, &us, &r, req, sizeof(req),
				     MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	/* so does a larger buffer */
	ASSERT_EQ(0, setsockopt(cli, SOL_SOCKET, SO_SNDBUF, &big,
				sizeof(big)));
	EXPECT_TRUE(poll_out(cli, 5000) & POLLOUT);
	EXPECT_EQ(1024, send_req_flags(cli, &us, &r, req, sizeof(req),
				       MSG_DONTWAIT));
	close(cli);
	close(u);
}

/* Counter NAME of the "Udp:" lines of /proc/net/snmp, or -1. */
static long udp_snmp(const char *name)
{
	char names[1024], vals[1024], *n, *v, *sn, *sv;
	long ret = -1;
	FILE *f = fopen("/proc/net/snmp", "r");

	if (!f)
		return -1;
	while (fgets(names, sizeof(names), f)) {
		if (strncmp(names, "Udp: ", 5) || !fgets(vals, sizeof(vals), f))
			continue;
		n = strtok_r(names, "\n ", &sn);
		v = strtok_r(vals, "\n ", &sv);
		while (n && v) {
			if (!strcmp(n, name))
				ret = atol(v);
			n = strtok_r(NULL, "\n ", &sn);
			v = strtok_r(NULL, "\n ", &sv);
		}
		break;
	}
	fclose(f);
	return ret;
}

/* Wait (bounded) until Udp counter NAME differs from OLD; return it. */
static long udp_snmp_wait_change(const char *name, long old)
{
	double end = mtp_now() + 10;
	long v;

	while ((v = udp_snmp(name)) == old && mtp_now() < end)
		usleep(10000);
	return v;
}

/*
 * SO_BINDTODEVICE after bind() moves the socket's port to that device,
 * as on a UDP socket: requests arriving on loopback no longer reach a
 * server bound to another device (UDP counts them in NoPorts), and do
 * again once it is bound to lo.
 */
TEST_F(ns, bindtodevice_after_bind)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_FORGET };
	struct sockaddr_in ss, cs;
	struct mtp_info info;
	int srv = mtp_bound(&ss), cli = mtp_bound(&cs);
	long noports;
	char buf[16];

	ASSERT_LE(0, srv);
	ASSERT_LE(0, cli);
	ASSERT_EQ(0, system("ip link add mb0 type veth peer name mb1"));
	ASSERT_EQ(1, mtp_request(cli, &ss, &r, "a", 1));
	ASSERT_EQ(1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_EQ('a', buf[0]);

	ASSERT_EQ(0, setsockopt(srv, SOL_SOCKET, SO_BINDTODEVICE, "mb0", 4));
	noports = udp_snmp("NoPorts");
	ASSERT_LE(0, noports);
	ASSERT_EQ(1, mtp_request(cli, &ss, &r, "b", 1));
	EXPECT_EQ(noports + 1, udp_snmp_wait_change("NoPorts", noports));
	EXPECT_EQ(-1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
				   MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, setsockopt(srv, SOL_SOCKET, SO_BINDTODEVICE, "lo", 3));
	ASSERT_EQ(1, mtp_request(cli, &ss, &r, "c", 1));
	ASSERT_EQ(1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_EQ('c', buf[0]);
	close(cli);
	close(srv);
}

/*
 * net.mtp.expire_ms: a transaction with expire 0 to a silent server (a
 * UDP socket that never reads) ends after about expire_ms with
 * MTP_ERR_NET/MTP_ERR_NET_EXPIRE, counted in TxnExpired and TxnFailed.
 */
TEST_F(ns, expire_ms)
{
	struct mtp_request r = { .action = MTP_ACT_APP };
	long exp = mtp_snmp("TxnExpired"), fail = mtp_snmp("TxnFailed");
	struct sockaddr_in us, cs;
	struct mtp_info info;
	int u = udp_bound(&us), cli = mtp_bound(&cs);
	char buf[16];
	double t0, dt;

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	EXPECT_EQ(30000, get_sysctl("expire_ms"));
	ASSERT_EQ(0, set_sysctl("expire_ms", 1500));
	t0 = mtp_now();
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	/* the completion is the event waited for (SO_RCVTIMEO 20 s) */
	ASSERT_EQ(0, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	dt = mtp_now() - t0;
	TH_LOG("expired after %.2f s, %u requests", dt, info.requests);
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	EXPECT_EQ(MTP_ERR_NET, info.error);
	EXPECT_EQ(MTP_ERR_NET_EXPIRE, info.response);
	EXPECT_LE(1.45, dt);
	EXPECT_GE(12.0, dt);
	EXPECT_EQ(exp + 1, mtp_snmp("TxnExpired"));
	EXPECT_EQ(fail + 1, mtp_snmp("TxnFailed"));
}

/*
 * net.mtp.repeat_ms: with repeat 0 a request to a silent server is first
 * repeated after repeat_ms (200 ms here, net.mtp.repeat_min_ms lowered
 * to 100 so that the floor does not hide it), and then the interval
 * doubles at each repeat, as TCP backs off: the fourth repeat comes
 * 200 + 400 + 800 + 1600 ms after the request (0.8 s without the
 * backoff, 15 s with the default interval, 7.5 s from the old 500 ms
 * floor), and the transaction's own count agrees with OutRepeats.
 */
TEST_F(ns, repeat_ms)
{
	struct mtp_request r = { .action = MTP_ACT_APP };
	struct mtp_abort ab = { .level = MTP_ABORT_EXPIRE };
	long rep0 = mtp_snmp("OutRepeats"), rep;
	struct sockaddr_in us, cs;
	struct mtp_info info;
	int u = udp_bound(&us), cli = mtp_bound(&cs);
	char buf[16];
	double t0, per;

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	EXPECT_EQ(1000, get_sysctl("repeat_ms"));
	ASSERT_EQ(0, set_sysctl("repeat_min_ms", 100));
	ASSERT_EQ(0, set_sysctl("repeat_ms", 200));
	t0 = mtp_now();
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	rep = snmp_wait_ge("OutRepeats", rep0 + 4, 20);
	per = mtp_now() - t0;
	TH_LOG("%ld repeats after %.0f ms", rep - rep0, per * 1000);
	ASSERT_EQ(rep0 + 4, rep);
	/* timers do not fire early; a loaded host makes them late */
	EXPECT_LE(2.95, per);
	EXPECT_GE(4.5, per);
	ab.reqid = last_reqid(cli);
	ASSERT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	ASSERT_EQ(0, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_EQ(mtp_snmp("OutRepeats") - rep0, info.repeats);
	EXPECT_EQ(info.requests - 1, info.repeats);
}

/*
 * The backoff stops at a sixteenth of the transaction's expiry, so that
 * through heavy loss the last missing range is still asked for many
 * times before the transaction expires: with repeat_ms 200 and
 * expire_ms 6400 the interval grows to 400 ms and stays there, about 16
 * repeats before the expiry (5 with the interval doubling without cap:
 * 200 + 400 + 800 + 1600 + 3200 ms).
 */
TEST_F_TIMEOUT(ns, repeat_backoff_capped, 40)
{
	struct mtp_request r = { .action = MTP_ACT_APP };
	struct sockaddr_in us, cs;
	struct mtp_info info;
	int u = udp_bound(&us), cli = mtp_bound(&cs);
	char buf[16];

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	ASSERT_EQ(0, set_sysctl("repeat_min_ms", 100));
	ASSERT_EQ(0, set_sysctl("repeat_ms", 200));
	ASSERT_EQ(0, set_sysctl("expire_ms", 6400));
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	ASSERT_EQ(0, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	TH_LOG("expired after %u repeats", info.repeats);
	EXPECT_EQ(MTP_ERR_NET_EXPIRE, info.response);
	/* timers are late on a loaded host, never early */
	EXPECT_LE(10, info.repeats);
	EXPECT_GE(16, info.repeats);
}

/* ---- MTP_ABORT: TxnAborted ------------------------------------------------ */

TEST_F(ns, abort_counted)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .repeat = 20000,
				 .expire = 30000 };
	long ab0 = mtp_snmp("TxnAborted"), exp0 = mtp_snmp("TxnExpired");
	struct mtp_abort ab = { .level = MTP_ABORT_DESTROY };
	struct sockaddr_in us, cs;
	int u = udp_bound(&us), cli = mtp_bound(&cs);

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	ab.reqid = last_reqid(cli);
	EXPECT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	EXPECT_EQ(ab0 + 1, mtp_snmp("TxnAborted"));
	/* an unknown transaction or a bad level aborts nothing */
	EXPECT_EQ(-1, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	EXPECT_EQ(ENOENT, errno);
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	ab.reqid = last_reqid(cli);
	ab.level = 9;
	EXPECT_EQ(-1, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(ab0 + 1, mtp_snmp("TxnAborted"));
	ab.level = MTP_ABORT_EXPIRE;
	EXPECT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	EXPECT_EQ(ab0 + 2, mtp_snmp("TxnAborted"));
	/* MTP_ABORT_EXPIRE ends it with ERR_NET_EXPIRE: also TxnExpired */
	EXPECT_EQ(exp0 + 1, mtp_snmp("TxnExpired"));
}

/* ---- server side ---------------------------------------------------------- */

/*
 * MTP_SERVER_LIMIT: bytes the server sends per request.  A raw client asks
 * for everything in 1 KiB datagrams without a limit of its own; the
 * application answers with 64 KiB: with the limit at 4096 four datagrams
 * go out (OutResponses +4), each carrying the limit (8 units); with the
 * limit back at 0, 64 (the whole answer, under the 256-datagram cap).
 */
TEST_F(ns, server_limit)
{
	static char obj[65536];
	struct sockaddr_in ss, us, from;
	struct mtp_response a = {};
	struct mtp_info info;
	struct hdr q = { .action = MTP_ACT_DATA, .shift = 10 }, h;
	int srv = mtp_bound(&ss), u = udp_bound(&us), lim, pass, n;
	socklen_t l = sizeof(lim);
	char buf[2048];
	long out0;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, u);
	fill(obj, sizeof(obj), 13);
	ASSERT_EQ(0, getsockopt(srv, SOL_MTP, MTP_SERVER_LIMIT, &lim, &l));
	EXPECT_EQ(0, lim);
	for (pass = 0; pass < 2; pass++) {
		int want = pass ? 64 : 4;
		u_int32_t got = 0;

		lim = pass ? 0 : 4096;
		ASSERT_EQ(0, setsockopt(srv, SOL_MTP, MTP_SERVER_LIMIT, &lim,
					sizeof(lim)));
		lim = -1;
		l = sizeof(lim);
		ASSERT_EQ(0, getsockopt(srv, SOL_MTP, MTP_SERVER_LIMIT, &lim,
					&l));
		EXPECT_EQ(pass ? 0 : 4096, lim);
		q.reqid = 0x5100 + pass;
		ASSERT_LT(0, raw_send(u, &ss, &q, NULL, 0));
		ASSERT_EQ(0, mtp_recvinfo(srv, buf, sizeof(buf), &info, &from,
					  NULL, 0));
		EXPECT_EQ(q.reqid, info.reqid);
		a.reqid = info.reqid;
		a.rsize = sizeof(obj);
		out0 = mtp_snmp("OutResponses");
		ASSERT_EQ((ssize_t)sizeof(obj),
			  mtp_respond(srv, &from, &a, obj, sizeof(obj)));
		EXPECT_EQ(out0 + want, mtp_snmp("OutResponses"));
		for (n = 0; n < want; n++) {
			ssize_t k = raw_recv(u, &h, buf, sizeof(buf), NULL,
					     5000);

			ASSERT_EQ(1024, k);
			EXPECT_EQ(MTP_RES_REPLY, h.response);
			EXPECT_EQ(got, h.address);
			EXPECT_EQ(sizeof(obj) - got, h.rsize);
			EXPECT_EQ(pass ? 0 : 8, h.limit);
			EXPECT_EQ(0, memcmp(buf, obj + got, k));
			got += k;
		}
		EXPECT_EQ(-1, raw_recv(u, &h, buf, sizeof(buf), NULL, 100));
	}
}

/* Take what the client has; true once the answer is whole or on error. */
static bool client_read(struct __test_metadata *_metadata, int cli, char *out,
			size_t size, long *got, struct mtp_info *fin)
{
	int flags = 0;
	ssize_t n = mtp_recvinfo(cli, out + *got, size - *got, fin, NULL,
				 &flags, 0);

	EXPECT_LE(0, n);
	if (n < 0)
		return true;
	*got += n;
	return flags & MSG_EOR;
}

/*
 * Karn's rule, and one sample per request: the round-trip time is taken
 * from the first datagram that answers a request, not from each datagram
 * of its burst (whose later ones also wait for the earlier ones to be
 * sent) nor from duplicates.  A raw server answers the one request for a
 * 16 KiB object with 16 datagrams 30 ms apart, each sent twice (the
 * copy of the last comes after the end): the average the client reports
 * stays near its minimum (loopback: well under the 30 ms spacing), where
 * sampling every datagram (and duplicate) gave about 400 ms.
 */
TEST_F(ns, rtt_one_sample_per_request)
{
	static char obj[16384], out[16384];
	struct mtp_request r = { .action = MTP_ACT_DATA, .repeat = 20000,
				 .expire = 30000 };
	struct sockaddr_in ss, cs, from;
	struct timespec gap = { 0, 30 * 1000 * 1000 };
	struct mtp_info fin;
	struct hdr q, a;
	long got = 0;
	int u = udp_bound(&ss), cli = mtp_bound(&cs), i, copy;
	bool done = false;

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	fill(obj, sizeof(obj), 5);
	ASSERT_EQ(3, mtp_request(cli, &ss, &r, "obj", 3));
	ASSERT_EQ(3, raw_recv(u, &q, NULL, 0, &from, 5000));
	a = q;
	a.options = 0;
	a.shift = 0;
	a.response = MTP_RES_REPLY;
	for (i = 0; i < 16; i++) {
		a.address = i * 1024;
		a.rsize = sizeof(obj) - a.address;
		for (copy = 0; copy < 2; copy++)
			ASSERT_LT(0, raw_send(u, &from, &a, obj + a.address,
					      1024));
		nanosleep(&gap, NULL);
	}
	while (!done && got < (long)sizeof(out))
		done = client_read(_metadata, cli, out, sizeof(out), &got,
				   &fin);
	ASSERT_EQ((long)sizeof(obj), got);
	EXPECT_EQ(0, memcmp(obj, out, sizeof(obj)));
	TH_LOG("rtt avg %u us, min %u us, %u duplicates", fin.rtt_avg_us,
	       fin.rtt_min_us, fin.duplicates);
	EXPECT_LT(fin.rtt_avg_us, 20000);
	EXPECT_EQ(15, fin.duplicates);
}

/*
 * MTP_SERVER_LIMIT seen by an MTP client: it adopts the server's limit
 * (MTP_INFO's limit), asks in subrequests no larger, and the object
 * arrives whole, also when the limit is below the client's datagram size
 * (2048 bytes or more on loopback).
 */
static void limit_client(struct __test_metadata *_metadata, int lim)
{
	static char obj[40000], out[40000];
	struct mtp_request r = { .action = MTP_ACT_DATA };
	struct sockaddr_in ss, cs;
	struct mtp_info fin;
	int srv = mtp_bound(&ss), cli = mtp_bound(&cs), asked = 0;
	double end = mtp_now() + 20;
	long got = 0;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, cli);
	fill(obj, sizeof(obj), 7);
	ASSERT_EQ(0, setsockopt(srv, SOL_MTP, MTP_SERVER_LIMIT, &lim,
				sizeof(lim)));
	ASSERT_EQ(0, mtp_request(cli, &ss, &r, NULL, 0));
	while (mtp_now() < end) {
		struct pollfd p[2] = { { srv, POLLIN, 0 }, { cli, POLLIN, 0 } };

		if (poll(p, 2, 200) <= 0)
			continue;
		if (p[0].revents & POLLIN) {
			struct mtp_response a = {};
			struct sockaddr_in from;
			struct mtp_info ri;
			char req[64];

			ASSERT_LE(0, mtp_recvinfo(srv, req, sizeof(req), &ri,
						  &from, NULL, 0));
			asked++;
			a.reqid = ri.reqid;
			a.address = ri.address;
			a.rsize = sizeof(obj) - ri.address;
			mtp_respond(srv, &from, &a, obj + ri.address, a.rsize);
		}
		if ((p[1].revents & POLLIN) &&
		    client_read(_metadata, cli, out, sizeof(out), &got, &fin))
			break;
	}
	ASSERT_EQ((long)sizeof(obj), got);
	EXPECT_EQ(0, memcmp(obj, out, sizeof(obj)));
	EXPECT_EQ(0, fin.error);
	EXPECT_EQ(lim, fin.limit);
	/* at most lim bytes per request */
	EXPECT_LE(sizeof(obj) / lim, fin.requests);
	TH_LOG("limit %d: requests %u repeats %u, application asked %d times",
	       lim, fin.requests, fin.repeats, asked);
}

TEST_F(ns, server_limit_client)
{
	limit_client(_metadata, 2048);
}

TEST_F(ns, server_limit_below_datagram)
{
	limit_client(_metadata, 512);
}

/*
 * MTP_RESP_NOCACHE: an answer with it is not kept, so a later subrequest
 * it would have covered goes to the application again (CacheMisses +1,
 * CacheHits unchanged, nothing kept in SrvCachedBytes); the same answer
 * without it serves the subrequest from the kernel's copy (CacheHits +1,
 * the application not asked).
 */
TEST_F(ns, resp_nocache)
{
	static char obj[8192];
	struct sockaddr_in ss, us, from;
	struct mtp_info info;
	struct hdr q = { .action = MTP_ACT_DATA, .shift = 10, .limit = 2 };
	struct hdr h;
	char buf[2048];
	int srv = mtp_bound(&ss), u = udp_bound(&us), nocache;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, u);
	fill(obj, sizeof(obj), 3);
	for (nocache = 0; nocache < 2; nocache++) {
		struct mtp_response a = { .rsize = sizeof(obj) };
		long hit = mtp_snmp("CacheHits"), miss = mtp_snmp("CacheMisses");
		long kept = mtp_snmp("SrvCachedBytes");

		q.reqid = 0x7700 + nocache;
		q.address = 0;
		q.tag = 0;
		ASSERT_LT(0, raw_send(u, &ss, &q, NULL, 0));
		ASSERT_EQ(0, mtp_recvinfo(srv, buf, sizeof(buf), &info, &from,
					  NULL, 0));
		a.reqid = info.reqid;
		a.flags = nocache ? MTP_RESP_NOCACHE : 0;
		ASSERT_EQ((ssize_t)sizeof(obj),
			  mtp_respond(srv, &from, &a, obj, sizeof(obj)));
		ASSERT_EQ(1024, raw_recv(u, &h, buf, sizeof(buf), NULL, 5000));
		EXPECT_EQ(0, h.address);
		EXPECT_EQ(kept + (nocache ? 0 : (long)sizeof(obj)),
			  mtp_snmp("SrvCachedBytes"));
		/* the subrequest for the second KiB */
		q.address = 1024;
		q.rsize = 1024;
		q.tag = 1;
		ASSERT_LT(0, raw_send(u, &ss, &q, NULL, 0));
		if (nocache) {
			ASSERT_EQ(0, mtp_recvinfo(srv, buf, sizeof(buf), &info,
						  &from, NULL, 0));
			EXPECT_EQ(1024, info.address);
			EXPECT_EQ(1024, info.rsize);
			a.address = 1024;
			a.rsize = sizeof(obj) - 1024;
			ASSERT_LT(0, mtp_respond(srv, &from, &a, obj + 1024,
						 a.rsize));
		}
		ASSERT_EQ(1024, raw_recv_data(u, &h, buf, sizeof(buf), 5000));
		EXPECT_EQ(1024, h.address);
		EXPECT_EQ(1, h.tag);
		EXPECT_EQ(0, memcmp(buf, obj + 1024, 1024));
		EXPECT_EQ(hit + !nocache, mtp_snmp("CacheHits"));
		EXPECT_EQ(miss + nocache, mtp_snmp("CacheMisses"));
		/* served from the copy: the application was not asked */
		EXPECT_EQ(-1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL,
					   NULL, MSG_DONTWAIT));
		q.rsize = 0;
	}
}

/*
 * At most once: a single request repeated after its answer went out (the
 * answer was lost) gets the same answer from the kernel's copy
 * (CacheHits +1, SrvCachedBytes holds it) and the application is not
 * given the request again; with MTP_RESP_NOCACHE it is, as documented.
 */
TEST_F(ns, single_answer_at_most_once)
{
	struct sockaddr_in ss, us, from;
	struct mtp_info info;
	struct hdr q = { .action = MTP_ACT_APP, .options = OPT_SINGLE };
	struct hdr h;
	char buf[256];
	int srv = mtp_bound(&ss), u = udp_bound(&us), nocache, rep;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, u);
	for (nocache = 0; nocache < 2; nocache++) {
		struct mtp_response a = { .response = MTP_RES_REPLY };
		long hit = mtp_snmp("CacheHits");
		long kept = mtp_snmp("SrvCachedBytes");

		q.reqid = 0x7800 + nocache;
		ASSERT_LT(0, raw_send(u, &ss, &q, "incr", 4));
		ASSERT_EQ(4, mtp_recvinfo(srv, buf, sizeof(buf), &info, &from,
					  NULL, 0));
		a.reqid = info.reqid;
		a.action = info.action;
		a.flags = nocache ? MTP_RESP_NOCACHE : 0;
		ASSERT_EQ(5, mtp_respond(srv, &from, &a, "done1", 5));
		ASSERT_EQ(5, raw_recv(u, &h, buf, sizeof(buf), NULL, 5000));
		EXPECT_EQ(kept + (nocache ? 0 : 5), mtp_snmp("SrvCachedBytes"));
		for (rep = 0; rep < 2; rep++) {
			ASSERT_LT(0, raw_send(u, &ss, &q, "incr", 4));
			if (nocache) {
				ASSERT_EQ(4, mtp_recvinfo(srv, buf, sizeof(buf),
							  &info, &from, NULL,
							  0));
				ASSERT_EQ(5, mtp_respond(srv, &from, &a,
							 "done2", 5));
			}
			memset(buf, 0, sizeof(buf));
			ASSERT_EQ(5, raw_recv(u, &h, buf, sizeof(buf), NULL,
					      5000));
			EXPECT_EQ(q.reqid, h.reqid);
			EXPECT_EQ(MTP_RES_REPLY, h.response);
			EXPECT_STREQ(nocache ? "done2" : "done1", buf);
		}
		EXPECT_EQ(hit + (nocache ? 0 : 2), mtp_snmp("CacheHits"));
		EXPECT_EQ(-1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL,
					   NULL, MSG_DONTWAIT));
	}
}

/*
 * MTP_RES_PENDING on the wire: a repeat of a request the application has
 * not read yet is answered at once with an empty MTP_RES_PENDING reply
 * echoing address, rsize and tag (OutPending +1); the first request gets
 * none.  The application itself may not send MTP_RES_PENDING (EINVAL).
 */
TEST_F(ns, res_pending_wire)
{
	struct hdr q = { .action = MTP_ACT_DATA, .shift = 10, .limit = 4,
			 .reqid = 0x9900, .address = 512, .rsize = 1500,
			 .tag = 0 }, h;
	struct mtp_response a = { .response = MTP_RES_PENDING };
	long pend = mtp_snmp("OutPending"), in0 = mtp_snmp("InRequests");
	struct sockaddr_in ss, us, from;
	struct mtp_info info;
	char buf[2048];
	int srv = mtp_bound(&ss), u = udp_bound(&us);

	ASSERT_LE(0, srv);
	ASSERT_LE(0, u);
	ASSERT_LT(0, raw_send(u, &ss, &q, NULL, 0));
	ASSERT_EQ(in0 + 1, snmp_wait_ge("InRequests", in0 + 1, 5));
	EXPECT_EQ(pend, mtp_snmp("OutPending"));
	EXPECT_EQ(-1, raw_recv(u, &h, buf, sizeof(buf), NULL, 100));
	ASSERT_LT(0, raw_send(u, &ss, &q, NULL, 0));		/* a repeat */
	ASSERT_EQ(0, raw_recv(u, &h, buf, sizeof(buf), NULL, 5000));
	EXPECT_EQ(0, h.error);
	EXPECT_EQ(MTP_RES_PENDING, h.response);
	EXPECT_EQ(q.reqid, h.reqid);
	EXPECT_EQ(512, h.address);
	EXPECT_EQ(1500, h.rsize);
	EXPECT_EQ(q.tag, h.tag);
	EXPECT_EQ(pend + 1, mtp_snmp("OutPending"));
	/* the application sees the request once, and cannot say pending */
	ASSERT_EQ(0, mtp_recvinfo(srv, buf, sizeof(buf), &info, &from, NULL,
				  0));
	a.reqid = info.reqid;
	EXPECT_EQ(-1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
				   MSG_DONTWAIT));
	EXPECT_EQ(-1, mtp_respond(srv, &from, &a, NULL, 0));
	EXPECT_EQ(EINVAL, errno);
	a.response = MTP_RES_REPLY;
	a.address = 512;
	a.rsize = 1500;
	ASSERT_EQ(1500, mtp_respond(srv, &from, &a, buf, 1500));
	ASSERT_EQ(1024, raw_recv(u, &h, buf, sizeof(buf), NULL, 5000));
	EXPECT_EQ(MTP_RES_REPLY, h.response);
}

/*
 * MTP_RES_PENDING at the client: each pending reply is counted
 * (InPending) and is not a valid response: a server that only ever says
 * "pending" still lets the transaction expire after its expire time.
 */
TEST_F(ns, res_pending_client)
{
	struct mtp_request r = { .action = MTP_ACT_DATA, .repeat = 500,
				 .expire = 2000 };
	struct raw_srv s = { .pending_only = 1 };
	long inp = mtp_snmp("InPending"), exp = mtp_snmp("TxnExpired");
	struct sockaddr_in us, cs;
	struct mtp_info fin;
	char out[16];
	double t0, dt;
	int cli = mtp_bound(&cs);

	s.u = udp_bound(&us);
	ASSERT_LE(0, s.u);
	ASSERT_LE(0, cli);
	t0 = mtp_now();
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	ASSERT_EQ(0, raw_fetch(&s, cli, out, sizeof(out), &fin, 20));
	dt = mtp_now() - t0;
	TH_LOG("expired after %.2f s; %d pending replies sent, %ld counted",
	       dt, s.pendings, mtp_snmp("InPending") - inp);
	EXPECT_EQ(MTP_ERR_NET, fin.error);
	EXPECT_EQ(MTP_ERR_NET_EXPIRE, fin.response);
	EXPECT_LE(1.95, dt);
	EXPECT_GE(12.0, dt);
	EXPECT_LE(2, s.pendings);
	EXPECT_LE(inp + 2, mtp_snmp("InPending"));
	EXPECT_GE(inp + s.pendings, mtp_snmp("InPending"));
	EXPECT_EQ(exp + 1, mtp_snmp("TxnExpired"));
}

/*
 * MTP_RESP_SUPPRESS and MTP_INFO_SUPPRESS: after an answer with
 * MTP_RESP_SUPPRESS the client sends its subrequests without the payload
 * and the application sees them with MTP_INFO_SUPPRESS; answering one
 * with ERR_APP_CHANNEL makes the client send the payload again.
 */
TEST_F(ns, resp_suppress)
{
	static char obj[32768], out[32768];
	struct mtp_request r = { .action = MTP_ACT_DATA, .channel = 5 };
	struct sockaddr_in ss, cs;
	struct mtp_info fin;
	int srv = mtp_bound(&ss), cli = mtp_bound(&cs);
	int asked = 0, suppressed = 0, bad = 0, chan_err = 0, after = -1;
	double end = mtp_now() + 40;
	long got = 0;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, cli);
	fill(obj, sizeof(obj), 11);
	ASSERT_EQ(3, mtp_request(cli, &ss, &r, "obj", 3));
	while (mtp_now() < end) {
		struct pollfd p[2] = { { srv, POLLIN, 0 }, { cli, POLLIN, 0 } };

		if (poll(p, 2, 200) <= 0)
			continue;
		if (p[0].revents & POLLIN) {
			struct mtp_response a = { .limit = 2048 };
			struct sockaddr_in from;
			struct mtp_info ri;
			char req[64];
			ssize_t n;

			n = mtp_recvinfo(srv, req, sizeof(req), &ri, &from,
					 NULL, 0);
			ASSERT_LE(0, n);
			a.reqid = ri.reqid;
			if (ri.flags & MTP_INFO_SUPPRESS) {
				suppressed++;
				bad += n != 0;
			} else {
				bad += n != 3 || memcmp(req, "obj", 3);
			}
			/*
			 * Subrequests already in flight when the error left
			 * still come without the payload: wait for one with
			 * it, which only the error makes the client send.
			 */
			if (chan_err && after < 1)
				after = !(ri.flags & MTP_INFO_SUPPRESS) &&
					n == 3;
			if (asked++ == 0) {
				EXPECT_FALSE(ri.flags & MTP_INFO_SUPPRESS);
				a.flags = MTP_RESP_SUPPRESS | MTP_RESP_NOCACHE;
			} else if ((ri.flags & MTP_INFO_SUPPRESS) &&
				   !chan_err) {
				chan_err = 1;
				a.error = MTP_ERR_APP;
				a.response = MTP_ERR_APP_CHANNEL;
				mtp_respond(srv, &from, &a, NULL, 0);
				continue;
			} else {
				a.flags = MTP_RESP_NOCACHE;
			}
			a.address = ri.address;
			a.rsize = sizeof(obj) - ri.address;
			mtp_respond(srv, &from, &a, obj + ri.address, a.rsize);
		}
		if ((p[1].revents & POLLIN) &&
		    client_read(_metadata, cli, out, sizeof(out), &got, &fin))
			break;
	}
	TH_LOG("application asked %d times, %d suppressed", asked,
	       suppressed);
	ASSERT_EQ((long)sizeof(obj), got);
	EXPECT_EQ(0, memcmp(obj, out, sizeof(obj)));
	EXPECT_EQ(0, fin.error);
	EXPECT_LE(1, suppressed);	/* payload left out after SUPPRESS */
	EXPECT_EQ(0, bad);		/* and only then */
	EXPECT_EQ(1, chan_err);
	EXPECT_EQ(1, after);		/* ERR_APP_CHANNEL: payload again */
}

/*
 * SrvDrops: a server application that does not read, with a small
 * receive buffer; requests beyond it are dropped and counted, the others
 * wait in its queue, and together they are all the requests that came.
 */
TEST_F(ns, srv_drops)
{
	struct hdr q = { .action = MTP_ACT_APP, .shift = 10, .limit = 2 };
	long drops = mtp_snmp("SrvDrops"), in0 = mtp_snmp("InRequests");
	struct sockaddr_in ss, us;
	struct mtp_info info;
	char pl[1000] = { 1 }, buf[1024];
	int srv = mtp_bound(&ss), u = udp_bound(&us), rb = 4096, i, queued = 0;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, u);
	ASSERT_EQ(0, setsockopt(srv, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb)));
	for (i = 0; i < 30; i++) {
		q.reqid = 0xd000 + i;
		ASSERT_LT(0, raw_send(u, &ss, &q, pl, sizeof(pl)));
	}
	ASSERT_EQ(in0 + 30, snmp_wait_ge("InRequests", in0 + 30, 10));
	while (mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
			    MSG_DONTWAIT) == (ssize_t)sizeof(pl))
		queued++;
	TH_LOG("%d queued, %ld dropped", queued, mtp_snmp("SrvDrops") - drops);
	EXPECT_LT(drops, mtp_snmp("SrvDrops"));
	EXPECT_LT(0, queued);
	EXPECT_EQ(drops + 30 - queued, mtp_snmp("SrvDrops"));
}

/*
 * net.mtp.srv_max_pending and SrvEvictions: a full table forgets the least
 * recently used record, but never one whose request the application holds.
 * With 4 records, the application holding a client's request, a flood of
 * 16 new ids from another port first fills the table (the application is
 * given 3 of them) and then finds nothing it may evict: those requests
 * are dropped, and the held request is still answered.
 */
TEST_F(ns, eviction_spares_held_requests)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_SINGLE,
				 .repeat = 20000, .expire = 30000 };
	struct hdr q = { .action = MTP_ACT_APP, .options = OPT_SINGLE };
	struct mtp_response a = { .response = MTP_RES_REPLY };
	long drops = mtp_snmp("SrvDrops"), ev = mtp_snmp("SrvEvictions");
	long in0 = mtp_snmp("InRequests");
	struct sockaddr_in ss, cs, us, from;
	struct mtp_info info;
	char buf[64];
	int srv = mtp_bound(&ss), cli = mtp_bound(&cs), u = udp_bound(&us);
	int i, queued = 0;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, cli);
	ASSERT_LE(0, u);
	ASSERT_EQ(0, set_sysctl("srv_max_pending", 4));
	ASSERT_EQ(4, mtp_request(cli, &ss, &r, "mine", 4));
	ASSERT_EQ(4, mtp_recvinfo(srv, buf, sizeof(buf), &info, &from, NULL,
				  0));
	for (i = 0; i < 16; i++) {
		q.reqid = 0xe000 + i;
		ASSERT_LT(0, raw_send(u, &ss, &q, "x", 1));
	}
	ASSERT_EQ(in0 + 17, snmp_wait_ge("InRequests", in0 + 17, 10));
	a.reqid = info.reqid;
	a.action = info.action;
	EXPECT_EQ(2, mtp_respond(srv, &from, &a, "ok", 2));
	memset(&info, 0, sizeof(info));
	EXPECT_EQ(2, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	while (mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
			    MSG_DONTWAIT) == 1)
		queued++;
	EXPECT_EQ(3, queued);
	EXPECT_EQ(drops + 13, mtp_snmp("SrvDrops"));
	EXPECT_EQ(ev, mtp_snmp("SrvEvictions"));
}

/*
 * InFiltered: the MTP socket's filter sees each datagram from its UDP
 * header on, as a UDP socket's does.  A classic BPF program that lets
 * through only requests with action MTP_ACT_APP (byte 8 + 5) keeps an
 * MTP_ACT_DATA request from the application and counts it; without the
 * filter the same request arrives.
 */
TEST_F(ns, socket_filter)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 8 + 5),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, MTP_ACT_APP, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = { sizeof(code) / sizeof(code[0]), code };
	struct hdr app = { .action = MTP_ACT_APP, .options = OPT_SINGLE,
			   .reqid = 0x7900 };
	struct hdr data = { .action = MTP_ACT_DATA, .options = OPT_SINGLE,
			    .reqid = 0x7901 };
	long f0 = mtp_snmp("InFiltered");
	struct sockaddr_in ss, us;
	struct mtp_info info;
	char buf[64];
	int srv = mtp_bound(&ss), u = udp_bound(&us), off = 0;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, u);
	ASSERT_EQ(0, setsockopt(srv, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
				sizeof(prog)));
	ASSERT_LT(0, raw_send(u, &ss, &data, "d", 1));
	ASSERT_LT(0, raw_send(u, &ss, &app, "a", 1));
	ASSERT_EQ(1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_EQ(0x7900, info.reqid);
	EXPECT_EQ(f0 + 1, mtp_snmp("InFiltered"));
	EXPECT_EQ(-1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
				   MSG_DONTWAIT));
	ASSERT_EQ(0, setsockopt(srv, SOL_SOCKET, SO_DETACH_FILTER, &off,
				sizeof(off)));
	data.reqid = 0x7902;
	ASSERT_LT(0, raw_send(u, &ss, &data, "d", 1));
	ASSERT_EQ(1, mtp_recvinfo(srv, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_EQ(0x7902, info.reqid);
	EXPECT_EQ(f0 + 1, mtp_snmp("InFiltered"));
}

/* The Internet checksum of N bytes at P. */
static unsigned short inet_csum(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += b[i] << 8 | b[i + 1];
	if (n & 1)
		sum += b[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons(~sum & 0xffff);
}

/*
 * Send, from a raw socket to 127.0.0.1, an ICMP port unreachable quoting a
 * request with id REQID from FROM to TO, as a router or the destination
 * would; 0 or -1.
 */
static int forge_port_unreach(const struct sockaddr_in *from,
			      const struct sockaddr_in *to, u_int32_t reqid)
{
	unsigned char pkt[8 + 20 + 8 + HDR] = { 0 };
	unsigned char *ip = pkt + 8, *udp = ip + 20;
	struct hdr q = { .action = MTP_ACT_APP, .options = OPT_SINGLE,
			 .reqid = reqid };
	struct sockaddr_in lo = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	unsigned short c;
	int r, fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	if (fd < 0)
		return -1;
	pkt[0] = 3;			/* destination unreachable */
	pkt[1] = 3;			/* port unreachable */
	ip[0] = 0x45;
	ip[3] = sizeof(pkt) - 8;
	ip[8] = 64;
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, &from->sin_addr, 4);
	memcpy(ip + 16, &to->sin_addr, 4);
	c = inet_csum(ip, 20);
	memcpy(ip + 10, &c, 2);
	memcpy(udp, &from->sin_port, 2);
	memcpy(udp + 2, &to->sin_port, 2);
	udp[5] = 8 + HDR;
	hdr_put(udp + 8, &q);
	c = inet_csum(pkt, sizeof(pkt));
	memcpy(pkt + 2, &c, 2);
	r = sendto(fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&lo,
		   sizeof(lo)) == sizeof(pkt) ? 0 : -1;
	close(fd);
	return r;
}

/*
 * InUnreach: a request to a port where nothing listens gets the kernel's
 * ICMP port unreachable, and its transaction ends at once with
 * MTP_ERR_NET/MTP_ERR_NET_SERVER instead of after 30 s of expiry.  A
 * forged port unreachable that quotes another request id changes nothing.
 */
TEST_F(ns, icmp_port_unreachable)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_SINGLE,
				 .repeat = 20000, .expire = 30000 };
	long u0 = mtp_snmp("InUnreach");
	struct sockaddr_in ss, cs;
	struct pollfd p = { .events = POLLIN };
	struct mtp_info info;
	struct hdr q;
	char buf[64];
	int u = udp_bound(&ss), cli = mtp_bound(&cs), dead;
	double t0;

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	p.fd = cli;
	/* A live server: the forged error must name the live request. */
	ASSERT_EQ(1, mtp_request(cli, &ss, &r, "a", 1));
	ASSERT_EQ(1, raw_recv(u, &q, NULL, 0, NULL, 5000));
	ASSERT_EQ(0, forge_port_unreach(&cs, &ss, q.reqid + 1));
	EXPECT_EQ(0, poll(&p, 1, 1000));
	EXPECT_EQ(u0, mtp_snmp("InUnreach"));
	ASSERT_EQ(0, forge_port_unreach(&cs, &ss, q.reqid));
	ASSERT_EQ(1, poll(&p, 1, 2000));
	ASSERT_EQ(0, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	EXPECT_EQ(q.reqid, info.reqid);
	EXPECT_EQ(MTP_ERR_NET, info.error);
	EXPECT_EQ(MTP_ERR_NET_SERVER, info.response);
	EXPECT_EQ(u0 + 1, mtp_snmp("InUnreach"));
	/* Nothing listens: the kernel itself answers port unreachable. */
	close(u);
	dead = 1;
	t0 = mtp_now();
	ASSERT_EQ(1, mtp_request(cli, &ss, &r, "b", 1));
	ASSERT_EQ(1, poll(&p, 1, 2000)) TH_LOG("no end in 2 s");
	ASSERT_EQ(0, mtp_recvinfo(cli, buf, sizeof(buf), &info, NULL, NULL,
				  0));
	TH_LOG("ended after %.0f ms", (mtp_now() - t0) * 1000);
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	EXPECT_EQ(MTP_ERR_NET, info.error);
	EXPECT_EQ(MTP_ERR_NET_SERVER, info.response);
	EXPECT_EQ(u0 + 1 + dead, mtp_snmp("InUnreach"));
}

/* Packets nft's counter "mtpmark" has seen (-1 if nft fails). */
static long nft_marked(void)
{
	char line[256];
	long n = -1;
	FILE *f = popen("nft list counter ip mtpopt mtpmark 2>/dev/null", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " packets %ld", &n) == 1)
			break;
	pclose(f);
	return n;
}

/*
 * What the application sets on the MTP socket reaches its datagrams:
 * IP_TOS and IP_TTL, and DF on a datagram that fits the route (a raw
 * socket sees the request's IP header); SO_MARK and SO_PRIORITY (nft
 * counts output with mark 0x2a and priority 0:6).
 */
TEST_F(ns, ip_options_and_df)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_SINGLE,
				 .repeat = 20000, .expire = 30000 };
	struct sockaddr_in ss, cs;
	unsigned char pkt[2048];
	int u = udp_bound(&ss), cli = mtp_bound(&cs), tos = 0x10, ttl = 7;
	int raw = socket(AF_INET, SOCK_RAW, IPPROTO_UDP), i, seen = 0;
	int mark = 0x2a, prio = 6;

	ASSERT_LE(0, u);
	ASSERT_LE(0, cli);
	ASSERT_LE(0, raw);
	ASSERT_EQ(0, system("nft -f - <<'EOF'\n"
			    "table ip mtpopt {\n"
			    " counter mtpmark { }\n"
			    " chain out {\n"
			    "  type filter hook output priority 0;\n"
			    "  meta mark 0x2a meta priority 0:6 "
			    "udp dport != 0 counter name mtpmark\n"
			    " }\n"
			    "}\n"
			    "EOF"));
	ASSERT_EQ(0, nft_marked());
	ASSERT_EQ(0, setsockopt(cli, SOL_IP, IP_TOS, &tos, sizeof(tos)));
	ASSERT_EQ(0, setsockopt(cli, SOL_IP, IP_TTL, &ttl, sizeof(ttl)));
	ASSERT_EQ(0, setsockopt(cli, SOL_SOCKET, SO_MARK, &mark,
				sizeof(mark)));
	ASSERT_EQ(0, setsockopt(cli, SOL_SOCKET, SO_PRIORITY, &prio,
				sizeof(prio)));
	ASSERT_EQ(3, mtp_request(cli, &ss, &r, "tos", 3));
	for (i = 0; i < 20 && !seen; i++) {
		struct pollfd p = { raw, POLLIN, 0 };
		ssize_t n;

		if (poll(&p, 1, 500) != 1)
			continue;
		n = recv(raw, pkt, sizeof(pkt), 0);
		if (n < 28 || memcmp(pkt + 20 + 2, &ss.sin_port, 2))
			continue;
		seen = 1;
		EXPECT_EQ(0x10, pkt[1]);		/* TOS */
		EXPECT_EQ(7, pkt[8]);			/* TTL */
		EXPECT_TRUE(pkt[6] & 0x40);		/* DF */
	}
	EXPECT_TRUE(seen);
	EXPECT_EQ(1, nft_marked());
	/*
	 * Unhook now, not when the namespace is torn down behind the next
	 * test: unregistering the last output hook rewrites the static
	 * branch in __ip_local_out(), and under QEMU's TCG a CPU sending
	 * through it meanwhile once hit the patch's int3 (Oops: int3 in
	 * __ip_local_out, mtp_options reorder_early_losses, session 18).
	 */
	EXPECT_EQ(0, system("nft delete table ip mtpopt"));
	close(raw);
	close(cli);
	close(u);
}

/* The line of /proc/net/mtp/FILE that starts with PREFIX, in LINE. */
static bool proc_line(const char *file, const char *prefix, char *line,
		      size_t len, int *nlines)
{
	char path[64];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/net/mtp/%s", file);
	f = fopen(path, "r");
	if (!f)
		return false;
	*nlines = 0;
	while (fgets(line, len, f)) {
		(*nlines)++;
		if (!strncmp(line, prefix, strlen(prefix))) {
			found = true;
			break;
		}
	}
	while (found && fgets(path, sizeof(path), f))
		(*nlines)++;
	fclose(f);
	return found;
}

/*
 * /proc/net/mtp/sockets lists the namespace's MTP sockets (a header line,
 * then address, transactions, records, cached bytes, queues, uid, inode);
 * /proc/net/mtp/transactions lists client transactions (addresses, id,
 * state, bytes received, window, datagram size, RTT, requests, repeats).
 */
TEST_F(ns, proc_sockets_and_transactions)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .repeat = 20000,
				 .expire = 30000 };
	struct sockaddr_in ss, cs, us;
	char line[512], prefix[64], state[16];
	unsigned int txns, recs, reqid, uid;
	unsigned long ino;
	struct stat st;
	size_t cached;
	int srv = mtp_bound(&ss), cli = mtp_bound(&cs), u = udp_bound(&us);
	int n;

	ASSERT_LE(0, srv);
	ASSERT_LE(0, cli);
	ASSERT_LE(0, u);
	ASSERT_EQ(3, mtp_request(cli, &us, &r, "obj", 3));
	ASSERT_EQ(0, fstat(cli, &st));
	snprintf(prefix, sizeof(prefix), "127.0.0.1:%u ", ntohs(cs.sin_port));
	ASSERT_TRUE(proc_line("sockets", prefix, line, sizeof(line), &n));
	EXPECT_EQ(3, n);	/* header, client, server; not the UDP socket */
	ASSERT_EQ(5, sscanf(line, "%*s %u %u %zu %*d %*d %u %lu", &txns,
			    &recs, &cached, &uid, &ino));
	EXPECT_EQ(1, txns);
	EXPECT_EQ(0, recs);
	EXPECT_EQ(getuid(), uid);
	EXPECT_EQ(st.st_ino, ino);
	ASSERT_TRUE(proc_line("transactions", prefix, line, sizeof(line), &n));
	EXPECT_EQ(2, n);
	ASSERT_EQ(2, sscanf(line, "%*s %*s %x %15s", &reqid, state));
	EXPECT_EQ(last_reqid(cli), reqid);
	EXPECT_STREQ("FIRST", state);
	close(cli);
	EXPECT_FALSE(proc_line("sockets", prefix, line, sizeof(line), &n));
	EXPECT_EQ(2, n);
	close(srv);
	close(u);
}

/* ---- client side ------------------------------------------------------------ */

/*
 * net.mtp.reorder and EarlyLosses: the raw server answers subrequests in
 * order but leaves the first one unanswered.  With the
 * default reorder (3) the answers to later subrequests reveal the loss
 * (EarlyLosses); with reorder = 0 the same loss is found only by the
 * repeat interval (Losses, no EarlyLosses).  Both transfers complete.
 * net.mtp.repeat_min_ms is raised to 2 s so that a loaded host does not
 * make the repeat interval find the loss first.
 */
TEST_F_TIMEOUT(ns, reorder_early_losses, 60)
{
	static char obj[32768], out[32768];
	struct sockaddr_in us, cs;
	struct mtp_info fin;
	int pass, cli = mtp_bound(&cs), u = udp_bound(&us);

	ASSERT_LE(0, cli);
	ASSERT_LE(0, u);
	fill(obj, sizeof(obj), 5);
	EXPECT_EQ(3, get_sysctl("reorder"));
	ASSERT_EQ(0, set_sysctl("repeat_min_ms", 2000));
	for (pass = 0; pass < 2; pass++) {
		struct mtp_request r = { .action = MTP_ACT_DATA };
		/*
		 * The server's limit is one datagram of the size the client
		 * asks for: one datagram per subrequest, many in flight.
		 * The answer to the first subrequest (tag 1) is lost.
		 */
		struct raw_srv s = { .u = u, .obj = obj, .len = sizeof(obj),
				     .limit_dgram = 1, .drop_tag = 1 };
		long early = mtp_snmp("EarlyLosses"), loss = mtp_snmp("Losses");

		if (pass)
			ASSERT_EQ(0, set_sysctl("reorder", 0));
		memset(out, 0, sizeof(out));
		ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
		ASSERT_EQ((long)sizeof(obj),
			  raw_fetch(&s, cli, out, sizeof(out), &fin, 40));
		TH_LOG("reorder %d: early losses %ld, losses %ld, %u ms, dgram %d, %u requests, %u repeats",
		       pass ? 0 : 3, mtp_snmp("EarlyLosses") - early,
		       mtp_snmp("Losses") - loss, fin.etime_ms,
		       s.limit * 512, fin.requests, fin.repeats);
		EXPECT_EQ(0, memcmp(obj, out, sizeof(obj)));
		EXPECT_EQ(1, s.dropped);
		EXPECT_LE(1, fin.losses);
		EXPECT_LE(loss + 1, mtp_snmp("Losses"));
		if (pass) {
			EXPECT_EQ(early, mtp_snmp("EarlyLosses"));
		} else {
			EXPECT_LE(early + 1, mtp_snmp("EarlyLosses"));
		}
	}
}

/*
 * Time from now until the next request of transaction @reqid reaches @u,
 * in seconds; -1 if none within @ms.
 */
static double next_request_after(int u, u_int32_t reqid, int ms)
{
	double t0 = mtp_now();
	struct hdr q;

	while (mtp_now() - t0 < ms / 1000.0)
		if (raw_recv(u, &q, NULL, 0, NULL, 100) >= 0 && q.reqid == reqid)
			return mtp_now() - t0;
	return -1;
}

/*
 * A single-datagram request from @cli to @to, which @u receives and never
 * answers: the time from its first copy to its first repeat, in seconds
 * (-1 for none within 3 s); the transaction is then destroyed.
 */
static double first_repeat(struct __test_metadata *_metadata, int cli,
			   int u, const struct sockaddr_in *to)
{
	struct mtp_request one = { .action = MTP_ACT_APP,
				   .flags = MTP_REQ_SINGLE };
	struct mtp_abort ab = { .level = MTP_ABORT_DESTROY };
	double dt;

	if (mtp_request(cli, to, &one, "hi", 2) != 2)
		return -1;
	ab.reqid = last_reqid(cli);
	if (next_request_after(u, ab.reqid, 2000) < 0)
		return -1;
	dt = next_request_after(u, ab.reqid, 3000);
	EXPECT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
	return dt;
}

/*
 * Congestion control: the initial request asks for no more than RFC
 * 6928's initial window (it asked for the 64 KiB window before), and what
 * a transaction learnt of a server's RTT serves the next one to it: a
 * request the server does not answer is repeated after two of its RTTs
 * (the 20 ms floor on loopback), not after net.mtp.repeat_ms (1 s), which
 * a request to another address, never measured, still waits.
 */
TEST_F_TIMEOUT(ns, initial_window_and_learnt_rtt, 60)
{
	static char obj[65536], out[65536];
	struct mtp_request r = { .action = MTP_ACT_DATA };
	struct raw_srv s = { .obj = obj, .len = sizeof(obj) };
	struct sockaddr_in us, cs, other;
	int u2 = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t l = sizeof(other);
	struct mtp_info fin;
	double dt;
	int cli = mtp_bound(&cs), u = udp_bound(&us);

	ASSERT_LE(0, cli);
	ASSERT_LE(0, u);
	ASSERT_LE(0, u2);
	fill(obj, sizeof(obj), 7);
	s.u = u;
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	ASSERT_EQ((long)sizeof(obj),
		  raw_fetch(&s, cli, out, sizeof(out), &fin, 40));
	EXPECT_EQ(0, memcmp(obj, out, sizeof(obj)));
	TH_LOG("first request's limit %u bytes, %u requests, rtt %u us",
	       s.first_limit * 512, fin.requests, fin.rtt_avg_us);
	EXPECT_LE(1024, s.first_limit * 512);
	EXPECT_GE(14600, s.first_limit * 512);
	EXPECT_LT(1, fin.requests);	/* the rest came in subrequests */

	/*
	 * The same server again: its RTT is known.  Two of them, however
	 * slow this kernel's loopback is (156 ms on the debug kernel under
	 * TCG, whose repeat came after 317 ms): sooner than repeat_ms, and
	 * within three RTTs or 0.3 s.
	 */
	dt = first_repeat(_metadata, cli, u, &us);
	TH_LOG("repeat to a known server after %.0f ms", dt * 1000);
	EXPECT_LE(0.015, dt);
	EXPECT_GE(fin.rtt_avg_us > 100000 ? 3e-6 * fin.rtt_avg_us : 0.3, dt);
	EXPECT_GT(0.9, dt);

	/* Another address of this host: nothing measured there yet. */
	other = mtp_addr("127.0.0.2", 0);
	ASSERT_EQ(0, bind(u2, (struct sockaddr *)&other, sizeof(other)));
	ASSERT_EQ(0, getsockname(u2, (struct sockaddr *)&other, &l));
	dt = first_repeat(_metadata, cli, u2, &other);
	TH_LOG("repeat to an unknown server after %.0f ms", dt * 1000);
	EXPECT_LE(0.95, dt);
	close(cli);
	close(u);
	close(u2);
}

/*
 * What one socket learnt of a server's RTT serves the next socket of the
 * namespace, as each run of a program makes a new one: its first repeat
 * to that server comes after two of its RTTs (20 ms floor), not after
 * net.mtp.repeat_ms (1 s).  Another namespace learnt nothing.
 */
TEST_F_TIMEOUT(ns, new_socket_learnt_rtt, 60)
{
	static char obj[16384], out[16384];
	struct mtp_request r = { .action = MTP_ACT_DATA };
	struct raw_srv s = { .obj = obj, .len = sizeof(obj) };
	struct sockaddr_in us, cs;
	int cli = mtp_bound(&cs), u = udp_bound(&us), cli2, cli3;
	struct mtp_info fin;
	double dt;

	ASSERT_LE(0, cli);
	ASSERT_LE(0, u);
	fill(obj, sizeof(obj), 5);
	s.u = u;
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	ASSERT_EQ((long)sizeof(obj),
		  raw_fetch(&s, cli, out, sizeof(out), &fin, 40));
	close(cli);

	cli2 = mtp_bound(&cs);
	ASSERT_LE(0, cli2);
	dt = first_repeat(_metadata, cli2, u, &us);
	TH_LOG("a new socket repeats to the server after %.0f ms",
	       dt * 1000);
	EXPECT_LE(0.015, dt);
	EXPECT_GE(0.3, dt);
	close(cli2);

	/* The same addresses in a new namespace: nothing known there. */
	close(u);
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	bring_lo_up(_metadata);
	u = socket(AF_INET, SOCK_DGRAM, 0);
	ASSERT_LE(0, u);
	ASSERT_EQ(0, bind(u, (struct sockaddr *)&us, sizeof(us)));
	cli3 = mtp_bound(&cs);
	ASSERT_LE(0, cli3);
	dt = first_repeat(_metadata, cli3, u, &us);
	TH_LOG("in another namespace after %.0f ms", dt * 1000);
	EXPECT_LE(0.95, dt);
	close(cli3);
	close(u);
}

/*
 * Congestion control: the transactions of a socket to one host share one
 * window.  Sixteen transactions started at once to a server that does
 * not answer ask in their initial requests for the initial window between
 * them, and a datagram each beyond it: at most 16 * 16 KiB here (at most
 * 16 KiB of initial window and 8 KiB datagrams on loopback).  Each asked
 * for the dissertation's 64 KiB before, 1 MiB in all.
 */
TEST_F(ns, one_window_per_host)
{
	struct mtp_request r = { .action = MTP_ACT_DATA };
	u_int32_t seen[16];
	struct sockaddr_in us, cs;
	int cli = mtp_bound(&cs), u = udp_bound(&us);
	long sum = 0;
	int i, got = 0;
	struct hdr q;

	ASSERT_LE(0, cli);
	ASSERT_LE(0, u);
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	/* the first copy of each; repeats come a second later */
	while (got < 16 && raw_recv(u, &q, NULL, 0, NULL, 900) >= 0) {
		for (i = 0; i < got && seen[i] != q.reqid; i++)
			;
		if (i < got)
			continue;
		seen[got++] = q.reqid;
		sum += q.limit * 512L;
	}
	TH_LOG("%d initial requests asked for %ld bytes", got, sum);
	EXPECT_EQ(16, got);
	EXPECT_LE(16 * 512L, sum);
	EXPECT_GE(16 * 16384L, sum);
	close(cli);
	close(u);
}

/*
 * A transaction to 127.0.0.@host:@port, ended by the application at once:
 * the socket now knows of that host, idle.  A UDP socket bound to the
 * port on every address takes the request, so that no ICMP error ends
 * the transaction first.
 */
static void touch_host(struct __test_metadata *_metadata, int cli, int host,
		       unsigned short port)
{
	struct mtp_request one = { .action = MTP_ACT_APP,
				   .flags = MTP_REQ_SINGLE };
	struct mtp_abort ab = { .level = MTP_ABORT_DESTROY };
	struct sockaddr_in to;
	char addr[16];

	snprintf(addr, sizeof(addr), "127.0.0.%d", host);
	to = mtp_addr(addr, port);
	ASSERT_EQ(2, mtp_request(cli, &to, &one, "hi", 2));
	ab.reqid = last_reqid(cli);
	ASSERT_EQ(0, setsockopt(cli, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
}

/*
 * A socket keeps what it learnt of 16 idle hosts besides the ones in use,
 * and forgets the least recently used first: a server it measured stays
 * known (its first repeat after about 20 ms) while 16 other hosts were
 * used after it.  Once 17 more were, the socket forgot it and learns it
 * again from its namespace (new_socket_learnt_rtt): still about 20 ms,
 * not net.mtp.repeat_ms (1 s), since the hosts touched after it gave no
 * RTT to keep.
 */
TEST_F_TIMEOUT(ns, idle_hosts_least_recent_forgotten, 60)
{
	static char obj[16384], out[16384];
	struct mtp_request r = { .action = MTP_ACT_DATA };
	struct raw_srv s = { .obj = obj, .len = sizeof(obj) };
	struct sockaddr_in us, cs, any = { .sin_family = AF_INET };
	int cli = mtp_bound(&cs), u = udp_bound(&us);
	int sink = socket(AF_INET, SOCK_DGRAM, 0);
	socklen_t l = sizeof(any);
	struct mtp_info fin;
	double dt;
	int i;

	ASSERT_LE(0, cli);
	ASSERT_LE(0, u);
	ASSERT_LE(0, sink);
	ASSERT_EQ(0, bind(sink, (struct sockaddr *)&any, sizeof(any)));
	ASSERT_EQ(0, getsockname(sink, (struct sockaddr *)&any, &l));
	fill(obj, sizeof(obj), 3);
	s.u = u;
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	ASSERT_EQ((long)sizeof(obj),
		  raw_fetch(&s, cli, out, sizeof(out), &fin, 40));
	for (i = 2; i < 18; i++)
		touch_host(_metadata, cli, i, ntohs(any.sin_port));
	dt = first_repeat(_metadata, cli, u, &us);
	TH_LOG("after 16 other hosts: repeat after %.0f ms", dt * 1000);
	EXPECT_LE(0.015, dt);
	EXPECT_GE(0.3, dt);
	for (i = 18; i < 35; i++)
		touch_host(_metadata, cli, i, ntohs(any.sin_port));
	dt = first_repeat(_metadata, cli, u, &us);
	TH_LOG("after 17 more: repeat after %.0f ms", dt * 1000);
	EXPECT_LE(0.015, dt);
	EXPECT_GE(0.3, dt);
	close(cli);
	close(u);
	close(sink);
}

/*
 * InRcvbufErrors and Squeezes: a client with a small receive buffer that
 * is not reading, and a raw server that answers the first request with
 * the whole 64 KiB object at once.  The queue passes half the buffer (the
 * receive-queue guard narrows the window: Squeezes) and then twice the
 * buffer (datagrams dropped: InRcvbufErrors).  Once the client reads, it asks again for what was
 * dropped and the object arrives whole.
 */
TEST_F_TIMEOUT(ns, rcvbuf_errors_squeezes, 60)
{
	static char obj[65536], out[65536];
	struct mtp_request r = { .action = MTP_ACT_DATA };
	struct raw_srv s = { .obj = obj, .len = sizeof(obj), .blast = 1 };
	long rbe = mtp_snmp("InRcvbufErrors"), sq = mtp_snmp("Squeezes");
	struct sockaddr_in us, cs;
	struct mtp_info fin;
	struct pollfd p = { .events = POLLIN };
	int cli = mtp_bound(&cs), rb = 4096, eff;
	socklen_t l = sizeof(eff);

	s.u = udp_bound(&us);
	ASSERT_LE(0, cli);
	ASSERT_LE(0, s.u);
	fill(obj, sizeof(obj), 17);
	ASSERT_EQ(0, setsockopt(cli, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb)));
	ASSERT_EQ(0, getsockopt(cli, SOL_SOCKET, SO_RCVBUF, &eff, &l));
	ASSERT_EQ(0, mtp_request(cli, &us, &r, NULL, 0));
	p.fd = s.u;
	ASSERT_EQ(1, poll(&p, 1, 10000));
	raw_serve_one(&s);	/* 64 datagrams of 1 KiB */
	EXPECT_LT(rbe, snmp_wait_ge("InRcvbufErrors", rbe + 1, 10));
	EXPECT_LT(sq, mtp_snmp("Squeezes"));
	ASSERT_EQ((long)sizeof(obj),
		  raw_fetch(&s, cli, out, sizeof(out), &fin, 30));
	TH_LOG("rcvbuf %d: dropped %ld, squeezes %ld, window %u..%u",
	       eff, mtp_snmp("InRcvbufErrors") - rbe,
	       mtp_snmp("Squeezes") - sq, fin.window_min, fin.window_max);
	EXPECT_EQ(0, memcmp(obj, out, sizeof(obj)));
	EXPECT_EQ(0, fin.error);
}

TEST_HARNESS_MAIN
