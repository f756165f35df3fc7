// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: packets from IPv4.
 *
 * Everything that arrives is untrusted: the codec checks every length
 * before it reads, and each reason to drop a packet has its own counter.
 * A packet whose key carries the RETURN bit names our own context and is
 * found by key, then checked against the context's peer address; a FIRST
 * goes through the ATM and First Packet Matching.  Per-context work runs
 * under the socket lock, from the backlog when the owner holds it.
 */
#include <linux/filter.h>
#include <linux/icmp.h>
#include <linux/skbuff.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/netfilter/nf_conntrack.h>
#include <net/protocol.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/xfrm.h>

#include "xtp.h"
#include <trace/events/xtp.h>

/* Data above a gap may use all but 1/XTP_RCV_GAP_SHARE of SO_RCVBUF. */
#define XTP_RCV_GAP_SHARE	8

/* The counter that records a packet the codec rejected, by its error. */
static_assert(__XTP_MIB_MAX <= 256);	/* xtp_wire_mib[] holds u8 */
static const u8 xtp_wire_mib[XTP_WIRE_NERR] = {
	[XTP_WIRE_ETRUNC]	= XTP_MIB_INTRUNCATED,
	[XTP_WIRE_EVERSION]	= XTP_MIB_INBADVERSION,
	[XTP_WIRE_EPFORMAT]	= XTP_MIB_INBADTYPE,
	[XTP_WIRE_EDLEN]	= XTP_MIB_INBADLEN,
	[XTP_WIRE_ECSUM]	= XTP_MIB_INCSUMERRORS,
	[XTP_WIRE_ESEGLEN]	= XTP_MIB_INBADLEN,
	[XTP_WIRE_ENSPAN]	= XTP_MIB_INBADLEN,
	[XTP_WIRE_EAFORMAT]	= XTP_MIB_INBADFORMAT,
	[XTP_WIRE_EALEN]	= XTP_MIB_INBADLEN,
	[XTP_WIRE_ETFORMAT]	= XTP_MIB_INBADFORMAT,
	[XTP_WIRE_ETLEN]	= XTP_MIB_INBADLEN,
	/* the encoder's errors, never returned by a decode */
	[XTP_WIRE_ENOSPC]	= XTP_MIB_INBADLEN,
	[XTP_WIRE_EINVAL]	= XTP_MIB_INBADLEN,
};

/* ... and the drop reason it is freed with. */
static enum skb_drop_reason xtp_decode_drop_reason(int err)
{
	switch (-err) {
	case XTP_WIRE_ETRUNC:
		return SKB_DROP_REASON_PKT_TOO_SMALL;
	case XTP_WIRE_ECSUM:
		return SKB_DROP_REASON_SKB_CSUM;
	default:
		return SKB_DROP_REASON_INVALID_PROTO;
	}
}

static void xtp_count_in(struct xtp_sock *xs, u8 pformat)
{
	switch (pformat) {
	case XTP_PF_FIRST:
		xs->mib.fpk_in++;
		break;
	case XTP_PF_DATA:
		xs->mib.dpk_in++;
		break;
	case XTP_PF_CNTL:
		xs->mib.cpk_in++;
		break;
	case XTP_PF_TCNTL:
		xs->mib.tpk_in++;
		break;
	case XTP_PF_ECNTL:
		xs->mib.epk_in++;
		break;
	case XTP_PF_DIAG:
		xs->mib.dgpk_in++;
		break;
	}
}

static void xtp_count_dup(struct sock *sk)
{
	xtp_sk(sk)->mib.dup_data_in++;
	XTP_INC_STATS(sock_net(sk), XTP_MIB_INDUPDATA);
}

/* @skb starts at or below RSEQ and ends above: its new bytes are readable. */
static void xtp_rcv_in_order(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 end = XTP_SKB_CB(skb)->seq + skb->len;

	XTP_SKB_CB(skb)->offset = xs->rcv.nxt - XTP_SKB_CB(skb)->seq;
	xs->rcv.queued += end - xs->rcv.nxt;
	xs->mib.bytes_received += end - xs->rcv.nxt;
	xs->rcv.nxt = end;
	__skb_queue_tail(&sk->sk_receive_queue, skb);
}

/* Move in-order data from the out-of-order queue to the receive queue. */
static void xtp_ooo_drain(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb;

	while ((skb = skb_peek(&xs->rcv.ooo))) {
		u64 seq = XTP_SKB_CB(skb)->seq;

		if (seq > xs->rcv.nxt)
			break;
		__skb_unlink(skb, &xs->rcv.ooo);
		if (seq + skb->len <= xs->rcv.nxt) {
			xtp_count_dup(sk);
			xtp_drop(sk, skb, SKB_DROP_REASON_TCP_OLD_DATA);
			continue;
		}
		xtp_rcv_in_order(sk, skb);
	}
}

/* Keep @skb in the out-of-order queue, sorted by sequence number. */
static void xtp_ooo_insert(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 seq = XTP_SKB_CB(skb)->seq;
	struct sk_buff *pos;

	skb_queue_walk(&xs->rcv.ooo, pos) {
		if (XTP_SKB_CB(pos)->seq == seq) {
			xtp_count_dup(sk);
			xtp_drop(sk, skb, SKB_DROP_REASON_TCP_OLD_DATA);
			return;
		}
		if (XTP_SKB_CB(pos)->seq > seq) {
			__skb_queue_before(&xs->rcv.ooo, pos, skb);
			return;
		}
	}
	__skb_queue_tail(&xs->rcv.ooo, skb);
}

/*
 * Queue the user data of a FIRST or DATA packet.  @skb is consumed: its
 * data area is cut down to the payload and kept as is.
 *
 * Return: true if the data opened a new gap above what had arrived.
 */
VISIBLE_IF_KUNIT bool xtp_queue_data(struct sock *sk, struct sk_buff *skb,
				     const struct xtp_wire_pkt *pkt, u64 seq)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 len = pkt->data_len;
	u64 limit = 2ULL * xs->rcv.wnd;
	bool new_gap;
	int room, mem;

	sock_owned_by_me(sk);
	/*
	 * Beyond the ALLOC we advertised (none yet for a FIRST's data), or
	 * wrapping: a peer that keeps to the protocol never sends it, and
	 * the out-of-order queue would hold it until the gap below filled.
	 */
	if (seq + len < seq || (xs->rcv.alloc && seq + len > xs->rcv.alloc)) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_INBEYONDALLOC);
		xtp_drop(sk, skb, SKB_DROP_REASON_TCP_OVERWINDOW);
		return false;
	}
	if (!len) {
		consume_skb(skb);
		return false;
	}
	if (seq + len <= xs->rcv.nxt) {
		xtp_count_dup(sk);
		xtp_drop(sk, skb, SKB_DROP_REASON_TCP_OLD_DATA);
		return false;
	}
	if (xs->close.wclose_rcvd) {
		/* Data after the end of the peer's stream. */
		xtp_drop(sk, skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return false;
	}
	/*
	 * The peer must stay below our ALLOC; never hold more than that.
	 * Data above a gap leaves the last eighth of the buffer to the
	 * packets that fill the gaps: a buffer full of it once refused the
	 * packet at RSEQ, each time the peer sent it again, for good.
	 */
	room = READ_ONCE(sk->sk_rcvbuf);
	mem = atomic_read(&sk->sk_rmem_alloc);
	if (seq > xs->rcv.nxt) {
		room -= room / XTP_RCV_GAP_SHARE;
		mem += skb->truesize;
	}
	if (xs->rcv.queued + len > limit || mem > room) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_RCVBUFERRORS);
		xtp_drop(sk, skb, SKB_DROP_REASON_SOCKET_RCVBUFF);
		return false;
	}
	/* The codec's bytes are linear (xtp_rcv_pull()); the data may not be. */
	skb_pull(skb, pkt->data - skb->data);
	if (pskb_trim(skb, len)) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_INNOMEM);
		xtp_drop(sk, skb, SKB_DROP_REASON_NOMEM);
		return false;
	}
	skb_dst_drop(skb);
	if (!xtp_rmem_schedule(sk, skb, seq)) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_RCVQDROP);
		xtp_drop(sk, skb, SKB_DROP_REASON_PROTO_MEM);
		return false;
	}
	skb_set_owner_r(skb, sk);
	XTP_SKB_CB(skb)->seq = seq;
	XTP_SKB_CB(skb)->offset = 0;
	XTP_SKB_CB(skb)->options = pkt->hdr.options & XTP_CMD_EOM;
	new_gap = seq > max(xs->rcv.nxt, xs->rcv.high);
	xs->rcv.high = max(xs->rcv.high, seq + len);
	if (seq > xs->rcv.nxt) {
		xtp_ooo_insert(sk, skb);
		return new_gap;
	}
	xtp_rcv_in_order(sk, skb);
	xtp_ooo_drain(sk);
	xtp_tune_arrival(sk);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_queue_data);

/*
 * Acknowledged data made room: wake a writer that ran out of it (it set
 * SOCK_NOSPACE, in sendmsg() or poll()), and nobody else.  The wait
 * queue is shared with readers, whom every ACK would wake otherwise.
 * Only once a third of the buffer is free, as for TCP: a writer woken
 * for every acknowledged packet would copy a packet per wakeup.
 */
static void xtp_write_space(struct sock *sk)
{
	struct socket *sock = sk->sk_socket;
	struct socket_wq *wq;

	/* The room made before the test, against xtp_poll()'s. */
	smp_mb();
	if (!sock || !test_bit(SOCK_NOSPACE, &sock->flags) ||
	    !sk_stream_is_writeable(sk))
		return;
	clear_bit(SOCK_NOSPACE, &sock->flags);
	/*
	 * Not sk_write_space(): sock_def_write_space() also wants half the
	 * send buffer free of packets still in the device queues, and a
	 * buffer halved under memory pressure may never see that.
	 */
	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_sync_poll(&wq->wait, EPOLLOUT |
						EPOLLWRNORM | EPOLLWRBAND);
	if (wq && wq->fasync_list && !(sk->sk_shutdown & SEND_SHUTDOWN))
		sock_wake_async(wq, SOCK_WAKE_SPACE, POLL_OUT);
	rcu_read_unlock();
}

/*
 * Acknowledgment, allocation and spans from a control segment.  The
 * window grows by the bytes RSEQ covers anew (byte counting), except
 * during a handshake.
 */
static void xtp_ack(struct sock *sk, const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 rseq = pkt->ctl.rseq;
	struct sk_buff *skb;
	u32 acked;

	if (rseq > xs->snd.nxt)
		return;
	xtp_rtt_echo(xs, pkt->ctl.echo);
	if (rseq > xs->snd.una) {
		acked = rseq - xs->snd.una;
		xs->snd.una = rseq;
		xs->fc_blocked = 0;
		while ((skb = skb_peek(&xs->snd.rtx)) &&
		       XTP_SKB_CB(skb)->seq + skb->len <= rseq)
			xtp_rtx_unlink(sk, skb);
		if (!xs->in_handshake) {
			xtp_cc_undo_check(sk);
			if (xs->cc.ops->acked)
				xs->cc.ops->acked(sk, acked);
			xtp_tune_sndbuf(sk);
		}
		xtp_sndbuf_restore(sk);
		xtp_write_space(sk);
	}
	if (pkt->ctl.alloc > xs->snd.alloc) {
		xtp_snd_alloc(xs, pkt->ctl.alloc);
		xs->fc_blocked = 0;
	}
	if (pkt->hdr.pformat == XTP_PF_ECNTL)
		xtp_rtx_ecntl(sk, pkt);
	else if (pkt->ctl.rseq >= xs->snd.una)
		xtp_rtx_whole(sk);
	xtp_rate_sample(sk);
	xtp_wtimer_answered(sk, pkt->ctl.echo);
	trace_xtp_probe(sk);
}

static bool xtp_is_control(u8 pformat)
{
	return pformat == XTP_PF_CNTL || pformat == XTP_PF_ECNTL ||
	       pformat == XTP_PF_TCNTL;
}

/* Where the peer's stream ends, if this packet closes it. */
static void xtp_note_wclose(struct xtp_sock *xs,
			    const struct xtp_wire_pkt *pkt, u64 data_seq)
{
	if (!(pkt->hdr.options & XTP_CMD_WCLOSE) || xs->close.wclose_seen)
		return;
	xs->close.wclose_seen = 1;
	if (pkt->hdr.pformat == XTP_PF_DATA || pkt->hdr.pformat == XTP_PF_FIRST)
		xs->close.rcv_wclose = data_seq + pkt->data_len;
	else
		xs->close.rcv_wclose = pkt->hdr.seq;
}

/*
 * Beyond this many bytes since our last control packet, an SREQ is
 * answered even in a batch: as far as a GRO skb stretches an ACK.
 */
#define XTP_ANSWER_STRETCH	(64 * 1024)

/*
 * An SREQ (or EDGE) on a DATA packet of a train that arrived whole may
 * wait for the train's last packet, which xtp_rcv() delivers next or
 * the backlog holds next: one answer then echoes the newest SYNC and
 * covers the whole train, as TCP's ACK covers a GSO skb, instead of a
 * control packet for every other packet.  Not while a gap is open (the ECNTL tells the peer what
 * to send again), not for control packets (the synchronizing
 * handshake's probes), not beyond %XTP_ANSWER_STRETCH.  Should the last
 * packet not reach us, the next packet that is not waiting answers
 * (xtp_established_rcv()); the peer asked for that one anyway.
 */
static bool xtp_answer_may_wait(struct sock *sk, bool more,
				const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);

	return more && pkt->hdr.pformat == XTP_PF_DATA &&
	       skb_queue_empty(&xs->rcv.ooo) &&
	       xs->rcv.nxt - xs->rcv.answered < XTP_ANSWER_STRETCH;
}

/**
 * xtp_established_rcv() - a packet from the peer of a running association
 * @sk: the context, locked
 * @skb: the packet, consumed
 * @pkt: its decoded form (pointing into @skb)
 */
static void xtp_established_rcv(struct sock *sk, struct sk_buff *skb,
				const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 opt = pkt->hdr.options;
	bool sreq = opt & XTP_CMD_SREQ;
	bool edge = opt & XTP_CMD_EDGE;
	/* What a reader (recvmsg, poll) sees: wake it when that changes. */
	u64 rcv_nxt = xs->rcv.nxt;
	u8 shutdown = sk->sk_shutdown;
	bool closes = xs->close.wclose_rcvd || xs->close.rclose_rcvd;
	bool more = XTP_SKB_CB(skb)->more;

	if (sreq)
		xs->echo = pkt->hdr.sync;
	xtp_ecntl_note(xs, pkt);
	/* A toggled EDGE asks for a control packet, without SYNC/ECHO. */
	if (edge != xs->last_edge) {
		xs->last_edge = edge;
		sreq = true;
	}
	if (xtp_is_control(pkt->hdr.pformat))
		xtp_ack(sk, pkt);
	if ((opt & XTP_CMD_DREQ) && pkt->hdr.pformat == XTP_PF_DATA &&
	    pkt->hdr.seq + pkt->data_len > xs->rcv.dreq)
		xs->rcv.dreq = pkt->hdr.seq + pkt->data_len;
	if ((opt & XTP_CMD_RCLOSE) && xs->close.wclose_sent &&
	    !xs->close.rclose_rcvd && xs->snd.una == xs->snd.nxt)
		xs->close.rclose_rcvd = 1;
	xtp_note_wclose(xs, pkt, pkt->hdr.seq);
	/* FASTNAK: the peer wants to hear of a new gap at once. */
	if (pkt->hdr.pformat == XTP_PF_DATA) {
		if (xtp_queue_data(sk, skb, pkt, pkt->hdr.seq) &&
		    (opt & XTP_CMD_FASTNAK))
			sreq = true;
	} else {
		consume_skb(skb);
	}

	if (xs->close.wclose_seen && !xs->close.wclose_rcvd &&
	    xs->rcv.nxt >= xs->close.rcv_wclose) {
		xs->close.wclose_rcvd = 1;
		sk->sk_shutdown |= RCV_SHUTDOWN;
	}
	if (opt & XTP_CMD_END) {
		xs->close.end_rcvd = 1;
		xtp_ctx_done(sk, xs->close.wclose_rcvd ? 0 : ECONNRESET);
		return;
	}
	/*
	 * New data wakes the reader once a train's last packet is in, not
	 * once a packet: a train of 45 woke it 45 times.  Any later packet
	 * wakes it should that last one never come.
	 */
	if (xs->rcv.nxt != rcv_nxt)
		xs->rcv.unwoken = 1;
	if ((xs->rcv.unwoken && !more) || sk->sk_shutdown != shutdown ||
	    (xs->close.wclose_rcvd || xs->close.rclose_rcvd) != closes) {
		xs->rcv.unwoken = 0;
		sk->sk_data_ready(sk);
	}
	xtp_push(sk);
	/* Any control packet we send now carries the ECHO that answers. */
	xs->ctl_sent = 0;
	xtp_teardown_step(sk);
	if (sreq && !xs->ctl_sent)
		xs->owe_cntl = 1;
	/* Not once the teardown let the context go: nothing leaves it. */
	if (xs->owe_cntl && !xs->released &&
	    !xtp_answer_may_wait(sk, more, pkt))
		xtp_send_cntl(sk, 0);
}

/* ZOMBIE: the END may have been lost; answer whatever asks with END. */
static void xtp_zombie_rcv(struct sock *sk, struct sk_buff *skb,
			   const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (pkt->hdr.options & XTP_CMD_SREQ) {
		xs->echo = pkt->hdr.sync;
		xtp_send_cntl(sk, 0);
	}
	consume_skb(skb);
}

/*
 * The responder sends its first DATA and CNTL right after the TCNTL, and
 * they may overtake it: on another path, or from another CPU's backlog on
 * one host.  Dropped, they cost the responder a WTIMER (a second) to send
 * again; held, they are taken when the TCNTL comes.  Only packets with our
 * key from our peer's address get here.  A few, within the receive buffer
 * and charged to the socket's receive memory.
 */
static void xtp_early_hold(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (skb_queue_len(&xs->rcv.early) >= XTP_EARLY_MAX ||
	    atomic_read(&sk->sk_rmem_alloc) + skb->truesize >
	    READ_ONCE(sk->sk_rcvbuf) ||
	    !sk_rmem_schedule(sk, skb, skb->truesize)) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_INBADSTATE);
		xtp_drop(sk, skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return;
	}
	skb_dst_drop(skb);
	skb_set_owner_r(skb, sk);
	__skb_queue_tail(&xs->rcv.early, skb);
	XTP_INC_STATS(sock_net(sk), XTP_MIB_INEARLY);
}

/*
 * The TCNTL came: what overtook it, in the order it arrived.  All of it is
 * uncharged first, so that the held packets do not count against the
 * receive buffer that the first of them is queued to.
 */
static void xtp_early_replay(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_wire_pkt pkt;
	struct sk_buff_head q;
	struct sk_buff *skb;

	__skb_queue_head_init(&q);
	skb_queue_splice_init(&xs->rcv.early, &q);
	skb_queue_walk(&q, skb)
		skb_orphan(skb);
	while ((skb = __skb_dequeue(&q))) {
		if (xs->released) {
			xtp_drop(sk, skb, SKB_DROP_REASON_NOT_SPECIFIED);
			continue;
		}
		if (xtp_wire_decode(skb->data, skb->len, XTP_WIRE_F_NOCSUM,
				    &pkt)) {
			xtp_drop(sk, skb, SKB_DROP_REASON_INVALID_PROTO);
			continue;
		}
		/* Answered together, after the last of them. */
		XTP_SKB_CB(skb)->more = !skb_queue_empty(&q);
		if (xs->close.end_sent)
			xtp_zombie_rcv(sk, skb, &pkt);
		else
			xtp_established_rcv(sk, skb, &pkt);
	}
}

/* Initiator: the TCNTL answers our FIRST, or a DIAG refuses it. */
static void xtp_syn_sent_rcv(struct sock *sk, struct sk_buff *skb,
			     const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (pkt->hdr.pformat == XTP_PF_DIAG) {
		consume_skb(skb);
		xtp_ctx_done(sk, ECONNREFUSED);
		return;
	}
	if (pkt->hdr.pformat != XTP_PF_TCNTL) {
		if (pkt->hdr.pformat == XTP_PF_FIRST)
			goto bad_state;
		xtp_early_hold(sk, skb);
		return;
	}
	xs->pkey = pkt->ctl.xkey & ~XTP_KEY_RETURN;
	xtp_peer_insert(sk);
	inet_sk_set_state(sk, XTP_SS_ACTIVE);
	/* The setup is done: CTIMEOUT no longer guards it, and FIRSTs sent
	 * again do not count against a later handshake.
	 */
	xtp_timer_stop(sk, XTP_TIMER_CTIMEOUT);
	xs->wtimer_retries = 0;
	if (sock_flag(sk, SOCK_KEEPOPEN))
		xtp_keepalive(sk, 1);
	sk->sk_state_change(sk);
	xtp_established_rcv(sk, skb, pkt);
	xtp_early_replay(sk);
	return;

bad_state:
	XTP_INC_STATS(sock_net(sk), XTP_MIB_INBADSTATE);
	xtp_drop(sk, skb, SKB_DROP_REASON_NOT_SPECIFIED);
}

/*
 * A context cloned from listener @sk for the FIRST in @skb: addressed to
 * its sender, keyed by its KEY, its sequence numbers from the FIRST.
 * Return: the child, locked, or NULL without memory.
 */
static struct sock *xtp_child_new(struct sock *sk, struct sk_buff *skb,
				  const struct xtp_wire_pkt *pkt)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct inet_sock *inet;
	struct xtp_sock *xs;
	struct sock *child;

	child = sk_clone_lock(sk, GFP_ATOMIC);
	if (!child)
		return NULL;
	xs = xtp_sk(child);
	inet = inet_sk(child);
	xtp_mem_clone(child, sk);
	/* The clone copied the listener's timers, perhaps queued ones. */
	xtp_timers_init(child);
	xtp_ctx_init(child);
	xtp_ctx_track(child);
	xtp_av_child(child, skb);
	RCU_INIT_POINTER(inet->inet_opt, NULL);
	inet->mc_list = NULL;
	sk_node_init(&child->sk_bind_node);
	child->sk_rcv_saddr = iph->daddr;
	inet->inet_saddr = iph->daddr;
	inet->inet_daddr = iph->saddr;
	inet->inet_sport = htons(pkt->addr.dstport);
	inet->inet_num = pkt->addr.dstport;
	inet->inet_dport = htons(pkt->addr.srcport);
	inet_sk_set_state(child, XTP_SS_ACTIVE);
	xs->pkey = pkt->hdr.key;
	xtp_snd_alloc(xs, pkt->hdr.seq);
	xs->echo = pkt->hdr.sync;
	xs->rcv.nxt = XTP_FIRST_SEGS_LEN;
	return child;
}

/*
 * Make @child reachable: a route back to the initiator, its key, its ATM
 * entry, its place among the peer's contexts.  Return: 0, or a negative
 * errno with @reason set for the FIRST's drop.
 */
static int xtp_child_attach(struct sock *child, struct sk_buff *skb,
			    const struct xtp_wire_pkt *pkt,
			    enum skb_drop_reason *reason)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct inet_sock *inet = inet_sk(child);
	struct net *net = sock_net(child);
	struct rtable *rt;
	int err;

	/* As for an initiator: ip_queue_xmit() uses the flow in cork.fl. */
	rt = ip_route_output_ports(net, &inet->cork.fl.u.ip4, child,
				   iph->saddr, iph->daddr, inet->inet_dport,
				   inet->inet_sport, IPPROTO_XTP, 0,
				   child->sk_bound_dev_if);
	if (IS_ERR(rt)) {
		*reason = SKB_DROP_REASON_IP_OUTNOROUTES;
		return PTR_ERR(rt);
	}
	err = xtp_key_insert(child);
	if (err) {
		ip_rt_put(rt);
		return err;
	}
	sk_setup_caps(child, &rt->dst);
	/* The controllers count in packets of the route's size. */
	xtp_seg_max(child);
	xtp_cc_start(child);
	err = xtp_atm_add(child, iph->saddr, pkt->hdr.key);
	if (err) {
		XTP_INC_STATS(net, XTP_MIB_ATMFULL);
		return err;
	}
	xtp_peer_insert(child);
	return 0;
}

/* The FIRST's close bits and data, taken by the new context @child. */
static void xtp_child_first(struct sock *child, struct sk_buff *skb,
			    const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(child);

	xs->mib.fpk_in++;
	/* The initiator will not receive: our outbound closes at once. */
	if (pkt->hdr.options & XTP_CMD_RCLOSE) {
		xs->close.wclose_req = 1;
		xs->close.wclose_sent = 1;
		xs->close.rclose_rcvd = 1;
		xs->close.wclose_implied = 1;
	}
	/* An initiator that combined all three phases (SDT) is answered in
	 * kind: our WCLOSE rides on our last data, so a request and its
	 * response take one round trip instead of two.
	 */
	if (!xs->assoc_set && pkt->data_len &&
	    (pkt->hdr.options & XTP_CMD_WCLOSE))
		xs->assoc_type = XTP_ASSOC_SDT;
	xtp_note_wclose(xs, pkt, XTP_FIRST_SEGS_LEN);
	xtp_queue_data(child, skb, pkt, XTP_FIRST_SEGS_LEN);
	if (xs->close.wclose_seen && xs->rcv.nxt >= xs->close.rcv_wclose) {
		xs->close.wclose_rcvd = 1;
		child->sk_shutdown |= RCV_SHUTDOWN;
	}
	/* The TCNTL answers the FIRST's WCLOSE too (SDT). */
	if (xs->close.wclose_rcvd) {
		xs->close.rclose_sent = 1;
		xs->close.wclose_answered = 1;
	}
}

/**
 * xtp_listen_first() - First Packet Matching found this listener
 * @sk: the listener, locked
 * @skb: the FIRST, consumed
 * @pkt: its decoded form
 *
 * A new context is cloned from the listener, recorded in the ATM, given
 * the FIRST's data and queued for accept(); the TCNTL answers the FIRST.
 */
static void xtp_listen_first(struct sock *sk, struct sk_buff *skb,
			     const struct xtp_wire_pkt *pkt)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;
	struct net *net = sock_net(sk);
	struct xtp_sock *xs;
	struct sock *child;
	struct sock *dup;

	/* A twin of this FIRST may have been processed from the backlog. */
	if (xtp_atm_lookup(net, ip_hdr(skb)->saddr, pkt->hdr.key, &dup) !=
	    XTP_ATM_NONE) {
		if (dup)
			sock_put(dup);
		xtp_drop(sk, skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return;
	}
	/*
	 * As TCP, a backlog of N holds N + 1 (sk_acceptq_is_full()); when
	 * it is full, a child whose peer has not answered makes way.
	 */
	if (sk_acceptq_is_full(sk) && !xtp_av_evict(sk)) {
		XTP_INC_STATS(net, XTP_MIB_LISTENOVERFLOW);
		xtp_drop(sk, skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return;
	}
	child = xtp_child_new(sk, skb, pkt);
	if (!child) {
		XTP_INC_STATS(net, XTP_MIB_INNOMEM);
		xtp_drop(sk, skb, SKB_DROP_REASON_NOMEM);
		return;
	}
	if (xtp_child_attach(child, skb, pkt, &reason)) {
		xtp_drop(sk, skb, reason);
		sock_orphan(child);
		xtp_ctx_done(child, 0);
		bh_unlock_sock(child);
		sock_put(child);
		return;
	}
	xtp_child_first(child, skb, pkt);
	xtp_send_tcntl(child, xtp_av_ask(sk, child) ? XTP_CMD_SREQ : 0);
	XTP_INC_STATS(net, XTP_MIB_PASSIVEOPENS);
	if (sock_flag(child, SOCK_KEEPOPEN))
		xtp_keepalive(child, 1);

	xs = xtp_sk(child);
	xs->listener = sk;
	list_add_tail(&xs->accept_node, &xtp_sk(sk)->accept_queue);
	sk_acceptq_added(sk);
	bh_unlock_sock(child);
	sock_put(child);	/* the clone's reference for its caller */
	sk->sk_data_ready(sk);
}

/*
 * A packet for @sk, locked and not owned by the user, that xtp_rcv_one()
 * decoded as @pkt (pointing into @skb); consumed.
 */
static void xtp_ctx_rcv(struct sock *sk, struct sk_buff *skb,
			const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (sk->sk_state == XTP_SS_LISTEN) {
		if (pkt->hdr.pformat == XTP_PF_FIRST) {
			/*
			 * The child is spin-locked while its TCNTL leaves; from
			 * the listener's backlog (process context) a softirq
			 * run by that transmit could bring the peer's answer
			 * for the child and spin on its lock on this CPU.
			 */
			local_bh_disable();
			xtp_listen_first(sk, skb, pkt);
			local_bh_enable();
			return;
		}
		goto bad_state;
	}
	if (xs->released)
		goto bad_state;
	if (!xs->av.valid)
		xtp_av_rcvd(sk, skb, pkt->hdr.key);
	xtp_count_in(xs, pkt->hdr.pformat);
	if (xs->close.end_sent) {
		xtp_zombie_rcv(sk, skb, pkt);
		return;
	}
	if (sk->sk_state == XTP_SS_FIRST_SENT) {
		xtp_syn_sent_rcv(sk, skb, pkt);
		return;
	}
	if (pkt->hdr.pformat == XTP_PF_FIRST) {
		/* Duplicate FIRST of this live association: answer its SREQ. */
		XTP_INC_STATS(sock_net(sk), XTP_MIB_INDUPFIRST);
		xtp_av_first_again(sk);
		xs->echo = pkt->hdr.sync;
		xtp_send_tcntl(sk, 0);
		consume_skb(skb);
		return;
	}
	if (pkt->hdr.pformat == XTP_PF_DIAG) {
		consume_skb(skb);
		xtp_ctx_done(sk, ECONNRESET);
		return;
	}
	xtp_established_rcv(sk, skb, pkt);
	return;

bad_state:
	XTP_INC_STATS(sock_net(sk), XTP_MIB_INBADSTATE);
	xtp_drop(sk, skb, SKB_DROP_REASON_NOT_SPECIFIED);
}

/**
 * xtp_backlog_rcv() - process a packet from a context's backlog
 * @sk: the context, its lock owned
 * @skb: the packet, checksum already verified when it came
 *
 * The decoded form could not wait in the backlog with the packet (the
 * control block is too small): decode it again, without the checksum.
 *
 * Return: 0; the packet is always consumed.
 */
int xtp_backlog_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_wire_pkt pkt;

	if (xtp_wire_decode(skb->data, skb->len, XTP_WIRE_F_NOCSUM, &pkt)) {
		xtp_drop(sk, skb, SKB_DROP_REASON_INVALID_PROTO);
		return 0;
	}
	xtp_ctx_rcv(sk, skb, &pkt);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_backlog_rcv);

/*
 * The socket layer's say before a packet reaches a socket, listener or
 * context: the IPsec input policy, and the filter (SO_ATTACH_FILTER,
 * cgroup-BPF ingress, the LSM's sock_rcv_skb), which may drop the packet
 * but not trim it: the packet was decoded whole.
 */
static enum skb_drop_reason xtp_rcv_allowed(struct sock *sk,
					    struct sk_buff *skb)
{
	if (!xfrm4_policy_check(sk, XFRM_POLICY_IN, skb))
		return SKB_DROP_REASON_XFRM_POLICY;
	nf_reset_ct(skb);
	if (sk_filter_trim_cap(sk, skb, skb->len))
		return SKB_DROP_REASON_SOCKET_FILTER;
	return SKB_NOT_DROPPED_YET;
}

/*
 * The most the backlog and the receive queue may hold together, in
 * truesize.  The window keeps unread data within SO_RCVBUF
 * (xtp_rcv_alloc()), but the backlog's length also counts what
 * __release_sock() has moved to the receive queue until the backlog is
 * empty: a window's worth that comes in one burst (a train, offload.c)
 * while the reader holds the socket counts twice.  Twice the receive
 * buffer takes that, and the send buffer the CNTLs that answer our own
 * data; tcp_add_backlog()'s limit is alike (twice the receive buffer,
 * half the send buffer and 64 KB).
 */
static u32 xtp_backlog_limit(const struct sock *sk)
{
	u64 limit = 2ULL * READ_ONCE(sk->sk_rcvbuf) + READ_ONCE(sk->sk_sndbuf);

	return min_t(u64, limit, UINT_MAX);
}

/*
 * Hand @skb to @sk (referenced; the reference is dropped here).  A
 * listener clones its child with sk_clone_lock(), which takes the child's
 * lock of the same class while we hold the listener's: like TCP, take
 * this one as the nested subclass so lockdep can tell the two apart.
 */
static void xtp_deliver(struct sock *sk, struct sk_buff *skb,
			const struct xtp_wire_pkt *pkt, bool more)
{
	enum skb_drop_reason reason = xtp_rcv_allowed(sk, skb);

	if (reason != SKB_NOT_DROPPED_YET) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_INFILTERED);
		xtp_drop(sk, skb, reason);
		sock_put(sk);
		return;
	}
	/* Behind IPCB(skb), which nothing reads from here on anyway. */
	BUILD_BUG_ON(offsetofend(struct xtp_skb_cb, options) <
		     sizeof(struct inet_skb_parm));
	XTP_SKB_CB(skb)->more = more;
	bh_lock_sock_nested(sk);
	if (!sock_owned_by_user(sk)) {
		xtp_ctx_rcv(sk, skb, pkt);
	} else if (sk_add_backlog(sk, skb, xtp_backlog_limit(sk))) {
		XTP_INC_STATS(sock_net(sk), XTP_MIB_RCVBUFERRORS);
		xtp_drop(sk, skb, SKB_DROP_REASON_SOCKET_BACKLOG);
	}
	bh_unlock_sock(sk);
	sock_put(sk);
}

/* A FIRST: duplicate, replay, or a new association for a listener. */
static void xtp_first_rcv(struct net *net, struct sk_buff *skb,
			  const struct xtp_wire_pkt *pkt)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct sock *sk;

	switch (xtp_atm_lookup(net, iph->saddr, pkt->hdr.key, &sk)) {
	case XTP_ATM_LIVE:
		xtp_deliver(sk, skb, pkt, false);
		return;
	case XTP_ATM_REPLAY:
		XTP_INC_STATS(net, XTP_MIB_INREPLAYFIRST);
		trace_xtp_atm(iph->saddr, pkt->hdr.key, XTP_TRACE_ATM_REPLAY);
		xtp_drop(NULL, skb, SKB_DROP_REASON_NO_SOCKET);
		return;
	case XTP_ATM_NONE:
		break;
	}
	if (pkt->addr.aformat != XTP_AFORMAT_IPV4) {
		XTP_INC_STATS(net, XTP_MIB_INBADFORMAT);
		xtp_drop(NULL, skb, SKB_DROP_REASON_INVALID_PROTO);
		return;
	}
	sk = xtp_listener_lookup(net, iph->daddr, pkt->addr.dstport,
				 inet_iif(skb), inet_sdif(skb));
	if (!sk) {
		XTP_INC_STATS(net, XTP_MIB_INNOCONTEXT);
		xtp_send_diag_reply(net, skb, pkt->hdr.key,
				    XTP_DIAG_CONTEXT_REFUSED,
				    XTP_DIAGV_NO_LISTENER, "no listener");
		xtp_drop(NULL, skb, SKB_DROP_REASON_NO_SOCKET);
		return;
	}
	xtp_deliver(sk, skb, pkt, false);
}

/* The codec's checks in its order; CHECK summed by csum.c's helpers. */
static int xtp_rcv_decode(struct sk_buff *skb, struct xtp_wire_pkt *pkt)
{
	size_t cover;
	int err;

	err = xtp_wire_check_hdr(skb->data, skb->len, &cover);
	if (err)
		return err;
	if (!xtp_csum_ok(skb, cover))
		return -XTP_WIRE_ECSUM;
	return xtp_wire_decode(skb->data, skb->len, XTP_WIRE_F_NOCSUM, pkt);
}

/*
 * The bytes of @skb the codec reads must be in its linear area.  That is
 * all of a control packet or a FIRST, small and rare; of a DATA packet
 * only the header and the beginning tag: the codec reads nothing after
 * them, and its data, which a NIC's pages, a reassembly or a tunnel may
 * hold, reaches recvmsg() where it lies.
 */
static bool xtp_rcv_pull(struct sk_buff *skb)
{
	unsigned int need = skb->len;
	u32 cmd;

	if (pskb_may_pull(skb, XTP_WIRE_HDR_LEN)) {
		cmd = get_unaligned_be32(skb->data + XTP_WIRE_OFF_CMD);
		if ((cmd & XTP_CMD_PFORMAT) == XTP_PF_DATA)
			need = min(need, XTP_WIRE_HDR_LEN + XTP_WIRE_BTAG_LEN);
	}
	return pskb_may_pull(skb, need);
}

/* @more: another packet of the same train follows this one. */
static int xtp_rcv_one(struct sk_buff *skb, bool more)
{
	enum skb_drop_reason reason = SKB_DROP_REASON_NO_SOCKET;
	struct net *net = dev_net(skb->dev);
	struct xtp_wire_pkt pkt;
	struct sock *sk;
	int err;

	XTP_INC_STATS(net, XTP_MIB_INPKTS);
	if (!xtp_rcv_pull(skb)) {
		XTP_INC_STATS(net, XTP_MIB_INNOMEM);
		reason = SKB_DROP_REASON_NOMEM;
		goto drop;
	}
	err = xtp_rcv_decode(skb, &pkt);
	if (err) {
		XTP_INC_STATS(net, -err < XTP_WIRE_NERR ? xtp_wire_mib[-err] :
						       XTP_MIB_INBADLEN);
		reason = xtp_decode_drop_reason(err);
		goto drop;
	}
	trace_xtp_recv_pkt(ip_hdr(skb)->saddr, ip_hdr(skb)->daddr, &pkt);
	if (pkt.hdr.pformat == XTP_PF_FIRST) {
		xtp_first_rcv(net, skb, &pkt);
		return 0;
	}
	if (!(pkt.hdr.key & XTP_KEY_RETURN)) {
		XTP_INC_STATS(net, XTP_MIB_INNOCONTEXT);
		goto drop;
	}
	sk = xtp_key_lookup(net, pkt.hdr.key & ~XTP_KEY_RETURN);
	if (!sk) {
		XTP_INC_STATS(net, XTP_MIB_INNOCONTEXT);
		goto drop;
	}
	/* A RETURN key is only good from the context's own peer. */
	if (ip_hdr(skb)->saddr != inet_sk(sk)->inet_daddr) {
		XTP_INC_STATS(net, XTP_MIB_INBADPEER);
		sock_put(sk);
		goto drop;
	}
	xtp_deliver(sk, skb, &pkt, more);
	return 0;
drop:
	xtp_drop(NULL, skb, reason);
	return 0;
}

/*
 * A train that came whole (offload.c) is taken packet by packet, each
 * told whether more follow: their SREQs are answered once, at its end.
 */
static int xtp_rcv(struct sk_buff *skb)
{
	struct sk_buff *seg, *next;

	if (!skb_is_gso(skb))
		return xtp_rcv_one(skb, false);
	skb_list_walk_safe(xtp_train_split(skb), seg, next) {
		skb_mark_not_on_list(seg);
		xtp_rcv_one(seg, next);
	}
	return 0;
}

/*
 * The context that sent the packet an ICMP error quotes.  A FIRST carries
 * our own key (no RETURN bit); every later packet its peer's key, which
 * with the peer's address names the context, and a sequence number that
 * must be in flight: whoever forges an error must know the key and the
 * window.
 */
static struct sock *xtp_err_lookup(struct net *net, const struct iphdr *iph,
				   const struct xtp_wire_rawhdr *hdr)
{
	u64 key = be64_to_cpu(hdr->key);
	u64 seq = be64_to_cpu(hdr->seq);
	struct xtp_sock *xs;
	struct sock *sk;

	if (!(key & XTP_KEY_RETURN))
		return xtp_key_lookup(net, key);
	sk = xtp_peer_lookup(net, key & ~XTP_KEY_RETURN, iph->daddr);
	if (!sk)
		return NULL;
	xs = xtp_sk(sk);
	if (seq < READ_ONCE(xs->snd.una) || seq > READ_ONCE(xs->snd.nxt)) {
		sock_put(sk);
		return NULL;
	}
	return sk;
}

/*
 * An ICMP error about a packet of ours; @skb->data is at the quoted IP
 * header.  Fragmentation needed lowers the context's packet size (pmtu.c).
 * If the context is still waiting for its TCNTL and the destination
 * refuses for good (protocol unreachable, as from a host without XTP,
 * port unreachable or administratively prohibited: the codes TCP treats
 * as hard errors in SYN-SENT), connect() fails now with TCP's errno
 * instead of after the handshake's retries; if connect() still owns the
 * socket (on a fast path the error can come back while it sends), at its
 * release_sock().  Other errors are only counted.
 */
static int xtp_err(struct sk_buff *skb, u32 info)
{
	const struct iphdr *iph = (const struct iphdr *)skb->data;
	struct net *net = dev_net(skb->dev);
	u8 type = icmp_hdr(skb)->type, code = icmp_hdr(skb)->code;
	struct xtp_wire_rawhdr hdr;
	struct sock *sk;
	bool frag;

	XTP_INC_STATS(net, XTP_MIB_INICMPERRORS);
	if (type != ICMP_DEST_UNREACH || code > NR_ICMP_UNREACH)
		return 0;
	frag = code == ICMP_FRAG_NEEDED;
	if (!frag && !icmp_err_convert[code].fatal)
		return 0;
	BUILD_BUG_ON(sizeof(hdr) != XTP_WIRE_HDR_LEN);
	if (skb_copy_bits(skb, iph->ihl * 4, &hdr, sizeof(hdr)))
		return 0;
	sk = xtp_err_lookup(net, iph, &hdr);
	if (!sk)
		return 0;
	bh_lock_sock(sk);
	if (inet_sk(sk)->inet_daddr != iph->daddr)
		goto out;
	if (frag) {
		xtp_mtu_icmp(sk, info);
	} else if (sk->sk_state == XTP_SS_FIRST_SENT) {
		int err = icmp_err_convert[code].errno;

		/* Owned (connect() is still sending): at release_sock(). */
		if (!sock_owned_by_user(sk)) {
			xtp_abort(sk, err);
		} else {
			WRITE_ONCE(sk->sk_err_soft, err);
			if (!test_and_set_bit(XTP_DEFER_UNREACH,
					      &xtp_sk(sk)->tm.deferred))
				sock_hold(sk);
		}
	}
out:
	bh_unlock_sock(sk);
	sock_put(sk);
	return 0;
}

const struct net_protocol xtp_net_protocol = {
	.handler	= xtp_rcv,
	.err_handler	= xtp_err,
};
