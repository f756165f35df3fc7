// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: closing an association.
 *
 * Each side closes its outbound stream with WCLOSE (always with SREQ, so
 * the WTIMER guards it) and the other answers RCLOSE once it has all the
 * data.  The association ends with END; its sender stays a ZOMBIE for a
 * while and answers late packets with END again.  Who sends END and when
 * is the teardown method:
 *
 * - AbbrevClose (default): END rides on the RCLOSE that answers the
 *   peer's WCLOSE, once our own outbound stream is closed; if the RCLOSE
 *   that closes our stream comes without END, we send END at once.
 * - GracefulClose: END follows, in its own packet, once both streams are
 *   closed; the side that saw its own RCLOSE last waits a moment for the
 *   peer's END before sending one.
 * - ForcedClose: END as soon as our WCLOSE is answered.
 * - AbortClose: END at once, nothing graceful.
 */
#include <net/sock.h>

#include "xtp.h"

/*
 * Should our END be lost, the peer's next probe comes one WTIMER after
 * its last SREQ: the ZOMBIE must still be there to answer it, or the
 * peer waits out its CTIMEOUT.  Ours estimates the peer's WTIMER; twice
 * that leaves room for its larger variance, as TCP's TIME-WAIT outlasts
 * a retransmission of the FIN.  The default (1 s) is a floor,
 * %XTP_ZOMBIE_MAX_MS and CTIMEOUT ceilings; an XTPSOCK_ZOMBIE_TMO the
 * application set is taken as it is.
 */
static u32 xtp_zombie_ms(const struct xtp_sock *xs)
{
	u32 ms = min3(2 * xtp_wtimer_ms(xs), xs->ctimeout_tmo,
		      (u32)XTP_ZOMBIE_MAX_MS);

	return xs->zombie_set ? xs->zombie_tmo : max(xs->zombie_tmo, ms);
}

static void xtp_enter_zombie(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	inet_sk_set_state(sk, XTP_SS_ZOMBIE);
	sk->sk_shutdown = SHUTDOWN_MASK;
	xtp_timer_stop(sk, XTP_TIMER_W);
	xtp_ctimeout_arm(sk, xtp_zombie_ms(xs));
	sk->sk_state_change(sk);
}

/**
 * xtp_send_end() - END the association and become a ZOMBIE
 * @sk: the context
 */
void xtp_send_end(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->close.end_sent = 1;
	xtp_send_cntl(sk, 0);
	xtp_enter_zombie(sk);
}

/**
 * xtp_abort() - AbortClose, or give up: END if the peer knows us, then done
 * @sk: the context
 * @err: error for the application (0: none)
 */
void xtp_abort(struct sock *sk, int err)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->released)
		return;
	if (xs->pkey && sk->sk_state == XTP_SS_ACTIVE && !xs->close.end_sent) {
		xs->close.end_sent = 1;
		xtp_send_cntl(sk, 0);
	}
	xtp_ctx_done(sk, err);
}

static bool xtp_separate_teardown(const struct xtp_sock *xs)
{
	return xs->assoc_type == XTP_ASSOC_S_D_T ||
	       xs->assoc_type == XTP_ASSOC_SD_T;
}

/**
 * xtp_close_outbound() - the application will write no more
 * @sk: the context
 *
 * With a combined data and teardown phase (SDT, S_DT) WCLOSE rides on the
 * last unsent packet; otherwise it waits for the data to be acknowledged
 * and goes in a CNTL (xtp_teardown_step()).
 */
void xtp_close_outbound(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *tail;

	if (xs->close.wclose_req)
		return;
	xs->close.wclose_req = 1;
	if (xs->first_pending) {
		/* connect() deferred the FIRST and no data came: send it now. */
		xs->first_pending = 0;
		xtp_send_first(sk);
		return;
	}
	tail = skb_peek_tail(&sk->sk_write_queue);
	if (tail && !xtp_separate_teardown(xs))
		XTP_SKB_CB(tail)->options |= XTP_CMD_WCLOSE;
	xtp_teardown_step(sk);
}

/**
 * xtp_teardown_step() - take whatever closing step is due
 * @sk: the context, locked
 *
 * Called after every event that can make one due: a packet, a write, a
 * shutdown or close.  The steps and the methods are close.c's; each
 * packet goes before the next step, with the bits as they are then.
 */
void xtp_teardown_step(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_close *c = &xs->close;
	unsigned int act;

	if (xs->released || c->end_sent || sk->sk_state != XTP_SS_ACTIVE)
		return;
	/* Our WCLOSE, if it could not ride on data. */
	if (xtp_close_wclose_due(c, xtp_separate_teardown(xs),
				 skb_queue_empty(&sk->sk_write_queue),
				 xs->snd.una == xs->snd.nxt))
		xtp_send_cntl(sk, XTP_CMD_SREQ);
	act = xtp_close_answer(c);
	if (act & XTP_CLOSE_CNTL)
		xtp_send_cntl(sk, 0);
	if (!(act & XTP_CLOSE_END))
		act = xtp_close_finish(c);
	if (act & XTP_CLOSE_END)
		xtp_send_end(sk);
	else if (act & XTP_CLOSE_END_LATER)
		xtp_ctimeout_arm(sk, xtp_wtimer_ms(xs));
}
