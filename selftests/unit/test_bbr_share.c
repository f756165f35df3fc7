// SPDX-License-Identifier: GPL-2.0
/*
 * User-space tests of net/xtp/bbr.c on a simulated path: alone through
 * random loss and shallow queues, and beside a loss-based flow (issue
 * 21's fairness goal): one sender paced and windowed by the model and one
 * window-based sender that grows by a packet per round trip and cuts its
 * window to 7/10 once per loss episode (TCP CUBIC's cut, Reno's growth:
 * CUBIC's own at these windows and RTTs), through one drop-tail
 * bottleneck queue.  Each test prints both flows' goodput over the last
 * seconds and Jain's index of the two, which must be at least 0.9.
 *
 * Not tested, because it does not hold: with a queue of half a BDP the
 * model keeps about 85% of the bottleneck (Jain 0.64-0.68 at 4 and 20
 * Mbit/s).  At 4 Mbit/s such a queue seldom lifts a round's least RTT to
 * 5/4 of the minimum, so rounds are not congested (bbr.c; at 11/10 the
 * share is fair, but test_bbr's late acks then look like a queue); at
 * 20 Mbit/s neither that nor a 1% loss threshold changes it.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "bbr.h"

#define MSS	1448
#define MS	1000000ULL
#define SEC	1000000000ULL
#define NPKT	(1 << 16)
#define STEP	(100 * 1000ULL)
#define MBPS(x)	((x) * 1000000ULL / 8)

struct pkt {
	u64 sent, ack, prior_delivered, prior_time;
	bool lost;
};

/* The shared path: a FIFO bottleneck and a fixed delay each way. */
struct link {
	u64 rate;	/* bytes/s */
	u64 owd;	/* ns */
	u64 buffer;	/* bytes the queue holds */
	u64 q_free;	/* when the queue is empty again */
	u32 loss_pct;	/* random loss beyond the queue, percent */
	u32 seed;	/* xorshift state, for runs that repeat */
	u64 sent, qdrops;	/* packets into the queue, dropped by it */
};

/* Lost at random beyond the bottleneck, as netem's loss after a tbf. */
static bool link_unlucky(struct link *l)
{
	l->seed ^= l->seed << 13;
	l->seed ^= l->seed >> 17;
	l->seed ^= l->seed << 5;
	return l->seed % 100 < l->loss_pct;
}

struct flow {
	struct pkt *q;
	unsigned int head, tail;
	u64 inflight, delivered, delivered_time, pace_next;
	u64 mark_delivered;
	/* The loss-based flow's window, threshold and last cut. */
	u64 cwnd, ssthresh, cut_time;
	unsigned int cuts;
};

struct share {
	struct link l;
	struct xtp_bbr b;
	struct flow f[2];	/* [0]: the model's, [1]: the loss-based */
	u64 now;
};

/* Into the bottleneck at @now: returns the packet's acknowledgment time. */
static void link_send(struct link *l, struct pkt *k, u64 now)
{
	u64 arrive = now + l->owd, depart;

	k->lost = l->q_free > arrive &&
		  (l->q_free - arrive) * l->rate / SEC + MSS > l->buffer;
	l->sent++;
	l->qdrops += k->lost;
	if (k->lost) {
		/* Found missing when the packets behind it are acked. */
		k->ack = (l->q_free > arrive ? l->q_free : arrive) + l->owd;
		return;
	}
	depart = (l->q_free > arrive ? l->q_free : arrive) +
		 MSS * SEC / l->rate;
	l->q_free = depart;
	k->ack = depart + l->owd;
	k->lost = link_unlucky(l);
}

static void flow_send(struct share *s, struct flow *f)
{
	struct pkt *k = &f->q[f->tail++ % NPKT];

	k->sent = s->now;
	k->prior_delivered = f->delivered;
	k->prior_time = f->delivered_time;
	f->inflight += MSS;
	link_send(&s->l, k, s->now);
}

static void model_ack(struct share *s, struct pkt *k)
{
	struct flow *f = &s->f[0];
	struct xtp_rate_sample rs = { .prior_delivered = k->prior_delivered };

	f->inflight -= MSS;
	if (k->lost) {
		rs.lost = MSS;
	} else {
		f->delivered += MSS;
		f->delivered_time = s->now;
		rs.delivered = f->delivered - k->prior_delivered;
		rs.interval_ns = s->now - k->prior_time;
		rs.rtt_us = (u32)((s->now - k->sent) / 1000);
	}
	xtp_bbr_update(&s->b, &rs, f->delivered, (u32)f->inflight, MSS, s->now);
}

/* One cut per loss episode: losses of packets sent before it are its. */
static void reno_ack(struct share *s, struct pkt *k)
{
	struct flow *f = &s->f[1];

	f->inflight -= MSS;
	if (k->lost) {
		if (k->sent >= f->cut_time) {
			f->cwnd = f->cwnd * 7 / 10;
			if (f->cwnd < 2 * MSS)
				f->cwnd = 2 * MSS;
			f->ssthresh = f->cwnd;
			f->cut_time = s->now;
			f->cuts++;
		}
		return;
	}
	f->delivered += MSS;
	if (f->cwnd < f->ssthresh)
		f->cwnd += MSS;
	else
		f->cwnd += (u64)MSS * MSS / f->cwnd;
}

static void share_init(struct share *s, u64 rate, u64 rtt_ms, u64 buffer)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->l = (struct link){ .rate = rate, .owd = rtt_ms * MS / 2,
			      .buffer = buffer, .seed = 2463534242 };
	for (i = 0; i < 2; i++)
		s->f[i].q = calloc(NPKT, sizeof(struct pkt));
	s->f[1].cwnd = 10 * MSS;
	s->f[1].ssthresh = ~0ULL;
	xtp_bbr_init(&s->b, 0);
}

static void share_free(struct share *s)
{
	free(s->f[0].q);
	free(s->f[1].q);
}

/*
 * Run until @until_ms, the loss-based flow starting at @late_ms; each
 * flow's delivered bytes are marked @last_ms before the end.
 */
static void share_run(struct share *s, u64 until_ms, u64 late_ms,
		      u64 last_ms)
{
	u64 end = until_ms * MS, mark = end - last_ms * MS;
	struct flow *m = &s->f[0], *r = &s->f[1];
	bool marked = false;

	for (; s->now < end; s->now += STEP) {
		u32 cwnd = xtp_bbr_cwnd(&s->b, MSS);
		u64 rate = xtp_bbr_pacing_rate(&s->b);

		if (s->now >= mark && !marked) {
			m->mark_delivered = m->delivered;
			r->mark_delivered = r->delivered;
			marked = true;
		}
		while (m->head != m->tail && m->q[m->head % NPKT].ack <= s->now)
			model_ack(s, &m->q[m->head++ % NPKT]);
		while (r->head != r->tail && r->q[r->head % NPKT].ack <= s->now)
			reno_ack(s, &r->q[r->head++ % NPKT]);
		if (!cwnd)
			cwnd = 10 * MSS;
		while (m->inflight + MSS <= cwnd && m->pace_next <= s->now &&
		       m->tail - m->head < NPKT - 1) {
			flow_send(s, m);
			if (m->pace_next + STEP < s->now)
				m->pace_next = s->now;
			m->pace_next += rate ? MSS * SEC / rate : 0;
		}
		if (s->now < late_ms * MS)
			continue;
		while (r->inflight + MSS <= r->cwnd &&
		       r->tail - r->head < NPKT - 1)
			flow_send(s, r);
	}
}

/* Jain's index of the two flows' goodput since the mark, in 1/1000. */
static unsigned int share_jain(struct share *s, u64 *g0, u64 *g1)
{
	u64 x = s->f[0].delivered - s->f[0].mark_delivered;
	u64 y = s->f[1].delivered - s->f[1].mark_delivered;

	*g0 = x;
	*g1 = y;
	if (!x && !y)
		return 0;
	/* (x + y)^2 / (2 (x^2 + y^2)), in KB to stay within 64 bits. */
	x /= 1000;
	y /= 1000;
	return (unsigned int)((x + y) * (x + y) * 1000 / (2 * (x * x + y * y)));
}

/*
 * Forty seconds through a bottleneck of @rate bytes/s, @rtt_ms and a
 * queue of @buffer bytes, the loss-based flow starting a second after
 * the model's (it meets a full pipe, the harder case for it): prints the
 * last thirty seconds and returns their Jain's index, in 1/1000.
 */
static unsigned int shared(struct __test_metadata *_metadata,
			   const char *what, u64 rate, u64 rtt_ms, u64 buffer)
{
	struct share s;
	unsigned int j;
	u64 g0, g1;

	share_init(&s, rate, rtt_ms, buffer);
	share_run(&s, 40000, 1000, 30000);
	j = share_jain(&s, &g0, &g1);
	TH_LOG("%s: model %llu kbit/s, loss-based %llu kbit/s (%u cuts), Jain %u/1000, bw %llu bw_lo %llu",
	       what, (unsigned long long)(g0 * 8 / 1000 / 30),
	       (unsigned long long)(g1 * 8 / 1000 / 30), s.f[1].cuts, j,
	       (unsigned long long)xtp_bbr_bw(&s.b),
	       (unsigned long long)s.b.bw_lo);
	share_free(&s);
	return j;
}

/* Issue 21's bottleneck: 20 Mbit/s, 40 ms RTT, a queue of one BDP. */
TEST(one_bdp_queue_is_shared)
{
	EXPECT_GE(shared(_metadata, "20 Mbit/s, 40 ms, 1 BDP", MBPS(20), 40,
			 MBPS(20) * 40 / 1000), 900);
}

/* make bench's row 6: 20 Mbit/s, 20 ms RTT, a 50 KB queue (one BDP). */
TEST(bench_row6_is_shared)
{
	EXPECT_GE(shared(_metadata, "20 Mbit/s, 20 ms, 50 KB", MBPS(20), 20,
			 50000), 900);
}

/* xtp_fair.sh's bottleneck: 4 Mbit/s, 40 ms, a 30000-byte queue. */
TEST(small_bottleneck_is_shared)
{
	EXPECT_GE(shared(_metadata, "4 Mbit/s, 40 ms, 30000 B", MBPS(4), 40,
			 30000), 900);
}

/*
 * A deep queue (four BDPs): the loss-based flow fills it, and the model,
 * whose window is two BDPs of its own rate, must not give up its share
 * either (with BBR's usual cap this was the one case it was fair in).
 */
TEST(deep_queue_is_shared)
{
	EXPECT_GE(shared(_metadata, "20 Mbit/s, 40 ms, 4 BDP", MBPS(20), 40,
			 4 * MBPS(20) * 40 / 1000), 900);
}

#define SEEDS	9

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/*
 * The model alone through @loss_pct random loss and a queue of @buffer
 * bytes for thirty seconds, SEEDS times with other random losses: returns
 * the median goodput over the last twenty, in percent of what the link
 * could deliver ((1 - loss) times its rate), and the most the queue
 * dropped of what the model sent, in 1/1000, in @qdrop.
 */
static unsigned int alone(struct __test_metadata *_metadata, u64 rate,
			  u64 rtt_ms, u64 buffer, u32 loss_pct,
			  unsigned int *qdrop)
{
	u64 cap = rate * 20 * (100 - loss_pct) / 100;
	unsigned int pct[SEEDS], i, q;
	struct share s;

	*qdrop = 0;
	for (i = 0; i < SEEDS; i++) {
		share_init(&s, rate, rtt_ms, buffer);
		s.l.seed += i * 7919;
		s.l.loss_pct = loss_pct;
		share_run(&s, 30000, 30000, 20000);
		pct[i] = (unsigned int)((s.f[0].delivered -
					 s.f[0].mark_delivered) * 100 / cap);
		q = (unsigned int)(s.l.qdrops * 1000 / s.l.sent);
		*qdrop = q > *qdrop ? q : *qdrop;
		share_free(&s);
	}
	qsort(pct, SEEDS, sizeof(pct[0]), cmp_uint);
	TH_LOG("%llu Mbit/s, %llu ms, queue %llu B, %u%% loss: %u%% of the link (%u%%..%u%%), the queue dropped up to %u/1000",
	       (unsigned long long)(rate * 8 / 1000000),
	       (unsigned long long)rtt_ms, (unsigned long long)buffer,
	       loss_pct, pct[SEEDS / 2], pct[0], pct[SEEDS - 1], *qdrop);
	return pct[SEEDS / 2];
}

/*
 * Random loss is not congestion, at any rate of it: through 40% the
 * model kept 6-9% of the link before it compensated (bbr.c).
 */
TEST(random_loss_keeps_the_rate)
{
	static const u32 pct[] = { 10, 20, 40 };
	unsigned int q, i;

	for (i = 0; i < ARRAY_SIZE(pct); i++)
		EXPECT_GE(alone(_metadata, MBPS(20), 40, MBPS(20) * 40 / 1000,
				pct[i], &q), 50);
	/* MTP through 40% each way loses 64% of what it asks for. */
	EXPECT_GE(alone(_metadata, MBPS(20), 40, MBPS(20) * 40 / 1000, 60,
			&q), 40);
}

/*
 * A queue of eight packets on a 40 ms path overflows before the RTT can
 * show it, so its drops look random.  Compensated for as random loss they
 * held the rate above the bottleneck (34% of the packets dropped by the
 * queue with 10% random loss beside); each probe that finds the pipe full
 * halves the compensation, and the queue drops about as few as without
 * it (2.7% of what the model sends with no random loss, either way).
 */
TEST(shallow_queue_overflow_is_not_random)
{
	static const u32 pct[] = { 0, 10, 40 };
	unsigned int q, i;

	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		EXPECT_GE(alone(_metadata, MBPS(20), 40, 8 * MSS, pct[i], &q),
			  50);
		EXPECT_LE(q, 50);
	}
}

TEST_HARNESS_MAIN
