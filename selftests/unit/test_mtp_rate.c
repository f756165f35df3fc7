// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/mtp/rate.c: a client fetching from one
 * server host through a simulated bottleneck, its subrequests stamped,
 * paced and windowed by the delivery-rate model.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "rate.h"

#define DGRAM	1400
#define SUB	(8 * DGRAM)	/* a subrequest's answer: eight datagrams */
#define MS	1000000ULL
#define MAXREQ	4096

struct req {
	struct mtp_rate_stamp st;
	u64 arrive[8];
	bool lost[8];
	int left;
};

struct fetch {
	struct mtp_rate r;
	struct mtp_cc cc;
	struct req q[MAXREQ];
	unsigned int head, tail;
	u64 now, link_free, pace_next, rtt, rate;
	u64 got, lost;
	unsigned int loss_pct, seed;
};

static unsigned int rnd(struct fetch *f)
{
	f->seed = f->seed * 1103515245 + 12345;
	return (f->seed >> 8) % 100;
}

static void fetch_init(struct fetch *f, u64 rate, u64 rtt_ms,
		       unsigned int loss_pct)
{
	memset(f, 0, sizeof(*f));
	f->rate = rate;
	f->rtt = rtt_ms * MS;
	f->loss_pct = loss_pct;
	f->seed = 20261127;
	mtp_cc_init(&f->cc, DGRAM, 0);
	mtp_rate_init(&f->r, 0);
}

/* A subrequest leaves: the server answers it at the bottleneck's rate. */
static void fetch_request(struct fetch *f)
{
	struct req *q = &f->q[f->tail++ % MAXREQ];
	u64 t = f->now + f->rtt / 2;
	int i;

	f->cc.inflight += SUB;
	mtp_rate_sent(&f->r, &q->st, f->cc.inflight == SUB, false, f->now);
	q->left = 8;
	for (i = 0; i < 8; i++) {
		if (f->link_free > t)
			t = f->link_free;
		t += DGRAM * 1000000000ULL / f->rate;
		f->link_free = t;
		q->arrive[i] = t + f->rtt / 2;
		q->lost[i] = rnd(f) < f->loss_pct;
	}
}

/* The next event: an answer datagram, or a request due. */
static void fetch_step(struct fetch *f)
{
	struct req *q = f->head != f->tail ? &f->q[f->head % MAXREQ] : NULL;
	u64 rate, srtt = f->rtt / 1000;
	int i = q ? 8 - q->left : 0;
	bool room = f->cc.inflight + SUB <= f->cc.cwnd || !f->cc.inflight;

	if (room && (!q || f->pace_next <= q->arrive[i])) {
		if (f->now < f->pace_next)
			f->now = f->pace_next;
		fetch_request(f);
		rate = mtp_rate_pace(&f->r, &f->cc, (u32)srtt, DGRAM);
		f->pace_next = f->now + (rate ? SUB * 1000000000ULL / rate : 0);
		return;
	}
	if (!q)
		return;
	f->now = q->arrive[i];
	f->cc.inflight -= DGRAM;
	if (q->lost[i]) {
		mtp_rate_lost(&f->r, DGRAM);
		f->lost += DGRAM;
	} else {
		mtp_rate_delivered(&f->r, &f->cc, &q->st, DGRAM, DGRAM, f->now);
		f->got += DGRAM;
	}
	if (!--q->left)
		f->head++;
}

static void fetch_run(struct fetch *f, u64 until_ms)
{
	while (f->now < until_ms * MS)
		fetch_step(f);
}

/* The model finds the bottleneck and the delay, and keeps 2 BDP. */
TEST(finds_the_host_rate)
{
	struct fetch *f = malloc(sizeof(*f));
	u64 bw, bdp = 2500000ULL * 20 / 1000;

	fetch_init(f, 2500000, 20, 0);	/* 20 Mbit/s, 20 ms */
	fetch_run(f, 3000);
	bw = xtp_bbr_bw(&f->r.bbr);
	TH_LOG("bw %llu, min_rtt %u us, cwnd %u, got %llu",
	       (unsigned long long)bw, f->r.bbr.min_rtt_us, f->cc.cwnd,
	       (unsigned long long)f->got);
	EXPECT_GE(bw, 2500000ULL * 9 / 10);
	EXPECT_LE(bw, 2500000ULL * 11 / 10);
	EXPECT_GE(f->r.bbr.min_rtt_us, 20000);
	EXPECT_LE(f->r.bbr.min_rtt_us, 21000);
	EXPECT_TRUE(!!f->r.bbr.full_bw_reached);
	EXPECT_GE(f->cc.cwnd, 2 * bdp * 9 / 10);
	EXPECT_LE(f->cc.cwnd, 2 * bdp * 12 / 10);
	free(f);
}

/* 10% of the answers lost at random: the rate stays the host's. */
TEST(random_loss_is_no_signal)
{
	struct fetch *f = malloc(sizeof(*f));
	u64 bw;

	fetch_init(f, 2500000, 20, 10);
	fetch_run(f, 3000);
	bw = xtp_bbr_bw(&f->r.bbr);
	TH_LOG("bw %llu, got %llu, lost %llu", (unsigned long long)bw,
	       (unsigned long long)f->got, (unsigned long long)f->lost);
	EXPECT_GE(bw, 2500000ULL * 7 / 10);
	EXPECT_GE(f->got + f->lost, 2500000ULL * 3 * 8 / 10);
	free(f);
}

/* No stamp (the initial request's range): the bytes count, no sample. */
TEST(unstamped_bytes_count_only)
{
	struct mtp_rate r;
	struct mtp_cc cc;
	struct mtp_rate_stamp st = {};

	mtp_rate_init(&r, 0);
	mtp_cc_init(&cc, DGRAM, 0);
	mtp_rate_delivered(&r, &cc, &st, DGRAM, DGRAM, 5 * MS);
	mtp_rate_delivered(&r, &cc, NULL, DGRAM, DGRAM, 6 * MS);
	EXPECT_EQ(2 * DGRAM, r.delivered);
	EXPECT_EQ(0, xtp_bbr_bw(&r.bbr));
	EXPECT_EQ(0, r.bbr.round);
	/* A repeat gives a rate but no RTT. */
	mtp_rate_sent(&r, &st, true, true, 10 * MS);
	mtp_rate_delivered(&r, &cc, &st, DGRAM, DGRAM, 30 * MS);
	EXPECT_NE(0, xtp_bbr_bw(&r.bbr));
	EXPECT_EQ(0, r.bbr.min_rtt_us);
}

/*
 * A client that stopped asking on its own marks what it asks next as
 * application-limited, until what was in transit then has arrived.
 */
TEST(app_limited_until_the_flight_arrives)
{
	struct mtp_rate_stamp st;
	struct mtp_rate r;
	struct mtp_cc cc;

	mtp_rate_init(&r, 0);
	mtp_cc_init(&cc, DGRAM, 0);
	mtp_rate_sent(&r, &st, true, false, MS);
	EXPECT_FALSE(st.app_limited);
	mtp_rate_app_limited(&r, 3 * DGRAM);
	mtp_rate_sent(&r, &st, false, false, 2 * MS);
	EXPECT_TRUE(st.app_limited);
	mtp_rate_delivered(&r, &cc, &st, 3 * DGRAM, DGRAM, 20 * MS);
	mtp_rate_sent(&r, &st, false, false, 21 * MS);
	EXPECT_TRUE(st.app_limited);
	mtp_rate_delivered(&r, &cc, &st, DGRAM, DGRAM, 22 * MS);
	mtp_rate_sent(&r, &st, false, false, 23 * MS);
	EXPECT_FALSE(st.app_limited);
	/* Every delivery moves the interval's start, stamped or not. */
	mtp_rate_delivered(&r, &cc, NULL, DGRAM, DGRAM, 30 * MS);
	EXPECT_EQ(30 * MS, r.delivered_ns);
}

/*
 * A model that took a slow server for the path paces no slower than four
 * datagrams per RTT: the requests must not outwait the transaction.
 */
TEST(pacing_floor)
{
	struct mtp_rate r;
	struct mtp_cc cc;

	mtp_rate_init(&r, 0);
	mtp_cc_init(&cc, DGRAM, 0);
	EXPECT_EQ(0, mtp_rate_pace(&r, &cc, 0, DGRAM));
	r.bbr.full_bw_reached = true;
	r.bbr.bw_max[0] = 100;		/* 100 bytes/s */
	r.bbr.mode = XTP_BBR_PROBE_BW;
	r.bbr.cycle_idx = 2;		/* gain 1 */
	EXPECT_EQ(4ULL * DGRAM * 1000000 / 20000,
		  mtp_rate_pace(&r, &cc, 20000, DGRAM));
	r.bbr.bw_max[0] = 10000000;
	EXPECT_EQ(10000000, mtp_rate_pace(&r, &cc, 20000, DGRAM));
}

TEST_HARNESS_MAIN
