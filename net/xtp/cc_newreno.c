// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: NewReno-style congestion control, paced, and its Veno variant.
 *
 * Slow start with byte counting (at most two packets per ack, RFC 3465),
 * then one packet per window of acknowledged bytes.  An ECNTL showing loss
 * cuts the window once per window of data (fast recovery: the holes are
 * refilled at once from the spans, recovery ends when RSEQ passes what was
 * sent when it began).  A cut whose episode needed no retransmission was
 * for packets IP reordered, not lost: it is undone (xtp_cc_undo_check()).
 * A handshake whose first probe was answered counts
 * as one loss if the answer shows data missing, as nothing otherwise (an
 * ack was lost, or late); one that lost probes restarts from one packet,
 * as a TCP retransmission timeout would.  The window does not grow while
 * the sender runs out of data or of ALLOC rather than of window, so it
 * never builds up a window it did not use.
 *
 * NewReno halves the window on every loss.  Veno (Fu and Liew, IEEE JSAC
 * 21(2), 2003) estimates how much of the window sits in queues,
 * cwnd * (1 - base RTT / RTT), where RTT is the least of the last
 * XTP_VENO_RECENT delivery-rate samples and the base RTT the least ever:
 * a queue that stands shows in every sample, a scheduling stall or a
 * slow first answer in one.  (SRTT, which such a sample lifts for a dozen
 * more, made a 100 ms path with nothing queued look congested after a
 * 211 ms first answer.  The least of a round or two was robust but blind
 * to a queue in the first rounds, whose least was the base itself.)
 * Below three packets the path is not congested: a loss was random, so
 * the window only drops to 4/5, and it grows as NewReno's does.
 * Otherwise a loss halves it, and it grows one packet every other
 * window: beside TCP CUBIC at a one-BDP tail-drop queue, growing every
 * window took about 60% of the link (xtp_fair.sh).
 */
#include <net/sock.h>

#include "xtp.h"

static void xtp_newreno_init(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	memset(&xs->cc.reno, 0, sizeof(xs->cc.reno));
	xs->cc.cwnd = xtp_cc_init_window(xs);
	xs->cc.ssthresh = xtp_cc_init_thresh(xs);
}

/*
 * Slow start, then one packet per @windows windows of acknowledged bytes.
 */
static void xtp_reno_grow(struct xtp_sock *xs, u32 bytes, u32 windows)
{
	u32 round;

	if (xs->cc.in_recovery) {
		if (xs->snd.una >= xs->cc.recover)
			xs->cc.in_recovery = 0;
		return;
	}
	if (xs->cc.app_limited)
		return;
	if (xs->cc.cwnd < xs->cc.ssthresh) {
		xs->cc.cwnd += min_t(u32, bytes, 2 * xtp_seg_limit(xs));
		xs->cc.reno.n.xp_inc++;
		return;
	}
	round = xs->cc.cwnd * windows;
	xs->cc.cwnd_count += bytes;
	xs->cc.reno.n.lin_inc++;
	if (xs->cc.cwnd_count >= round) {
		xs->cc.cwnd_count -= round;
		xs->cc.cwnd += xtp_seg_limit(xs);
	}
}

static void xtp_newreno_acked(struct sock *sk, u32 bytes)
{
	xtp_reno_grow(xtp_sk(sk), bytes, 1);
}

/* Multiplicative decrease to @num/@den of the window, at least 2 packets. */
static void xtp_newreno_decrease(struct xtp_sock *xs, u32 num, u32 den)
{
	if (xs->cc.cwnd < xs->cc.ssthresh)
		xs->cc.reno.n.xp_dec++;
	else
		xs->cc.reno.n.lin_dec++;
	xs->cc.ssthresh = max_t(u32, div_u64((u64)xs->cc.cwnd * num, den),
				2 * xtp_seg_limit(xs));
	xs->cc.cwnd = xs->cc.ssthresh;
	xs->cc.cwnd_count = 0;
}

/*
 * A loss outside recovery cuts the window and starts a recovery.
 * Return: whether it did.
 */
static bool xtp_newreno_recover(struct xtp_sock *xs, u32 num, u32 den)
{
	if (xs->cc.in_recovery)
		return false;
	xs->cc.reno.prior_cwnd = xs->cc.cwnd;
	xs->cc.reno.prior_ssthresh = xs->cc.ssthresh;
	xtp_newreno_decrease(xs, num, den);
	xs->cc.recover = xs->snd.nxt;
	xs->cc.in_recovery = 1;
	return true;
}

/* The cut was for reordering, not loss: back to the window before it. */
static void xtp_newreno_undo(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->cc.cwnd = max(xs->cc.cwnd, xs->cc.reno.prior_cwnd);
	xs->cc.ssthresh = max(xs->cc.ssthresh, xs->cc.reno.prior_ssthresh);
	xs->cc.cwnd_count = 0;
	xs->cc.in_recovery = 0;
}

static void xtp_newreno_loss(struct sock *sk)
{
	xtp_newreno_recover(xtp_sk(sk), 1, 2);
}

/* Queued packets at which Veno takes the path for congested (its beta). */
#define XTP_VENO_QUEUED		3

/*
 * Veno: does the window put at least XTP_VENO_QUEUED packets in queues?
 * Without a sample of the path's base RTT yet nothing says so.
 */
static bool xtp_veno_congested(const struct xtp_sock *xs)
{
	const struct xtp_reno *v = &xs->cc.reno;
	u32 rtt = 0, base = v->base_rtt_us;
	u64 queued = 0;
	int i;

	for (i = 0; i < XTP_VENO_RECENT; i++)
		if (v->recent_us[i] && (!rtt || v->recent_us[i] < rtt))
			rtt = v->recent_us[i];
	if (base && rtt > base)
		queued = div_u64((u64)xs->cc.cwnd * (rtt - base), rtt);
	return queued >= XTP_VENO_QUEUED * xtp_seg_limit(xs);
}

/*
 * Every RTT sample joins the recent ones, SACKed ones too: under steady
 * loss most packets are delivered beyond a hole, and their RTTs are as
 * true as any.  The base RTT takes no lucky packet's (xtp_rtt_lucky()):
 * one that overtook others, or one far below SRTT, would make every
 * later RTT look queued.  Retransmissions bring no RTT (cc.c).
 */
static void xtp_veno_sample(struct sock *sk, const struct xtp_rate_sample *rs)
{
	struct xtp_reno *v = &xtp_sk(sk)->cc.reno;

	if (!rs->rtt_us)
		return;
	v->recent_us[v->recent_idx] = rs->rtt_us;
	v->recent_idx = (v->recent_idx + 1) % XTP_VENO_RECENT;
	if (!xtp_rtt_lucky(rs) &&
	    (!v->base_rtt_us || rs->rtt_us < v->base_rtt_us))
		v->base_rtt_us = rs->rtt_us;
}

static void xtp_veno_acked(struct sock *sk, u32 bytes)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xtp_reno_grow(xs, bytes, xtp_veno_congested(xs) ? 2 : 1);
}

static void xtp_veno_loss(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xtp_veno_congested(xs))
		xtp_newreno_recover(xs, 1, 2);
	else if (xtp_newreno_recover(xs, 4, 5))
		xs->mib.random_losses++;
}

static void xtp_newreno_handshake_end(struct sock *sk, u32 k, bool lost)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (k <= 2) {
		if (lost)
			xs->cc.ops->loss(sk);
		return;
	}
	xtp_newreno_decrease(xs, 1, 2);
	xs->cc.cwnd = xtp_seg_limit(xs);
	xs->cc.in_recovery = 0;
}

static const struct xtp_cc_counts *xtp_reno_counts(const struct sock *sk)
{
	return &xtp_sk(sk)->cc.reno.n;
}

const struct xtp_cc_ops xtp_cc_newreno = {
	.id		= XTP_CC_NEWRENO,
	.name		= "newreno",
	.paced		= true,
	.init		= xtp_newreno_init,
	.acked		= xtp_newreno_acked,
	.loss		= xtp_newreno_loss,
	.handshake_end	= xtp_newreno_handshake_end,
	.undo		= xtp_newreno_undo,
	.counts		= xtp_reno_counts,
};

const struct xtp_cc_ops xtp_cc_veno = {
	.id		= XTP_CC_VENO,
	.name		= "veno",
	.paced		= true,
	.init		= xtp_newreno_init,
	.acked		= xtp_veno_acked,
	.loss		= xtp_veno_loss,
	.handshake_end	= xtp_newreno_handshake_end,
	.sample		= xtp_veno_sample,
	.undo		= xtp_newreno_undo,
	.counts		= xtp_reno_counts,
};
