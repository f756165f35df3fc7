// SPDX-License-Identifier: GPL-2.0
/*
 * User-space tests of the MTP module's pure code: the header codec
 * (net/mtp/wire.c), the RTT estimator (rtt.c) and flow control (flow.c),
 * built from the module's own sources with AddressSanitizer and
 * UndefinedBehaviorSanitizer (selftests/unit/Makefile, "mtp-run").
 */
#include <stdio.h>
#include <string.h>

#include <linux/mtp.h>

#include "wire.h"
#include "rtt.h"
#include "cc.h"
#include "flow.h"
#include "kselftest_harness.h"

static u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static const struct mtp_wire_msg sample = {
	.appversion = 7, .options = MTP_OPT_SUPPRESS, .error = 0,
	.response = MTP_RES_REPLY, .action = MTP_ACT_DATA, .flag = 0x5a,
	.dgram_shift = 0, .reqid = 0x11223344, .channel = 0x55667788,
	.address = 0x01020304, .rsize = 0x00100000, .limit = 0x0102,
	.tag = 0xbeef,
};

TEST(layout)
{
	u8 b[MTP_HDR_LEN];

	ASSERT_EQ(MTP_HDR_LEN, MTP_WIRE_HDR_LEN);
	ASSERT_EQ(MTP_WIRE_HDR_LEN, mtp_wire_encode_hdr(&sample, b, sizeof(b)));
	EXPECT_EQ(MTP_WIRE_VERSION, b[0]);
	EXPECT_EQ(7, b[1]);
	EXPECT_EQ(MTP_OPT_SUPPRESS, b[2]);
	EXPECT_EQ(0, b[3]);
	EXPECT_EQ(MTP_RES_REPLY, b[4]);
	EXPECT_EQ(MTP_ACT_DATA, b[5]);
	EXPECT_EQ(0x5a, b[6]);
	EXPECT_EQ(0, b[7]);
	EXPECT_EQ(0x11223344, be32(b + 8));
	EXPECT_EQ(0x55667788, be32(b + 12));
	EXPECT_EQ(0x01020304, be32(b + 16));
	EXPECT_EQ(0x00100000, be32(b + 20));
	EXPECT_EQ(0x01, b[24]);
	EXPECT_EQ(0x02, b[25]);
	EXPECT_EQ(0xbe, b[26]);
	EXPECT_EQ(0xef, b[27]);
	EXPECT_EQ(-MTP_WIRE_ENOSPC, mtp_wire_encode_hdr(&sample, b, 27));
}

TEST(roundtrip)
{
	u8 b[MTP_HDR_LEN + 100];
	struct mtp_wire_msg m;

	memset(b, 0xa5, sizeof(b));
	mtp_wire_encode_hdr(&sample, b, sizeof(b));
	ASSERT_EQ(0, mtp_wire_decode(b, sizeof(b), &m));
	EXPECT_EQ(100, m.payload_len);
	EXPECT_EQ(b + MTP_HDR_LEN, m.payload);
	EXPECT_EQ(sample.reqid, m.reqid);
	EXPECT_EQ(sample.channel, m.channel);
	EXPECT_EQ(sample.address, m.address);
	EXPECT_EQ(sample.rsize, m.rsize);
	EXPECT_EQ(sample.limit, m.limit);
	EXPECT_EQ(sample.tag, m.tag);
	EXPECT_EQ(sample.flag, m.flag);
	EXPECT_EQ(sample.appversion, m.appversion);
	EXPECT_FALSE(mtp_wire_is_request(&m));
}

static int dec(struct mtp_wire_msg *in, u32 plen)
{
	static u8 b[MTP_HDR_LEN + 70000];
	struct mtp_wire_msg m;

	mtp_wire_encode_hdr(in, b, sizeof(b));
	return mtp_wire_decode(b, MTP_HDR_LEN + plen, &m);
}

TEST(requests)
{
	struct mtp_wire_msg r = { .action = MTP_ACT_DATA, .dgram_shift = 10,
				  .rsize = 4096, .limit = 8, .tag = 1 };
	struct mtp_wire_msg m;
	u8 b[MTP_HDR_LEN];

	EXPECT_EQ(0, dec(&r, 0));
	EXPECT_EQ(0, dec(&r, MTP_SIZE_REQUEST));
	EXPECT_EQ(-MTP_WIRE_ESIZE, dec(&r, MTP_SIZE_REQUEST + 1));
	r.options = MTP_OPT_NOPAYLOAD;
	EXPECT_EQ(0, dec(&r, 0));
	EXPECT_EQ(-MTP_WIRE_ESIZE, dec(&r, 1));
	r.options = 0;
	r.dgram_shift = 8;
	EXPECT_EQ(-MTP_WIRE_ESHIFT, dec(&r, 0));
	r.dgram_shift = 15;
	EXPECT_EQ(-MTP_WIRE_ESHIFT, dec(&r, 0));
	r.options = MTP_OPT_SINGLE;	/* opaque fields in single mode */
	EXPECT_EQ(0, dec(&r, 0));
	r.options = 0;
	r.dgram_shift = 14;
	r.address = 0xfffff000;
	r.rsize = 0x1000;
	EXPECT_EQ(0, dec(&r, 0));
	r.rsize = 0x1001;
	EXPECT_EQ(-MTP_WIRE_ERANGE, dec(&r, 0));
	r.address = MTP_STREAM_CLOSE;
	r.rsize = MTP_STREAM_CLOSE;
	EXPECT_EQ(0, dec(&r, 0));
	r.options = 0x40;
	EXPECT_EQ(-MTP_WIRE_EOPTIONS, dec(&r, 0));
	r.options = 0;
	r.error = 1;	/* response 0 with an error class: nonsense */
	EXPECT_EQ(-MTP_WIRE_EERROR, dec(&r, 0));

	/* A request is response 0, error 0. */
	r.error = 0;
	mtp_wire_encode_hdr(&r, b, sizeof(b));
	ASSERT_EQ(0, mtp_wire_decode(b, sizeof(b), &m));
	EXPECT_TRUE(mtp_wire_is_request(&m));
}

TEST(responses)
{
	struct mtp_wire_msg r = { .response = MTP_RES_REPLY, .rsize = 20000,
				  .address = 0 };

	EXPECT_EQ(0, dec(&r, 16384));
	EXPECT_EQ(-MTP_WIRE_ESIZE, dec(&r, 16385));
	r.rsize = 100;
	EXPECT_EQ(-MTP_WIRE_ERANGE, dec(&r, 101));	/* past the object */
	r.rsize = 20000;
	r.address = 0xffffff00;
	EXPECT_EQ(-MTP_WIRE_ERANGE, dec(&r, 257));
	r.options = MTP_OPT_SINGLE;	/* one big datagram is fine */
	EXPECT_EQ(0, dec(&r, 60000));
	r.options = 0;
	r.error = MTP_ERR_APP;
	r.response = MTP_ERR_APP_ACTION;
	EXPECT_EQ(0, dec(&r, 100));
	EXPECT_EQ(-MTP_WIRE_ESIZE, dec(&r, 1025));
	r.error = 6;
	EXPECT_EQ(-MTP_WIRE_EERROR, dec(&r, 0));
}

TEST(malformed)
{
	u8 b[MTP_HDR_LEN];
	struct mtp_wire_msg m;
	unsigned int i;

	mtp_wire_encode_hdr(&sample, b, sizeof(b));
	for (i = 0; i < MTP_HDR_LEN; i++)
		EXPECT_EQ(-MTP_WIRE_ETRUNC, mtp_wire_decode(b, i, &m));
	b[0] = 0x21;
	EXPECT_EQ(-MTP_WIRE_EVERSION, mtp_wire_decode(b, sizeof(b), &m));
	EXPECT_STREQ("bad version", mtp_wire_strerror(-MTP_WIRE_EVERSION));
	EXPECT_STREQ("unknown", mtp_wire_strerror(99));
}

TEST(limit_units)
{
	EXPECT_EQ(0, mtp_wire_limit_units(0));
	EXPECT_EQ(1, mtp_wire_limit_units(1));
	EXPECT_EQ(1, mtp_wire_limit_units(512));
	EXPECT_EQ(2, mtp_wire_limit_units(513));
	EXPECT_EQ(0xffff, mtp_wire_limit_units(0xffffffff));
	EXPECT_EQ(65536, mtp_wire_limit_bytes(128));
}

TEST(rtt)
{
	struct mtp_rtt r;
	int i;

	mtp_rtt_init(&r);
	EXPECT_EQ(0, mtp_rtt_avg(&r));
	EXPECT_EQ(2000, mtp_rtt_repeat_ms(&r, 2000, 500));
	EXPECT_EQ(500, mtp_rtt_repeat_ms(&r, 100, 500));
	for (i = 0; i < 8; i++)
		mtp_rtt_sample(&r, 100000);	/* 100 ms */
	EXPECT_EQ(100000, mtp_rtt_avg(&r));
	EXPECT_EQ(100000, r.min_us);
	/* [2, 4] x 100 ms, then the 500 ms floor */
	EXPECT_EQ(400, mtp_rtt_repeat_ms(&r, 2000, 0));
	EXPECT_EQ(200, mtp_rtt_repeat_ms(&r, 50, 0));
	EXPECT_EQ(300, mtp_rtt_repeat_ms(&r, 300, 0));
	EXPECT_EQ(500, mtp_rtt_repeat_ms(&r, 2000, 500));
	/* only the last eight count */
	for (i = 0; i < 8; i++)
		mtp_rtt_sample(&r, 300000);
	EXPECT_EQ(300000, mtp_rtt_avg(&r));
	EXPECT_EQ(100000, r.min_us);
	mtp_rtt_sample(&r, 0xffffffff);
	EXPECT_EQ(MTP_RTT_MAX_US, r.ring[0]);
}

/*
 * An RTT another socket measured serves the repeat interval until the
 * first measurement, which replaces it, and sets no minimum.
 */
TEST(rtt_hint)
{
	struct mtp_rtt r;

	mtp_rtt_hint(&r, 100000);
	EXPECT_EQ(100000, mtp_rtt_avg(&r));
	EXPECT_EQ(0, r.min_us);
	EXPECT_EQ(400, mtp_rtt_repeat_ms(&r, 1000, 20));
	mtp_rtt_sample(&r, 50000);
	EXPECT_EQ(1, r.n);
	EXPECT_EQ(50000, mtp_rtt_avg(&r));
	EXPECT_EQ(50000, r.min_us);
	mtp_rtt_hint(&r, 0);
	EXPECT_EQ(0, r.n);
	EXPECT_EQ(1000, mtp_rtt_repeat_ms(&r, 1000, 20));
}

/* RFC 6928's window; growth only while it limits; slow start, then AIMD. */
TEST(cc_growth)
{
	struct mtp_cc c;
	int i;

	EXPECT_EQ(14600, mtp_cc_init_window(1460));
	EXPECT_EQ(10240, mtp_cc_init_window(1024));
	EXPECT_EQ(16384, mtp_cc_init_window(8192));	/* two datagrams */
	mtp_cc_init(&c, 1024, 1000);
	EXPECT_EQ(10240, c.cwnd);
	EXPECT_EQ(10240, mtp_cc_room(&c));
	c.inflight = 10000;
	EXPECT_EQ(240, mtp_cc_room(&c));
	c.inflight = 20000;
	EXPECT_EQ(0, mtp_cc_room(&c));
	/* less than half of it was in flight: it did not limit, no growth */
	c.inflight = 0;
	mtp_cc_acked(&c, 1024, 1024);
	EXPECT_EQ(10240, c.cwnd);
	/* slow start: what arrives, at most two datagrams at a time */
	c.inflight = 8192;
	mtp_cc_acked(&c, 1024, 1024);
	EXPECT_EQ(11264, c.cwnd);
	mtp_cc_acked(&c, 8192, 1024);
	EXPECT_EQ(13312, c.cwnd);
	/* congestion avoidance: one datagram per window, while it is full */
	c.ssthresh = c.cwnd;
	c.inflight = 0;
	for (i = 0; i < 20; i++)
		mtp_cc_acked(&c, 1024, 1024);
	EXPECT_EQ(13312, c.cwnd);
	c.inflight = 12288;
	for (i = 0; i < 12; i++)
		mtp_cc_acked(&c, 1024, 1024);
	EXPECT_EQ(13312, c.cwnd);
	mtp_cc_acked(&c, 1024, 1024);
	EXPECT_EQ(14336, c.cwnd);
}

/*
 * Veno's test: a loss while cwnd * (1 - min RTT / RTT) is eight datagrams
 * (one subrequest's burst) or more halves the window, once per round;
 * below, the window stays.
 */
TEST(cc_loss)
{
	struct mtp_cc c;
	struct mtp_rtt r;
	int i;

	mtp_rtt_init(&r);
	mtp_cc_init(&c, 1024, 1000);
	c.cwnd = 100 * 1024;
	/* no samples: congestion */
	EXPECT_TRUE(mtp_cc_queueing(&c, 1024, &r));
	/*
	 * 100 KiB at 50 ms; of the last eight samples one took 150 ms (the
	 * server's application), the least 1 ms above the minimum: 2 KiB
	 * queued, not 8.  The average (63 ms) would have said 21 KiB.
	 */
	mtp_rtt_sample(&r, 50000);
	mtp_rtt_sample(&r, 150000);
	for (i = 0; i < 7; i++)
		mtp_rtt_sample(&r, 51000);
	EXPECT_EQ(51000, mtp_rtt_recent_min(&r));
	EXPECT_EQ(63375, mtp_rtt_avg(&r));
	EXPECT_FALSE(mtp_cc_queueing(&c, 1024, &r));
	EXPECT_EQ(MTP_CC_RANDOM, mtp_cc_lost(&c, 1001, 1002, 1024, &r));
	EXPECT_EQ(100 * 1024, c.cwnd);
	/* requested before that loss was taken: the same event */
	EXPECT_EQ(MTP_CC_NONE, mtp_cc_lost(&c, 1002, 1003, 1024, &r));
	EXPECT_EQ(100 * 1024, c.cwnd);
	/* all of them 6 ms above: 10.7 datagrams queued, congestion */
	for (i = 0; i < 8; i++)
		mtp_rtt_sample(&r, 56000);
	EXPECT_TRUE(mtp_cc_queueing(&c, 1024, &r));
	EXPECT_EQ(MTP_CC_CONGESTION, mtp_cc_lost(&c, 1003, 1010, 1024, &r));
	EXPECT_EQ(50 * 1024, c.cwnd);
	EXPECT_EQ(50 * 1024, c.ssthresh);
	EXPECT_EQ(MTP_CC_NONE, mtp_cc_lost(&c, 1009, 1011, 1024, &r));
	/* the test scales with the window: 50 KiB queue 5.4 datagrams */
	EXPECT_EQ(MTP_CC_RANDOM, mtp_cc_lost(&c, 1011, 1012, 1024, &r));
	/* the RTT doubled: half the window is queued */
	for (i = 0; i < 8; i++)
		mtp_rtt_sample(&r, 100000);
	EXPECT_EQ(MTP_CC_CONGESTION, mtp_cc_lost(&c, 1013, 1020, 1024, &r));
	EXPECT_EQ(25 * 1024, c.cwnd);
	/* never below two datagrams (without samples, every loss cuts) */
	mtp_rtt_init(&r);
	for (i = 0; i < 20; i++)
		mtp_cc_lost(&c, 1021 + i, 1021 + i, 1024, &r);
	EXPECT_EQ(2048, c.cwnd);
	/* jiffies wrap: "sent after the cut" still holds */
	mtp_cc_init(&c, 1024, (unsigned long)-5);
	EXPECT_EQ(MTP_CC_CONGESTION, mtp_cc_lost(&c, 2, 3, 1024, &r));
	/* an epoch jiffies wrapped past is over, whatever "sent" says */
	EXPECT_EQ(MTP_CC_NONE, mtp_cc_lost(&c, 2, 4, 1024, &r));
	EXPECT_EQ(MTP_CC_CONGESTION, mtp_cc_lost(&c, 2, 2, 1024, &r));
}

TEST(cc_pacing)
{
	const u64 ms = 1000000, slack = 4 * ms;
	struct mtp_cc c;
	u64 rate;

	mtp_cc_init(&c, 1024, 1000);
	/* no RTT sample: nothing is paced */
	EXPECT_EQ(0, mtp_cc_pace_rate(&c, 0));
	mtp_cc_paced(&c, 8192, 0, 50 * ms);
	EXPECT_EQ(0, mtp_cc_pace_wait(&c, 50 * ms, 0));
	/* slow start: twice the window (10 KiB) per 40 ms, 512000 B/s */
	rate = mtp_cc_pace_rate(&c, 40000);
	EXPECT_EQ(512000, rate);
	/* 8 KiB take 16 ms at that rate; what is due within the slack goes */
	mtp_cc_paced(&c, 8192, rate, 100 * ms);
	EXPECT_EQ(116 * ms, c.pace_next);
	EXPECT_EQ(12 * ms, mtp_cc_pace_wait(&c, 100 * ms, slack));
	EXPECT_EQ(0, mtp_cc_pace_wait(&c, 112 * ms, slack));
	/* sent late: the next is due from the last one's due time ... */
	mtp_cc_paced(&c, 1024, rate, 114 * ms);
	EXPECT_EQ(118 * ms, c.pace_next);
	/* ... but a pause builds no credit */
	mtp_cc_paced(&c, 1024, rate, 300 * ms);
	EXPECT_EQ(302 * ms, c.pace_next);
	/* congestion avoidance: 1.2 times the window per RTT */
	c.ssthresh = c.cwnd;
	EXPECT_EQ(307200, mtp_cc_pace_rate(&c, 40000));
}

TEST(flow_growth)
{
	struct mtp_flow f;
	struct mtp_rtt r;
	u32 w;
	int i;

	mtp_rtt_init(&r);
	mtp_rtt_sample(&r, 1000);
	EXPECT_EQ(1024, mtp_flow_dgram_cap(1444, 212992));
	EXPECT_EQ(8192, mtp_flow_dgram_cap(65000, 212992));
	EXPECT_EQ(512, mtp_flow_dgram_cap(100, 212992));
	mtp_flow_init(&f, 212992, 1024);
	EXPECT_EQ(65536, f.window);
	EXPECT_EQ(1024, f.dgram);
	EXPECT_EQ(10, mtp_flow_shift(&f));
	w = f.window;
	/* M = 1: one datagram more after one window of data */
	for (i = 0; i < 64; i++)
		mtp_flow_received(&f, 1024, &r);
	EXPECT_EQ(w + 1024, f.window);
	EXPECT_EQ(0, f.flowtimeout);
	/* no growth when the RTT is ten times its minimum */
	for (i = 0; i < 8; i++)
		mtp_rtt_sample(&r, 20000);
	w = f.window;
	for (i = 0; i < 1000; i++)
		mtp_flow_received(&f, 1024, &r);
	EXPECT_EQ(w, f.window);
}

TEST(flow_path_cut)
{
	struct mtp_flow f;

	mtp_flow_init(&f, 4 << 20, 8192);
	f.dgram = 8192;
	/* the server's path takes 1024: ask for no more, from now on */
	mtp_flow_path_cut(&f, 1024);
	EXPECT_EQ(1024, f.dgram);
	EXPECT_EQ(1024, f.dgram_max);
	/* a larger one never raises it again */
	mtp_flow_path_cut(&f, 4096);
	EXPECT_EQ(1024, f.dgram_max);
	/* nor below the least datagram */
	mtp_flow_path_cut(&f, 256);
	EXPECT_EQ(512, f.dgram_max);
	EXPECT_EQ(512, f.dgram);
}

TEST(flow_loss)
{
	struct mtp_flow f;
	struct mtp_rtt r;
	u32 w;

	mtp_rtt_init(&r);
	mtp_flow_init(&f, 212992, 1024);
	w = f.window;
	mtp_flow_lost(&f, 1024, &r);
	EXPECT_EQ(w - 1024, f.window);
	EXPECT_TRUE(f.loss_seen);
	EXPECT_EQ((s64)f.window, f.flowtimeout);
	/* moratorium: more losses within a window do not shrink it */
	mtp_flow_lost(&f, 1024, &r);
	mtp_flow_lost(&f, 1024, &r);
	EXPECT_EQ(w - 1024, f.window);
	/* the window never goes below one datagram; P halves on the way */
	while (f.window > 512) {
		f.flowtimeout = 0;
		mtp_flow_lost(&f, 512, &r);
	}
	EXPECT_EQ(512, f.dgram);
	EXPECT_EQ(512, f.window);
	EXPECT_EQ(512, f.win_min);
	EXPECT_EQ(3 * 512, f.flowtimeout);
	/* M = 2 after a loss: two windows of data per step */
	f.flowtimeout = 0;
	mtp_flow_received(&f, 512, &r);
	EXPECT_EQ(512, f.window);
	mtp_flow_received(&f, 512, &r);
	EXPECT_EQ(1024, f.window);
}

TEST(flow_ambient_loss)
{
	struct mtp_flow f;
	struct mtp_rtt r;
	u32 w;
	int i;

	mtp_rtt_init(&r);
	EXPECT_TRUE(mtp_flow_congested(&r));	/* no samples: assume so */
	for (i = 0; i < 8; i++)
		mtp_rtt_sample(&r, 50000 + i * 1000);
	EXPECT_FALSE(mtp_flow_congested(&r));
	mtp_flow_init(&f, 212992, 1024);
	w = f.window;
	/* losses at the minimum RTT: the window holds, growth waits */
	for (i = 0; i < 100; i++) {
		mtp_flow_lost(&f, 1024, &r);
		mtp_flow_received(&f, 1024, &r);
		mtp_flow_received(&f, 1024, &r);
	}
	EXPECT_EQ(w, f.window);
	EXPECT_TRUE(f.loss_seen);
	EXPECT_LT(0, f.flowtimeout);
	/* the RTT has doubled: the path queues, a loss narrows the window */
	for (i = 0; i < 8; i++)
		mtp_rtt_sample(&r, 120000);
	EXPECT_TRUE(mtp_flow_congested(&r));
	f.flowtimeout = 0;
	mtp_flow_lost(&f, 1024, &r);
	EXPECT_EQ(w - 1024, f.window);
}

TEST(flow_dgram_grows)
{
	struct mtp_flow f;
	struct mtp_rtt r;
	int i;

	mtp_rtt_init(&r);
	mtp_rtt_sample(&r, 100000);	/* WAN: window may reach 2 x rcvbuf */
	mtp_flow_init(&f, 1 << 20, 8192);
	EXPECT_EQ(2048, f.dgram);	/* 64 KiB / 1 KiB > 16: doubled */
	for (i = 0; i < 20000; i++)
		mtp_flow_received(&f, f.dgram, &r);
	EXPECT_EQ(8192, f.dgram);
	EXPECT_GE(mtp_flow_window_max(&f, &r), f.window);
	EXPECT_LT(65536, f.window);
}

TEST(flow_squeeze)
{
	struct mtp_flow f;
	struct mtp_rtt r;
	u32 w;

	mtp_rtt_init(&r);
	mtp_flow_init(&f, 212992, 1024);
	w = f.window;
	mtp_flow_lost(&f, 1024, &r);	/* starts a moratorium */
	EXPECT_LT(0, f.flowtimeout);
	/* the receive-queue guard narrows the window even so */
	mtp_flow_squeeze(&f);
	EXPECT_EQ(w - 2048, f.window);
	EXPECT_EQ(0, f.flowtimeout);
	while (f.window > f.dgram)
		mtp_flow_squeeze(&f);
	mtp_flow_squeeze(&f);
	EXPECT_EQ(f.dgram, f.window);
	EXPECT_EQ(512, f.dgram);
	/* Less than two datagrams: never below one. */
	f.window = f.dgram + 1;
	mtp_flow_squeeze(&f);
	EXPECT_EQ(f.dgram, f.window);
}

TEST(responses_reach_at_most_4g)
{
	u8 b[MTP_HDR_LEN + 16] = { 0 };
	struct mtp_wire_msg m = sample, d;

	/* a response's data must end within the 2^32-byte object */
	m.address = 0xfffffff8;
	m.rsize = 16;
	mtp_wire_encode_hdr(&m, b, sizeof(b));
	EXPECT_EQ(-MTP_WIRE_ERANGE, mtp_wire_decode(b, sizeof(b), &d));
	m.address = 0xfffffff0;
	mtp_wire_encode_hdr(&m, b, sizeof(b));
	EXPECT_EQ(0, mtp_wire_decode(b, sizeof(b), &d));
	EXPECT_EQ(16, d.payload_len);
	/* and a request's range too, but for the stream close */
	m = sample;
	m.response = 0;
	m.options = 0;
	m.dgram_shift = 10;
	m.address = 0xffffff00;
	m.rsize = 0x101;
	mtp_wire_encode_hdr(&m, b, sizeof(b));
	EXPECT_EQ(-MTP_WIRE_ERANGE, mtp_wire_decode(b, MTP_HDR_LEN, &d));
	m.address = 0xffffffff;
	m.rsize = 0xffffffff;
	mtp_wire_encode_hdr(&m, b, sizeof(b));
	EXPECT_EQ(0, mtp_wire_decode(b, MTP_HDR_LEN, &d));
}

/*
 * The TOKEN option: 8 bytes after the header, big-endian, then the
 * payload; a datagram that announces a token it has no room for is
 * truncated.
 */
TEST(token)
{
	u8 b[MTP_WIRE_HDR_MAX + 4];
	struct mtp_wire_msg m = sample, d;

	m.options |= MTP_OPT_TOKEN;
	m.token = 0x0123456789abcdefULL;
	EXPECT_EQ(MTP_WIRE_HDR_MAX, mtp_wire_hdr_len(&m));
	EXPECT_EQ(-MTP_WIRE_ENOSPC, mtp_wire_encode_hdr(&m, b, 35));
	ASSERT_EQ(MTP_WIRE_HDR_MAX, mtp_wire_encode_hdr(&m, b, sizeof(b)));
	EXPECT_EQ(MTP_OPT_SUPPRESS | MTP_OPT_TOKEN, b[2]);
	EXPECT_EQ(0x01234567, be32(b + 28));
	EXPECT_EQ(0x89abcdef, be32(b + 32));
	memcpy(b + MTP_WIRE_HDR_MAX, "abcd", 4);
	ASSERT_EQ(0, mtp_wire_decode(b, sizeof(b), &d));
	EXPECT_EQ(m.token, d.token);
	EXPECT_EQ(4, d.payload_len);
	EXPECT_EQ(b + MTP_WIRE_HDR_MAX, d.payload);
	EXPECT_EQ(-MTP_WIRE_ETRUNC, mtp_wire_decode(b, MTP_WIRE_HDR_MAX - 1,
						    &d));
	ASSERT_EQ(0, mtp_wire_decode(b, MTP_WIRE_HDR_MAX, &d));
	EXPECT_EQ(0, d.payload_len);
	/* without the option, the same bytes are payload */
	b[2] = MTP_OPT_SUPPRESS;
	ASSERT_EQ(0, mtp_wire_decode(b, sizeof(b), &d));
	EXPECT_EQ(0, d.token);
	EXPECT_EQ(12, d.payload_len);
	/* the bits above TOKEN stay reserved */
	b[2] = 0x40;
	EXPECT_EQ(-MTP_WIRE_EOPTIONS, mtp_wire_decode(b, sizeof(b), &d));
	/* the server's "validate" reply: empty, with the token */
	m.options = MTP_OPT_SINGLE | MTP_OPT_TOKEN;
	m.response = MTP_RES_VALIDATE;
	ASSERT_EQ(MTP_WIRE_HDR_MAX, mtp_wire_encode_hdr(&m, b, sizeof(b)));
	ASSERT_EQ(0, mtp_wire_decode(b, MTP_WIRE_HDR_MAX, &d));
	EXPECT_FALSE(mtp_wire_is_request(&d));
	EXPECT_EQ(3, d.response);
	EXPECT_EQ(m.token, d.token);
}

/*
 * With the delivery-rate model the window is flow control alone: it
 * grows by what arrives up to a quarter of the receive buffer (1 MiB
 * here, past the loss-driven window's 256 datagrams), where the
 * loss-driven window stays in its moratorium.
 */
TEST(flow_grow_ignores_loss)
{
	struct mtp_flow f, g;
	struct mtp_rtt r;
	int i;

	mtp_rtt_init(&r);
	mtp_rtt_sample(&r, 20000);
	mtp_flow_init(&f, 4 << 20, 1024);
	g = f;
	EXPECT_EQ(65536, f.window);
	for (i = 0; i < 100; i++) {
		mtp_flow_grow(&f, 1024);
		mtp_flow_received(&g, 1024, &r);
		if (i % 10 == 9)
			mtp_flow_lost(&g, 1024, &r);
	}
	EXPECT_EQ(65536 + 100 * 1024, f.window);
	EXPECT_EQ(65536, g.window);
	for (i = 0; i < 10000; i++)
		mtp_flow_grow(&f, 1024);
	EXPECT_EQ(1 << 20, f.window);
	EXPECT_EQ(mtp_flow_grow_max(&f), f.window);
	EXPECT_GT(f.window, mtp_flow_window_max(&f, &r));
	/* A default receive buffer keeps the initial 64 KiB ... */
	mtp_flow_init(&f, 212992, 1024);
	for (i = 0; i < 1000; i++)
		mtp_flow_grow(&f, 1024);
	EXPECT_EQ(65536, f.window);
	/* ... until it grows; it never shrinks that way. */
	mtp_flow_rcvbuf_grown(&f, 1 << 20);
	mtp_flow_rcvbuf_grown(&f, 4096);
	EXPECT_EQ(1 << 20, f.rcvbuf);
	for (i = 0; i < 1000; i++)
		mtp_flow_grow(&f, 1024);
	EXPECT_EQ(256 << 10, f.window);
}

TEST_HARNESS_MAIN
