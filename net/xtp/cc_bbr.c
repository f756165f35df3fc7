// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: the delivery-rate model of bbr.c as a congestion controller.
 *
 * Every acknowledgment (RSEQ moving, ECNTL spans covering packets) gives
 * a delivery-rate sample (cc.c, xtp_rate_sample()); the model turns the
 * samples into a pacing rate and a window, which replace the window per
 * SRTT of the loss-based controllers.  Loss reaches the model only
 * through the samples, so the loss hook does nothing.  Before the first
 * sample the initial window applies, paced at STARTUP's gain over the
 * SRTT (or over 1 ms while no RTT is known).
 */
#include <linux/ktime.h>
#include <net/sock.h>

#include "xtp.h"

/* 2/ln 2 in 1/256 units, as bbr.c's STARTUP gain. */
#define XTP_BBR_INIT_GAIN	739

static void xtp_cc_bbr_init(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->cc.cwnd = xtp_cc_init_window(xs);
	xs->cc.ssthresh = U32_MAX;
	xtp_bbr_init(&xs->cc.bbr, ktime_get_ns());
}

static void xtp_cc_bbr_acked(struct sock *sk, u32 bytes)
{
}

static void xtp_cc_bbr_loss(struct sock *sk)
{
}

/* A handshake's answer is a sample like any other; nothing more. */
static void xtp_cc_bbr_handshake_end(struct sock *sk, u32 k, bool lost)
{
}

static void xtp_cc_bbr_sample(struct sock *sk, const struct xtp_bbr_sample *rs)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 cwnd;

	xtp_bbr_update(&xs->cc.bbr, rs, xs->cc.delivered, xtp_in_flight(xs),
		       xs->maxdata, ktime_get_ns());
	cwnd = xtp_bbr_cwnd(&xs->cc.bbr, xs->maxdata);
	if (cwnd)
		xs->cc.cwnd = cwnd;
}

static u64 xtp_cc_bbr_pacing_rate(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 rate = xtp_bbr_pacing_rate(&xs->cc.bbr);
	u32 rtt_us = xs->rtt.srtt_us ?: USEC_PER_MSEC;

	if (rate)
		return rate;
	return div_u64((u64)xs->cc.cwnd * USEC_PER_SEC * XTP_BBR_INIT_GAIN,
		       (u64)rtt_us * XTP_BBR_UNIT);
}

const struct xtp_cc_ops xtp_cc_bbr = {
	.id		= XTP_CC_BBR,
	.name		= "bbr",
	.paced		= true,
	.init		= xtp_cc_bbr_init,
	.acked		= xtp_cc_bbr_acked,
	.loss		= xtp_cc_bbr_loss,
	.handshake_end	= xtp_cc_bbr_handshake_end,
	.sample		= xtp_cc_bbr_sample,
	.pacing_rate	= xtp_cc_bbr_pacing_rate,
};
