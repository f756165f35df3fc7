// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: NewReno-style congestion control, paced.
 *
 * Slow start with byte counting (at most two packets per ack, RFC 3465),
 * then one packet per window of acknowledged bytes.  An ECNTL showing loss
 * halves the window once per window of data (fast recovery: the holes are
 * refilled at once from the spans, recovery ends when RSEQ passes what was
 * sent when it began).  A handshake whose first probe was answered counts
 * as one loss if the answer shows data missing, as nothing otherwise (an
 * ack was lost, or late); one that lost probes restarts from one packet,
 * as a TCP retransmission timeout would.  The window does not grow while
 * the sender runs out of data or of ALLOC rather than of window, so it
 * never builds up a window it did not use.
 */
#include <net/sock.h>

#include "xtp.h"

static void xtp_newreno_init(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->cwnd = xtp_cc_init_window(xs);
	xs->ssthresh = xtp_cc_init_thresh(xs);
}

static void xtp_newreno_acked(struct sock *sk, u32 bytes)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->in_recovery) {
		if (xs->snd_una >= xs->recover)
			xs->in_recovery = 0;
		return;
	}
	if (xs->app_limited)
		return;
	if (xs->cwnd < xs->ssthresh) {
		xs->cwnd += min_t(u32, bytes, 2 * xs->maxdata);
		xs->mib.xp_inc++;
		return;
	}
	xs->cwnd_count += bytes;
	xs->mib.lin_inc++;
	if (xs->cwnd_count >= xs->cwnd) {
		xs->cwnd_count -= xs->cwnd;
		xs->cwnd += xs->maxdata;
	}
}

/* Multiplicative decrease: half the window, at least two packets. */
static void xtp_newreno_halve(struct xtp_sock *xs)
{
	if (xs->cwnd < xs->ssthresh)
		xs->mib.xp_dec++;
	else
		xs->mib.lin_dec++;
	xs->ssthresh = max_t(u32, xs->cwnd / 2, 2 * xs->maxdata);
	xs->cwnd = xs->ssthresh;
	xs->cwnd_count = 0;
}

static void xtp_newreno_loss(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->in_recovery)
		return;
	xtp_newreno_halve(xs);
	xs->recover = xs->snd_nxt;
	xs->in_recovery = 1;
}

static void xtp_newreno_handshake_end(struct sock *sk, u32 k, bool lost)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (k <= 2) {
		if (lost)
			xtp_newreno_loss(sk);
		return;
	}
	xtp_newreno_halve(xs);
	xs->cwnd = xs->maxdata;
	xs->in_recovery = 0;
}

const struct xtp_cc_ops xtp_cc_newreno = {
	.id		= XTP_CC_NEWRENO,
	.name		= "newreno",
	.paced		= true,
	.init		= xtp_newreno_init,
	.acked		= xtp_newreno_acked,
	.loss		= xtp_newreno_loss,
	.handshake_end	= xtp_newreno_handshake_end,
};
