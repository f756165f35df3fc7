// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/xtp/bbr.c, the delivery-rate model: one
 * sender paced and windowed by the model, over a simulated path with a
 * drop-tail bottleneck, a propagation delay and random loss.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "bbr.h"

#define MSS	1448
#define MS	1000000ULL
#define NPKT	(1 << 18)

struct pkt {
	u64 sent, ack, prior_delivered, prior_time;
	bool lost;
};

struct path {
	u64 rate;		/* bottleneck, bytes/s */
	u64 owd;		/* one-way delay, ns */
	u64 buffer;		/* bottleneck queue, bytes */
	unsigned int loss_ppm;	/* random loss after the bottleneck */
	u64 jitter;		/* most extra delay of an ack, ns */
};

struct sim {
	struct xtp_bbr b;
	struct path p;
	struct pkt *q;
	unsigned int head, tail;
	u64 now, pace_next, q_free, delivered, delivered_time;
	u64 inflight, lost_bytes, drops, last_ack;
	u64 rtt_sum, rtt_n;
	bool saw_probe_rtt;
	unsigned int seed;
};

static unsigned int rnd(struct sim *s)
{
	s->seed = s->seed * 1103515245 + 12345;
	return (s->seed >> 8) % 1000000;
}

static void sim_init(struct sim *s, u64 rate, u64 rtt_ms, u64 buffer,
		     unsigned int loss_ppm)
{
	memset(s, 0, sizeof(*s));
	s->q = calloc(NPKT, sizeof(*s->q));
	s->p = (struct path){ rate, rtt_ms * MS / 2, buffer, loss_ppm, 0 };
	s->seed = 20261127;
	xtp_bbr_init(&s->b, 0);
}

static void sim_send(struct sim *s)
{
	struct pkt *k = &s->q[s->tail++ % NPKT];
	u64 arrive = s->now + s->p.owd, depart;

	k->sent = s->now;
	k->prior_delivered = s->delivered;
	k->prior_time = s->delivered_time;
	k->lost = false;
	s->inflight += MSS;
	/* The queue ahead of it, in bytes, when it reaches the bottleneck. */
	if (s->q_free > arrive &&
	    (s->q_free - arrive) * s->p.rate / 1000000000ULL + MSS >
	    s->p.buffer) {
		k->lost = true;
		s->drops++;
		k->ack = arrive + s->p.owd;
		return;
	}
	depart = (s->q_free > arrive ? s->q_free : arrive) +
		 MSS * 1000000000ULL / s->p.rate;
	s->q_free = depart;
	k->lost = rnd(s) < s->p.loss_ppm;
	k->ack = depart + s->p.owd;
	/* Acks delayed at random, in order: a busy host's RTT. */
	if (s->p.jitter) {
		k->ack += rnd(s) * s->p.jitter / 1000000;
		if (k->ack < s->last_ack)
			k->ack = s->last_ack;
		s->last_ack = k->ack;
	}
}

static void sim_ack(struct sim *s, struct pkt *k)
{
	struct xtp_rate_sample rs = { 0 };

	s->inflight -= MSS;
	if (k->lost) {
		rs.lost = MSS;
		rs.prior_delivered = k->prior_delivered;
		s->lost_bytes += MSS;
	} else {
		s->delivered += MSS;
		s->delivered_time = s->now;
		rs.delivered = s->delivered - k->prior_delivered;
		rs.prior_delivered = k->prior_delivered;
		rs.interval_ns = s->now - k->prior_time;
		rs.rtt_us = (u32)((s->now - k->sent) / 1000);
		s->rtt_sum += rs.rtt_us;
		s->rtt_n++;
	}
	xtp_bbr_update(&s->b, &rs, s->delivered, (u32)s->inflight, MSS,
		       s->now);
	if (s->b.mode == XTP_BBR_PROBE_RTT)
		s->saw_probe_rtt = true;
}

/* Run until @until_ms; return the bytes delivered in the last second. */
static u64 sim_run(struct sim *s, u64 until_ms)
{
	u64 end = until_ms * MS, mark = end - 1000 * MS, at_mark = 0;

	for (; s->now < end; s->now += 100000) {
		u32 cwnd = xtp_bbr_cwnd(&s->b, MSS);
		u64 rate = xtp_bbr_pacing_rate(&s->b);

		if (s->now >= mark && !at_mark)
			at_mark = s->delivered + 1;
		while (s->head != s->tail && s->q[s->head % NPKT].ack <= s->now)
			sim_ack(s, &s->q[s->head++ % NPKT]);
		if (!cwnd)
			cwnd = 10 * MSS;
		while (s->inflight + MSS <= cwnd && s->pace_next <= s->now &&
		       s->tail - s->head < NPKT - 1) {
			sim_send(s);
			/* Idle time is not saved up beyond a step. */
			if (s->pace_next + 100000 < s->now)
				s->pace_next = s->now;
			if (rate)
				s->pace_next += MSS * 1000000000ULL / rate;
		}
	}
	return s->delivered - (at_mark - 1);
}

#define MBPS(x)	((x) * 1000000ULL / 8)

/*
 * Two round trips of twenty-packet flights acknowledged a packet at a
 * time, one packet in ten lost; the first @late samples of every twenty
 * have @rtt_pct of the least RTT, the others the least.
 */
static void lossy_rounds(struct sim *s, int late, unsigned int rtt_pct)
{
	struct xtp_rate_sample rs = { 0 };
	u64 d = s->delivered, r0 = s->b.round;
	int i;

	for (i = 0; i < 200 && s->b.round < r0 + 2; i++) {
		d += MSS;
		rs.delivered = 20 * MSS;
		rs.prior_delivered = d - 20 * MSS;
		rs.interval_ns = 25 * MS;
		rs.rtt_us = s->b.min_rtt_us;
		if (i % 20 < late)
			rs.rtt_us = rs.rtt_us * rtt_pct / 100;
		rs.lost = i % 10 == 9 ? MSS : 0;
		xtp_bbr_update(&s->b, &rs, d, 20 * MSS, MSS, s->now + i * MS);
	}
}

/* 100 Mbit/s, 50 ms, two BDPs of buffer: the model finds the path. */
TEST(finds_bandwidth_and_delay)
{
	struct sim s;
	u64 got;

	sim_init(&s, MBPS(100), 50, 2 * MBPS(100) / 20, 0);
	got = sim_run(&s, 4000);
	TH_LOG("bw %llu, min_rtt %u us, mode %u, last second %llu bytes, drops %llu",
	       (unsigned long long)xtp_bbr_bw(&s.b), s.b.min_rtt_us,
	       s.b.mode, (unsigned long long)got,
	       (unsigned long long)s.drops);
	EXPECT_EQ(XTP_BBR_PROBE_BW, s.b.mode);
	EXPECT_GE(xtp_bbr_bw(&s.b), MBPS(100) * 9 / 10);
	EXPECT_LE(xtp_bbr_bw(&s.b), MBPS(100) * 11 / 10);
	EXPECT_GE(s.b.min_rtt_us, 50000);
	EXPECT_LE(s.b.min_rtt_us, 51000);
	EXPECT_GE(got, MBPS(100) * 9 / 10);
	free(s.q);
}

/* Random loss on an empty path is not congestion: the rate holds. */
TEST(random_loss_keeps_rate)
{
	static const unsigned int ppm[] = { 10000, 100000 };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct sim s;
		u64 got;

		sim_init(&s, MBPS(100), 50, 4 * MBPS(100) / 20, ppm[i]);
		got = sim_run(&s, 4000);
		TH_LOG("%u ppm: bw %llu, bw_lo %llu, last second %llu bytes",
		       ppm[i], (unsigned long long)xtp_bbr_bw(&s.b),
		       (unsigned long long)s.b.bw_lo,
		       (unsigned long long)got);
		/* What arrives is the rate less the loss. */
		EXPECT_GE(got, MBPS(100) * (1000000 - ppm[i]) / 1000000 *
			  85 / 100);
		free(s.q);
	}
}

/*
 * Random loss above the threshold on a path whose RTT jitters (a busy
 * host): rounds look congested and the loss cap lowers the estimate, but
 * what the path delivers holds it up (the cap is never below the round's
 * own rate): the rate must not decay towards nothing.
 */
TEST(lossy_jittery_rounds_do_not_starve)
{
	struct sim s;
	u64 got;

	sim_init(&s, MBPS(100), 50, 4 * MBPS(100) / 20, 50000);
	s.p.jitter = 25 * MS;
	got = sim_run(&s, 30000);
	TH_LOG("bw %llu, bw_lo %llu, last second %llu bytes",
	       (unsigned long long)xtp_bbr_bw(&s.b),
	       (unsigned long long)s.b.bw_lo, (unsigned long long)got);
	EXPECT_GE(got, MBPS(100) / 4);
	EXPECT_GE(xtp_bbr_bw(&s.b), MBPS(100) / 4);
	free(s.q);
}

/*
 * MTP's row 11 of make bench: 10% loss each way (19% of the requests go
 * unanswered) at 20 ms, and acknowledgments up to 10 ms late.  When a
 * round's largest RTT told a queue, every round looked congested and the
 * loss cap took the rate down to 149 KB/s.
 */
TEST(random_loss_with_late_acks_keeps_rate)
{
	struct sim s;
	u64 got;

	sim_init(&s, MBPS(100), 20, 4 * MBPS(100) / 50, 190000);
	s.p.jitter = 10 * MS;
	got = sim_run(&s, 10000);
	TH_LOG("last second %llu bytes, bw %llu, bw_lo %llu",
	       (unsigned long long)got, (unsigned long long)xtp_bbr_bw(&s.b),
	       (unsigned long long)s.b.bw_lo);
	EXPECT_GE(got, MBPS(100) / 2);
	free(s.q);
}

/*
 * One late sample does not make a lossy round congested; a round whose
 * every sample is late does.
 */
TEST(one_late_ack_is_no_queue)
{
	struct sim s;
	u64 r0;
	int late;

	for (late = 1; late <= 20; late += 19) {
		sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
		sim_run(&s, 2000);
		ASSERT_EQ(0, s.b.bw_lo);
		r0 = s.b.round;
		lossy_rounds(&s, late, 200);
		EXPECT_EQ(r0 + 2, s.b.round);
		if (late == 1) {
			EXPECT_EQ(0, s.b.bw_lo);
		} else {
			EXPECT_NE(0, s.b.bw_lo);
		}
		free(s.q);
	}
}

/* A shallow buffer: the queue stays within it and little is dropped. */
TEST(shallow_buffer)
{
	struct sim s;
	u64 got;

	sim_init(&s, MBPS(20), 40, MBPS(20) / 25, 0);
	got = sim_run(&s, 6000);
	TH_LOG("last second %llu bytes, drops %llu, mean rtt %llu us",
	       (unsigned long long)got, (unsigned long long)s.drops,
	       (unsigned long long)(s.rtt_sum / s.rtt_n));
	EXPECT_GE(got, MBPS(20) * 85 / 100);
	EXPECT_LE(s.rtt_sum / s.rtt_n, 80000);
	free(s.q);
}

/*
 * The bottleneck halves: the model follows once the filter window of
 * ten to twenty round trips has passed (longer ones now: the queue).
 */
TEST(follows_a_rate_drop)
{
	struct sim s;

	sim_init(&s, MBPS(100), 50, 2 * MBPS(100) / 20, 0);
	sim_run(&s, 3000);
	s.p.rate = MBPS(50);
	sim_run(&s, 9000);
	TH_LOG("bw %llu after the drop", (unsigned long long)xtp_bbr_bw(&s.b));
	EXPECT_LE(xtp_bbr_bw(&s.b), MBPS(50) * 11 / 10);
	EXPECT_GE(xtp_bbr_bw(&s.b), MBPS(50) * 9 / 10);
	free(s.q);
}

/*
 * A small bottleneck halves and comes back (selftests/net/xtp_bbr.sh's
 * pattern): the halving's congested rounds cap the estimate, and a probe
 * at 5/4 of the cap must be able to end, lift it and find the rate again.
 */
TEST(finds_a_restored_rate)
{
	struct sim s;

	sim_init(&s, MBPS(4), 40, MBPS(4) / 25, 0);
	sim_run(&s, 5000);
	s.p.rate = MBPS(2);
	sim_run(&s, 10000);
	s.p.rate = MBPS(4);
	sim_run(&s, 16000);
	TH_LOG("bw %llu, cap %llu after the restore",
	       (unsigned long long)xtp_bbr_bw(&s.b),
	       (unsigned long long)s.b.bw_lo);
	EXPECT_GE(xtp_bbr_bw(&s.b), MBPS(4) * 7 / 10);
	free(s.q);
}

/*
 * A round's loss rate is of the round's own bytes.  Each sample's
 * delivered spans its packet's whole flight, so one round's samples
 * overlap: summed, twenty acks of a twenty-packet flight counted twenty
 * rounds' bytes and a 10% loss looked like 0.5%, under the threshold.
 */
TEST(round_loss_counts_the_rounds_bytes)
{
	struct sim s;
	u64 r0;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	ASSERT_EQ(0, s.b.bw_lo);
	r0 = s.b.round;
	/* One packet acked at a time, one lost in ten, the RTT queued. */
	lossy_rounds(&s, 20, 150);
	EXPECT_EQ(r0 + 2, s.b.round);
	EXPECT_NE(0, s.b.bw_lo);
	free(s.q);
}

/*
 * A loss episode cuts once: congested rounds in a row are one episode
 * (the rounds after the first still carry packets sent before its cut),
 * and only a round without congestion between two starts a second one,
 * which cuts the cut estimate again.  Cut every congested round, a
 * standing queue took the estimate to nothing in a few round trips.
 */
TEST(one_cut_per_loss_episode)
{
	struct sim s;
	u64 bw0, cap;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	ASSERT_EQ(0, s.b.bw_lo);
	s.b.cycle_idx = 2;
	bw0 = xtp_bbr_bw(&s.b);
	lossy_rounds(&s, 20, 150);
	cap = s.b.bw_lo;
	TH_LOG("bw %llu, cap %llu", (unsigned long long)bw0,
	       (unsigned long long)cap);
	EXPECT_GE(cap, bw0 * 59 / 100);
	EXPECT_LE(cap, bw0 * 61 / 100);
	s.now += 50 * MS;
	lossy_rounds(&s, 20, 150);
	EXPECT_EQ(cap, s.b.bw_lo);
	/* The same loss without a queue is no congestion: the episode ends. */
	s.now += 50 * MS;
	lossy_rounds(&s, 0, 100);
	EXPECT_FALSE(!!s.b.in_episode);
	s.now += 50 * MS;
	lossy_rounds(&s, 20, 150);
	EXPECT_GE(s.b.bw_lo, cap * 59 / 100);
	EXPECT_LE(s.b.bw_lo, cap * 61 / 100);
	free(s.q);
}

/*
 * A probe's first sample of a round reports one packet lost, with a
 * hundred in flight and the RTT queued: 1%, under the threshold, so the
 * probe ends clean and lifts the cap.  Counted against the round's
 * delivered bytes (none yet) it was 100% and kept the cap; ten lost are
 * congestion either way.
 */
static void probe_round_start(struct __test_metadata *_metadata,
			      unsigned int lost_pkts, bool cap_kept)
{
	struct xtp_rate_sample rs = { .delivered = MSS,
				      .interval_ns = 25 * MS };
	struct sim s;
	u64 cap;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	ASSERT_EQ(XTP_BBR_PROBE_BW, s.b.mode);
	s.b.cycle_idx = 0;
	s.b.cycle_stamp_ns = s.now - 100 * MS;
	cap = xtp_bbr_bw(&s.b) * 85 / 100;
	s.b.bw_lo = cap;
	rs.prior_delivered = s.b.round_end;
	rs.rtt_us = s.b.min_rtt_us * 3 / 2;
	rs.lost = lost_pkts * MSS;
	xtp_bbr_update(&s.b, &rs, s.b.round_end + MSS, 100 * MSS, MSS,
		       s.now);
	EXPECT_EQ(1, s.b.cycle_idx);
	EXPECT_EQ(cap_kept ? cap : 0, s.b.bw_lo);
	free(s.q);
}

TEST(round_start_loss_is_of_the_flight)
{
	probe_round_start(_metadata, 1, false);
	probe_round_start(_metadata, 10, true);
}

/*
 * The route gets longer: the old minimum is never seen again, so after
 * ten seconds PROBE_RTT measures the new one, and PROBE_BW resumes.
 */
TEST(probe_rtt)
{
	struct sim s;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	EXPECT_LE(s.b.min_rtt_us, 21000);
	s.p.owd += 5 * MS;
	sim_run(&s, 10000);
	EXPECT_FALSE(s.saw_probe_rtt);
	sim_run(&s, 13000);
	EXPECT_TRUE(s.saw_probe_rtt);
	EXPECT_EQ(XTP_BBR_PROBE_BW, s.b.mode);
	EXPECT_GE(s.b.min_rtt_us, 30000);
	EXPECT_LE(s.b.min_rtt_us, 31000);
	free(s.q);
}

/*
 * Luck is no least RTT.  A packet reported beyond a hole overtook an
 * older one, and one acknowledged in order 1/8 of SRTT or less is alone
 * there: their 71 us (of a 20 ms path through netem's reorder, a tenth
 * of the packets skipping the delay) do not become the least RTT, and
 * the window stays about two BDPs of the path.  The same RTT without an
 * SRTT to compare (MTP's samples) does.
 */
TEST(lucky_packet_is_no_least_rtt)
{
	struct xtp_rate_sample rs = { .rtt_us = 71 };
	struct sim s;
	u32 cwnd;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	ASSERT_LE(s.b.min_rtt_us, 21000);
	cwnd = xtp_bbr_cwnd(&s.b, MSS);
	rs.prior_delivered = s.delivered;
	rs.sacked = true;
	xtp_bbr_update(&s.b, &rs, s.delivered, s.inflight, MSS, s.now);
	EXPECT_GE(s.b.min_rtt_us, 20000);
	rs.sacked = false;
	rs.srtt_us = 20000;
	xtp_bbr_update(&s.b, &rs, s.delivered, s.inflight, MSS, s.now);
	EXPECT_GE(s.b.min_rtt_us, 20000);
	EXPECT_EQ(cwnd, xtp_bbr_cwnd(&s.b, MSS));
	rs.srtt_us = 0;
	xtp_bbr_update(&s.b, &rs, s.delivered, s.inflight, MSS, s.now);
	EXPECT_EQ(71, s.b.min_rtt_us);
	EXPECT_LT(xtp_bbr_cwnd(&s.b, MSS), cwnd / 4);
	free(s.q);
}

/*
 * The path's delay falls from 50 to 5 ms: SRTT follows the new samples
 * down, and within a few of them they are the least RTT.
 */
TEST(a_shorter_path_is_taken_once_srtt_follows)
{
	struct xtp_rate_sample rs = { .rtt_us = 5000 };
	u32 srtt = 50000;
	struct sim s;
	int n;

	sim_init(&s, MBPS(20), 50, 2 * MBPS(20) / 20, 0);
	sim_run(&s, 2000);
	ASSERT_GE(s.b.min_rtt_us, 50000);
	rs.prior_delivered = s.delivered;
	for (n = 0; n < 40 && s.b.min_rtt_us > 5000; n++) {
		rs.srtt_us = srtt;
		xtp_bbr_update(&s.b, &rs, s.delivered, s.inflight, MSS, s.now);
		srtt = srtt - srtt / 8 + rs.rtt_us / 8;
	}
	EXPECT_EQ(5000, s.b.min_rtt_us);
	EXPECT_GE(n, 2);
	EXPECT_LE(n, 12);
	free(s.q);
}

/*
 * Acknowledgments that come in a burst show a rate the path does not
 * have: a sample over less than the least RTT does not raise the
 * estimate, the same sample over a round trip does.
 */
TEST(ack_burst_is_not_bandwidth)
{
	struct xtp_rate_sample rs = { .delivered = 64 * MSS, .rtt_us = 20000 };
	struct sim s;
	u64 bw;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	bw = xtp_bbr_bw(&s.b);
	rs.prior_delivered = s.delivered;
	rs.interval_ns = 2 * MS;
	xtp_bbr_update(&s.b, &rs, s.delivered + rs.delivered, 0, MSS,
		       s.now);
	EXPECT_LE(xtp_bbr_bw(&s.b), bw);
	rs.interval_ns = 25 * MS;
	xtp_bbr_update(&s.b, &rs, s.delivered + 2 * rs.delivered, 0, MSS,
		       s.now);
	EXPECT_GT(xtp_bbr_bw(&s.b), bw);
	free(s.q);
}

/*
 * Rounds of samples that all measure nothing (spurious retransmissions,
 * acked a moment after they went: shorter than a round trip) do not age
 * the estimate away: the filter's window counts rounds with a
 * measurement.  It did, and the sender paced at nothing stopped.
 */
TEST(rounds_without_measurement_keep_bw)
{
	struct xtp_rate_sample rs = { .delivered = 8 * MSS,
				      .interval_ns = MS };
	struct sim s;
	u64 bw, d, r0;
	int i;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	bw = xtp_bbr_bw(&s.b);
	r0 = s.b.round;
	ASSERT_GE(bw, MBPS(20) * 9 / 10);
	d = s.delivered;
	for (i = 0; i < 4 * XTP_BBR_BW_ROUNDS; i++) {
		rs.prior_delivered = d;
		d += rs.delivered;
		xtp_bbr_update(&s.b, &rs, d, 0, MSS, s.now + i * MS);
	}
	EXPECT_GE(s.b.round, r0 + 2 * XTP_BBR_BW_ROUNDS);
	EXPECT_EQ(bw, xtp_bbr_bw(&s.b));
	free(s.q);
}

/* A loss reported alone belongs to the round under way: no new round. */
TEST(loss_alone_is_no_round)
{
	struct xtp_rate_sample rs = { .lost = MSS };
	struct sim s;
	u64 round;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 1000);
	round = s.b.round;
	rs.prior_delivered = s.delivered;
	xtp_bbr_update(&s.b, &rs, s.delivered, 0, MSS, s.now);
	xtp_bbr_update(&s.b, &rs, s.delivered, 0, MSS, s.now);
	EXPECT_EQ(round, s.b.round);
	free(s.q);
}

/*
 * An application that writes a little each round trip shows a flat
 * rate: that is not a full pipe, and STARTUP goes on.
 */
TEST(app_limited_rounds_keep_startup)
{
	struct xtp_rate_sample rs = { .delivered = 10 * MSS,
				     .interval_ns = 20 * MS,
				     .rtt_us = 20000, .app_limited = true };
	struct xtp_bbr b;
	u64 d = 0, now = 0;
	int i;

	xtp_bbr_init(&b, 0);
	for (i = 0; i < 8; i++) {
		rs.prior_delivered = d;
		d += rs.delivered;
		now += 20 * MS;
		xtp_bbr_update(&b, &rs, d, 0, MSS, now);
	}
	EXPECT_EQ(8, b.round);
	EXPECT_FALSE(!!b.full_bw_reached);
	EXPECT_EQ(XTP_BBR_STARTUP, b.mode);
	/* The same rounds not application-limited fill the pipe. */
	rs.app_limited = false;
	for (i = 0; i < 4; i++) {
		rs.prior_delivered = d;
		d += rs.delivered;
		now += 20 * MS;
		xtp_bbr_update(&b, &rs, d, 0, MSS, now);
	}
	EXPECT_TRUE(!!b.full_bw_reached);
}

/*
 * A sender back from more than ten seconds idle renews its minimum RTT
 * with its first sample instead of entering PROBE_RTT; one that was not
 * idle probes.
 */
TEST(idle_restart_skips_probe_rtt)
{
	struct xtp_rate_sample rs = { .delivered = 10 * MSS,
				      .interval_ns = 30 * MS,
				      .rtt_us = 25000 };
	struct sim s;

	sim_init(&s, MBPS(20), 20, 2 * MBPS(20) / 50, 0);
	sim_run(&s, 2000);
	ASSERT_EQ(XTP_BBR_PROBE_BW, s.b.mode);
	rs.prior_delivered = s.delivered;
	rs.idle_restart = true;
	xtp_bbr_update(&s.b, &rs, s.delivered + rs.delivered, 0, MSS,
		       s.now + 11000 * MS);
	EXPECT_EQ(XTP_BBR_PROBE_BW, s.b.mode);
	EXPECT_EQ(25000, s.b.min_rtt_us);
	rs.prior_delivered += rs.delivered;
	rs.idle_restart = false;
	xtp_bbr_update(&s.b, &rs, s.delivered + 2 * rs.delivered, 0, MSS,
		       s.now + 22000 * MS);
	EXPECT_EQ(XTP_BBR_PROBE_RTT, s.b.mode);
	free(s.q);
}

/*
 * A model made long before its first answer (an MTP host whose first
 * request was repeated for 20 s through heavy loss): samples without an
 * RTT do not take it to PROBE_RTT, which held MTP's window at four
 * datagrams there, for a least RTT it never had.
 */
TEST(no_probe_rtt_before_an_rtt)
{
	struct xtp_rate_sample rs = { .delivered = MSS,
				      .interval_ns = 30 * MS };
	struct xtp_bbr b;

	xtp_bbr_init(&b, 0);
	xtp_bbr_update(&b, &rs, MSS, 0, MSS, 20000 * MS);
	EXPECT_EQ(XTP_BBR_STARTUP, b.mode);
	rs.prior_delivered = MSS;
	rs.rtt_us = 25000;
	xtp_bbr_update(&b, &rs, 2 * MSS, 0, MSS, 20030 * MS);
	EXPECT_EQ(XTP_BBR_STARTUP, b.mode);
	EXPECT_EQ(25000, b.min_rtt_us);
}

/*
 * A bandwidth so low that one BDP is less than the least window: DRAIN
 * ends once the flight is down to what the model asks to keep in
 * flight, here three send quanta of two packets each, not never.
 */
TEST(drain_ends_at_the_least_window)
{
	struct xtp_rate_sample rs = { .delivered = MSS,
				      .interval_ns = 1000 * MS,
				      .rtt_us = 20000 };
	struct xtp_bbr b;

	xtp_bbr_init(&b, 0);
	b.full_bw_reached = true;
	b.mode = XTP_BBR_DRAIN;
	b.min_rtt_us = 20000;
	b.bw_max[0] = MSS;		/* one packet a second */
	rs.prior_delivered = 0;
	xtp_bbr_update(&b, &rs, MSS, 7 * MSS, MSS, 1000 * MS);
	EXPECT_EQ(XTP_BBR_DRAIN, b.mode);
	rs.prior_delivered = MSS;
	xtp_bbr_update(&b, &rs, 2 * MSS, 6 * MSS, MSS, 2000 * MS);
	EXPECT_EQ(XTP_BBR_PROBE_BW, b.mode);
}

/*
 * The window is two BDPs and three send quanta: a millisecond at the
 * pacing rate, at least two packets, at most 64 KB.  On a path of a few
 * packets' BDP the quanta are most of it.
 */
TEST(window_has_three_quanta)
{
	struct xtp_bbr b;

	xtp_bbr_init(&b, 0);
	b.full_bw_reached = true;
	b.mode = XTP_BBR_PROBE_BW;
	b.cycle_idx = 2;		/* gain 1 */
	b.min_rtt_us = 100;
	/* 1 MB/s: BDP 100 bytes, a quantum of two packets. */
	b.bw_max[0] = 1000000;
	EXPECT_EQ(2 * 100 + 3 * 2 * MSS, xtp_bbr_cwnd(&b, MSS));
	/* 20 MB/s: a quantum of 20000 bytes. */
	b.bw_max[0] = 20000000;
	EXPECT_EQ(2 * 2000 + 3 * 20000, xtp_bbr_cwnd(&b, MSS));
	/* 1 GB/s: 64 KB at most. */
	b.bw_max[0] = 1000000000;
	EXPECT_EQ(2 * 100000 + 3 * 65536, xtp_bbr_cwnd(&b, MSS));
	/* PROBE_RTT keeps its four packets. */
	b.mode = XTP_BBR_PROBE_RTT;
	EXPECT_EQ(4 * MSS, xtp_bbr_cwnd(&b, MSS));
}

/*
 * However low the model's estimate, a sender paces at least its least
 * window (four packets) per SRTT; without an SRTT the rate is the model's.
 */
TEST(rate_floor)
{
	struct xtp_bbr b;

	EXPECT_EQ(0, xtp_bbr_rate_floor(0, 1000, 0));
	EXPECT_EQ(7, xtp_bbr_rate_floor(7, 1000, 0));
	/* 4 x 1000 bytes per 50 ms. */
	EXPECT_EQ(80000, xtp_bbr_rate_floor(0, 1000, 50000));
	EXPECT_EQ(80000, xtp_bbr_rate_floor(79999, 1000, 50000));
	EXPECT_EQ(80001, xtp_bbr_rate_floor(80001, 1000, 50000));
	/* A model without an estimate paces at the floor. */
	xtp_bbr_init(&b, 0);
	EXPECT_EQ(0, xtp_bbr_pacing_rate(&b));
	EXPECT_EQ(4ULL * 1448 * 1000000 / 50000,
		  xtp_bbr_rate_floor(xtp_bbr_pacing_rate(&b), 1448, 50000));
}

TEST_HARNESS_MAIN
