// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: address validation of the peers that open associations.
 *
 * A FIRST's source address is only the sender's word.  Until the peer
 * shows that it receives at that address, by sending a packet with our
 * key and the RETURN bit (the key went nowhere but to that address, in
 * our TCNTL), a context opened by its FIRST sends it at most
 * XTP_AV_FACTOR times the bytes it sent us: a forged FIRST cannot make
 * us flood its victim.  Data over the limit waits for the peer's answer
 * to the SREQ on the last packet that fits, one round trip.
 *
 * Such a context also has a deadline: XTP_AV_MS after the FIRST, if the
 * peer has not answered, an SREQ asks it once; another XTP_AV_MS later
 * the context is reset (an orphan's at the first deadline).  A FIRST
 * again shows the initiator still waiting for our key, its FIRSTs backing
 * off: each of the first XTP_AV_RENEW_MAX doubles the time from the probe
 * to the reset, and once the probe is out, restarts it, as the
 * initiator's next FIRST will come twice as late.  A reset at 6 s failed
 * a transfer whose answers were lost for 8 s (xtp_setup_loss.sh): the
 * application had accepted the context, so its recv() failed
 * (ETIMEDOUT) and it closed its listener, and the initiator's next FIRST
 * found none (ECONNREFUSED).  Until then
 * its probes, this one and the synchronizing handshake's, are TCNTLs
 * (xtp_send_probe()): an initiator whose TCNTL was lost has not got our
 * key, and its FIRSTs, backing off, may come seconds apart.  A reset
 * context whose peer's data never reached the application leaves no ATM
 * entry behind, so that such an initiator's next FIRST opens the
 * association again.  The TCNTL of a child opened while its listener's
 * queue is half full or more asks for an answer at once (SREQ), so that
 * a real peer validates within a round trip; while the queue is full, a
 * FIRST takes the place of the oldest child that was asked and has not
 * answered, as TCP's SYN_RECV requests make way in a flood.
 *
 * With net.xtp.first_data 0, the data of such a context stays in its
 * receive queue, out of the application's reach, until the peer is
 * validated; its TCNTL asks for the answer at once.  A FIRST replayed
 * after its ATM entry has gone then delivers nothing: the replayer does
 * not receive our new key.
 */
#include <net/ip.h>
#include <net/sock.h>

#include "xtp.h"

#define XTP_AV_FACTOR	3
#define XTP_AV_MS	3000
/* 3 s doubled four times, 48 s: past an initiator's default CTIMEOUT. */
#define XTP_AV_RENEW_MAX	4
/* Smallest backlog whose queue can be a flood's target rather than a test's. */
#define XTP_AV_MIN_BACKLOG	8

static u32 xtp_av_room(const struct xtp_sock *xs)
{
	u64 limit = (u64)XTP_AV_FACTOR * xs->av.in;

	return limit > xs->av.out ? min_t(u64, limit - xs->av.out, U32_MAX) : 0;
}

/**
 * xtp_av_child() - a FIRST opened @child: its peer is not validated yet
 * @child: the new context, locked
 * @skb: the FIRST, its IP header in place
 */
void xtp_av_child(struct sock *child, const struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(child);

	WRITE_ONCE(xs->av.valid, false);
	xs->av.asked = 0;
	xs->av.probed = 0;
	xs->av.blocked = 0;
	xs->av.renewed = 0;
	xs->av.hold = !READ_ONCE(xtp_net(sock_net(child))->first_data);
	xs->av.in = ntohs(ip_hdr(skb)->tot_len);
	xs->av.out = 0;
	xtp_timer_reset(child, XTP_TIMER_VALIDATE, XTP_AV_MS);
}

/**
 * xtp_av_rcvd() - a packet from the peer of a context not yet validated
 * @sk: the context, locked
 * @skb: the packet, its IP header in place
 * @key: its KEY: with RETURN it is ours, and the peer is validated
 */
void xtp_av_rcvd(struct sock *sk, const struct sk_buff *skb, u64 key)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->av.valid)
		return;
	if (!(key & XTP_KEY_RETURN)) {
		/* A FIRST again: its sender may be anyone, but it pays. */
		xs->av.in += ntohs(ip_hdr(skb)->tot_len);
		return;
	}
	WRITE_ONCE(xs->av.valid, true);
	xs->av.blocked = 0;
	xtp_timer_stop(sk, XTP_TIMER_VALIDATE);
	/* Held data, or the held end of it (a FIRST with WCLOSE only),
	 * becomes readable.
	 */
	if (xs->av.hold)
		sk->sk_data_ready(sk);
}

/* How long after its SREQ probe (or a FIRST since) a context is reset. */
static unsigned int xtp_av_reset_ms(const struct xtp_sock *xs)
{
	return XTP_AV_MS << xs->av.renewed;
}

/**
 * xtp_av_first_again() - a FIRST again from the peer of a live context
 * @sk: the context, locked
 *
 * Its initiator has not got our key yet: while the peer is not validated,
 * the reset moves, each time twice as far (the top of this file).  The
 * SREQ probe keeps its time: it may be the answer that gets through.
 * Nothing moves for an orphan (its application is done with it; a
 * deadline moved before it was closed stands), nor for a context whose
 * TCNTL asked for an answer at once: a flood may be on, and the queue
 * makes way by such contexts (xtp_av_evict()).  A forger that sends
 * five FIRSTs, each charged to it, keeps a context 96 s instead of 6.
 */
void xtp_av_first_again(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->av.valid || xs->av.asked || xs->av.renewed >= XTP_AV_RENEW_MAX ||
	    sock_flag(sk, SOCK_DEAD))
		return;
	xs->av.renewed++;
	if (xs->av.probed)
		xtp_timer_reset(sk, XTP_TIMER_VALIDATE, xtp_av_reset_ms(xs));
}
EXPORT_SYMBOL_IF_KUNIT(xtp_av_first_again);

/**
 * xtp_av_held() - is what the peer sent kept from the application?
 * @sk: the context
 *
 * Return: true while net.xtp.first_data 0 holds the data of a context
 * whose peer has not been validated.
 */
bool xtp_av_held(const struct sock *sk)
{
	const struct xtp_sock *xs = xtp_sk(sk);

	return xs->av.hold && !READ_ONCE(xs->av.valid);
}

/* The limit holds a packet back: count each wait once, in AvLimited. */
static void xtp_av_blocked(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->av.blocked) {
		xs->av.blocked = 1;
		XTP_INC_STATS(sock_net(sk), XTP_MIB_AVLIMITED);
	}
}

/**
 * xtp_av_data_room() - payload the next DATA packet may carry
 * @sk: the context, locked
 *
 * A packet that would pass the limit is cut to fit it (xtp_push()): its
 * SREQ, the last of the burst, brings the answer that lifts the limit.
 *
 * Return: bytes, U32_MAX for a validated peer, 0 when nothing fits.
 */
u32 xtp_av_data_room(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 room;

	if (xs->av.valid)
		return U32_MAX;
	room = xtp_av_room(xs);
	if (room > XTP_DATA_OVERHEAD)
		return room - XTP_DATA_OVERHEAD;
	xtp_av_blocked(sk);
	return 0;
}

/**
 * xtp_av_charge() - a packet of @len bytes (IP) goes to the peer
 * @sk: the context, locked
 * @len: the packet's length with its IP header
 *
 * Return: false if it must not: the peer is not validated and the packet
 * does not fit the limit.
 */
bool xtp_av_charge(struct sock *sk, u32 len)
{
	struct xtp_sock *xs = xtp_sk(sk);

	sock_owned_by_me(sk);
	if (xs->av.valid)
		return true;
	if (len > xtp_av_room(xs)) {
		xtp_av_blocked(sk);
		return false;
	}
	xs->av.out += len;
	return true;
}

/**
 * xtp_av_timeout() - the validation deadline passed
 * @sk: the context, locked, not owned by the user
 *
 * The first time, ask the peer (xtp_send_probe(), within the limit); the
 * second, reset the context.
 */
void xtp_av_timeout(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	/*
	 * A FIRST that moved the deadline while this expiry waited for the
	 * lock (or in the backlog, for release_cb) has re-armed it.
	 */
	if (xs->av.valid || xs->released ||
	    xtp_timer_pending(xs, XTP_TIMER_VALIDATE))
		return;
	/* An orphan's application is done with it: no second chance. */
	if (!xs->av.probed && !sock_flag(sk, SOCK_DEAD)) {
		xs->av.probed = 1;
		if (sk->sk_state == XTP_SS_ACTIVE && !xs->close.end_sent)
			xtp_send_probe(sk);
		xtp_timer_reset(sk, XTP_TIMER_VALIDATE, xtp_av_reset_ms(xs));
		return;
	}
	XTP_INC_STATS(sock_net(sk), XTP_MIB_AVEXPIRED);
	/* No data of the peer's was readable: nothing to protect from replay. */
	if (xs->av.hold || xs->rcv.nxt == XTP_FIRST_SEGS_LEN)
		xs->no_atm_timer = 1;
	xtp_abort(sk, ETIMEDOUT);
}

/**
 * xtp_av_ask() - should the TCNTL of @child ask for an answer at once?
 * @listener: the listener, locked
 * @child: its new child
 *
 * Yes when its data is held for validation, or once the accept queue is
 * half full (and holds at least XTP_AV_MIN_BACKLOG): it may be a flood,
 * and a child that was asked and has not answered may be dropped to make
 * room (xtp_av_evict()).
 *
 * Return: true to set SREQ on the TCNTL.
 */
bool xtp_av_ask(struct sock *listener, struct sock *child)
{
	u32 max = READ_ONCE(listener->sk_max_ack_backlog);

	/* Held data waits for the answer: ask for it now. */
	if (!xtp_sk(child)->av.hold &&
	    (max < XTP_AV_MIN_BACKLOG ||
	     2 * READ_ONCE(listener->sk_ack_backlog) < max))
		return false;
	xtp_sk(child)->av.asked = 1;
	return true;
}

/**
 * xtp_av_evict() - make room in a full accept queue
 * @listener: the listener, locked
 *
 * The oldest child whose peer was asked to answer and has not is
 * dropped.  Its data never reached the application, so its ATM entry
 * goes at once: the real peer's next FIRST opens the association again.
 *
 * Return: true if a child made room.
 */
bool xtp_av_evict(struct sock *listener)
{
	struct xtp_sock *xs;

	list_for_each_entry(xs, &xtp_sk(listener)->accept_queue, accept_node) {
		/*
		 * The child's own lock is not held: its softirq may validate
		 * it meanwhile (av.asked is the listener's, written under
		 * both locks in xtp_listen_first()).
		 */
		if (READ_ONCE(xs->av.valid) || !xs->av.asked)
			continue;
		xtp_listen_drop(listener, xs, true);
		XTP_INC_STATS(sock_net(listener), XTP_MIB_AVEVICTED);
		return true;
	}
	return false;
}
