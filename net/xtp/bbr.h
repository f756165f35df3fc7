/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: a delivery-rate model of the path, after the published BBR
 * algorithm (draft-ietf-ccwg-bbr), as pure arithmetic shared by the
 * module (cc_bbr.c, XTP_CC_BBR) and the user-space unit tests (bbr.c).
 */
#ifndef _NET_XTP_BBR_H
#define _NET_XTP_BBR_H

#include <linux/types.h>

/* Gains are in 1/256 units. */
#define XTP_BBR_UNIT		256
/* 2/ln 2, the smallest gain that doubles the delivery rate each round. */
#define XTP_BBR_HIGH_GAIN	739

/**
 * enum xtp_bbr_mode - what the model is doing
 * @XTP_BBR_STARTUP: doubling the rate each round trip to find the
 *	bottleneck's bandwidth
 * @XTP_BBR_DRAIN: emptying the queue STARTUP built
 * @XTP_BBR_PROBE_BW: cruising at the bandwidth, probing above it one
 *	round in eight and draining the next
 * @XTP_BBR_PROBE_RTT: a few packets in flight for a moment, so the
 *	minimum RTT can be seen again
 */
enum xtp_bbr_mode {
	XTP_BBR_STARTUP,
	XTP_BBR_DRAIN,
	XTP_BBR_PROBE_BW,
	XTP_BBR_PROBE_RTT,
};

/**
 * struct xtp_rate_sample - one acknowledgment's delivery-rate sample
 * @delivered: bytes delivered over the sample's interval
 * @prior_delivered: the total delivered when the newest packet this
 *	acknowledgment covers was sent
 * @interval_ns: the longer of the send and the acknowledgment intervals
 * @rtt_us: the RTT of that packet, 0 for none
 * @sacked: that packet was reported beyond a hole: it overtook an older
 *	one, or one was lost.  Its RTT is no sample of the path's least: a
 *	reordering path (netem's reorder, a packet that skips the delay)
 *	gives such packets a fraction of the RTT the others take
 * @srtt_us: the sender's smoothed RTT, 0 for none: an RTT below
 *	1/%XTP_BBR_RTT_FAR of it is one packet's luck, not the path's least
 * @lost: bytes newly marked lost
 * @app_limited: the sender had nothing to send when that packet left:
 *	a low rate says nothing of the path
 * @idle_restart: that packet left after the sender was idle: an expired
 *	minimum RTT is renewed by this sample, without PROBE_RTT
 */
struct xtp_rate_sample {
	u64 delivered;
	u64 prior_delivered;
	u64 interval_ns;
	u32 rtt_us;
	u32 srtt_us;
	u32 lost;
	bool sacked;
	bool app_limited;
	bool idle_restart;
};

/**
 * struct xtp_bbr - the model
 * @bw_max: the largest delivery rate of the current and the previous
 *	window of %XTP_BBR_BW_ROUNDS round trips (bytes/s)
 * @bw_lo: a cap after a round with loss above the threshold, 0 for none
 * @full_bw: STARTUP: the rate the last growth check saw
 * @round: round trips counted (it wraps, as TCP's does: rounds are only
 *	compared near each other)
 * @round_end: the total delivered that ends the current round trip
 * @bw_win_round: round at which the current @bw_max window began
 * @min_rtt_stamp_ns: when @min_rtt_us was last seen or renewed
 * @cycle_stamp_ns: when the current PROBE_BW phase began
 * @probe_rtt_done_ns: PROBE_RTT ends then, 0 while not yet timed
 * @probe_rtt_round: PROBE_RTT ends no earlier than this round either: a
 *	round trip at the low window must have been seen
 * @min_rtt_us: the least RTT of the last %XTP_BBR_MIN_RTT_NS
 * @round_delivered: bytes delivered in the current round trip
 * @round_lost: bytes lost in the current round trip
 * @round_rtt_us: the least RTT sampled in the current round, 0 for none
 * @mode: &enum xtp_bbr_mode
 * @cycle_idx: the PROBE_BW phase
 * @full_bw_cnt: STARTUP: rounds in a row without 25% growth
 * @full_bw_reached: STARTUP found the bottleneck
 * @in_episode: the last round was congested: its loss episode has cut
 * @high_round: the last round in which the model sent above its
 *	estimate (STARTUP, or PROBE_BW's 5/4 phase)
 * @round_bw: the largest delivery rate sampled in the current round
 * @probe_bw: the largest of the last probe's rounds, %U64_MAX if the
 *	sender was application-limited in one
 * @cruise_bw: the largest of the cruising rounds since the last probe
 * @random_loss: the share of what cruising rounds sent that was lost
 *	without congestion, in 1/%XTP_BBR_LOSS_SCALE, a moving average
 * @comp_loss: the share the bandwidth is compensated for, same units:
 *	@random_loss after a probe that found room, halved after each one
 *	that found the pipe full
 * @round_app_limited: a sample of the current round was
 *	application-limited
 */
struct xtp_bbr {
	u64 bw_max[2];
	u64 bw_lo;
	u64 full_bw;
	u64 round_end;
	u64 min_rtt_stamp_ns;
	u64 cycle_stamp_ns;
	u64 probe_rtt_done_ns;
	u64 round_bw;
	u64 probe_bw;
	u64 cruise_bw;
	u32 round;
	u32 bw_win_round;
	u32 probe_rtt_round;
	u32 high_round;
	u32 min_rtt_us;
	u32 round_delivered;
	u32 round_lost;
	u32 round_rtt_us;
	u16 random_loss;
	u16 comp_loss;
	u8 mode;
	u8 cycle_idx;
	u8 full_bw_cnt;
	u8 full_bw_reached:1,
	   in_episode:1,
	   round_app_limited:1;
};

/* The bandwidth filter's window, in round trips (10 to 20 are kept). */
#define XTP_BBR_BW_ROUNDS	10
/* The minimum RTT filter's window. */
#define XTP_BBR_MIN_RTT_NS	(10ULL * 1000000000ULL)
/*
 * An RTT sample this many times below the smoothed RTT does not become
 * the least RTT: it is an outlier until SRTT comes down towards it, as
 * it does within a few samples when the path's delay really fell.
 */
#define XTP_BBR_RTT_FAR		8
/* How long PROBE_RTT holds the window down. */
#define XTP_BBR_PROBE_RTT_NS	(200ULL * 1000000ULL)
/*
 * Loss in a round trip is congestion when it is above this (percent) and
 * even the round's least RTT shows a queue (XTP_BBR_QUEUE_PCT of the
 * minimum): random loss on an empty path is neither.  The least, not the
 * largest: a drop-tail queue that overflows stood the whole round, while
 * one late acknowledgment (a busy host, an answer of many datagrams sent
 * back to back) is not a queue.
 */
#define XTP_BBR_LOSS_PCT	2
#define XTP_BBR_QUEUE_PCT	125
/* &xtp_bbr.random_loss is in these units. */
#define XTP_BBR_LOSS_SCALE	1024

/**
 * xtp_rtt_lucky() - is @rs's RTT one packet's luck, not the path's least?
 * @rs: the sample
 *
 * Its packet overtook an older one (reported beyond a hole), or it came
 * back in under 1/%XTP_BBR_RTT_FAR of SRTT: through netem's "reorder"
 * such packets skip the delay, and a sender held to its flow-control
 * window overtakes nothing, so its lucky packet is acknowledged in order.
 *
 * Return: true if the least RTT should not take it.
 */
static inline bool xtp_rtt_lucky(const struct xtp_rate_sample *rs)
{
	return rs->sacked || (u64)rs->rtt_us * XTP_BBR_RTT_FAR < rs->srtt_us;
}

void xtp_bbr_init(struct xtp_bbr *b, u64 now_ns);
void xtp_bbr_update(struct xtp_bbr *b, const struct xtp_rate_sample *rs,
		    u64 delivered_total, u32 inflight, u32 mss, u64 now_ns);
u64 xtp_bbr_bw(const struct xtp_bbr *b);
u64 xtp_bbr_pacing_rate(const struct xtp_bbr *b);
u32 xtp_bbr_cwnd(const struct xtp_bbr *b, u32 mss);
u64 xtp_bbr_rate_floor(u64 rate, u32 mss, u32 srtt_us);

#endif /* _NET_XTP_BBR_H */
