// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: a server host's delivery rate (rate.h).  Pure code.
 *
 * MTP's client asks for the data, so the client measures the rate: a
 * subrequest notes how many answer bytes had arrived from its host when
 * it left and since when; each answer datagram to it is then a sample,
 * the bytes that arrived since over the longer of the time since and the
 * time its flight of subrequests took to leave, as an acknowledgment is
 * for a sender (net/xtp/cc.c).  The samples drive XTP's model
 * (net/xtp/bbr.c), which sets the host's window (&mtp_cc.cwnd, 2 BDP and
 * three send quanta) and the rate every subrequest is paced at.  Losses
 * reach it through the samples only: random loss is no signal unless the
 * RTT shows a queue.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "rate.h"

/**
 * mtp_rate_init() - a host nothing was asked from yet
 * @r: state
 * @now_ns: the time
 */
void mtp_rate_init(struct mtp_rate *r, u64 now_ns)
{
	*r = (struct mtp_rate){};
	xtp_bbr_init(&r->bbr, now_ns);
}

/**
 * mtp_rate_sent() - a subrequest leaves: stamp it
 * @r: state of its host
 * @st: the stamp, kept with the range it asks for
 * @idle: nothing else was in transit from the host: the intervals
 *	start now
 * @repeat: it asks again for bytes asked before
 * @now_ns: the time
 */
void mtp_rate_sent(struct mtp_rate *r, struct mtp_rate_stamp *st,
		   bool idle, bool repeat, u64 now_ns)
{
	if (idle || !r->delivered_ns) {
		r->delivered_ns = now_ns;
		r->first_ns = now_ns;
	}
	*st = (struct mtp_rate_stamp){
		.delivered = r->delivered,
		.delivered_ns = r->delivered_ns,
		.first_ns = r->first_ns,
		.sent_ns = now_ns,
		.no_rtt = repeat,
		.app_limited = r->app_limited_until != 0,
		.idle = idle,
	};
}

/**
 * mtp_rate_app_limited() - the client stopped asking, not held back by
 *	the host's window or pacing
 * @r: state of the host
 * @inflight: bytes in transit from it
 *
 * What it asks for until the bytes in transit now have arrived shows
 * the client's rate, not the path's (as tcp_rate_check_app_limited()).
 */
void mtp_rate_app_limited(struct mtp_rate *r, u32 inflight)
{
	r->app_limited_until = max_t(u64, r->delivered + inflight, 1);
}

/**
 * mtp_rate_lost() - @bytes were declared lost, for the next sample
 * @r: state of their host
 * @bytes: how many
 */
void mtp_rate_lost(struct mtp_rate *r, u32 bytes)
{
	r->lost += bytes;
}

/**
 * mtp_rate_delivered() - answer bytes arrived: a sample for the model
 * @r: state of their host
 * @cc: the host's window, set from the model
 * @st: the stamp of the subrequest they answer; %NULL or unset for none
 *	(the bytes count, but give no sample); the caller sets its @no_rtt
 *	once one of its datagrams has given an RTT
 * @bytes: new bytes
 * @dgram: payload bytes per answer datagram
 * @now_ns: the time
 *
 * Until the model has filled the pipe the window only grows, from the
 * initial window: the first samples, of a datagram or two, would
 * shrink it.
 */
void mtp_rate_delivered(struct mtp_rate *r, struct mtp_cc *cc,
			const struct mtp_rate_stamp *st, u32 bytes, u32 dgram,
			u64 now_ns)
{
	struct xtp_rate_sample rs = {};
	u32 cwnd;

	r->delivered += bytes;
	r->delivered_ns = now_ns;
	if (r->app_limited_until && r->delivered > r->app_limited_until)
		r->app_limited_until = 0;
	if (!st || !st->sent_ns)
		return;
	rs.delivered = r->delivered - st->delivered;
	rs.prior_delivered = st->delivered;
	rs.interval_ns = max(now_ns - st->delivered_ns,
			     st->sent_ns - st->first_ns);
	if (!st->no_rtt)
		rs.rtt_us = (u32)div_u64(now_ns - st->sent_ns, NSEC_PER_USEC);
	rs.app_limited = st->app_limited;
	rs.idle_restart = st->idle;
	rs.lost = r->lost;
	r->lost = 0;
	r->first_ns = max(r->first_ns, st->sent_ns);
	xtp_bbr_update(&r->bbr, &rs, r->delivered, cc->inflight, dgram, now_ns);
	cwnd = xtp_bbr_cwnd(&r->bbr, dgram);
	if (cwnd && (cwnd > cc->cwnd || r->bbr.full_bw_reached ||
		     r->bbr.mode == XTP_BBR_PROBE_RTT))
		cc->cwnd = cwnd;
}

/**
 * mtp_rate_pace() - the rate the host's subrequests are spread at
 * @r: state of the host
 * @cc: its window
 * @srtt_us: its smoothed RTT, 0 for none yet
 * @dgram: payload bytes per answer datagram
 *
 * The model's; until it has filled the pipe, never below STARTUP's gain
 * times the window per RTT, and never below the least window per RTT
 * (xtp_bbr_rate_floor()): an estimate taken while the server's
 * application was slow must not space the requests out past the
 * transaction's expiry.
 *
 * Return: bytes per second; 0 for no pacing (no RTT and no estimate).
 */
u64 mtp_rate_pace(const struct mtp_rate *r, const struct mtp_cc *cc,
		  u32 srtt_us, u32 dgram)
{
	u64 rate = xtp_bbr_pacing_rate(&r->bbr);
	u32 gain = r->bbr.full_bw_reached ? 0 : XTP_BBR_HIGH_GAIN;

	if (!srtt_us)
		return rate;
	rate = xtp_bbr_rate_floor(rate, dgram, srtt_us);
	return max(rate, div64_u64((u64)cc->cwnd * USEC_PER_SEC * gain,
				   (u64)srtt_us * XTP_BBR_UNIT));
}
