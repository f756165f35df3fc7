// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: the delivery-rate model of bbr.c as a congestion controller.
 *
 * Every acknowledgment (RSEQ moving, ECNTL spans covering packets) gives
 * a delivery-rate sample (cc.c, xtp_rate_sample()); the model turns the
 * samples into a pacing rate and a window, which replace the window per
 * SRTT of the loss-based controllers.  Loss reaches the model only
 * through the samples, so there is no loss hook.  Until STARTUP has
 * filled the pipe the window and the pacing rate only grow: from the
 * initial window, paced at STARTUP's gain over the SRTT (over 1 ms while
 * no RTT is known), as the first samples of a few packets would shrink
 * them.
 */
#include <linux/ktime.h>
#include <net/sock.h>

#include "xtp.h"

static void xtp_cc_bbr_init(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->cc.cwnd = xtp_cc_init_window(xs);
	xs->cc.ssthresh = U32_MAX;
	xtp_bbr_init(&xs->cc.bbr, ktime_get_ns());
}

/*
 * A handshake whose probes were lost is XTP's retransmission timeout:
 * everything in flight is marked lost (timer.c), and until the next
 * acknowledgment one packet may go beyond what is still in flight.  The
 * answer that ends a handshake brings no sample (cc.c): its RTT holds
 * the wait.
 */
static void xtp_cc_bbr_handshake_end(struct sock *sk, u32 k, bool lost)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (k > 2)
		xs->cc.cwnd = xtp_in_flight(xs) + xtp_seg_limit(xs);
}

static void xtp_cc_bbr_sample(struct sock *sk, const struct xtp_rate_sample *rs)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 seg = xtp_seg_limit(xs), cwnd;

	xtp_bbr_update(&xs->cc.bbr, rs, xs->cc.delivered, xtp_in_flight(xs),
		       seg, ktime_get_ns());
	cwnd = xtp_bbr_cwnd(&xs->cc.bbr, seg);
	if (cwnd && (cwnd > xs->cc.cwnd || xs->cc.bbr.full_bw_reached ||
		     xs->cc.bbr.mode == XTP_BBR_PROBE_RTT))
		xs->cc.cwnd = cwnd;
}

static u64 xtp_cc_bbr_pacing_rate(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 rate = xtp_bbr_pacing_rate(&xs->cc.bbr);
	u32 rtt_us = xs->rtt.srtt_us ?: USEC_PER_MSEC;

	if (xs->cc.bbr.full_bw_reached)
		return rate;
	return max(rate, div64_u64((u64)xs->cc.cwnd * USEC_PER_SEC *
				   XTP_BBR_HIGH_GAIN,
				   (u64)rtt_us * XTP_BBR_UNIT));
}

const struct xtp_cc_ops xtp_cc_bbr = {
	.id		= XTP_CC_BBR,
	.name		= "bbr",
	.paced		= true,
	.init		= xtp_cc_bbr_init,
	.handshake_end	= xtp_cc_bbr_handshake_end,
	.sample		= xtp_cc_bbr_sample,
	.pacing_rate	= xtp_cc_bbr_pacing_rate,
};
