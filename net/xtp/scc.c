// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: Simple Congestion Control (thesis §5.3.5), with byte counting.
 *
 * Exponential growth adds every acknowledged byte to the window until it
 * reaches the linear threshold; linear growth then adds one maxdata per
 * window's worth of acknowledged bytes.  A handshake whose first probe was
 * answered (K = 2) halves the threshold and drops the window to it; a
 * handshake that lost probes (K > 2), or an ECNTL reporting loss, drops the
 * window to one packet and halves the threshold.  While the handshake runs
 * the caller does not report acks: no growth.
 *
 * Two floors the thesis leaves out: the window never falls below one
 * packet and the threshold never below two, or the sender could not send
 * at all.  The linear byte count restarts after each decrease.
 *
 * Pure arithmetic: compiled into the module and into the unit tests.
 */
#include <linux/types.h>

#include "scc.h"

/**
 * xtp_scc_init() - exponential mode with the configured window and threshold
 * @s: state to set
 * @maxdata: packet payload, bytes
 * @init_trainsize: initial window (thesis: one maxdata)
 * @linear_thresh: initial LGT (every thesis dump: 32000)
 */
void xtp_scc_init(struct xtp_scc *s, u32 maxdata, u32 init_trainsize,
		  u32 linear_thresh)
{
	*s = (struct xtp_scc){ .maxdata = maxdata };
	s->trainsize = init_trainsize > maxdata ? init_trainsize : maxdata;
	s->linear_thresh = linear_thresh > 2 * maxdata ? linear_thresh :
			   2 * maxdata;
}

/**
 * xtp_scc_acked() - the peer acknowledged @bytes more
 * @s: state
 * @bytes: new bytes covered by RSEQ
 */
void xtp_scc_acked(struct xtp_scc *s, u32 bytes)
{
	if (s->trainsize < s->linear_thresh) {
		s->trainsize += bytes;
		s->n.xp_inc++;
		return;
	}
	s->linear_count += bytes;
	s->n.lin_inc++;
	if (s->linear_count >= s->trainsize) {
		s->linear_count -= s->trainsize;
		s->trainsize += s->maxdata;
	}
}

/* A decrease: count it by the mode it was taken in, then apply it. */
static void xtp_scc_decrease(struct xtp_scc *s, u32 trainsize, u32 thresh)
{
	if (s->trainsize < s->linear_thresh)
		s->n.xp_dec++;
	else
		s->n.lin_dec++;
	s->linear_thresh = thresh > 2 * s->maxdata ? thresh : 2 * s->maxdata;
	s->trainsize = trainsize > s->maxdata ? trainsize : s->maxdata;
	s->linear_count = 0;
}

/**
 * xtp_scc_handshake_end() - a synchronizing handshake was answered
 * @s: state
 * @k: packets the handshake took, the answered probe included
 *
 * K = 2 (nothing lost): moderate decrease; the new threshold is half the
 * window in exponential mode, half the threshold in linear mode, and the
 * window starts there.  K > 2: high decrease.
 */
void xtp_scc_handshake_end(struct xtp_scc *s, u32 k)
{
	u32 thresh;

	if (k > 2) {
		xtp_scc_ecntl(s);
		return;
	}
	if (s->trainsize < s->linear_thresh)
		thresh = s->trainsize / 2;
	else
		thresh = s->linear_thresh / 2;
	if (thresh < 2 * s->maxdata)
		thresh = 2 * s->maxdata;
	xtp_scc_decrease(s, thresh, thresh);
}

/**
 * xtp_scc_ecntl() - high decrease: an ECNTL reported loss, or probes were lost
 * @s: state
 */
void xtp_scc_ecntl(struct xtp_scc *s)
{
	xtp_scc_decrease(s, s->maxdata, s->linear_thresh / 2);
}
