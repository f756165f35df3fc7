// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: KUnit suite for the lifetimes of client transactions: completion,
 * each abort level, expiry, and responses that arrive after the end.
 *
 * Each test drives a real MTP socket of the initial namespace through the
 * socket layer (sendmsg() with MTP_REQUEST, setsockopt() MTP_ABORT,
 * recvmsg() with MTP_INFO) and plays the server itself on a kernel UDP
 * socket on 127.0.0.1, writing responses by hand: so it decides which
 * datagram is lost and when an answer comes too late.  Responses travel
 * over loopback into the module's receive path (encap_rcv, softirq), the
 * path where a transaction ends under its own feet: a use-after-free
 * there is what KASAN is to catch while these tests run.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/net.h>
#include <linux/socket.h>
#include <net/sock.h>
#include <net/udp.h>

#include "compat.h"
#include "mtp.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Waits for the network and for timers; far above what they need. */
#define MTP_KT_SRV_WAIT_MS	2000
#define MTP_KT_CLI_WAIT_MS	3000
#define MTP_KT_BUF		2048

/* What the client's requests carry, checked by the server side. */
#define MTP_KT_ACTION		MTP_ACT_APP
#define MTP_KT_FLAG		5
#define MTP_KT_CHANNEL		9
#define MTP_KT_USER		0x1234abcdULL
static const char mtp_kt_payload[] = "kunit request";

/**
 * struct mtp_kt - per-test state
 * @cli: the MTP socket under test
 * @srv: the server, a kernel UDP socket
 * @srv_addr: its address
 * @cli_addr: where the client's requests come from
 * @repeat_min_ms: net.mtp.repeat_min_ms before the test
 * @buf: a datagram received by the server
 * @data: scratch for payloads
 */
struct mtp_kt {
	struct socket *cli;
	struct socket *srv;
	struct sockaddr_in srv_addr;
	struct sockaddr_in cli_addr;
	int repeat_min_ms;
	u8 buf[MTP_KT_BUF];
	u8 data[MTP_KT_BUF];
};

/**
 * struct mtp_kt_msg - an MTP header, as the test reads and writes it
 * @options: MTP_OPT_*
 * @error: error class
 * @response: response or error code
 * @action: action
 * @flag: flag
 * @shift: dgram_shift
 * @reqid: transaction id
 * @channel: channel
 * @address: object address
 * @rsize: size field
 * @limit: limit field
 * @tag: tag
 * @len: payload length
 * @payload: the payload (in &mtp_kt.buf when received)
 */
struct mtp_kt_msg {
	u8 options;
	u8 error;
	u8 response;
	u8 action;
	u8 flag;
	u8 shift;
	u32 reqid;
	u32 channel;
	u32 address;
	u32 rsize;
	u16 limit;
	u16 tag;
	u32 len;
	const u8 *payload;
};

static struct mtp_net *mtp_kt_mn(void)
{
	return mtp_net(&init_net);
}

static unsigned long mtp_kt_mib(enum mtp_mib_field field)
{
	struct mtp_net *mn = mtp_kt_mn();
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu_ptr(mn->mib, cpu)->mibs[field];
	return sum;
}

/* Wait until counter @field reaches @want; false after a bounded time. */
static bool mtp_kt_wait_mib(enum mtp_mib_field field, unsigned long want)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(MTP_KT_SRV_WAIT_MS);

	while (mtp_kt_mib(field) < want) {
		if (time_after(jiffies, deadline))
			return false;
		msleep(20);
	}
	return true;
}

/* Object byte at @addr: what the server sends, what the client must get. */
static u8 mtp_kt_byte(u32 addr)
{
	return (addr * 7 + 3) & 0xff;
}

/* ---- the header, written out per wire.h's table ------------------------- */

static u32 mtp_kt_get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void mtp_kt_put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void mtp_kt_encode(const struct mtp_kt_msg *m, u8 *p)
{
	memset(p, 0, MTP_WIRE_HDR_LEN);
	p[MTP_WIRE_OFF_VERSION] = MTP_WIRE_VERSION;
	p[MTP_WIRE_OFF_OPTIONS] = m->options;
	p[MTP_WIRE_OFF_ERROR] = m->error;
	p[MTP_WIRE_OFF_RESPONSE] = m->response;
	p[MTP_WIRE_OFF_ACTION] = m->action;
	p[MTP_WIRE_OFF_FLAG] = m->flag;
	p[MTP_WIRE_OFF_SHIFT] = m->shift;
	mtp_kt_put32(p + MTP_WIRE_OFF_REQID, m->reqid);
	mtp_kt_put32(p + MTP_WIRE_OFF_CHANNEL, m->channel);
	mtp_kt_put32(p + MTP_WIRE_OFF_ADDRESS, m->address);
	mtp_kt_put32(p + MTP_WIRE_OFF_RSIZE, m->rsize);
	p[MTP_WIRE_OFF_LIMIT] = m->limit >> 8;
	p[MTP_WIRE_OFF_LIMIT + 1] = m->limit;
	p[MTP_WIRE_OFF_TAG] = m->tag >> 8;
	p[MTP_WIRE_OFF_TAG + 1] = m->tag;
}

static int mtp_kt_decode(const u8 *p, int len, struct mtp_kt_msg *m)
{
	if (len < MTP_WIRE_HDR_LEN || p[MTP_WIRE_OFF_VERSION] != MTP_WIRE_VERSION)
		return -EPROTO;
	m->options = p[MTP_WIRE_OFF_OPTIONS];
	m->error = p[MTP_WIRE_OFF_ERROR];
	m->response = p[MTP_WIRE_OFF_RESPONSE];
	m->action = p[MTP_WIRE_OFF_ACTION];
	m->flag = p[MTP_WIRE_OFF_FLAG];
	m->shift = p[MTP_WIRE_OFF_SHIFT];
	m->reqid = mtp_kt_get32(p + MTP_WIRE_OFF_REQID);
	m->channel = mtp_kt_get32(p + MTP_WIRE_OFF_CHANNEL);
	m->address = mtp_kt_get32(p + MTP_WIRE_OFF_ADDRESS);
	m->rsize = mtp_kt_get32(p + MTP_WIRE_OFF_RSIZE);
	m->limit = p[MTP_WIRE_OFF_LIMIT] << 8 | p[MTP_WIRE_OFF_LIMIT + 1];
	m->tag = p[MTP_WIRE_OFF_TAG] << 8 | p[MTP_WIRE_OFF_TAG + 1];
	m->len = len - MTP_WIRE_HDR_LEN;
	m->payload = p + MTP_WIRE_HDR_LEN;
	return 0;
}

/* ---- setup ----------------------------------------------------------------- */

static int mtp_kt_init(struct kunit *test)
{
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct mtp_kt *kt;
	int err;

	kt = kunit_kzalloc(test, sizeof(*kt), GFP_KERNEL);
	if (!kt)
		return -ENOMEM;
	test->priv = kt;
	kt->repeat_min_ms = READ_ONCE(mtp_kt_mn()->repeat_min_ms);

	err = sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, IPPROTO_UDP,
			       &kt->srv);
	if (err)
		return err;
	err = kernel_bind(kt->srv, (struct sockaddr *)&lo, sizeof(lo));
	if (err)
		return err;
	err = kernel_getsockname(kt->srv, (struct sockaddr *)&kt->srv_addr);
	if (err < 0)
		return err;
	kt->srv->sk->sk_rcvtimeo = msecs_to_jiffies(MTP_KT_SRV_WAIT_MS);

	/*
	 * A socket as user space has it (the kthread's namespace is
	 * init_net): the lock of a kernel socket would share its lockdep
	 * class with the kernel UDP socket that bind() creates under it.
	 */
	err = sock_create(AF_INET, SOCK_MTP, 0, &kt->cli);
	if (err)
		return err;
	err = kernel_bind(kt->cli, (struct sockaddr *)&lo, sizeof(lo));
	if (err)
		return err;
	kt->cli->sk->sk_rcvtimeo = msecs_to_jiffies(MTP_KT_CLI_WAIT_MS);
	return 0;
}

static void mtp_kt_exit(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;

	if (!kt)
		return;
	if (kt->cli)
		sock_release(kt->cli);
	if (kt->srv)
		sock_release(kt->srv);
	WRITE_ONCE(mtp_kt_mn()->repeat_min_ms, kt->repeat_min_ms);
}

/* ---- the client side ----------------------------------------------------- */

/**
 * mtp_kt_request() - start a transaction with sendmsg(MTP_REQUEST)
 * @kt: test state
 * @flags: MTP_REQ_*
 * @repeat: initial repeat interval in ms, 0 for the default
 * @expire: expiry in ms, 0 for the default
 * @reqid: set to the transaction's id
 *
 * Return: what sendmsg() returned.
 */
static int mtp_kt_request(struct mtp_kt *kt, u32 flags, u32 repeat,
			  u32 expire, u32 *reqid)
{
	struct mtp_request req = {
		.action = MTP_KT_ACTION,
		.flag = MTP_KT_FLAG,
		.appversion = 1,
		.flags = flags,
		.channel = MTP_KT_CHANNEL,
		.repeat = repeat,
		.expire = expire,
		.user = MTP_KT_USER,
	};
	u8 ctl[CMSG_SPACE(sizeof(struct mtp_request))] __aligned(8) = {};
	struct cmsghdr *cm = (struct cmsghdr *)ctl;
	struct kvec iov = {
		.iov_base = (void *)mtp_kt_payload,
		.iov_len = sizeof(mtp_kt_payload),
	};
	struct msghdr msg = {
		.msg_name = &kt->srv_addr,
		.msg_namelen = sizeof(kt->srv_addr),
		.msg_control = ctl,
		.msg_controllen = sizeof(ctl),
	};
	int n;

	cm->cmsg_len = CMSG_LEN(sizeof(req));
	cm->cmsg_level = SOL_MTP;
	cm->cmsg_type = MTP_REQUEST;
	memcpy(CMSG_DATA(cm), &req, sizeof(req));
	n = kernel_sendmsg(kt->cli, &msg, &iov, 1, iov.iov_len);
	*reqid = READ_ONCE(mtp_sk(kt->cli->sk)->last_reqid);
	return n;
}

/**
 * mtp_kt_recv() - one recvmsg() on the client
 * @kt: test state
 * @buf: data
 * @size: room in @buf
 * @flags: MSG_*
 * @info: the MTP_INFO control message
 * @eor: whether MSG_EOR was set
 *
 * Return: bytes, or a negative errno (-EBADMSG without MTP_INFO).
 */
static int mtp_kt_recv(struct mtp_kt *kt, void *buf, size_t size, int flags,
		       struct mtp_info *info, bool *eor)
{
	u8 ctl[CMSG_SPACE(sizeof(struct mtp_info))] __aligned(8) = {};
	struct cmsghdr *cm = (struct cmsghdr *)ctl;
	struct kvec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr msg = {
		.msg_control = ctl,
		.msg_controllen = sizeof(ctl),
	};
	int n;

	memset(info, 0, sizeof(*info));
	*eor = false;
	n = kernel_recvmsg(kt->cli, &msg, &iov, 1, size, flags);
	if (n < 0)
		return n;
	if (cm->cmsg_level != SOL_MTP || cm->cmsg_type != MTP_INFO ||
	    cm->cmsg_len < CMSG_LEN(sizeof(*info)))
		return -EBADMSG;
	memcpy(info, CMSG_DATA(cm), sizeof(*info));
	*eor = msg.msg_flags & MSG_EOR;
	return n;
}

/*
 * Read until the transaction's last message (MSG_EOR), at most a few
 * calls.  Return: bytes read, or a negative errno.
 */
static int mtp_kt_recv_all(struct mtp_kt *kt, u8 *buf, size_t size,
			   struct mtp_info *info)
{
	size_t got = 0;
	bool eor = false;
	int i, n;

	for (i = 0; i < 8 && !eor; i++) {
		n = mtp_kt_recv(kt, buf + got, size - got, 0, info, &eor);
		if (n < 0)
			return n;
		got += n;
	}
	return eor ? got : -EMSGSIZE;
}

static int mtp_kt_abort(struct mtp_kt *kt, u32 reqid, u32 level)
{
	struct mtp_abort ab = { .reqid = reqid, .level = level };

	return kt->cli->ops->setsockopt(kt->cli, SOL_MTP, MTP_ABORT,
					KERNEL_SOCKPTR(&ab), sizeof(ab));
}

/* ---- the server side ----------------------------------------------------- */

static int mtp_kt_srv_recv(struct mtp_kt *kt, struct mtp_kt_msg *m, int flags)
{
	struct sockaddr_in from = {};
	struct kvec iov = { .iov_base = kt->buf, .iov_len = sizeof(kt->buf) };
	struct msghdr msg = {
		.msg_name = &from,
		.msg_namelen = sizeof(from),
	};
	int n;

	n = kernel_recvmsg(kt->srv, &msg, &iov, 1, sizeof(kt->buf), flags);
	if (n < 0)
		return n;
	kt->cli_addr = from;
	return mtp_kt_decode(kt->buf, n, m);
}

/*
 * The next request of @reqid at @addr, initial (@sub false, tag 0) or a
 * subrequest: repeats and other ranges are skipped.
 */
static int mtp_kt_srv_expect(struct mtp_kt *kt, u32 reqid, bool sub,
			     u32 addr, struct mtp_kt_msg *m)
{
	int i, err;

	for (i = 0; i < 64; i++) {
		err = mtp_kt_srv_recv(kt, m, 0);
		if (err)
			return err;
		if (m->reqid == reqid && !!m->tag == sub && m->address == addr)
			return 0;
	}
	return -ELOOP;
}

/* Requests of @reqid the server has queued; they are consumed. */
static int mtp_kt_srv_drain(struct mtp_kt *kt, u32 reqid)
{
	struct mtp_kt_msg m;
	int n = 0;

	while (!mtp_kt_srv_recv(kt, &m, MSG_DONTWAIT))
		if (m.reqid == reqid && !m.response)
			n++;
	return n;
}

/* A response header answering @req. */
static struct mtp_kt_msg mtp_kt_reply(const struct mtp_kt_msg *req)
{
	struct mtp_kt_msg m = {
		.response = MTP_RES_REPLY,
		.action = req->action,
		.flag = req->flag,
		.reqid = req->reqid,
		.channel = req->channel,
		.tag = req->tag,
	};

	return m;
}

static int mtp_kt_send(struct mtp_kt *kt, const struct mtp_kt_msg *m,
		       const void *data, u32 len)
{
	u8 hdr[MTP_WIRE_HDR_LEN];
	struct kvec iov[2] = {
		{ .iov_base = hdr, .iov_len = sizeof(hdr) },
		{ .iov_base = (void *)data, .iov_len = len },
	};
	struct msghdr msg = {
		.msg_name = &kt->cli_addr,
		.msg_namelen = sizeof(kt->cli_addr),
	};

	mtp_kt_encode(m, hdr);
	return kernel_sendmsg(kt->srv, &msg, iov, len ? 2 : 1,
			      sizeof(hdr) + len);
}

/*
 * Send object bytes [@addr, @addr + @len) of an object of @size bytes
 * in answer to @req, and wait until the client has counted it in
 * @field: INRESPONSES is counted under the socket's lock, before the
 * response is used, so whatever the test does next comes after it.
 */
static void mtp_kt_send_range(struct kunit *test, struct mtp_kt *kt,
			      const struct mtp_kt_msg *req, u32 addr, u32 len,
			      u32 size, enum mtp_mib_field field)
{
	unsigned long seen = mtp_kt_mib(field);
	struct mtp_kt_msg m = mtp_kt_reply(req);
	u32 i;

	m.address = addr;
	m.rsize = size - addr;
	for (i = 0; i < len; i++)
		kt->data[i] = mtp_kt_byte(addr + i);
	KUNIT_ASSERT_EQ(test, mtp_kt_send(kt, &m, kt->data, len),
			(int)(MTP_WIRE_HDR_LEN + len));
	KUNIT_ASSERT_TRUE(test, mtp_kt_wait_mib(field, seen + 1));
}

/* A response the transaction of @req takes in. */
static void mtp_kt_answer(struct kunit *test, struct mtp_kt *kt,
			  const struct mtp_kt_msg *req, u32 addr, u32 len,
			  u32 size)
{
	mtp_kt_send_range(test, kt, req, addr, len, size, MTP_MIB_INRESPONSES);
}

/*
 * A response for a transaction that has ended: it must find nothing,
 * queue nothing for the application, and only be counted.
 */
static void mtp_kt_expect_late(struct kunit *test, struct mtp_kt *kt,
			       const struct mtp_kt_msg *req, u32 addr)
{
	unsigned long notxn = mtp_kt_mib(MTP_MIB_INNOTXN);
	struct mtp_info info;
	bool eor;
	u8 byte;

	mtp_kt_send_range(test, kt, req, addr, 512, addr + 512,
			  MTP_MIB_INNOTXN);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_INNOTXN) - notxn, 1UL);
	KUNIT_EXPECT_EQ(test, mtp_kt_recv(kt, &byte, 1, MSG_DONTWAIT, &info,
					  &eor), -EAGAIN);
}

/* Start a multi-datagram transaction; return its initial request. */
static void mtp_kt_start(struct kunit *test, struct mtp_kt *kt, u32 repeat,
			 u32 expire, struct mtp_kt_msg *req)
{
	u32 reqid;

	KUNIT_ASSERT_EQ(test, mtp_kt_request(kt, 0, repeat, expire, &reqid),
			(int)sizeof(mtp_kt_payload));
	KUNIT_ASSERT_EQ(test, mtp_kt_srv_expect(kt, reqid, false, 0, req), 0);
}

/* Check @n bytes of @buf against the object from @addr on. */
static void mtp_kt_expect_data(struct kunit *test, const u8 *buf, u32 addr,
			       u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (buf[i] != mtp_kt_byte(addr + i)) {
			KUNIT_FAIL(test, "object byte %u: got %u, want %u",
				   addr + i, buf[i], mtp_kt_byte(addr + i));
			return;
		}
	}
}

/* ---- completion ---------------------------------------------------------- */

static void mtp_client_single_complete(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long done = mtp_kt_mib(MTP_MIB_TXNDONE);
	struct mtp_kt_msg req, m;
	struct mtp_info info;
	char buf[64];
	u32 reqid;
	bool eor;
	int n;

	KUNIT_ASSERT_EQ(test, mtp_kt_request(kt, MTP_REQ_SINGLE, 0, 0, &reqid),
			(int)sizeof(mtp_kt_payload));
	KUNIT_ASSERT_EQ(test, mtp_kt_srv_expect(kt, reqid, false, 0, &req), 0);
	/* The request as the application described it. */
	KUNIT_EXPECT_TRUE(test, req.options & MTP_OPT_SINGLE);
	KUNIT_EXPECT_EQ(test, req.shift, 0);
	KUNIT_EXPECT_EQ(test, req.response, 0);
	KUNIT_EXPECT_EQ(test, req.action, MTP_KT_ACTION);
	KUNIT_EXPECT_EQ(test, req.flag, MTP_KT_FLAG);
	KUNIT_EXPECT_EQ(test, req.channel, MTP_KT_CHANNEL);
	KUNIT_ASSERT_EQ(test, req.len, (u32)sizeof(mtp_kt_payload));
	KUNIT_EXPECT_MEMEQ(test, req.payload, mtp_kt_payload, req.len);

	m = mtp_kt_reply(&req);
	m.options = MTP_OPT_SINGLE;
	m.rsize = 4;
	KUNIT_ASSERT_EQ(test, mtp_kt_send(kt, &m, "pong", 4),
			MTP_WIRE_HDR_LEN + 4);

	n = mtp_kt_recv(kt, buf, sizeof(buf), 0, &info, &eor);
	KUNIT_ASSERT_EQ(test, n, 4);
	KUNIT_EXPECT_MEMEQ(test, buf, "pong", 4);
	KUNIT_EXPECT_TRUE(test, eor);
	KUNIT_EXPECT_EQ(test, info.reqid, reqid);
	KUNIT_EXPECT_EQ(test, info.flags & (MTP_INFO_FINAL | MTP_INFO_SINGLE),
			(u32)(MTP_INFO_FINAL | MTP_INFO_SINGLE));
	KUNIT_EXPECT_EQ(test, info.error, MTP_ERR_NONE);
	KUNIT_EXPECT_EQ(test, info.response, MTP_RES_REPLY);
	KUNIT_EXPECT_EQ(test, info.size, 4U);
	KUNIT_EXPECT_EQ(test, info.user, MTP_KT_USER);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNDONE) - done, 1UL);

	/* The same answer again, just after the end. */
	mtp_kt_expect_late(test, kt, &req, 0);
}

/* The whole object in answer to the initial request. */
static void mtp_client_multi_complete(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long done = mtp_kt_mib(MTP_MIB_TXNDONE);
	struct mtp_kt_msg req;
	struct mtp_info info;
	int n;

	mtp_kt_start(test, kt, 0, 0, &req);
	KUNIT_EXPECT_FALSE(test, req.options & MTP_OPT_SINGLE);
	KUNIT_EXPECT_GE(test, req.shift, MTP_WIRE_SHIFT_MIN);
	KUNIT_EXPECT_LE(test, req.shift, MTP_WIRE_SHIFT_MAX);
	KUNIT_EXPECT_EQ(test, req.rsize, 0U);
	KUNIT_EXPECT_GT(test, req.limit, 0);

	mtp_kt_answer(test, kt, &req, 0, 512, 1024);
	mtp_kt_answer(test, kt, &req, 512, 512, 1024);

	n = mtp_kt_recv_all(kt, kt->buf, sizeof(kt->buf), &info);
	KUNIT_ASSERT_EQ(test, n, 1024);
	mtp_kt_expect_data(test, kt->buf, 0, n);
	KUNIT_EXPECT_TRUE(test, info.flags & MTP_INFO_FINAL);
	KUNIT_EXPECT_EQ(test, info.error, MTP_ERR_NONE);
	KUNIT_EXPECT_EQ(test, info.size, 1024U);
	KUNIT_EXPECT_EQ(test, info.rsize, 1024U);
	KUNIT_EXPECT_EQ(test, info.requests, 1U);
	KUNIT_EXPECT_EQ(test, info.losses, 0U);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNDONE) - done, 1UL);

	mtp_kt_expect_late(test, kt, &req, 512);
}

/* A datagram is lost: the client asks for that range alone, then ends. */
static void mtp_client_subrequest(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	struct mtp_kt_msg req, sub;
	struct mtp_info info;
	int n;

	mtp_kt_start(test, kt, 0, 0, &req);
	mtp_kt_answer(test, kt, &req, 0, 512, 1024);
	/* [512, 1024) "lost": declared so after the repeat interval. */
	KUNIT_ASSERT_EQ(test, mtp_kt_srv_expect(kt, req.reqid, true, 512, &sub),
			0);
	KUNIT_EXPECT_EQ(test, sub.rsize, 512U);
	KUNIT_EXPECT_NE(test, sub.tag, 0);
	mtp_kt_answer(test, kt, &sub, 512, 512, 1024);

	n = mtp_kt_recv_all(kt, kt->buf, sizeof(kt->buf), &info);
	KUNIT_ASSERT_EQ(test, n, 1024);
	mtp_kt_expect_data(test, kt->buf, 0, n);
	KUNIT_EXPECT_EQ(test, info.error, MTP_ERR_NONE);
	KUNIT_EXPECT_EQ(test, info.size, 1024U);
	KUNIT_EXPECT_EQ(test, info.losses, 1U);
	KUNIT_EXPECT_GE(test, info.requests, 2U);

	mtp_kt_expect_late(test, kt, &sub, 512);
}

/* ---- expiry -------------------------------------------------------------- */

/* No answer: the request is repeated, then the transaction expires. */
static void mtp_client_expire(struct kunit *test)
{
	const u32 expire = 600;
	struct mtp_kt *kt = test->priv;
	unsigned long expired = mtp_kt_mib(MTP_MIB_TXNEXPIRED);
	unsigned long failed = mtp_kt_mib(MTP_MIB_TXNFAILED);
	unsigned long start = jiffies;
	struct mtp_kt_msg req;
	struct mtp_info info;
	u32 copies;
	bool eor;
	int n;

	WRITE_ONCE(mtp_kt_mn()->repeat_min_ms, 50);
	mtp_kt_start(test, kt, 100, expire, &req);

	n = mtp_kt_recv(kt, kt->data, sizeof(kt->data), 0, &info, &eor);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_EXPECT_TRUE(test, eor);
	KUNIT_EXPECT_EQ(test, info.reqid, req.reqid);
	KUNIT_EXPECT_TRUE(test, info.flags & MTP_INFO_FINAL);
	KUNIT_EXPECT_EQ(test, info.error, MTP_ERR_NET);
	KUNIT_EXPECT_EQ(test, info.response, MTP_ERR_NET_EXPIRE);
	KUNIT_EXPECT_GE(test, jiffies - start, msecs_to_jiffies(expire));
	/* Expiry counts in jiffies: allow one of them. */
	KUNIT_EXPECT_GE(test, info.etime_ms + jiffies_to_msecs(1), expire);
	/* Repeated after 100, then 200 ms (backoff), and the server saw them. */
	KUNIT_EXPECT_GE(test, info.requests, 2U);
	KUNIT_EXPECT_EQ(test, info.repeats, info.requests - 1);
	copies = mtp_kt_srv_drain(kt, req.reqid) + 1;
	KUNIT_EXPECT_GE(test, copies, 2U);
	KUNIT_EXPECT_LE(test, copies, info.requests);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNEXPIRED) - expired, 1UL);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNFAILED) - failed, 1UL);

	/* The answer comes just too late. */
	mtp_kt_expect_late(test, kt, &req, 0);
}

/* ---- abort levels ---------------------------------------------------------- */

/* Check the final message of an aborted transaction that had no data. */
static void mtp_kt_expect_final(struct kunit *test, struct mtp_kt *kt,
				u32 reqid, u8 error, u8 code)
{
	struct mtp_info info;
	bool eor;
	int n;

	n = mtp_kt_recv(kt, kt->data, sizeof(kt->data), MSG_DONTWAIT, &info,
			&eor);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_EXPECT_TRUE(test, eor);
	KUNIT_EXPECT_EQ(test, info.reqid, reqid);
	KUNIT_EXPECT_TRUE(test, info.flags & MTP_INFO_FINAL);
	KUNIT_EXPECT_EQ(test, info.error, error);
	KUNIT_EXPECT_EQ(test, info.response, code);
	KUNIT_EXPECT_EQ(test, info.size, 0U);
}

/* FINISH before any answer: nothing to fill, the transaction succeeds. */
static void mtp_client_abort_finish_first(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long aborted = mtp_kt_mib(MTP_MIB_TXNABORTED);
	unsigned long done = mtp_kt_mib(MTP_MIB_TXNDONE);
	struct mtp_kt_msg req;

	mtp_kt_start(test, kt, 0, 0, &req);
	KUNIT_ASSERT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_FINISH), 0);
	mtp_kt_expect_final(test, kt, req.reqid, MTP_ERR_NONE, 0);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNABORTED) - aborted, 1UL);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNDONE) - done, 1UL);
	/* It is gone. */
	KUNIT_EXPECT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_FINISH),
			-ENOENT);
	mtp_kt_expect_late(test, kt, &req, 0);
}

/*
 * FINISH with a hole: the object ends at the highest byte received, the
 * hole below is still fetched, nothing above is asked for.
 */
static void mtp_client_abort_finish_hole(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	struct mtp_kt_msg req, sub;
	struct mtp_info info;
	bool eor;
	int n;

	mtp_kt_start(test, kt, 0, 0, &req);
	mtp_kt_answer(test, kt, &req, 0, 512, 4096);
	mtp_kt_answer(test, kt, &req, 1024, 512, 4096);
	/* Data is delivered as it becomes contiguous. */
	n = mtp_kt_recv(kt, kt->buf, sizeof(kt->buf), 0, &info, &eor);
	KUNIT_ASSERT_EQ(test, n, 512);
	KUNIT_EXPECT_FALSE(test, eor);
	mtp_kt_expect_data(test, kt->buf, 0, n);

	KUNIT_ASSERT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_FINISH), 0);
	KUNIT_EXPECT_EQ(test, mtp_kt_recv(kt, kt->buf, sizeof(kt->buf),
					  MSG_DONTWAIT, &info, &eor), -EAGAIN);
	/*
	 * What a slow machine may have asked for before the abort; the hole
	 * is asked for again one repeat interval later.
	 */
	mtp_kt_srv_drain(kt, req.reqid);
	KUNIT_ASSERT_EQ(test, mtp_kt_srv_expect(kt, req.reqid, true, 512, &sub),
			0);
	KUNIT_EXPECT_EQ(test, sub.rsize, 512U);
	mtp_kt_answer(test, kt, &sub, 512, 512, 4096);

	n = mtp_kt_recv_all(kt, kt->buf, sizeof(kt->buf), &info);
	KUNIT_ASSERT_EQ(test, n, 1024);
	mtp_kt_expect_data(test, kt->buf, 512, n);
	KUNIT_EXPECT_EQ(test, info.error, MTP_ERR_NONE);
	KUNIT_EXPECT_EQ(test, info.size, 1536U);
	KUNIT_EXPECT_EQ(test, info.rsize, 1536U);
	/* Nothing beyond the top was requested after the abort. */
	while (!mtp_kt_srv_recv(kt, &sub, MSG_DONTWAIT))
		KUNIT_EXPECT_LT(test, sub.address, 1536U);
}

/* STOP before any answer: nothing in transit, it expires at once. */
static void mtp_client_abort_stop_first(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long expired = mtp_kt_mib(MTP_MIB_TXNEXPIRED);
	struct mtp_kt_msg req;

	mtp_kt_start(test, kt, 0, 0, &req);
	KUNIT_ASSERT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_STOP), 0);
	mtp_kt_expect_final(test, kt, req.reqid, MTP_ERR_NET,
			    MTP_ERR_NET_EXPIRE);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNEXPIRED) - expired, 1UL);
	mtp_kt_expect_late(test, kt, &req, 0);
}

/* STOP with data in transit: no new requests, expiry by the timer. */
static void mtp_client_abort_stop_flowing(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long expired = mtp_kt_mib(MTP_MIB_TXNEXPIRED);
	struct mtp_kt_msg req, m;
	struct mtp_info info;
	bool eor;
	int n;

	/*
	 * STOP waits up to one repeat interval, which one loopback sample
	 * brings down to the floor: keep it long enough for the check that
	 * the transaction still waits.
	 */
	WRITE_ONCE(mtp_kt_mn()->repeat_min_ms, 500);
	mtp_kt_start(test, kt, 0, 0, &req);
	mtp_kt_answer(test, kt, &req, 0, 512, 4096);
	n = mtp_kt_recv(kt, kt->buf, sizeof(kt->buf), 0, &info, &eor);
	KUNIT_ASSERT_EQ(test, n, 512);
	KUNIT_EXPECT_FALSE(test, eor);

	KUNIT_ASSERT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_STOP), 0);
	/* Still waiting for what is in transit. */
	KUNIT_EXPECT_EQ(test, mtp_kt_recv(kt, kt->buf, sizeof(kt->buf),
					  MSG_DONTWAIT, &info, &eor), -EAGAIN);
	mtp_kt_srv_drain(kt, req.reqid);

	n = mtp_kt_recv(kt, kt->buf, sizeof(kt->buf), 0, &info, &eor);
	KUNIT_ASSERT_EQ(test, n, 0);
	KUNIT_EXPECT_TRUE(test, eor);
	KUNIT_EXPECT_EQ(test, info.error, MTP_ERR_NET);
	KUNIT_EXPECT_EQ(test, info.response, MTP_ERR_NET_EXPIRE);
	KUNIT_EXPECT_EQ(test, info.size, 512U);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNEXPIRED) - expired, 1UL);
	/* A stopped transaction sends nothing more. */
	KUNIT_EXPECT_EQ(test, mtp_kt_srv_recv(kt, &m, MSG_DONTWAIT), -EAGAIN);

	mtp_kt_expect_late(test, kt, &req, 512);
}

static void mtp_client_abort_expire(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long expired = mtp_kt_mib(MTP_MIB_TXNEXPIRED);
	unsigned long aborted = mtp_kt_mib(MTP_MIB_TXNABORTED);
	struct mtp_kt_msg req;

	mtp_kt_start(test, kt, 0, 0, &req);
	KUNIT_ASSERT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_EXPIRE), 0);
	mtp_kt_expect_final(test, kt, req.reqid, MTP_ERR_NET,
			    MTP_ERR_NET_EXPIRE);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNEXPIRED) - expired, 1UL);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNABORTED) - aborted, 1UL);
	KUNIT_EXPECT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_EXPIRE),
			-ENOENT);
	mtp_kt_expect_late(test, kt, &req, 0);
}

/* DESTROY: no final message, and data not yet read goes too. */
static void mtp_client_abort_destroy(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long failed = mtp_kt_mib(MTP_MIB_TXNFAILED);
	unsigned long expired = mtp_kt_mib(MTP_MIB_TXNEXPIRED);
	struct mtp_kt_msg req;
	struct mtp_info info;
	bool eor;

	mtp_kt_start(test, kt, 0, 0, &req);
	mtp_kt_answer(test, kt, &req, 0, 512, 4096);
	KUNIT_ASSERT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_DESTROY),
			0);
	KUNIT_EXPECT_EQ(test, mtp_kt_recv(kt, kt->buf, sizeof(kt->buf),
					  MSG_DONTWAIT, &info, &eor), -EAGAIN);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNFAILED) - failed, 1UL);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNEXPIRED) - expired, 0UL);
	KUNIT_EXPECT_EQ(test, mtp_kt_abort(kt, req.reqid, MTP_ABORT_DESTROY),
			-ENOENT);
	mtp_kt_expect_late(test, kt, &req, 512);
}

static void mtp_client_abort_invalid(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long aborted = mtp_kt_mib(MTP_MIB_TXNABORTED);
	struct mtp_kt_msg req;
	struct mtp_info info;
	bool eor;

	mtp_kt_start(test, kt, 0, 0, &req);
	KUNIT_EXPECT_EQ(test, mtp_kt_abort(kt, req.reqid,
					   MTP_ABORT_DESTROY + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, mtp_kt_abort(kt, req.reqid + 1, MTP_ABORT_EXPIRE),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNABORTED), aborted);
	/* The transaction is untouched and still completes. */
	mtp_kt_answer(test, kt, &req, 0, 512, 512);
	KUNIT_EXPECT_EQ(test, mtp_kt_recv(kt, kt->buf, sizeof(kt->buf), 0,
					  &info, &eor), 512);
	KUNIT_EXPECT_TRUE(test, eor);
	KUNIT_EXPECT_EQ(test, info.error, MTP_ERR_NONE);
}

/* close() with transactions running ends them all, silently. */
static void mtp_client_close_live(struct kunit *test)
{
	struct mtp_kt *kt = test->priv;
	unsigned long failed = mtp_kt_mib(MTP_MIB_TXNFAILED);
	unsigned long socks = mtp_kt_mib(MTP_MIB_CURRSOCKETS);
	struct mtp_kt_msg req1, req2;

	mtp_kt_start(test, kt, 0, 0, &req1);
	mtp_kt_start(test, kt, 0, 0, &req2);
	mtp_kt_answer(test, kt, &req2, 0, 512, 4096);
	KUNIT_EXPECT_EQ(test, mtp_sk(kt->cli->sk)->nctxn, 2U);

	sock_release(kt->cli);
	kt->cli = NULL;
	KUNIT_EXPECT_EQ(test, mtp_kt_mib(MTP_MIB_TXNFAILED) - failed, 2UL);
	KUNIT_EXPECT_EQ(test, socks - mtp_kt_mib(MTP_MIB_CURRSOCKETS), 1UL);
}

static struct kunit_case mtp_client_cases[] = {
	KUNIT_CASE(mtp_client_single_complete),
	KUNIT_CASE(mtp_client_multi_complete),
	KUNIT_CASE_SLOW(mtp_client_subrequest),
	KUNIT_CASE_SLOW(mtp_client_expire),
	KUNIT_CASE(mtp_client_abort_finish_first),
	KUNIT_CASE_SLOW(mtp_client_abort_finish_hole),
	KUNIT_CASE(mtp_client_abort_stop_first),
	KUNIT_CASE_SLOW(mtp_client_abort_stop_flowing),
	KUNIT_CASE(mtp_client_abort_expire),
	KUNIT_CASE(mtp_client_abort_destroy),
	KUNIT_CASE(mtp_client_abort_invalid),
	KUNIT_CASE(mtp_client_close_live),
	{}
};

static struct kunit_suite mtp_client_suite = {
	.name = "mtp_client",
	.init = mtp_kt_init,
	.exit = mtp_kt_exit,
	.test_cases = mtp_client_cases,
};

/* ---- module ---------------------------------------------------------------- */

static int mtp_kt_encap_users(void)
{
	return static_key_count(&udp_encap_needed_key.key);
}

/*
 * The module holds UDP's encapsulation key: a socket's UDP tunnel adds
 * one user and its close takes it away, and the key never drops to zero,
 * which would patch kernel text.
 */
static void mtp_module_encap_key_held(struct kunit *test)
{
	struct sockaddr_in lo = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int users = mtp_kt_encap_users();
	struct socket *sock;

	KUNIT_EXPECT_GE(test, users, 1);
	KUNIT_ASSERT_EQ(test, sock_create(AF_INET, SOCK_MTP, 0, &sock), 0);
	KUNIT_EXPECT_EQ(test, kernel_bind(sock, (struct sockaddr *)&lo,
					  sizeof(lo)), 0);
	KUNIT_EXPECT_EQ(test, mtp_kt_encap_users(), users + 1);
	sock_release(sock);
	KUNIT_EXPECT_EQ(test, mtp_kt_encap_users(), users);
}

static struct kunit_case mtp_module_cases[] = {
	KUNIT_CASE(mtp_module_encap_key_held),
	{}
};

static struct kunit_suite mtp_module_suite = {
	.name = "mtp_module",
	.test_cases = mtp_module_cases,
};

kunit_test_suites(&mtp_client_suite, &mtp_module_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of MTP client transactions");
