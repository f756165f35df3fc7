// SPDX-License-Identifier: GPL-2.0
/*
 * MTP sockets over loopback: bind semantics shared with UDP, single and
 * multi-datagram transactions with their control messages, the kernel's
 * PING/IDSTR answers and response cache, expiry, abort levels, streams,
 * fire-and-forget, error answers, and malformed datagrams being dropped
 * and counted.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mtp_selftest.h"
#include "task_stat.h"

#define LO	"127.0.0.1"

static int mtp_socket(void)
{
	return socket(AF_INET, SOCK_MTP, 0);
}

static unsigned short local_port(int fd)
{
	struct sockaddr_in a;
	socklen_t l = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &l))
		return 0;
	return ntohs(a.sin_port);
}

FIXTURE(mtp) {
	int srv, cli;
	struct sockaddr_in sa;
};

FIXTURE_SETUP(mtp)
{
	struct sockaddr_in any = mtp_addr(LO, 0);

	self->srv = mtp_socket();
	ASSERT_LE(0, self->srv);
	ASSERT_EQ(0, bind(self->srv, (struct sockaddr *)&any, sizeof(any)));
	self->sa = mtp_addr(LO, local_port(self->srv));
	ASSERT_NE(0, self->sa.sin_port);
	self->cli = mtp_socket();
	ASSERT_LE(0, self->cli);
	mtp_rcvtimeo(self->srv, 20);
	mtp_rcvtimeo(self->cli, 20);
}

FIXTURE_TEARDOWN(mtp)
{
	close(self->cli);
	close(self->srv);
}

static u_int32_t last_reqid(int fd)
{
	u_int32_t id = 0;
	socklen_t l = sizeof(id);

	getsockopt(fd, SOL_MTP, MTP_LAST_REQID, &id, &l);
	return id;
}

TEST(bind_shares_udp_ports)
{
	struct sockaddr_in a = mtp_addr(LO, 0), b;
	int m = mtp_socket(), u = socket(AF_INET, SOCK_DGRAM, 0), m2;
	unsigned short port;

	ASSERT_LE(0, m);
	ASSERT_LE(0, u);
	ASSERT_EQ(0, bind(m, (struct sockaddr *)&a, sizeof(a)));
	port = local_port(m);
	ASSERT_NE(0, port);
	b = mtp_addr(LO, port);
	EXPECT_EQ(-1, bind(u, (struct sockaddr *)&b, sizeof(b)));
	EXPECT_EQ(EADDRINUSE, errno);
	EXPECT_EQ(-1, bind(m, (struct sockaddr *)&a, sizeof(a)));
	EXPECT_EQ(EINVAL, errno);
	m2 = mtp_socket();
	EXPECT_EQ(-1, bind(m2, (struct sockaddr *)&b, sizeof(b)));
	EXPECT_EQ(EADDRINUSE, errno);
	close(m);
	/* the port is free again once the MTP socket is closed */
	EXPECT_EQ(0, bind(u, (struct sockaddr *)&b, sizeof(b)));
	EXPECT_EQ(-1, bind(m2, (struct sockaddr *)&b, sizeof(b)));
	EXPECT_EQ(EADDRINUSE, errno);
	close(u);
	close(m2);
}

TEST(sendmsg_checks)
{
	struct mtp_request r = { .action = MTP_ACT_PING };
	struct sockaddr_in to = mtp_addr(LO, 9);
	char big[MTP_SIZE_REQUEST + 1] = {};
	int m = mtp_socket();

	ASSERT_LE(0, m);
	EXPECT_EQ(-1, send(m, "x", 1, 0));		/* no control message */
	EXPECT_EQ(-1, mtp_request(m, &to, &r, big, sizeof(big)));
	EXPECT_EQ(EMSGSIZE, errno);
	r.flags = MTP_REQ_FORGET;
	EXPECT_EQ(3, mtp_request(m, &to, &r, "abc", 3));
	EXPECT_NE(0, local_port(m));			/* autobound */
	close(m);
}

TEST_F(mtp, kernel_ping)
{
	struct mtp_request r = { .action = MTP_ACT_PING,
				 .flags = MTP_REQ_SINGLE, .user = 42 };
	long before = mtp_snmp("KernelReplies");
	struct mtp_info info;
	char buf[64];
	int flags;

	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	ASSERT_EQ(0, mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL,
			      &flags, 0));
	EXPECT_TRUE(flags & MSG_EOR);
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	EXPECT_TRUE(info.flags & MTP_INFO_SINGLE);
	EXPECT_EQ(0, info.error);
	EXPECT_EQ(MTP_RES_REPLY, info.response);
	EXPECT_EQ(42, info.user);
	EXPECT_EQ(last_reqid(self->cli), info.reqid);
	EXPECT_EQ(1, info.requests);
	EXPECT_EQ(before + 1, mtp_snmp("KernelReplies"));
}

TEST_F(mtp, kernel_idstr)
{
	struct mtp_request r = { .action = MTP_ACT_IDSTR,
				 .flags = MTP_REQ_SINGLE };
	const char id[] = "selftest server 1.0";
	struct mtp_info info;
	char buf[256];
	ssize_t n;

	ASSERT_EQ(0, setsockopt(self->srv, SOL_MTP, MTP_IDSTR, id,
				strlen(id)));
	n = mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL,
		     MSG_DONTWAIT);
	EXPECT_EQ(-1, n);
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	n = mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL, 0);
	ASSERT_EQ((ssize_t)strlen(id), n);
	EXPECT_EQ(0, memcmp(buf, id, n));
	/* a part of it */
	r.address = 9;
	r.rsize = 6;
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	n = mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL, 0);
	ASSERT_EQ(6, n);
	EXPECT_EQ(0, memcmp(buf, "server", 6));
	r.address = 100;
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	n = mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL, 0);
	EXPECT_EQ(0, n);
	EXPECT_EQ(MTP_ERR_APP, info.error);
	EXPECT_EQ(MTP_ERR_APP_ADDRESS, info.response);
}

TEST_F(mtp, single_app)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .flag = 3,
				 .flags = MTP_REQ_SINGLE, .channel = 7,
				 .address = 11, .rsize = 22 };
	struct mtp_response a = {};
	struct sockaddr_in from;
	struct mtp_info info;
	char buf[128];
	ssize_t n;
	int flags;

	ASSERT_EQ(5, mtp_request(self->cli, &self->sa, &r, "hello", 5));
	n = mtp_recvinfo(self->srv, buf, sizeof(buf), &info, &from, NULL, 0);
	ASSERT_EQ(5, n);
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	EXPECT_TRUE(info.flags & MTP_INFO_REQUEST);
	EXPECT_TRUE(info.flags & MTP_INFO_SINGLE);
	EXPECT_EQ(last_reqid(self->cli), info.reqid);
	EXPECT_EQ(MTP_ACT_APP, info.action);
	EXPECT_EQ(3, info.flag);
	EXPECT_EQ(7, info.channel);
	EXPECT_EQ(11, info.address);
	EXPECT_EQ(22, info.rsize);
	EXPECT_EQ(local_port(self->cli), ntohs(from.sin_port));

	a.reqid = info.reqid;
	a.response = MTP_RES_APP + 1;
	a.action = info.action;
	a.flag = 4;
	a.channel = 99;
	a.address = 5;
	a.rsize = 6;
	ASSERT_EQ(6, mtp_respond(self->srv, &from, &a, "world!", 6));
	/* a second answer to the same request has nothing to answer */
	EXPECT_EQ(-1, mtp_respond(self->srv, &from, &a, "x", 1));
	EXPECT_EQ(ENOENT, errno);

	n = mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, &flags, 0);
	ASSERT_EQ(6, n);
	EXPECT_EQ(0, memcmp(buf, "world!", 6));
	EXPECT_TRUE(flags & MSG_EOR);
	EXPECT_EQ(0, info.error);
	EXPECT_EQ(MTP_RES_APP + 1, info.response);
	EXPECT_EQ(4, info.flag);
	EXPECT_EQ(99, info.channel);
	EXPECT_EQ(5, info.address);
	EXPECT_EQ(6, info.rsize);
}

TEST_F(mtp, app_error)
{
	struct mtp_request r = { .action = MTP_ACT_APP + 9 };
	struct mtp_response a = { .error = MTP_ERR_APP,
				  .response = MTP_ERR_APP_ACTION };
	struct sockaddr_in from;
	struct mtp_info info;
	char buf[128];
	ssize_t n;

	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	ASSERT_EQ(0, mtp_recvinfo(self->srv, buf, sizeof(buf), &info, &from,
			      NULL, 0));
	a.reqid = info.reqid;
	ASSERT_EQ(4, mtp_respond(self->srv, &from, &a, "nope", 4));
	n = mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL, 0);
	EXPECT_EQ(0, n);
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	EXPECT_EQ(MTP_ERR_APP, info.error);
	EXPECT_EQ(MTP_ERR_APP_ACTION, info.response);
}

TEST_F(mtp, forget)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .flags = MTP_REQ_FORGET };
	struct mtp_response a = {};
	struct sockaddr_in from;
	struct mtp_info info;
	char buf[16];

	ASSERT_EQ(2, mtp_request(self->cli, &self->sa, &r, "ff", 2));
	ASSERT_EQ(2, mtp_recvinfo(self->srv, buf, sizeof(buf), &info, &from,
			      NULL, 0));
	EXPECT_TRUE(info.flags & MTP_INFO_FORGET);
	a.reqid = info.reqid;
	/* nothing is remembered of it, nothing goes back */
	EXPECT_EQ(-1, mtp_respond(self->srv, &from, &a, NULL, 0));
	EXPECT_EQ(-1, mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL,
			       NULL, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

/*
 * Serve OBJ from SRV (answering whatever is asked with everything from
 * the requested address) while CLI reads the response to its request
 * into OUT.  Returns bytes received, INFO of the last recvmsg; counts
 * the requests the application saw in *APPREQ.
 */
static long serve_fetch(int srv, int cli, const char *obj, size_t objlen,
			char *out, size_t outlen, struct mtp_info *fin,
			int *appreq, int rd, long base)
{
	struct pollfd p[2] = { { srv, POLLIN, 0 }, { cli, POLLIN, 0 } };
	double end = mtp_now() + 60;
	long got = 0;

	*appreq = 0;
	while (mtp_now() < end) {
		if (poll(p, 2, 1000) <= 0)
			continue;
		if (p[0].revents & POLLIN) {
			struct mtp_response a = {};
			struct sockaddr_in from;
			struct mtp_info ri;
			char req[1024];

			if (mtp_recvinfo(srv, req, sizeof(req), &ri, &from, NULL,
				     0) < 0)
				return -1;
			(*appreq)++;
			a.reqid = ri.reqid;
			a.action = ri.action;
			a.address = ri.address;
			a.rsize = ri.address < objlen ? objlen - ri.address : 0;
			mtp_respond(srv, &from, &a, obj + ri.address,
				    a.rsize);
		}
		if (p[1].revents & POLLIN) {
			int flags;
			ssize_t n = mtp_recvinfo(cli, out + got,
					     rd ? rd : outlen - got, fin,
					     NULL, &flags, 0);

			if (n < 0)
				return -1;
			if (fin->address != base + got && n)
				return -2;	/* not in order */
			got += n;
			if (flags & MSG_EOR)
				return got;
		}
	}
	return -3;
}

TEST_F(mtp, multi_cached)
{
	size_t len = 300000, i;
	char *obj = malloc(len), *out = malloc(len + 10);
	struct mtp_request r = { .action = MTP_ACT_DATA };
	long hits = mtp_snmp("CacheHits");
	struct mtp_info fin;
	int appreq;

	for (i = 0; i < len; i++)
		obj[i] = (char)(i * 7 + i / 1000);
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	ASSERT_EQ((long)len, serve_fetch(self->srv, self->cli, obj, len, out,
					 len + 10, &fin, &appreq, 3000, 0));
	EXPECT_EQ(0, memcmp(obj, out, len));
	EXPECT_TRUE(fin.flags & MTP_INFO_FINAL);
	EXPECT_EQ(0, fin.error);
	EXPECT_EQ(len, fin.size);
	EXPECT_EQ(len, fin.rsize);
	EXPECT_EQ(1, appreq);		/* the rest came from the kernel */
	EXPECT_LT(hits, mtp_snmp("CacheHits"));
	EXPECT_LT(1, fin.requests);
	TH_LOG("requests %u repeats %u window %u..%u dgram %u rtt %u us",
	       fin.requests, fin.repeats, fin.window_min, fin.window_max,
	       fin.dgram, fin.rtt_avg_us);
	free(obj);
	free(out);
}

TEST_F(mtp, multi_uncached)
{
	size_t len = 200000, i;
	char *obj = malloc(len), *out = malloc(len);
	struct mtp_request r = { .action = MTP_ACT_DATA, .address = 1000,
				 .rsize = 150000 };
	struct mtp_info fin;
	int appreq;

	for (i = 0; i < len; i++)
		obj[i] = (char)(i ^ (i >> 8));
	/* the kernel may keep 16 KiB of an answer: the app is asked again */
	ASSERT_EQ(0, system("sysctl -qw net.mtp.cache_obj_bytes=16384"));
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	ASSERT_EQ(150000, serve_fetch(self->srv, self->cli, obj, len, out,
				      len, &fin, &appreq, 0, 1000));
	system("sysctl -qw net.mtp.cache_obj_bytes=4194304");
	EXPECT_EQ(0, memcmp(obj + 1000, out, 150000));
	EXPECT_LT(1, appreq);
	EXPECT_EQ(150000, fin.size);
	free(obj);
	free(out);
}

TEST_F(mtp, expire)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .repeat = 500,
				 .expire = 1500 };
	struct mtp_info info;
	char buf[16];
	double t0;
	ssize_t n;
	int on = 0;

	/* the server application never reads */
	ASSERT_EQ(0, setsockopt(self->srv, SOL_MTP, MTP_KERNEL_PING, &on,
				sizeof(on)));
	t0 = mtp_now();
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	n = mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL, 0);
	EXPECT_EQ(0, n);
	EXPECT_LE(1.4, mtp_now() - t0);
	EXPECT_GE(10.0, mtp_now() - t0);
	EXPECT_EQ(MTP_ERR_NET, info.error);
	EXPECT_EQ(MTP_ERR_NET_EXPIRE, info.response);
	EXPECT_LE(2, info.requests);	/* repeated while waiting */
	EXPECT_EQ(info.requests - 1, info.repeats);
}

/*
 * An application slower than the client's repeat interval: the repeats of
 * a request it has not read yet get pending replies and do not queue the
 * request again; once it has read it and not answered for a second, a
 * repeat does reach it again (it may have lost the request).
 */
TEST_F(mtp, slow_app_asked_once)
{
	struct mtp_request r = { .action = MTP_ACT_DATA, .repeat = 500,
				 .expire = 20000 };
	long pend = mtp_snmp("OutPending");
	struct mtp_response a = {};
	struct sockaddr_in from;
	struct mtp_info ri, fin;
	char buf[64];
	double t, end;

	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	/*
	 * Until the server has sent four pending replies (the client
	 * repeats every 0.5 s: about 2 s idle), not a fixed time that a
	 * stalled guest may not fill; bounded well inside the 20 s expiry.
	 */
	end = mtp_now() + 15;
	while (mtp_snmp("OutPending") < pend + 4 && mtp_now() < end)
		usleep(50000);
	ASSERT_EQ(0, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri, &from,
				  NULL, MSG_DONTWAIT));
	t = mtp_now();
	EXPECT_EQ(-1, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri, &from,
				   NULL, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	EXPECT_LE(pend + 4, mtp_snmp("OutPending"));
	/* Read and not answered: asked again, but not before a second. */
	ASSERT_EQ(0, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri, &from,
				  NULL, 0));
	EXPECT_LE(0.9, mtp_now() - t);
	a.reqid = ri.reqid;
	a.action = ri.action;
	a.rsize = 5;
	ASSERT_EQ(5, mtp_respond(self->srv, &from, &a, "hello", 5));
	ASSERT_EQ(5, mtp_recvinfo(self->cli, buf, sizeof(buf), &fin, NULL,
				  NULL, 0));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	EXPECT_EQ(0, fin.error);
	EXPECT_LE(4, fin.repeats);
}

static void abort_txn(struct __test_metadata *_metadata, int fd, u_int32_t id,
		      unsigned int level, int want)
{
	struct mtp_abort ab = { .reqid = id, .level = level };

	EXPECT_EQ(want, setsockopt(fd, SOL_MTP, MTP_ABORT, &ab, sizeof(ab)));
}

TEST_F(mtp, abort_levels)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .expire = 60000 };
	struct mtp_info info;
	char buf[16];
	u_int32_t id;
	double t0;

	/* EXPIRE: at once, as a timeout */
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	id = last_reqid(self->cli);
	abort_txn(_metadata, self->cli, id, MTP_ABORT_EXPIRE, 0);
	EXPECT_EQ(0, mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL,
			      MSG_DONTWAIT));
	EXPECT_EQ(id, info.reqid);
	EXPECT_EQ(MTP_ERR_NET, info.error);
	EXPECT_EQ(MTP_ERR_NET_EXPIRE, info.response);
	abort_txn(_metadata, self->cli, id, MTP_ABORT_EXPIRE, -1);
	EXPECT_EQ(ENOENT, errno);

	/* DESTROY: silently gone */
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	id = last_reqid(self->cli);
	abort_txn(_metadata, self->cli, id, MTP_ABORT_DESTROY, 0);
	EXPECT_EQ(-1, mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL,
			       NULL, MSG_DONTWAIT));
	abort_txn(_metadata, self->cli, id, MTP_ABORT_DESTROY, -1);

	/* STOP: no more requests, expires within a second */
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	id = last_reqid(self->cli);
	t0 = mtp_now();
	abort_txn(_metadata, self->cli, id, MTP_ABORT_STOP, 0);
	EXPECT_EQ(0, mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL,
			      0));
	EXPECT_EQ(id, info.reqid);
	EXPECT_EQ(MTP_ERR_NET_EXPIRE, info.response);
	EXPECT_GT(5.0, mtp_now() - t0);

	/* FINISH before any data: complete, empty, no error */
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	id = last_reqid(self->cli);
	abort_txn(_metadata, self->cli, id, MTP_ABORT_FINISH, 0);
	EXPECT_EQ(0, mtp_recvinfo(self->cli, buf, sizeof(buf), &info, NULL, NULL,
			      0));
	EXPECT_EQ(id, info.reqid);
	EXPECT_EQ(0, info.error);
	EXPECT_TRUE(info.flags & MTP_INFO_FINAL);
	EXPECT_EQ(0, info.size);
	abort_txn(_metadata, self->cli, id, 9, -1);
}

TEST_F(mtp, stream)
{
	struct mtp_request r = { .action = MTP_ACT_DATA, .repeat = 500 };
	const char data[] = "0123456789abcdef";
	struct mtp_response a = {};
	struct sockaddr_in from;
	struct mtp_info ri, info;
	char buf[256], got[64];
	int n, flags = 0, stage = 0, closed = 0;
	long have = 0;
	double end = mtp_now() + 60;

	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	while (mtp_now() < end && !closed) {
		struct pollfd p[2] = { { self->srv, POLLIN, 0 },
				       { self->cli, POLLIN, 0 } };

		if (poll(p, 2, 1000) <= 0)
			continue;
		if (p[0].revents & POLLIN) {
			ASSERT_LE(0, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri,
					      &from, NULL, 0));
			memset(&a, 0, sizeof(a));
			a.reqid = ri.reqid;
			a.flags = MTP_RESP_STREAM;
			if (ri.flags & MTP_INFO_CLOSE) {
				closed = 1;
				mtp_respond(self->srv, &from, &a, NULL, 0);
				continue;
			}
			if (stage++ == 0) {		/* no data yet */
				mtp_respond(self->srv, &from, &a, NULL, 0);
			} else if (ri.address < sizeof(data) - 1) {
				a.address = ri.address;
				a.rsize = 4096;		/* buffer size */
				mtp_respond(self->srv, &from, &a,
					    data + ri.address,
					    sizeof(data) - 1 - ri.address);
			} else {			/* end of data */
				a.error = MTP_ERR_APP;
				a.response = MTP_ERR_APP_EOD;
				a.rsize = sizeof(data) - 1;
				mtp_respond(self->srv, &from, &a, NULL, 0);
			}
		}
		if (p[1].revents & POLLIN) {
			n = mtp_recvinfo(self->cli, got + have, sizeof(got) - have,
				     &info, NULL, &flags, 0);
			ASSERT_LE(0, n);
			have += n;
		}
	}
	EXPECT_TRUE(closed);
	/* the completion follows the close request's answer */
	while (!(info.flags & MTP_INFO_FINAL) && mtp_now() < end) {
		n = mtp_recvinfo(self->cli, got + have, sizeof(got) - have,
			     &info, NULL, &flags, 0);
		ASSERT_LE(0, n);
		have += n;
	}
	EXPECT_EQ(sizeof(data) - 1, have);
	EXPECT_EQ(0, memcmp(got, data, sizeof(data) - 1));
	EXPECT_TRUE(info.flags & MTP_INFO_STREAM);
	EXPECT_EQ(0, info.error);
	EXPECT_TRUE(flags & MSG_EOR);
}

/* One raw datagram from a UDP socket must move exactly one counter. */
static void inject(struct __test_metadata *_metadata,
		   const struct sockaddr_in *to, const unsigned char *b,
		   size_t len, const char *want)
{
	static const char *const c[] = {
		"InTruncated", "InBadVersion", "InBadOptions", "InBadError",
		"InBadDgramSize", "InBadSize", "InBadRange", "InNoTransaction",
	};
	long before[8], dg = mtp_snmp("InDatagrams");
	int u = socket(AF_INET, SOCK_DGRAM, 0);
	unsigned int i;

	for (i = 0; i < 8; i++)
		before[i] = mtp_snmp(c[i]);
	ASSERT_EQ((ssize_t)len, sendto(u, b, len, 0,
				       (const struct sockaddr *)to,
				       sizeof(*to)));
	mtp_snmp_wait_change("InDatagrams", dg);
	for (i = 0; i < 8; i++)
		EXPECT_EQ(before[i] + !strcmp(c[i], want), mtp_snmp(c[i]))
			TH_LOG("counter %u", i);
	close(u);
}

TEST_F(mtp, malformed_dropped)
{
	unsigned char b[2100] = { 0x30 };

	inject(_metadata, &self->sa, b, 10, "InTruncated");
	inject(_metadata, &self->sa, b, 0, "InTruncated");
	b[0] = 0x21;
	inject(_metadata, &self->sa, b, 28, "InBadVersion");
	b[0] = 0x30;
	b[2] = 0x80;
	inject(_metadata, &self->sa, b, 28, "InBadOptions");
	b[2] = 0;
	b[3] = 9;
	b[4] = 1;
	inject(_metadata, &self->sa, b, 28, "InBadError");
	b[3] = 0;
	b[4] = 0;
	b[7] = 30;			/* request for 1 GiB datagrams */
	inject(_metadata, &self->sa, b, 28, "InBadDgramSize");
	b[7] = 10;
	inject(_metadata, &self->sa, b, 28 + 2000, "InBadSize");
	b[16] = 0xff;			/* address 0xff000000 */
	b[20] = 0x10;			/* rsize 0x10000000: past 2^32 */
	inject(_metadata, &self->sa, b, 28, "InBadRange");
	b[4] = 1;			/* a response nobody asked for */
	b[16] = 0;
	inject(_metadata, &self->sa, b, 28 + 10, "InNoTransaction");
	/* the socket still works */
	{
		struct mtp_request r = { .action = MTP_ACT_PING,
					 .flags = MTP_REQ_SINGLE };
		struct mtp_info info;
		char buf[8];

		ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
		EXPECT_EQ(0, mtp_recvinfo(self->cli, buf, sizeof(buf), &info,
				      NULL, NULL, 0));
		EXPECT_EQ(MTP_RES_REPLY, info.response);
	}
}

/* ---- socket API semantics -------------------------------------------------- */

/*
 * sendmsg() with one SOL_MTP control message of TYPE whose data is the
 * first CMLEN bytes of CM (zero-padded beyond its struct, up to 64), and
 * send FLAGS.
 */
static ssize_t send_cm(int fd, const struct sockaddr_in *to, int type,
		       const void *cm, size_t cmsize, size_t cmlen,
		       const void *buf, size_t len, int flags)
{
	char cbuf[CMSG_SPACE(64)] = { 0 };
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(cmlen),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_MTP;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(cmlen);
	memcpy(CMSG_DATA(c), cm, cmsize < cmlen ? cmsize : cmlen);
	return sendmsg(fd, &msg, flags);
}

/* A request of LEN bytes, once it waits in the server's queue. */
static void app_request(struct __test_metadata *_metadata, int cli, int srv,
			const struct sockaddr_in *sa, const char *data,
			size_t len)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .expire = 60000 };
	struct pollfd p = { srv, POLLIN, 0 };

	ASSERT_EQ((ssize_t)len, mtp_request(cli, sa, &r, data, len));
	ASSERT_EQ(1, poll(&p, 1, 20000));
}

/*
 * MSG_PEEK returns the next message and leaves it queued: a request twice
 * with the same bytes and info, then consumed; pieces of a response the
 * same, and the peeked bytes are what the next plain recvmsg() returns.
 */
TEST_F(mtp, peek)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .expire = 60000 };
	char obj[3000], buf[1100], buf2[1100];
	struct mtp_info ri, i1, i2;
	struct mtp_response a = {};
	struct sockaddr_in from;
	int flags, k;
	size_t i;
	ssize_t n;

	for (i = 0; i < sizeof(obj); i++)
		obj[i] = (char)(i * 7 + 1);
	ASSERT_EQ(40, mtp_request(self->cli, &self->sa, &r, obj, 40));
	ASSERT_EQ(40, mtp_recvinfo(self->srv, buf, sizeof(buf), &i1, &from,
				   NULL, MSG_PEEK));
	ASSERT_EQ(40, mtp_recvinfo(self->srv, buf2, sizeof(buf2), &i2, NULL,
				   NULL, MSG_PEEK));
	EXPECT_EQ(0, memcmp(buf, obj, 40));
	EXPECT_EQ(0, memcmp(buf2, obj, 40));
	EXPECT_EQ(i1.reqid, i2.reqid);
	EXPECT_TRUE(i1.flags & MTP_INFO_REQUEST);
	memset(buf2, 0, sizeof(buf2));
	ASSERT_EQ(40, mtp_recvinfo(self->srv, buf2, sizeof(buf2), &ri, NULL,
				   NULL, 0));
	EXPECT_EQ(0, memcmp(buf2, obj, 40));
	EXPECT_EQ(i1.reqid, ri.reqid);
	EXPECT_EQ(-1, mtp_recvinfo(self->srv, buf2, sizeof(buf2), &ri, NULL,
				   NULL, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);

	/* a 3000-byte answer: pieces */
	a.reqid = i1.reqid;
	a.action = i1.action;
	a.rsize = sizeof(obj);
	ASSERT_EQ((ssize_t)sizeof(obj),
		  mtp_respond(self->srv, &from, &a, obj, sizeof(obj)));
	n = mtp_recvinfo(self->cli, buf, 100, &i1, NULL, NULL, MSG_PEEK);
	ASSERT_EQ(100, n);
	EXPECT_EQ(0, memcmp(buf, obj, 100));
	EXPECT_EQ(0, i1.address);
	n = mtp_recvinfo(self->cli, buf2, 100, &i2, NULL, NULL, MSG_PEEK);
	ASSERT_EQ(100, n);
	EXPECT_EQ(0, memcmp(buf2, obj, 100));
	n = mtp_recvinfo(self->cli, buf2, 100, &i2, NULL, NULL, 0);
	ASSERT_EQ(100, n);
	EXPECT_EQ(0, memcmp(buf2, obj, 100));
	EXPECT_EQ(0, i2.address);
	/* the next call goes on where the consuming one stopped */
	n = mtp_recvinfo(self->cli, buf, 50, &i1, NULL, NULL, MSG_PEEK);
	ASSERT_EQ(50, n);
	EXPECT_EQ(100, i1.address);
	EXPECT_EQ(0, memcmp(buf, obj + 100, 50));
	n = mtp_recvinfo(self->cli, buf2, 50, &i2, NULL, NULL, 0);
	ASSERT_EQ(50, n);
	EXPECT_EQ(100, i2.address);
	EXPECT_EQ(0, memcmp(buf2, obj + 100, 50));
	/* the rest, each part peeked first, up to the completion */
	for (i = 150, k = 0, flags = 0; !(flags & MSG_EOR) && k < 100; k++) {
		n = mtp_recvinfo(self->cli, buf, 1000, &i1, NULL, NULL,
				 MSG_PEEK);
		ASSERT_LE(0, n);
		ASSERT_EQ(n, mtp_recvinfo(self->cli, buf2, 1000, &i2, NULL,
					  &flags, 0));
		EXPECT_EQ(i1.address, i2.address);
		EXPECT_EQ(i1.flags, i2.flags);
		if (n)	/* a completion alone reports the request's address */
			ASSERT_EQ(i, i2.address);
		EXPECT_EQ(0, memcmp(buf, buf2, n));
		ASSERT_EQ(0, memcmp(buf2, obj + i, n));
		i += n;
	}
	EXPECT_EQ(sizeof(obj), i);
	EXPECT_TRUE(i2.flags & MTP_INFO_FINAL);
	EXPECT_EQ(0, i2.error);
	EXPECT_EQ(-1, mtp_recvinfo(self->cli, buf, sizeof(buf), &i1, NULL,
				   NULL, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

/*
 * MSG_TRUNC, as for UDP: recvmsg() returns the message's real length and
 * sets MSG_TRUNC; the buffer holds its beginning and the rest is gone.
 */
TEST_F(mtp, trunc_real_length)
{
	struct mtp_info ri;
	char data[300], buf[16];
	int flags = 0;
	ssize_t n;

	memset(data, 'q', sizeof(data));
	memcpy(data, "0123456789", 10);
	app_request(_metadata, self->cli, self->srv, &self->sa, data,
		    sizeof(data));
	n = mtp_recvinfo(self->srv, buf, 10, &ri, NULL, &flags, MSG_TRUNC);
	EXPECT_EQ(300, n);
	EXPECT_TRUE(flags & MSG_TRUNC);
	EXPECT_EQ(0, memcmp(buf, "0123456789", 10));
	EXPECT_TRUE(ri.flags & MTP_INFO_REQUEST);
	/* consumed */
	EXPECT_EQ(-1, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri, NULL,
				   NULL, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	/* without MSG_TRUNC: the bytes copied, and the flag */
	app_request(_metadata, self->cli, self->srv, &self->sa, data,
		    sizeof(data));
	n = mtp_recvinfo(self->srv, buf, 10, &ri, NULL, &flags, 0);
	EXPECT_EQ(10, n);
	EXPECT_TRUE(flags & MSG_TRUNC);
}

/*
 * A control buffer too short for MTP_INFO: MSG_CTRUNC, and the message is
 * consumed as UDP consumes a datagram whose ancillary data did not fit.
 */
TEST_F(mtp, short_cmsg_ctrunc)
{
	char cbuf[CMSG_LEN(8)], buf[64];
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};

	app_request(_metadata, self->cli, self->srv, &self->sa, "abc", 3);
	EXPECT_EQ(3, recvmsg(self->srv, &msg, 0));
	EXPECT_TRUE(msg.msg_flags & MSG_CTRUNC);
	EXPECT_EQ(0, memcmp(buf, "abc", 3));
	EXPECT_EQ(-1, recv(self->srv, buf, sizeof(buf), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	/* no control buffer at all: the same */
	app_request(_metadata, self->cli, self->srv, &self->sa, "def", 3);
	msg.msg_control = NULL;
	msg.msg_controllen = 0;
	EXPECT_EQ(3, recvmsg(self->srv, &msg, 0));
	EXPECT_TRUE(msg.msg_flags & MSG_CTRUNC);
	EXPECT_EQ(0, memcmp(buf, "def", 3));
}

/* Is SIGPIPE pending?  Takes it if so. */
static int take_sigpipe(void)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	return sigtimedwait(&set, NULL, &zero) == SIGPIPE;
}

/*
 * shutdown(SHUT_WR): sendmsg() fails with EPIPE, and raises SIGPIPE unless
 * MSG_NOSIGNAL, as on TCP (UDP ignores SHUT_WR); for requests and answers
 * alike.  poll() then says writable (a send would not block).  Receiving
 * still works.
 */
TEST_F(mtp, shut_wr_epipe)
{
	struct mtp_request r = { .action = MTP_ACT_PING,
				 .flags = MTP_REQ_SINGLE };
	struct pollfd p = { self->cli, POLLOUT, 0 };
	struct mtp_response a = {};
	struct sockaddr_in from;
	struct mtp_info ri;
	sigset_t set, old;
	char buf[16];

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, &old));
	take_sigpipe();
	app_request(_metadata, self->cli, self->srv, &self->sa, "x", 1);
	ASSERT_EQ(0, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	ASSERT_EQ(0, shutdown(self->cli, SHUT_WR));
	EXPECT_EQ(-1, send_cm(self->cli, &self->sa, MTP_REQUEST, &r,
			      sizeof(r), sizeof(r), NULL, 0, MSG_NOSIGNAL));
	EXPECT_EQ(EPIPE, errno);
	EXPECT_FALSE(take_sigpipe());
	EXPECT_EQ(-1, mtp_request(self->cli, &self->sa, &r, NULL, 0));
	EXPECT_EQ(EPIPE, errno);
	EXPECT_TRUE(take_sigpipe());
	EXPECT_EQ(1, poll(&p, 1, 0));
	EXPECT_TRUE(p.revents & POLLOUT);
	/* the PING sent before still completes */
	EXPECT_EQ(0, mtp_recvinfo(self->cli, buf, sizeof(buf), &ri, NULL,
				  NULL, 0));
	EXPECT_EQ(MTP_RES_REPLY, ri.response);
	/* a server shut down for writing cannot answer */
	ASSERT_EQ(1, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri, &from,
				  NULL, 0));
	ASSERT_EQ(0, shutdown(self->srv, SHUT_WR));
	a.reqid = ri.reqid;
	EXPECT_EQ(-1, send_cm(self->srv, &from, MTP_RESPOND, &a, sizeof(a),
			      sizeof(a), NULL, 0, MSG_NOSIGNAL));
	EXPECT_EQ(EPIPE, errno);
	EXPECT_FALSE(take_sigpipe());
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * Short control messages and a short MTP_ABORT are EINVAL; longer ones
 * are accepted if the bytes beyond the struct are zero, else E2BIG.
 */
TEST_F(mtp, short_lengths)
{
	struct mtp_request r = { .action = MTP_ACT_APP,
				 .flags = MTP_REQ_FORGET };
	struct mtp_request big[2] = { r };
	struct mtp_response a = {};
	struct mtp_abort ab[2] = {};
	struct mtp_info ri, fin;
	struct sockaddr_in from;
	char buf[16];
	long started = mtp_snmp("TxnStarted");

	EXPECT_EQ(-1, send_cm(self->cli, &self->sa, MTP_REQUEST, &r, sizeof(r),
			      sizeof(r) - 4, "s", 1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, send_cm(self->cli, &self->sa, MTP_REQUEST, &r, sizeof(r),
			      4, "s", 1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, send_cm(self->cli, &self->sa, MTP_REQUEST, &r, sizeof(r),
			      0, "s", 1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(started, mtp_snmp("TxnStarted"));
	/* longer, zero beyond: fine; not zero: E2BIG */
	EXPECT_EQ(1, send_cm(self->cli, &self->sa, MTP_REQUEST, big,
			     sizeof(big), sizeof(r) + 8, "s", 1, 0));
	ASSERT_EQ(1, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri, NULL,
				  NULL, 0));
	big[1].action = 1;
	EXPECT_EQ(-1, send_cm(self->cli, &self->sa, MTP_REQUEST, big,
			      sizeof(big), sizeof(r) + 8, "s", 1, 0));
	EXPECT_EQ(E2BIG, errno);

	/* the same for answers */
	app_request(_metadata, self->cli, self->srv, &self->sa, "q", 1);
	ASSERT_EQ(1, mtp_recvinfo(self->srv, buf, sizeof(buf), &ri, &from,
				  NULL, 0));
	a.reqid = ri.reqid;
	EXPECT_EQ(-1, send_cm(self->srv, &from, MTP_RESPOND, &a, sizeof(a),
			      sizeof(a) - 1, NULL, 0, 0));
	EXPECT_EQ(EINVAL, errno);

	/* MTP_ABORT with only the reqid must not abort (as FINISH) */
	ab[0].reqid = ri.reqid;
	ab[0].level = MTP_ABORT_EXPIRE;
	EXPECT_EQ(-1, setsockopt(self->cli, SOL_MTP, MTP_ABORT, ab, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, setsockopt(self->cli, SOL_MTP, MTP_ABORT, ab, 0));
	EXPECT_EQ(EINVAL, errno);
	ab[1].reqid = 1;
	EXPECT_EQ(-1, setsockopt(self->cli, SOL_MTP, MTP_ABORT, ab,
				 sizeof(ab)));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(-1, mtp_recvinfo(self->cli, buf, sizeof(buf), &fin, NULL,
				   NULL, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	/* the transaction lives; a full-length abort ends it */
	ab[1].reqid = 0;
	EXPECT_EQ(0, setsockopt(self->cli, SOL_MTP, MTP_ABORT, ab,
				sizeof(ab)));
	ASSERT_EQ(0, mtp_recvinfo(self->cli, buf, sizeof(buf), &fin, NULL,
				  NULL, 0));
	EXPECT_EQ(ri.reqid, fin.reqid);
	EXPECT_EQ(MTP_ERR_NET_EXPIRE, fin.response);
}

#define READERS 6

struct reader {
	int fd;
	pid_t tid;
	int got;
};

static void *reader_run(void *arg)
{
	struct reader *rd = arg;
	struct mtp_info info;
	char buf[64];

	__atomic_store_n(&rd->tid, gettid(), __ATOMIC_RELEASE);
	if (mtp_recvinfo(rd->fd, buf, sizeof(buf), &info, NULL, NULL, 0) > 0)
		__atomic_store_n(&rd->got, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* How many readers got a request; waits up to 5 s for @want of them. */
static int readers_got(struct reader *rd, int want)
{
	int i, n = 0, tries;

	for (tries = 0; tries < 500; tries++) {
		for (i = 0, n = 0; i < READERS; i++)
			n += __atomic_load_n(&rd[i].got, __ATOMIC_ACQUIRE);
		if (n >= want)
			break;
		usleep(10000);
	}
	return n;
}

/*
 * Threads blocked in recvmsg() on one server socket wait exclusively, as
 * UDP's do: a request wakes one of them, not all (xtpperf's MTP server
 * has 64 threads, and every request woke 64).  Then each further request
 * reaches a reader of its own, and shutdown() lets the rest go.
 */
TEST_F(mtp, recv_wakes_one_waiter)
{
	struct mtp_request r = { .action = MTP_ACT_APP, .expire = 60000 };
	struct reader rd[READERS];
	pthread_t th[READERS];
	long csw[READERS];
	int i, tries, woke;

	for (i = 0; i < READERS; i++) {
		rd[i] = (struct reader){ .fd = self->srv };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, reader_run, &rd[i]));
	}
	for (tries = 0; tries < 500; tries++) {
		for (i = 0; i < READERS; i++)
			if (!__atomic_load_n(&rd[i].tid, __ATOMIC_ACQUIRE) ||
			    !task_sleeps(rd[i].tid))
				break;
		if (i == READERS)
			break;
		usleep(10000);
	}
	ASSERT_EQ(READERS, i);
	usleep(200000);
	for (i = 0; i < READERS; i++)
		csw[i] = task_switches(rd[i].tid);

	ASSERT_EQ(3, mtp_request(self->cli, &self->sa, &r, "one", 3));
	EXPECT_EQ(1, readers_got(rd, 1));
	/* Time for any other reader that was woken to run and sleep again. */
	usleep(300000);
	for (i = 0, woke = 0; i < READERS; i++)
		if (!rd[i].got && task_switches(rd[i].tid) != csw[i])
			woke++;
	EXPECT_EQ(0, woke);

	for (i = 1; i < READERS; i++)
		ASSERT_EQ(3, mtp_request(self->cli, &self->sa, &r, "two", 3));
	EXPECT_EQ(READERS, readers_got(rd, READERS));

	shutdown(self->srv, SHUT_RDWR);
	for (i = 0; i < READERS; i++)
		pthread_join(th[i], NULL);
}

TEST_HARNESS_MAIN
