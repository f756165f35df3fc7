// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: a context's timers (&enum xtp_timer lists them): WTIMER, CTIMEOUT,
 * the validation deadline, CTIMER and the send timer.
 *
 * The WTIMER guards the oldest SREQ not yet answered: a newer SREQ does
 * not restart it, or a steady stream of SREQs would keep it from ever
 * firing (PfHSN'96).  When it fires XTP does not retransmit blindly: the
 * synchronizing handshake suspends data, probes with CNTL+SREQ under a
 * doubling WTIMER and resumes from what the answer reports.  CTIMEOUT
 * bounds the handshake and the setup, and serves as the ZOMBIE timer, the
 * GracefulClose END delay and the limit on an orphan's teardown.  The
 * CTIMER, on with SO_KEEPALIVE, starts the handshake when nothing came
 * from the peer for a whole period.
 *
 * The validation deadline's work is validate.c's; the send timer, an
 * hrtimer, runs xtp_push() at the next paced departure or loss-detection
 * deadline (cc.c, recovery.c).  A timer that finds the socket owned by
 * its user leaves the work to xtp_release_cb().
 */
#include <net/sock.h>

#include "xtp.h"
#include <trace/events/xtp.h>

/**
 * xtp_wtimer_ms() - current WTIMER value
 * @xs: the context
 *
 * 2 x (SRTT + 4 RTTVAR) as in LinuxXTP (the factor 2 covers the small
 * setup packets' short RTT, thesis §5.3.2.3), clamped, doubled per
 * handshake probe up to 64 times.
 *
 * Return: milliseconds.
 */
u32 xtp_wtimer_ms(const struct xtp_sock *xs)
{
	u32 ms = XTP_WTIMER_INIT_MS;

	if (xs->wtimer_cfg)
		ms = xs->wtimer_cfg;
	else if (xs->rtt.srtt_us)
		ms = 2 * (xs->rtt.srtt_us + 4 * xs->rtt.rttvar_us) /
		     USEC_PER_MSEC;
	ms = clamp_t(u32, ms, XTP_WTIMER_MIN_MS, XTP_WTIMER_MAX_MS);
	return min_t(u32, ms << min_t(u32, xs->wtimer_retries,
				      XTP_WTIMER_MAX_SHIFT),
		     XTP_WTIMER_MAX_MS);
}

/**
 * xtp_wtimer_arm() - an SREQ left; guard it unless an older one is guarded
 * @sk: the context
 * @sync: the SREQ's SYNC
 */
void xtp_wtimer_arm(struct sock *sk, u32 sync)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xtp_timer_pending(xs, XTP_TIMER_W))
		return;
	xs->wsync = sync;
	xtp_timer_reset(sk, XTP_TIMER_W, xtp_wtimer_ms(xs));
}

/*
 * The handshake was answered: the answer's RSEQ and spans show all the
 * peer has, so what they leave out is sent again, selectively.  K counts
 * the probes and the answer; a lost probe makes the decrease harsher.
 */
static void xtp_handshake_done(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 lost;

	xs->in_handshake = 0;
	if (!xs->close.end_delay && !xs->close.end_sent &&
	    !sock_flag(sk, SOCK_DEAD))
		xtp_timer_stop(sk, XTP_TIMER_CTIMEOUT);
	xtp_mtu_handshake_end(sk);
	lost = xtp_rtx_all_lost(sk);
	XTP_ADD_STATS(sock_net(sk), XTP_MIB_HANDSHAKELOSSES, lost);
	xs->cc.ops->handshake_end(sk, xs->wtimer_retries + 1, lost);
	trace_xtp_handshake(sk, XTP_TRACE_HS_DONE);
	xs->wtimer_retries = 0;
	xtp_push(sk);
}

/**
 * xtp_wtimer_guard_data() - every SREQ is answered: guard the data instead
 * @sk: the context, locked
 *
 * Data sent and not acknowledged, or queued and held back by ALLOC, keeps
 * a WTIMER running: whatever loss detection misses, and a window update
 * that got lost, the handshake finds out.
 */
void xtp_wtimer_guard_data(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xtp_timer_pending(xs, XTP_TIMER_W) ||
	    sk->sk_state != XTP_SS_ACTIVE || xs->close.end_sent ||
	    xs->released || xs->in_handshake)
		return;
	if (xs->snd.una != xs->snd.nxt ||
	    !skb_queue_empty(&sk->sk_write_queue))
		xtp_wtimer_arm(sk, xs->sync);
}

/* After an answer: guard the oldest SREQ still out, else the data. */
static void xtp_wtimer_guard(struct sock *sk, u32 echo)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xtp_timer_pending(xs, XTP_TIMER_W))
		return;
	if ((s32)(xs->sync - echo) > 0)
		xtp_wtimer_arm(sk, echo + 1);
	else
		xtp_wtimer_guard_data(sk);
}

/**
 * xtp_wtimer_answered() - a control packet echoed @echo
 * @sk: the context
 * @echo: its ECHO
 *
 * An answer to the guarded SREQ or a newer one stops the WTIMER and ends
 * a handshake; the WTIMER then guards what is still unanswered.
 */
void xtp_wtimer_answered(struct sock *sk, u32 echo)
{
	struct xtp_sock *xs = xtp_sk(sk);
	bool pending = xtp_timer_pending(xs, XTP_TIMER_W);

	if ((pending || xs->in_handshake) && (s32)(echo - xs->wsync) < 0)
		return;
	if (pending)
		xtp_timer_stop(sk, XTP_TIMER_W);
	if (xs->in_handshake)
		xtp_handshake_done(sk);
	if (!xs->released)
		xtp_wtimer_guard(sk, echo);
}

/* Synchronizing handshake: suspend data, probe (xtp_send_probe()). */
static void xtp_start_handshake(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->in_handshake) {
		xs->in_handshake = 1;
		/* Its answer decides the window: no cut is undone. */
		xs->rec.undo = 0;
		xs->mib.handshakes++;
		XTP_INC_STATS(sock_net(sk), XTP_MIB_HANDSHAKES);
		trace_xtp_handshake(sk, XTP_TRACE_HS_START);
		if (!xtp_timer_pending(xs, XTP_TIMER_CTIMEOUT))
			xtp_ctimeout_arm(sk, xs->ctimeout_tmo);
	}
	xtp_send_probe(sk);
}

/* The WTIMER fired: probe, or resend the FIRST during setup. */
static void xtp_wtimer_fire(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->released || xs->close.end_sent)
		return;
	if (++xs->wtimer_retries > XTP_HANDSHAKE_RETRIES) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_HANDSHAKEFAILS);
		trace_xtp_handshake(sk, XTP_TRACE_HS_FAIL);
		xtp_abort(sk, ETIMEDOUT);
		return;
	}
	if (sk->sk_state == XTP_SS_FIRST_SENT) {
		xtp_send_first(sk);
		return;
	}
	xtp_start_handshake(sk);
}

static void xtp_ctimeout_fire(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->released)
		return;
	if (xs->close.end_sent) {
		/* ZOMBIE is over. */
		xtp_ctx_done(sk, 0);
	} else if (xs->close.end_delay) {
		xs->close.end_delay = 0;
		xtp_send_end(sk);
	} else if (sock_flag(sk, SOCK_DEAD) &&
		   sk->sk_state == XTP_SS_ACTIVE &&
		   xs->snd.una != xs->snd.close_una) {
		/*
		 * Closed, and the peer has not finished closing, but it still
		 * takes our data (probing a closed window in between): as an
		 * orphaned TCP socket keeps sending, give it another CTIMEOUT.
		 */
		xs->snd.close_una = xs->snd.una;
		xtp_ctimeout_arm(sk, xs->ctimeout_tmo);
	} else if (sk->sk_state == XTP_SS_FIRST_SENT || xs->in_handshake) {
		if (xs->in_handshake) {
			XTP_INC_STATS(sock_net(sk), XTP_MIB_HANDSHAKEFAILS);
			trace_xtp_handshake(sk, XTP_TRACE_HS_FAIL);
		}
		xtp_abort(sk, ETIMEDOUT);
	} else if (sock_flag(sk, SOCK_DEAD)) {
		/* An orphan that made no progress: give it up. */
		xtp_abort(sk, 0);
	}
}

static u32 xtp_pkts_in(const struct xtp_sock *xs)
{
	return xs->mib.fpk_in + xs->mib.dpk_in + xs->mib.cpk_in +
	       xs->mib.tpk_in + xs->mib.epk_in + xs->mib.dgpk_in;
}

static void xtp_ctimer_fire(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->released || xs->close.end_sent ||
	    sk->sk_state != XTP_SS_ACTIVE || !sock_flag(sk, SOCK_KEEPOPEN))
		return;
	if (xtp_pkts_in(xs) == xs->ctimer_seen && !xs->in_handshake &&
	    !xtp_timer_pending(xs, XTP_TIMER_W))
		xtp_start_handshake(sk);
	xs->ctimer_seen = xtp_pkts_in(xs);
	xtp_timer_reset(sk, XTP_TIMER_CTIMER, xs->ctimer_tmo);
}

/**
 * xtp_keepalive() - SO_KEEPALIVE switched the CTIMER on or off
 * @sk: the context, locked
 * @on: new state
 */
void xtp_keepalive(struct sock *sk, int on)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!on || xs->released) {
		xtp_timer_stop(sk, XTP_TIMER_CTIMER);
		return;
	}
	xs->ctimer_seen = xtp_pkts_in(xs);
	xtp_timer_reset(sk, XTP_TIMER_CTIMER, xs->ctimer_tmo);
}

/* What each timer does, called with the socket spinlock held. */
static void (*const xtp_timer_work[XTP_NTIMERS])(struct sock *sk) = {
	[XTP_TIMER_W]		= xtp_wtimer_fire,
	[XTP_TIMER_CTIMEOUT]	= xtp_ctimeout_fire,
	[XTP_TIMER_CTIMER]	= xtp_ctimer_fire,
	[XTP_TIMER_VALIDATE]	= xtp_av_timeout,
	[XTP_TIMER_SEND]	= xtp_push,
};

/* Run timer @id's work now, or leave it to release_cb; drops its ref. */
static void xtp_timer_run(struct sock *sk, enum xtp_timer id)
{
	struct xtp_sock *xs = xtp_sk(sk);

	bh_lock_sock(sk);
	if (!sock_owned_by_user(sk)) {
		xs->tm.send_firing = id == XTP_TIMER_SEND;
		xtp_timer_work[id](sk);
		xs->tm.send_firing = 0;
	} else if (!test_and_set_bit(id, &xs->tm.deferred)) {
		sock_hold(sk);
	}
	bh_unlock_sock(sk);
	sock_put(sk);
}

static void xtp_wtimer_handler(struct timer_list *t)
{
	struct xtp_sock *xs = container_of(t, struct xtp_sock,
					   tm.list[XTP_TIMER_W]);

	xtp_timer_run(&xs->inet.sk, XTP_TIMER_W);
}

static void xtp_ctimeout_handler(struct timer_list *t)
{
	struct xtp_sock *xs = container_of(t, struct xtp_sock,
					   tm.list[XTP_TIMER_CTIMEOUT]);

	xtp_timer_run(&xs->inet.sk, XTP_TIMER_CTIMEOUT);
}

static void xtp_ctimer_handler(struct timer_list *t)
{
	struct sock *sk = from_timer(sk, t, sk_timer);

	xtp_timer_run(sk, XTP_TIMER_CTIMER);
}

static void xtp_vtimer_handler(struct timer_list *t)
{
	struct xtp_sock *xs = container_of(t, struct xtp_sock,
					   tm.list[XTP_TIMER_VALIDATE]);

	xtp_timer_run(&xs->inet.sk, XTP_TIMER_VALIDATE);
}

static enum hrtimer_restart xtp_send_timer_fire(struct hrtimer *t)
{
	struct xtp_sock *xs = container_of(t, struct xtp_sock, tm.send);

	xtp_timer_run(&xs->inet.sk, XTP_TIMER_SEND);
	return HRTIMER_NORESTART;
}

/**
 * xtp_timer_reset() - (re)start a timer
 * @sk: the context, locked
 * @id: which, not %XTP_TIMER_SEND (xtp_send_timer_at())
 * @ms: from now
 */
void xtp_timer_reset(struct sock *sk, enum xtp_timer id, u32 ms)
{
	sk_reset_timer(sk, xtp_timer_list(xtp_sk(sk), id),
		       jiffies + msecs_to_jiffies(ms));
}

/**
 * xtp_timer_stop() - stop a timer, without waiting for a running one
 * @sk: the context, locked
 * @id: which, not %XTP_TIMER_SEND (xtp_send_timer_stop())
 */
void xtp_timer_stop(struct sock *sk, enum xtp_timer id)
{
	sk_stop_timer(sk, xtp_timer_list(xtp_sk(sk), id));
}

/**
 * xtp_send_timer_at() - run xtp_push() at @ns, or earlier if already due
 * @sk: the context, locked
 * @ns: CLOCK_MONOTONIC time
 *
 * The send timer serves both the pacing departure and the loss-detection
 * deadline: it is set to the earlier of what it has and @ns.  While it is
 * queued it holds one socket reference, which its callback drops.
 *
 * Only holders of the socket lock queue the timer, and its callback never
 * queues it again on return, so a timer found not queued stays so until
 * it is started here.  A queued one changes hands only when
 * hrtimer_try_to_cancel() takes it off its queue.  While its callback
 * runs (-1) the timer is not dequeued: queued then by that callback's own
 * xtp_push() (&xtp_timers.send_firing), it cannot fire before the
 * callback returns, on this CPU, and is moved; queued by a callback that
 * has left its locked part on another CPU, it may expire and be run again
 * between any test and a start here, which would then queue it without a
 * reference: it is left to fire when it was set, a rare late push rather
 * than a socket freed in use (counted: SendTimerLate).
 */
void xtp_send_timer_at(struct sock *sk, u64 ns)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct hrtimer *t = &xs->tm.send;
	int ret;

	if (!hrtimer_is_queued(t)) {
		sock_hold(sk);
		hrtimer_start(t, ns_to_ktime(ns), HRTIMER_MODE_ABS_PINNED_SOFT);
		return;
	}
	if (ktime_to_ns(hrtimer_get_expires(t)) <= ns)
		return;
	ret = hrtimer_try_to_cancel(t);
	if (ret < 0 && !xs->tm.send_firing) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_SENDTIMERLATE);
		return;
	}
	/* 0: it fired and its callback finished since the test. */
	if (!ret)
		sock_hold(sk);
	hrtimer_start(t, ns_to_ktime(ns), HRTIMER_MODE_ABS_PINNED_SOFT);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_send_timer_at);

/**
 * xtp_send_timer_stop() - cancel the send timer
 * @sk: the context, locked
 *
 * A callback already running finds the context released and only drops
 * its reference.
 */
void xtp_send_timer_stop(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (hrtimer_try_to_cancel(&xs->tm.send) == 1)
		__sock_put(sk);
	if (test_and_clear_bit(XTP_TIMER_SEND, &xs->tm.deferred))
		__sock_put(sk);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_send_timer_stop);

/**
 * xtp_release_cb() - timer work deferred while the user owned the socket
 * @sk: the context
 */
void xtp_release_cb(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	enum xtp_timer id;

	for (id = 0; id < XTP_NTIMERS; id++) {
		if (test_and_clear_bit(id, &xs->tm.deferred)) {
			xtp_timer_work[id](sk);
			__sock_put(sk);
		}
	}
	/* xtp_err(): fragmentation needed. */
	if (test_and_clear_bit(XTP_DEFER_MTU, &xs->tm.deferred)) {
		xtp_mtu_reduced(sk);
		__sock_put(sk);
	}
	/* xtp_err(): the handshake's destination refused it for good. */
	if (test_and_clear_bit(XTP_DEFER_UNREACH, &xs->tm.deferred)) {
		if (sk->sk_state == XTP_SS_FIRST_SENT && sk->sk_err_soft)
			xtp_abort(sk, sk->sk_err_soft);
		__sock_put(sk);
	}
}

void xtp_ctimeout_arm(struct sock *sk, u32 ms)
{
	xtp_timer_reset(sk, XTP_TIMER_CTIMEOUT, ms);
}

/**
 * xtp_timers_init() - set up the timers of a new or cloned context
 * @sk: the context, before anything can arm its timers
 */
void xtp_timers_init(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->tm.deferred = 0;
	xs->tm.send_firing = 0;

	timer_setup(&xs->tm.list[XTP_TIMER_W], xtp_wtimer_handler, 0);
	timer_setup(&xs->tm.list[XTP_TIMER_CTIMEOUT], xtp_ctimeout_handler, 0);
	timer_setup(&xs->tm.list[XTP_TIMER_VALIDATE], xtp_vtimer_handler, 0);
	timer_setup(&sk->sk_timer, xtp_ctimer_handler, 0);
	hrtimer_init(&xs->tm.send, CLOCK_MONOTONIC,
		     HRTIMER_MODE_ABS_PINNED_SOFT);
	xs->tm.send.function = xtp_send_timer_fire;
}

/* Called with the socket locked, possibly from a timer's own handler. */
void xtp_timers_stop(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	enum xtp_timer id;

	for (id = 0; id < XTP_TIMER_SEND; id++) {
		xtp_timer_stop(sk, id);
		if (test_and_clear_bit(id, &xs->tm.deferred))
			__sock_put(sk);
	}
	xtp_send_timer_stop(sk);
}
