// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: a delivery-rate model of the path (bbr.h), written from the
 * published BBR algorithm (draft-ietf-ccwg-bbr and the BBR papers).
 *
 * The model keeps two numbers of the path: its bottleneck bandwidth, the
 * largest delivery rate seen over the last ten to twenty round trips,
 * and its propagation delay, the least RTT of the last ten seconds.  The
 * sender paces at a gain times the bandwidth and keeps about two
 * bandwidth-delay products in flight.  The gain is 2/ln 2 while STARTUP
 * looks for the bandwidth (the rate doubles each round), its inverse
 * while DRAIN empties the queue that made, and in PROBE_BW a cycle of
 * eight phases: 5/4 to see whether more is available, 3/4 to drain what
 * that queued, then six at 1.  Every ten seconds without a new minimum
 * RTT, PROBE_RTT holds four packets in flight for 200 ms.
 *
 * Random loss is not congestion.  A round trip counts as congested only
 * if it lost more than XTP_BBR_LOSS_PCT of what it delivered and even its
 * least RTT showed a queue (XTP_BBR_QUEUE_PCT of the minimum), as Veno
 * tells random loss from congestion.  Such a round ends STARTUP, and the
 * first of a loss episode caps the bandwidth at 60% of the estimate until
 * a probing phase of PROBE_BW passes without congestion.  60%, not BBR's
 * usual 85% of at least the round's own rate: a loss-based flow at the
 * same queue cuts its window to 70% once per episode, and beside TCP
 * CUBIC at a queue of one BDP the old cap kept 86% of the bottleneck
 * (Jain's index 0.65; selftests/unit/test_bbr_share.c).
 *
 * Nor does random loss lower the bandwidth.  Delivery rates count only
 * what arrived, so through a path that loses a share p of the packets
 * at random they measure (1 - p) of the rate sent: PROBE_BW's 5/4 then
 * delivers less than the estimate once p passes 20%, every window of the
 * filter ages to a lower one, and the rate spirals down to the least
 * window (MTP through 40% loss each way: 1 MB took 50 s, where its
 * loss-based window took 5).  So the model learns p from the rounds it
 * cruises in (not the probe's, nor the two after it that carry and may
 * report its losses) and takes up to 1 / (1 - 15/16 p) times the
 * delivered rate for the bandwidth: all of p after a 5/4 probe that
 * raised the delivery rate by 1/8 over cruising, half as much after
 * each one that did not.  Such a probe found the pipe full, and the
 * loss is a queue's that overflows before the RTT shows it (a shallow
 * buffer): compensated for, it would hold any rate above the
 * bottleneck, the loss it caused paying for itself.
 *
 * Pure arithmetic: no clock and no socket, so selftests/unit/test_bbr.c
 * drives it with made-up samples.
 */
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "bbr.h"

#define XTP_BBR_DRAIN_GAIN	88
#define XTP_BBR_CWND_GAIN	(2 * XTP_BBR_UNIT)
#define XTP_BBR_CYCLE_LEN	8
/* STARTUP ends when three rounds in a row grow the rate less than 25%. */
#define XTP_BBR_FULL_BW_PCT	125
#define XTP_BBR_FULL_BW_CNT	3
#define XTP_BBR_LOSS_CAP_PCT	60
#define XTP_BBR_MIN_CWND_SEGS	4
#define XTP_BBR_QUANTUM_MAX	(64 * 1024)
/*
 * Random loss: compensated to 15/16 of it, at most 3/4, averaged over 8
 * rounds; a probe that raises the delivery rate less than 1/8 found the
 * pipe full.
 */
#define XTP_BBR_LOSS_COMP	15
#define XTP_BBR_LOSS_COMP_DIV	16
#define XTP_BBR_LOSS_AVG_SHIFT	3
#define XTP_BBR_LOSS_MAX	(3 * XTP_BBR_LOSS_SCALE / 4)
#define XTP_BBR_PROBE_GROWTH_DIV	8

static const u16 xtp_bbr_cycle[XTP_BBR_CYCLE_LEN] = {
	5 * XTP_BBR_UNIT / 4, 3 * XTP_BBR_UNIT / 4,
	XTP_BBR_UNIT, XTP_BBR_UNIT, XTP_BBR_UNIT,
	XTP_BBR_UNIT, XTP_BBR_UNIT, XTP_BBR_UNIT,
};

/**
 * xtp_bbr_init() - a model that knows nothing yet
 * @b: the model
 * @now_ns: the time
 */
void xtp_bbr_init(struct xtp_bbr *b, u64 now_ns)
{
	*b = (struct xtp_bbr){
		.mode = XTP_BBR_STARTUP,
		.min_rtt_stamp_ns = now_ns,
	};
}

/* The largest delivery rate of the filter's window. */
static u64 xtp_bbr_bw_delivered(const struct xtp_bbr *b)
{
	return max(b->bw_max[0], b->bw_max[1]);
}

/**
 * xtp_bbr_bw() - the bandwidth the model uses
 * @b: the model
 *
 * Return: bytes per second, 0 before the first sample.
 */
u64 xtp_bbr_bw(const struct xtp_bbr *b)
{
	u64 bw = xtp_bbr_bw_delivered(b);
	u32 p = min_t(u32, b->comp_loss, XTP_BBR_LOSS_MAX);

	/* The rate sent that delivered it (the top of this file). */
	p = p * XTP_BBR_LOSS_COMP / XTP_BBR_LOSS_COMP_DIV;
	bw = div_u64(bw * XTP_BBR_LOSS_SCALE, XTP_BBR_LOSS_SCALE - p);
	return b->bw_lo ? min(bw, b->bw_lo) : bw;
}

static u32 xtp_bbr_pacing_gain(const struct xtp_bbr *b)
{
	switch (b->mode) {
	case XTP_BBR_STARTUP:
		return XTP_BBR_HIGH_GAIN;
	case XTP_BBR_DRAIN:
		return XTP_BBR_DRAIN_GAIN;
	case XTP_BBR_PROBE_BW:
		return xtp_bbr_cycle[b->cycle_idx];
	default:
		return XTP_BBR_UNIT;
	}
}

/* Bytes of one bandwidth-delay product, times @gain / 256. */
static u64 xtp_bbr_bdp(const struct xtp_bbr *b, u32 gain)
{
	return div_u64(xtp_bbr_bw(b) * b->min_rtt_us * gain,
		       USEC_PER_SEC * XTP_BBR_UNIT);
}

/*
 * What one departure sends at the pacing rate: a millisecond's worth
 * (pacing lets a packet leave that early, cc.c), at least two packets,
 * at most 64 KB.
 */
static u64 xtp_bbr_send_quantum(const struct xtp_bbr *b, u32 mss)
{
	return clamp_t(u64, div_u64(xtp_bbr_pacing_rate(b), MSEC_PER_SEC),
		       2 * mss, XTP_BBR_QUANTUM_MAX);
}

/*
 * The bytes in flight @gain asks for: @gain BDPs, and three send quanta
 * beyond them (BBR's quantization budget).  Data leaves a quantum at a
 * time and acknowledgments come back in batches, so on a path whose BDP
 * is a few packets (a LAN, a loaded receiver) a window of two BDPs would
 * sit empty between them: the window of four packets it came to on a
 * veth held XTP to 2 packets in flight and 60% of Veno's goodput.
 */
static u64 xtp_bbr_inflight(const struct xtp_bbr *b, u32 gain, u32 mss)
{
	return xtp_bbr_bdp(b, gain) + 3 * xtp_bbr_send_quantum(b, mss);
}

/* A new round trip starts when a packet sent after the last one ended. */
static bool xtp_bbr_new_round(struct xtp_bbr *b,
			      const struct xtp_rate_sample *rs, u64 delivered)
{
	if (rs->prior_delivered < b->round_end)
		return false;
	b->round++;
	b->round_end = delivered;
	return true;
}

/*
 * At a round's end (@b->round already the next).  The probe's rounds give
 * its delivery rate; the round after them carries the probe's packets and
 * says whether the probe raised the rate above the cruising rounds': if
 * so the path had room, and the compensation is the loss learned; if not
 * the pipe is full, the loss is not all random, and the compensation
 * halves.  The round after that may still report the
 * probe's losses; the rounds after it cruise, and those without
 * congestion add their loss to the average.  Rounds in which the sender
 * was application-limited measure neither the path's rate nor its loss.
 */
static void xtp_bbr_learn_loss(struct xtp_bbr *b, bool lossy)
{
	u64 total = (u64)b->round_delivered + b->round_lost;
	u64 round_bw = b->round_bw;
	u32 done = b->round - 1;
	bool app = b->round_app_limited;
	u32 share;

	b->round_bw = 0;
	b->round_app_limited = false;
	if (!total || !b->full_bw_reached)
		return;
	if (done == b->high_round) {
		b->probe_bw = app ? U64_MAX : max(b->probe_bw, round_bw);
		return;
	}
	if (done == b->high_round + 1) {
		if (!app && b->probe_bw != U64_MAX && b->cruise_bw) {
			round_bw = max(b->probe_bw, round_bw);
			if (round_bw * XTP_BBR_PROBE_GROWTH_DIV <
			    b->cruise_bw * (XTP_BBR_PROBE_GROWTH_DIV + 1))
				b->comp_loss /= 2;
			else
				b->comp_loss = b->random_loss;
		}
		b->probe_bw = 0;
		b->cruise_bw = 0;
		return;
	}
	if (done == b->high_round + 2 || app)
		return;
	b->cruise_bw = max(b->cruise_bw, round_bw);
	if (lossy)
		return;
	share = (u32)div64_u64((u64)b->round_lost * XTP_BBR_LOSS_SCALE, total);
	b->random_loss = b->random_loss -
			 (b->random_loss >> XTP_BBR_LOSS_AVG_SHIFT) +
			 (share >> XTP_BBR_LOSS_AVG_SHIFT);
}

/*
 * The windowed maximum: two buckets of XTP_BBR_BW_ROUNDS rounds each.  A
 * bucket ages only when a sample measures something: rounds of nothing
 * but spurious retransmissions, acked a moment after they went, would
 * otherwise empty both and leave the sender paced at nothing.
 */
static void xtp_bbr_bw_sample(struct xtp_bbr *b,
			      const struct xtp_rate_sample *rs)
{
	u64 bw;

	if (!rs->interval_ns || !rs->delivered)
		return;
	/* Shorter than a round trip: a burst of acks, not the path's rate. */
	if (rs->interval_ns < (u64)b->min_rtt_us * NSEC_PER_USEC)
		return;
	if (b->round - b->bw_win_round >= XTP_BBR_BW_ROUNDS) {
		b->bw_max[1] = b->bw_max[0];
		b->bw_max[0] = 0;
		b->bw_win_round = b->round;
	}
	bw = div64_u64(rs->delivered * NSEC_PER_SEC, rs->interval_ns);
	b->round_bw = max(b->round_bw, bw);
	b->round_app_limited |= rs->app_limited;
	/* An application-limited sample only ever raises the estimate. */
	if (rs->app_limited && bw < xtp_bbr_bw_delivered(b))
		return;
	b->bw_max[0] = max(b->bw_max[0], bw);
}

/*
 * Is the loss of the current round (so far) congestion: above the
 * threshold, in a round whose every RTT showed a queue?  Mid-round the
 * rate is of at least @flight bytes, the flight the round will be judged
 * on: at a round's first sample nothing is delivered yet, and a single
 * loss reported with it was a loss rate of 100%.
 */
static bool xtp_bbr_congested(const struct xtp_bbr *b, u32 flight)
{
	u64 total = max_t(u64, (u64)b->round_delivered + b->round_lost,
			  flight);

	return total &&
	       (u64)b->round_lost * 100 > total * XTP_BBR_LOSS_PCT &&
	       b->round_rtt_us && (u64)b->round_rtt_us * 100 >
	       (u64)b->min_rtt_us * XTP_BBR_QUEUE_PCT;
}

/*
 * At a round's end: was its loss congestion?  Starts the next round.  The
 * first congested round of a loss episode (congested rounds in a row)
 * caps the bandwidth at XTP_BBR_LOSS_CAP_PCT of the estimate, as a
 * loss-based sender cuts its window once per episode: the rounds after
 * it still carry packets sent before the cut.  The cap is of the capped
 * estimate, so episodes a clean probe does not separate compound.
 */
static bool xtp_bbr_round_lossy(struct xtp_bbr *b)
{
	bool lossy = xtp_bbr_congested(b, 0);

	xtp_bbr_learn_loss(b, lossy);
	if (lossy && !b->in_episode)
		b->bw_lo = div_u64(xtp_bbr_bw(b) * XTP_BBR_LOSS_CAP_PCT, 100);
	b->in_episode = lossy;
	b->round_delivered = 0;
	b->round_lost = 0;
	b->round_rtt_us = 0;
	return lossy;
}

/*
 * STARTUP, once per round: three rounds without 25% growth, or one with
 * congestion, and the bottleneck is full.  A round the application held
 * back says nothing of the path's growth.
 */
static void xtp_bbr_check_full_bw(struct xtp_bbr *b, bool lossy,
				  bool app_limited)
{
	u64 bw = xtp_bbr_bw(b);

	if (b->full_bw_reached)
		return;
	if (lossy) {
		b->full_bw_reached = true;
		return;
	}
	if (app_limited)
		return;
	if (bw * 100 >= b->full_bw * XTP_BBR_FULL_BW_PCT) {
		b->full_bw = bw;
		b->full_bw_cnt = 0;
		return;
	}
	if (++b->full_bw_cnt >= XTP_BBR_FULL_BW_CNT)
		b->full_bw_reached = true;
}

static void xtp_bbr_enter_probe_bw(struct xtp_bbr *b, u64 now_ns)
{
	b->mode = XTP_BBR_PROBE_BW;
	/* Not the 3/4 phase: it would drain what is not there. */
	b->cycle_idx = (u8)(b->round % (XTP_BBR_CYCLE_LEN - 1));
	if (b->cycle_idx >= 1)
		b->cycle_idx++;
	b->cycle_stamp_ns = now_ns;
}

/*
 * PROBE_BW: the next phase after a min RTT, or once its goal is met.  A
 * probe ends early on congestion, seen at a round's end (@lossy) or so
 * far in this round; one without lifts the loss cap.  The goals are BDPs
 * without the send quanta: paced at 5/4 of a capped estimate, the flight
 * does not reach 5/4 BDP and three quanta, and a probe that never ends
 * never lifts the cap (xtp_bbr.sh's restored rate stayed at the halved
 * one).  Nor, in whole packets, always 5/4 BDP itself: a packet short
 * of it counts.
 */
static void xtp_bbr_cycle_step(struct xtp_bbr *b, u32 inflight, u32 mss,
			       bool lossy, u64 now_ns)
{
	u32 gain = xtp_bbr_cycle[b->cycle_idx];
	bool done = now_ns - b->cycle_stamp_ns >
		    (u64)b->min_rtt_us * NSEC_PER_USEC;

	lossy = lossy || xtp_bbr_congested(b, inflight);
	if (gain > XTP_BBR_UNIT)
		done = done &&
		       (lossy || inflight + mss > xtp_bbr_bdp(b, gain));
	else if (gain < XTP_BBR_UNIT)
		done = done || inflight <= xtp_bbr_bdp(b, XTP_BBR_UNIT);
	if (!done)
		return;
	if (gain > XTP_BBR_UNIT && !lossy)
		b->bw_lo = 0;
	b->cycle_idx = (b->cycle_idx + 1) % XTP_BBR_CYCLE_LEN;
	b->cycle_stamp_ns = now_ns;
}

static void xtp_bbr_min_rtt(struct xtp_bbr *b, const struct xtp_rate_sample *rs,
			    u32 inflight, u32 mss, u64 now_ns)
{
	/* Only a least RTT once seen can expire and want PROBE_RTT. */
	bool expired = b->min_rtt_us &&
		       now_ns - b->min_rtt_stamp_ns > XTP_BBR_MIN_RTT_NS;

	/*
	 * A lucky packet says how fast it went, not how fast the path is:
	 * through netem's "reorder 10%" (a tenth of the packets skip the
	 * delay) such samples came to 56-71 us of a 20 ms RTT, and two BDPs
	 * of that held the window at its floor (3 Mbit/s where Veno made
	 * 23).
	 */
	if (rs->rtt_us && !xtp_rtt_lucky(rs) &&
	    (!b->min_rtt_us || rs->rtt_us <= b->min_rtt_us || expired)) {
		b->min_rtt_us = rs->rtt_us;
		b->min_rtt_stamp_ns = now_ns;
	}
	if (expired && !rs->idle_restart && b->mode != XTP_BBR_PROBE_RTT) {
		b->mode = XTP_BBR_PROBE_RTT;
		b->probe_rtt_done_ns = 0;
	}
	if (b->mode != XTP_BBR_PROBE_RTT)
		return;
	/*
	 * The 200 ms start once the window is down to a few packets, and a
	 * round trip at that window must end too (paths over 200 ms).
	 */
	if (!b->probe_rtt_done_ns &&
	    inflight <= XTP_BBR_MIN_CWND_SEGS * mss) {
		b->probe_rtt_done_ns = now_ns + XTP_BBR_PROBE_RTT_NS;
		b->probe_rtt_round = b->round + 1;
	}
	if (b->probe_rtt_done_ns && now_ns >= b->probe_rtt_done_ns &&
	    (s32)(b->round - b->probe_rtt_round) >= 0) {
		b->min_rtt_stamp_ns = now_ns;
		if (b->full_bw_reached)
			xtp_bbr_enter_probe_bw(b, now_ns);
		else
			b->mode = XTP_BBR_STARTUP;
	}
}

/**
 * xtp_bbr_update() - an acknowledgment brought a sample
 * @b: the model
 * @rs: the sample
 * @delivered_total: bytes delivered so far, this sample included
 * @inflight: bytes in flight after it
 * @mss: one packet's payload
 * @now_ns: the time
 */
void xtp_bbr_update(struct xtp_bbr *b, const struct xtp_rate_sample *rs,
		    u64 delivered_total, u32 inflight, u32 mss, u64 now_ns)
{
	bool round_start = false, lossy = false;

	/* Only delivery moves rounds: a loss alone belongs to the current. */
	if (rs->delivered && xtp_bbr_new_round(b, rs, delivered_total)) {
		round_start = true;
		lossy = xtp_bbr_round_lossy(b);
	}
	/*
	 * The round's own bytes, not the sum of its samples: each sample's
	 * delivered spans its packet's whole flight, so the samples of one
	 * round overlap, and their sum (a sample per MTP datagram: a
	 * hundred times the round) hid every loss rate under 2%.
	 */
	b->round_delivered = (u32)min_t(u64, delivered_total - b->round_end,
					U32_MAX / 2);
	b->round_lost += rs->lost;
	if (rs->rtt_us && (!b->round_rtt_us || rs->rtt_us < b->round_rtt_us))
		b->round_rtt_us = rs->rtt_us;
	if (xtp_bbr_pacing_gain(b) > XTP_BBR_UNIT)
		b->high_round = b->round;
	xtp_bbr_bw_sample(b, rs);
	if (round_start && b->mode == XTP_BBR_STARTUP)
		xtp_bbr_check_full_bw(b, lossy, rs->app_limited);
	if (b->mode == XTP_BBR_STARTUP && b->full_bw_reached)
		b->mode = XTP_BBR_DRAIN;
	if (b->mode == XTP_BBR_DRAIN &&
	    inflight <= xtp_bbr_inflight(b, XTP_BBR_UNIT, mss))
		xtp_bbr_enter_probe_bw(b, now_ns);
	if (b->mode == XTP_BBR_PROBE_BW)
		xtp_bbr_cycle_step(b, inflight, mss, lossy, now_ns);
	xtp_bbr_min_rtt(b, rs, inflight, mss, now_ns);
}

/**
 * xtp_bbr_pacing_rate() - the rate to pace at
 * @b: the model
 *
 * Return: bytes per second, 0 until the first sample (the caller's
 * initial rate then applies).
 */
u64 xtp_bbr_pacing_rate(const struct xtp_bbr *b)
{
	return div_u64(xtp_bbr_bw(b) * xtp_bbr_pacing_gain(b), XTP_BBR_UNIT);
}

/**
 * xtp_bbr_rate_floor() - a model's pacing rate, kept above its least window
 * @rate: the model's rate, bytes per second
 * @mss: one packet's payload
 * @srtt_us: the smoothed RTT, 0 for none yet
 *
 * An estimate can fall towards nothing (samples all rejected, a loss cap
 * applied round after round, a server's application slow to answer).
 * Paced slower than its least window (%XTP_BBR_MIN_CWND_SEGS packets) per
 * SRTT a sender would all but stop, and stopped, never measure anything
 * better.
 *
 * Return: bytes per second; @rate while there is no SRTT.
 */
u64 xtp_bbr_rate_floor(u64 rate, u32 mss, u32 srtt_us)
{
	if (!srtt_us)
		return rate;
	return max(rate, div_u64((u64)XTP_BBR_MIN_CWND_SEGS * mss *
				 USEC_PER_SEC, srtt_us));
}

/**
 * xtp_bbr_cwnd() - the most bytes to keep in flight
 * @b: the model
 * @mss: one packet's payload
 *
 * Two bandwidth-delay products and three send quanta (xtp_bbr_inflight();
 * STARTUP's gain before the first RTT is known: the caller's initial
 * window then applies), never fewer than four packets; four packets in
 * PROBE_RTT.
 *
 * Return: bytes, 0 while the model has no estimate.
 */
u32 xtp_bbr_cwnd(const struct xtp_bbr *b, u32 mss)
{
	u64 w;

	if (b->mode == XTP_BBR_PROBE_RTT)
		return XTP_BBR_MIN_CWND_SEGS * mss;
	if (!b->min_rtt_us || !xtp_bbr_bw(b))
		return 0;
	w = xtp_bbr_inflight(b, XTP_BBR_CWND_GAIN, mss);
	return (u32)clamp_t(u64, w, XTP_BBR_MIN_CWND_SEGS * mss, U32_MAX);
}
