// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: congestion control framework and pacing.
 *
 * A context sends while its bytes in flight stay within the congestion
 * window and its sequence numbers below the peer's ALLOC.  Bytes in flight
 * leave out what ECNTL spans show arrived and what is marked lost: without
 * loss the usable window is min(cwnd, ALLOC - snd_una), during recovery
 * the holes can be refilled without waiting for RSEQ to move.
 *
 * A paced controller spaces packets at xtp_sk(sk)->cc.pacing_rate with the
 * send timer (%XTP_TIMER_SEND, timer.c), a softirq hrtimer that also
 * serves loss detection.
 */
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <net/sock.h>

#include "xtp.h"

static const struct xtp_cc_ops *const xtp_ccs[] = {
	&xtp_cc_scc,
	&xtp_cc_newreno,
	&xtp_cc_veno,
	&xtp_cc_bbr,
};

/**
 * xtp_cc_find() - a controller by its &enum xtp_cc value
 * @id: the value
 *
 * Return: the controller, or NULL if there is none with that value.
 */
const struct xtp_cc_ops *xtp_cc_find(int id)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(xtp_ccs); i++)
		if (xtp_ccs[i]->id == id)
			return xtp_ccs[i];
	return NULL;
}

/**
 * xtp_cc_init_window() - the initial congestion window of a context
 * @xs: the context
 *
 * XTPSOCK_INIT_TRAINSIZE if set; otherwise SCC starts with one packet as
 * in the thesis and NewReno with ten (RFC 6928).
 *
 * Return: bytes.
 */
u32 xtp_cc_init_window(const struct xtp_sock *xs)
{
	u32 seg = xtp_seg_limit(xs);

	if (xs->cc.init_trainsize)
		return xs->cc.init_trainsize;
	return xs->cc.id == XTP_CC_SCC ? seg : 10 * seg;
}

/**
 * xtp_cc_init_thresh() - the initial linear threshold (slow-start threshold)
 * @xs: the context
 *
 * XTPSOCK_LN_THRESH if set; otherwise SCC uses the 32000 bytes of every
 * thesis dump and NewReno starts without a threshold.
 *
 * Return: bytes.
 */
u32 xtp_cc_init_thresh(const struct xtp_sock *xs)
{
	if (xs->cc.ln_thresh)
		return xs->cc.ln_thresh;
	return xs->cc.id == XTP_CC_SCC ? XTP_DEFAULT_LN_THRESH : U32_MAX;
}

/**
 * xtp_cc_start() - the association starts: fresh congestion and RTT state
 * @sk: the context
 */
void xtp_cc_start(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->cc.ops = xtp_cc_find(xs->cc.id) ?: &xtp_cc_scc;
	xs->cc.id = xs->cc.ops->id;
	xs->cc.cwnd_count = 0;
	xs->cc.in_recovery = 0;
	xs->cc.app_limited = 0;
	xs->rec.sacked_out = 0;
	xs->rec.lost_out = 0;
	xs->rec.unheard_out = 0;
	xs->rec.sack_newest_ns = 0;
	xs->rec.reo_mult = 1;
	xs->rec.heard_cut = 0;
	xs->rec.reo_pending = 0;
	xs->rec.reo_due_ns = 0;
	xs->rec.undo = 0;
	xs->rec.undo_rtx = 0;
	xs->cc.pace_next_ns = 0;
	xs->cc.pacing_rate = 0;
	xs->cc.delivered = 0;
	xs->cc.delivered_ns = 0;
	xs->cc.first_tx_ns = 0;
	xs->cc.rate_lost = 0;
	memset(&xs->cc.rate, 0, sizeof(xs->cc.rate));
	memset(xs->rtt.cache, 0, sizeof(xs->rtt.cache));
	xs->cc.ops->init(sk);
	xs->cc.start_cwnd = xs->cc.cwnd;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_cc_start);

/**
 * xtp_in_flight() - bytes sent: not acknowledged, seen, lost nor unheard
 * @xs: the context
 *
 * Return: bytes.
 */
u32 xtp_in_flight(const struct xtp_sock *xs)
{
	u64 out = xs->snd.nxt - xs->snd.una;
	u64 gone = (u64)xs->rec.sacked_out + xs->rec.lost_out +
		   xs->rec.unheard_out;

	return out > gone ? out - gone : 0;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_in_flight);

/**
 * xtp_cc_loss() - tell the controller of packets newly called lost
 * @sk: the context, locked, not in a handshake
 * @lost: how many were
 *
 * A packet is called lost when later ones were seen a reordering window
 * before it; IP may still deliver it.  When a controller that can undo
 * (&xtp_cc_ops.undo) cuts its window, retransmissions are counted from
 * then on: should the episode need none, everything called lost arrived
 * and the cut is undone (xtp_cc_undo_check()), as TCP undoes a recovery
 * that turned out to be reordering.
 */
void xtp_cc_loss(struct sock *sk, u32 lost)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 cwnd = xs->cc.cwnd;

	if (!xs->cc.ops->loss)
		return;
	xs->cc.ops->loss(sk);
	if (xs->cc.ops->undo && xs->cc.cwnd < cwnd)
		xtp_rtx_undo_arm(sk);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_cc_loss);

/**
 * xtp_cc_undo_check() - RSEQ moved: has a cut's episode ended?
 * @sk: the context, locked, not in a handshake
 *
 * Once RSEQ passes what was sent when the window was cut
 * (&xtp_cc_state.recover), every packet then called lost has been
 * acknowledged.  If no retransmission since was needed (each was shown
 * needless, or none was made), none of them was lost: the controller
 * goes back to the window before the cut.
 */
void xtp_cc_undo_check(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->rec.undo || xs->snd.una < xs->cc.recover)
		return;
	xs->rec.undo = 0;
	if (xs->rec.undo_rtx)
		return;
	XTP_INC_STATS(sock_net(sk), XTP_MIB_CWNDUNDOS);
	xs->cc.ops->undo(sk);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_cc_undo_check);

/*
 * A packet may leave this much before its departure time: at high rates
 * a timer per packet costs more than the spacing is worth, and a burst of
 * a millisecond's worth of data is harmless; at wide-area rates it is
 * less than a packet and the spacing holds.
 */
#define XTP_PACING_SLACK_NS	NSEC_PER_MSEC

/**
 * xtp_pacing_wait() - must the next packet wait for its departure time?
 * @sk: the context, locked
 *
 * Sets the send timer if so.
 *
 * Return: true if the packet has to wait.
 */
bool xtp_pacing_wait(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->cc.pacing_rate ||
	    xs->cc.pace_next_ns <= ktime_get_ns() + XTP_PACING_SLACK_NS)
		return false;
	xtp_send_timer_at(sk, xs->cc.pace_next_ns);
	return true;
}

/**
 * xtp_pacing_sent() - a packet of @len bytes left: set the next departure
 * @sk: the context, locked
 * @len: its payload
 *
 * The rate is the controller's (&xtp_cc_ops.pacing_rate), never below
 * its least window per SRTT (xtp_bbr_rate_floor()), or else follows the
 * window: cwnd per SRTT, twice that while the window still grows
 * exponentially so that slow start can double, 1.2 times in congestion
 * avoidance to absorb jitter.  Idle time earns no credit.
 */
void xtp_pacing_sent(struct sock *sk, u32 len)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 now = ktime_get_ns(), rate;

	if (xs->cc.ops->pacing_rate) {
		rate = xtp_bbr_rate_floor(xs->cc.ops->pacing_rate(sk),
					  xtp_seg_limit(xs), xs->rtt.srtt_us);
	} else {
		if (!xs->cc.ops->paced || !xs->rtt.srtt_us) {
			xs->cc.pacing_rate = 0;
			return;
		}
		rate = div_u64((u64)xs->cc.cwnd * USEC_PER_SEC,
			       xs->rtt.srtt_us);
		rate = xs->cc.cwnd < xs->cc.ssthresh ? 2 * rate : rate * 6 / 5;
	}
	xs->cc.pacing_rate = max_t(u64, rate, 1);
	xs->cc.pace_next_ns = max(xs->cc.pace_next_ns, now) +
			      div64_u64((u64)len * NSEC_PER_SEC,
					xs->cc.pacing_rate);
}

/**
 * xtp_rate_sent() - @skb leaves: note how much was delivered by then
 * @sk: the context, locked
 * @skb: a DATA packet of the retransmission queue, &xtp_skb_cb.xmit_ns set
 *
 * The delivery rate a later acknowledgment of @skb shows is what was
 * delivered between @skb's departure and that acknowledgment, over the
 * longer of the time between them and the time the flight @skb belongs
 * to took to send.  A sender with nothing else in flight starts both
 * intervals now.
 */
void xtp_rate_sent(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_skb_cb *cb = XTP_SKB_CB(skb);

	cb->tx_idle = skb_queue_len(&xs->snd.rtx) <= 1;
	if (cb->tx_idle || !xs->cc.delivered_ns) {
		xs->cc.delivered_ns = cb->xmit_ns;
		xs->cc.first_tx_ns = cb->xmit_ns;
	}
	/* Ages, not times, to fit skb->cb: longer than 4 s says nothing. */
	cb->tx_delivered = (u32)xs->cc.delivered;
	cb->tx_delivered_age = (u32)min_t(u64, cb->xmit_ns -
					  xs->cc.delivered_ns, U32_MAX);
	cb->tx_flight_age = (u32)min_t(u64, cb->xmit_ns - xs->cc.first_tx_ns,
				       U32_MAX);
	cb->tx_app_limited = xs->cc.app_limited;
}

/**
 * xtp_rate_delivered() - RSEQ or an ECNTL span covers @skb for the first time
 * @sk: the context, locked
 * @skb: the packet
 */
void xtp_rate_delivered(struct sock *sk, const struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);
	const struct xtp_skb_cb *cb = XTP_SKB_CB(skb);
	struct xtp_rate_acc *acc = &xs->cc.rate;
	u64 cur = xs->cc.delivered;

	xs->cc.delivered += skb->len;
	xtp_mtu_delivered(xs, skb);
	if (acc->any && cb->xmit_ns <= acc->xmit_ns)
		return;
	acc->any = true;
	acc->prior_delivered = cur - (u32)((u32)cur - cb->tx_delivered);
	acc->prior_ns = cb->xmit_ns - cb->tx_delivered_age;
	acc->first_ns = cb->xmit_ns - cb->tx_flight_age;
	acc->xmit_ns = cb->xmit_ns;
	acc->rtx = cb->rtx;
	acc->sacked = cb->sacked;
	acc->app_limited = cb->tx_app_limited;
	acc->idle = cb->tx_idle;
}

/**
 * xtp_rate_lost() - @bytes were marked lost, for the next rate sample
 * @sk: the context, locked
 * @bytes: how many
 */
void xtp_rate_lost(struct sock *sk, u32 bytes)
{
	xtp_sk(sk)->cc.rate_lost += bytes;
}

/**
 * xtp_rate_sample() - the acknowledgment is applied: hand its sample on
 * @sk: the context, locked
 *
 * For a controller that takes samples (&xtp_cc_ops.sample); the state
 * gathered by xtp_rate_delivered() is cleared for the next one.
 */
void xtp_rate_sample(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_rate_acc *acc = &xs->cc.rate;
	struct xtp_rate_sample rs = {};
	u64 now = ktime_get_ns();

	if (!xs->cc.ops->sample) {
		memset(acc, 0, sizeof(*acc));
		xs->cc.rate_lost = 0;
		return;
	}
	if (!acc->any && !xs->cc.rate_lost)
		return;
	if (acc->any) {
		xs->cc.delivered_ns = now;
		xs->cc.first_tx_ns = acc->xmit_ns;
		rs.delivered = xs->cc.delivered - acc->prior_delivered;
		rs.prior_delivered = acc->prior_delivered;
		/* An ack train's rate is not the path's: not above the send's. */
		rs.interval_ns = max(now - acc->prior_ns,
				     acc->xmit_ns - acc->first_ns);
		if (!acc->rtx)
			rs.rtt_us = (u32)div_u64(now - acc->xmit_ns,
						 NSEC_PER_USEC);
		rs.sacked = acc->sacked;
		rs.srtt_us = xs->rtt.srtt_us;
		rs.app_limited = acc->app_limited;
		rs.idle_restart = acc->idle;
	} else {
		rs.prior_delivered = xs->cc.delivered;
	}
	rs.lost = xs->cc.rate_lost;
	xs->cc.rate_lost = 0;
	memset(acc, 0, sizeof(*acc));
	if (!xs->in_handshake)
		xs->cc.ops->sample(sk, &rs);
}
