// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: SCC as a congestion controller (the arithmetic is in scc.c).
 *
 * The Appendix B metrics read the SCC state directly: trainsize,
 * linear_thresh, linear_count and the growth and decrease counts.
 */
#include <net/sock.h>

#include "xtp.h"

/* Publish the SCC state where the sender and MIBSTAT look. */
static void xtp_scc_sync(struct xtp_sock *xs)
{
	xs->cc.cwnd = xs->cc.scc.trainsize;
	xs->cc.ssthresh = xs->cc.scc.linear_thresh;
	xs->cc.cwnd_count = xs->cc.scc.linear_count;
}

static void xtp_scc_op_init(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xtp_scc_init(&xs->cc.scc, xtp_seg_limit(xs), xtp_cc_init_window(xs),
		     xtp_cc_init_thresh(xs));
	xtp_scc_sync(xs);
}

static void xtp_scc_op_acked(struct sock *sk, u32 bytes)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xtp_scc_acked(&xs->cc.scc, bytes);
	xtp_scc_sync(xs);
}

static void xtp_scc_op_loss(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xtp_scc_ecntl(&xs->cc.scc);
	xtp_scc_sync(xs);
}

/* The thesis decides by K alone, whatever the answer shows. */
static void xtp_scc_op_handshake_end(struct sock *sk, u32 k, bool lost)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xtp_scc_handshake_end(&xs->cc.scc, k);
	xtp_scc_sync(xs);
}

static const struct xtp_cc_counts *xtp_scc_op_counts(const struct sock *sk)
{
	return &xtp_sk(sk)->cc.scc.n;
}

const struct xtp_cc_ops xtp_cc_scc = {
	.id		= XTP_CC_SCC,
	.name		= "scc",
	.init		= xtp_scc_op_init,
	.acked		= xtp_scc_op_acked,
	.loss		= xtp_scc_op_loss,
	.handshake_end	= xtp_scc_op_handshake_end,
	.counts		= xtp_scc_op_counts,
};
