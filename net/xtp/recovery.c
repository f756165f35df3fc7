// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: selective retransmission from ECNTL spans (their rules: sack.c).
 *
 * The receiver keeps what arrives above RSEQ and, whenever it answers
 * while a gap is open, sends an ECNTL listing the spans it holds.  The
 * sender marks the packets the spans cover and, from the send times of
 * what was seen, decides what is lost (xtp_rtx_detect()).  Lost packets
 * are sent again ahead of new data.  After a synchronizing handshake the
 * answer shows the receiver's whole state, so everything it does not
 * cover is lost, up to where its spans stopped if there were too many.
 */
#include <linux/ktime.h>
#include <net/sock.h>

#include "xtp.h"
#include <trace/events/xtp.h>

/*
 * @skb, called lost, is reported as arrived: before it was sent again, or
 * so soon after the retransmission that the first copy must have made it.
 * The loss was reordering: tolerate more of it from now on.
 */
static void xtp_rtx_check_spurious(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_skb_cb *cb = XTP_SKB_CB(skb);
	u64 since = ktime_get_ns() - cb->xmit_ns;

	if (cb->lost) {
		/* Called lost, not yet sent again, and here it is. */
		XTP_INC_STATS(sock_net(sk), XTP_MIB_SPURIOUSLOSSES);
	} else if (cb->rtx &&
		   since < (u64)xs->rtt.srtt_us * NSEC_PER_USEC / 2) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_SPURIOUSRTX);
		/* Not needed after all: the cut may still be undone. */
		if (cb->undo_rtx && xs->rec.undo_rtx)
			xs->rec.undo_rtx--;
		cb->undo_rtx = 0;
	} else {
		return;
	}
	if (xs->rec.reo_mult < 4)
		xs->rec.reo_mult++;
}

/**
 * xtp_rtx_unlink() - RSEQ passed @skb: drop it from the retransmission queue
 * @sk: the context, locked
 * @skb: the head of xtp_sk(sk)->snd.rtx
 */
void xtp_rtx_unlink(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!XTP_SKB_CB(skb)->sacked) {
		xtp_rtx_check_spurious(sk, skb);
		xtp_rate_delivered(sk, skb);
	}
	__skb_unlink(skb, &xs->snd.rtx);
	if (XTP_SKB_CB(skb)->sacked)
		xs->rec.sacked_out -= skb->len;
	if (XTP_SKB_CB(skb)->lost)
		xs->rec.lost_out -= skb->len;
	xtp_rtx_unheard_clear(xs, skb);
	xs->snd.queued -= skb->len;
	xtp_wmem_uncharge(sk, skb);
	/* Delivered, not dropped: drop monitors must not see it. */
	consume_skb(skb);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_unlink);

/**
 * xtp_rtx_undo_arm() - the controller cut its window: count what goes again
 * @sk: the context, locked
 *
 * Packets sent again before the cut belong to an earlier episode: their
 * marks are cleared, so that only retransmissions since count against
 * undoing this cut (xtp_cc_undo_check()).
 */
void xtp_rtx_undo_arm(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb;

	skb_queue_walk(&xs->snd.rtx, skb)
		XTP_SKB_CB(skb)->undo_rtx = 0;
	xs->rec.undo_rtx = 0;
	xs->rec.undo = 1;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_undo_arm);

/**
 * xtp_rtx_undo_count() - @skb goes again while a cut may be undone
 * @xs: the context
 * @skb: the packet, sent before
 *
 * Counted once per packet.  So many that the count would overflow means
 * real loss: the cut stays.
 */
void xtp_rtx_undo_count(struct xtp_sock *xs, struct sk_buff *skb)
{
	if (!xs->rec.undo || XTP_SKB_CB(skb)->undo_rtx)
		return;
	XTP_SKB_CB(skb)->undo_rtx = 1;
	if (++xs->rec.undo_rtx == U16_MAX)
		xs->rec.undo = 0;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_undo_count);

/**
 * xtp_rtx_unheard_clear() - @skb is no longer beyond a cut-short answer
 * @xs: the context
 * @skb: a packet of &xtp_snd.rtx, perhaps &xtp_skb_cb.unheard
 *
 * It is seen, lost, acknowledged, or below where the latest answer's
 * spans reached: in flight again until judged.
 */
void xtp_rtx_unheard_clear(struct xtp_sock *xs, struct sk_buff *skb)
{
	if (!XTP_SKB_CB(skb)->unheard)
		return;
	XTP_SKB_CB(skb)->unheard = 0;
	xs->rec.unheard_out -= skb->len;
}

static void xtp_mark_lost(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xtp_rtx_unheard_clear(xs, skb);
	XTP_SKB_CB(skb)->lost = 1;
	xs->rec.lost_out += skb->len;
	xtp_rate_lost(sk, skb->len);
}

/*
 * Beyond where the spans of a list that may be cut short stopped: the
 * peer may hold @skb and have had no room to say so.
 */
static bool xtp_rtx_beyond_cut(const struct xtp_sock *xs,
			       const struct sk_buff *skb)
{
	return xs->rec.heard_cut > xs->snd.una &&
	       XTP_SKB_CB(skb)->seq >= xs->rec.heard_cut;
}

/**
 * xtp_rtx_detect() - call lost what should have arrived by now
 * @sk: the context, locked
 *
 * A packet sent before one the peer has seen is lost once a packet sent a
 * reordering window after it has been seen (IP reorders: this is why
 * FASTNAK stays off by default), or once a round trip with its variation
 * and the reordering window have passed since it left.  The window is a
 * quarter SRTT (at least 2 ms), up to a whole SRTT after spurious
 * retransmissions.  For a packet that is neither yet the send timer is
 * set to its deadline.  Packets beyond a span list that may have been cut
 * short are not judged: at 5% loss with a megabyte in flight, their
 * deadlines sent again thousands of packets the peer held.  Newly lost
 * packets are reported to the congestion controller, except during a
 * handshake, whose end decides the window.
 */
void xtp_rtx_detect(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 reo, rtt, now, due, next = U64_MAX;
	struct xtp_skb_cb *cb;
	struct sk_buff *skb;
	u32 lost = 0;

	xs->rec.reo_pending = 0;
	xtp_sack_windows(xs->rtt.srtt_us, xs->rtt.rttvar_us, xs->rec.reo_mult,
			 &reo, &rtt);
	now = ktime_get_ns();
	skb_queue_walk(&xs->snd.rtx, skb) {
		cb = XTP_SKB_CB(skb);
		if (xtp_rtx_beyond_cut(xs, skb))
			break;
		xtp_rtx_unheard_clear(xs, skb);
		if (cb->sacked || cb->lost)
			continue;
		switch (xtp_sack_judge(cb->xmit_ns, xs->rec.sack_newest_ns, reo,
				       rtt, now, &due)) {
		case XTP_SACK_LOST:
			xtp_mark_lost(sk, skb);
			lost++;
			break;
		case XTP_SACK_WAIT:
			next = min(next, due);
			break;
		case XTP_SACK_UNKNOWN:
			break;
		}
	}
	if (next != U64_MAX) {
		xs->rec.reo_pending = 1;
		xs->rec.reo_due_ns = next;
		xtp_send_timer_at(sk, next);
	}
	if (!lost)
		return;
	xs->mib.ecntl_losses += lost;
	XTP_ADD_STATS(sock_net(sk), XTP_MIB_ECNTLLOSSES, lost);
	if (!xs->in_handshake)
		xtp_cc_loss(sk, lost);
	trace_xtp_loss(sk, lost);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_detect);

/**
 * xtp_rtx_deadline() - the send timer fired, or we push: judge if due
 * @sk: the context, locked
 *
 * Between ECNTLs (which judge for themselves) only a deadline passing
 * finds a loss: no walk of the queue before the first is due.  Pacing
 * shares the send timer and may have taken it: set it again for the
 * deadline.
 */
void xtp_rtx_deadline(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->rec.reo_pending)
		return;
	if (ktime_get_ns() >= xs->rec.reo_due_ns)
		xtp_rtx_detect(sk);
	else
		xtp_send_timer_at(sk, xs->rec.reo_due_ns);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_deadline);

/* Where a list of @nspan spans that may be cut short stopped, else 0. */
static u64 xtp_rtx_cut(const struct xtp_wire_pkt *pkt, u32 nspan)
{
	u64 left, right, cut = 0;
	u32 i;

	if (nspan < XTP_ECNTL_CUT_SPANS)
		return 0;
	for (i = 0; i < nspan; i++)
		if (!xtp_wire_span(pkt, i, &left, &right))
			cut = max(cut, right);
	return cut;
}

/**
 * xtp_rtx_whole() - a CNTL arrived: the peer holds nothing above RSEQ
 * @sk: the context, locked, RSEQ already applied
 *
 * Nothing we sent lies beyond a list cut short any more: what was unheard
 * is judged again, in flight or lost.
 */
void xtp_rtx_whole(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->rec.heard_cut)
		return;
	/* What lay beyond may be lost by now: judge it (and clear it). */
	xs->rec.heard_cut = 0;
	xtp_rtx_detect(sk);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_whole);

/**
 * xtp_rtx_ecntl() - an ECNTL arrived: note what it holds, find what is lost
 * @sk: the context, locked, RSEQ already applied
 * @pkt: the ECNTL
 *
 * Spans are the peer's word and only mark packets we have sent; a span
 * outside RSEQ..snd_nxt changes nothing.  A peer with more gaps than it
 * sends spans for tells only the lowest: a list of %XTP_ECNTL_CUT_SPANS
 * or more may stop short of data the peer holds (&xtp_recovery.heard_cut).
 */
void xtp_rtx_ecntl(struct sock *sk, const struct xtp_wire_pkt *pkt)
{
	u32 nspan = min_t(u32, pkt->ctl.nspan, XTP_ECNTL_MAX_SPANS);
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_sack_walk walk;
	struct xtp_skb_cb *cb;
	struct sk_buff *skb;

	/* An older answer, overtaken on the way, says nothing of now. */
	if (pkt->ctl.rseq >= xs->snd.una)
		xs->rec.heard_cut = xtp_rtx_cut(pkt, nspan);

	xtp_sack_walk_start(&walk, pkt, nspan);
	skb_queue_walk(&xs->snd.rtx, skb) {
		if (xtp_sack_walk_done(&walk))
			break;
		cb = XTP_SKB_CB(skb);
		if (cb->sacked ||
		    !xtp_sack_walk_covers(&walk, cb->seq, cb->seq + skb->len))
			continue;
		xtp_rtx_check_spurious(sk, skb);
		/* Set first: the rate sample takes it (cc.c). */
		cb->sacked = 1;
		xtp_rate_delivered(sk, skb);
		xtp_rtx_unheard_clear(xs, skb);
		xs->rec.sacked_out += skb->len;
		if (cb->lost) {
			cb->lost = 0;
			xs->rec.lost_out -= skb->len;
		}
		xs->rec.sack_newest_ns = max(xs->rec.sack_newest_ns,
					     cb->xmit_ns);
	}
	xtp_rtx_detect(sk);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_ecntl);

/**
 * xtp_rtx_all_lost() - after a handshake: all that is not seen is lost
 * @sk: the context, locked, the answer's spans already applied
 *
 * As after TCP's retransmission timeout, up to where the answer's spans
 * stopped if it held so many that it may have been cut short.  What lies
 * beyond is not lost (at 5% loss a handshake sent again hundreds of
 * packets the peer held) but unheard: out of flight, so that it cannot
 * keep the gaps below from going again, and judged once a later answer
 * reaches it (xtp_rtx_detect()).
 *
 * Return: the number of packets newly marked lost.
 */
u32 xtp_rtx_all_lost(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_skb_cb *cb;
	struct sk_buff *skb;
	u32 n = 0;

	skb_queue_walk(&xs->snd.rtx, skb) {
		cb = XTP_SKB_CB(skb);
		if (cb->sacked || cb->lost)
			continue;
		if (!xtp_rtx_beyond_cut(xs, skb)) {
			xtp_mark_lost(sk, skb);
			n++;
		} else if (!cb->unheard) {
			cb->unheard = 1;
			xs->rec.unheard_out += skb->len;
		}
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtx_all_lost);

/**
 * xtp_rcv_spans() - the spans of data held above RSEQ, for an ECNTL
 * @xs: the context
 * @spans: where to write them
 * @max: room in @spans
 *
 * Return: the number of spans, 0 when there is no gap.
 */
u32 xtp_rcv_spans(const struct xtp_sock *xs, struct xtp_wire_span *spans,
		  u32 max)
{
	struct sk_buff *skb;
	u32 n = 0;

	skb_queue_walk(&xs->rcv.ooo, skb) {
		u64 seq = XTP_SKB_CB(skb)->seq;

		/* Full, and the queue is sorted: nothing more can merge. */
		if (n == max && (!n || seq > spans[n - 1].right))
			break;
		n = xtp_sack_add(spans, n, max, seq, seq + skb->len);
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rcv_spans);
