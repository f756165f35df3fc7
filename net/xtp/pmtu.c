// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: path MTU.
 *
 * Packets leave with DF set (ip_queue_xmit() follows IP_MTU_DISCOVER), so
 * one too big for a hop is dropped there.  A router that says so with an
 * ICMP fragmentation-needed lowers the route's PMTU; the context then
 * sends smaller packets, and sends again in pieces what was dropped.  A
 * path that drops big packets without a word (a PMTU black hole) shows as
 * synchronizing handshakes that the peer answers while the data it lacks
 * never gets through: after XTP_STUCK_HANDSHAKES of them in a row the
 * context sends smaller packets, as TCP's MTU probing does: first
 * XTP_BASE_PROBE_DATA bytes of payload, then half of that each time, down
 * to XTP_MIN_PROBE_DATA.  Packet sizes never grow back within a context.
 */
#include <linux/ktime.h>
#include <linux/skbuff.h>
#include <net/inet_connection_sock.h>
#include <net/ip.h>
#include <net/sock.h>

#include "xtp.h"

#define XTP_STUCK_HANDSHAKES	2
/*
 * Handshakes in a row that went on past a long answer before a receiver
 * keeps its lists short for good.  Twice as many as a sender needs to
 * suspect a black hole for its data: 5% random loss on the way back
 * loses two answers in a row once in 400 handshakes, and all later
 * lists then stopped short of the gaps.
 */
#define XTP_ECNTL_STUCK_ANSWERS	4

/* Payload of a DATA packet that fits in @mtu after the headers. */
static u32 xtp_mtu_to_data(struct sock *sk, u32 mtu)
{
	u32 hdr = sizeof(struct iphdr) + XTP_WIRE_HDR_LEN;
	const struct ip_options_rcu *opt;

	rcu_read_lock();
	opt = rcu_dereference(inet_sk(sk)->inet_opt);
	if (opt)
		hdr += opt->opt.optlen;
	rcu_read_unlock();
	if (mtu < hdr + XTP_MIN_PROBE_DATA)
		return XTP_MIN_PROBE_DATA;
	return min_t(u32, mtu - hdr, U16_MAX);
}

/**
 * xtp_seg_limit() - the payload limit as last computed
 * @xs: the context
 *
 * Unlike xtp_seg_max() it does not read the route again, which only the
 * socket's owner may do.  Before a route, Ethernet's %XTP_DEFAULT_MAXDATA.
 * The congestion controllers count in packets of this size.
 *
 * Return: bytes.
 */
u32 xtp_seg_limit(const struct xtp_sock *xs)
{
	u32 seg = min_t(u32, xs->maxdata, XTP_SEG_ALLOC_MAX);

	seg = min_t(u32, seg, xs->mtu_data ?: XTP_DEFAULT_MAXDATA);
	/*
	 * As TCP's MSS, at most half the largest window the peer offered,
	 * so that a small receive buffer still takes packets; never below
	 * Ethernet's size for that, the size packets had before they grew
	 * with the path.
	 */
	if (xs->snd.max_wnd)
		seg = min_t(u32, seg, max_t(u32, xs->snd.max_wnd / 2,
					    XTP_DEFAULT_MAXDATA));
	if (xs->probe_data)
		seg = min_t(u32, seg, xs->probe_data);
	return seg;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_seg_limit);

/**
 * xtp_ecntl_spans_max() - how many spans an ECNTL of @xs may list
 * @xs: the context
 *
 * As many as fit where a DATA packet's payload would, XTPSOCK_MAXDATA
 * aside (a sender that sees fewer than %XTP_ECNTL_CUT_SPANS takes the
 * list for complete), up to %XTP_ECNTL_MAX_SPANS; the fewest while the
 * peer's handshakes do not hear our long lists (xtp_ecntl_note()).
 *
 * Return: spans, at least %XTP_ECNTL_CUT_SPANS.
 */
u32 xtp_ecntl_spans_max(const struct xtp_sock *xs)
{
	u32 seg = U16_MAX;

	BUILD_BUG_ON(XTP_ECNTL_CUT_SPANS > XTP_ECNTL_MAX_SPANS);
	if (xs->rcv.probes > 1 || xs->rcv.long_lost >= XTP_ECNTL_STUCK_ANSWERS)
		return XTP_ECNTL_CUT_SPANS;
	if (xs->mtu_data)
		seg = xs->mtu_data;
	if (xs->probe_data)
		seg = min_t(u32, seg, xs->probe_data);
	seg = max_t(u32, seg, XTP_MIN_PROBE_DATA);
	return min_t(u32, XTP_ECNTL_MAX_SPANS, XTP_ECNTL_SPANS_IN(seg));
}
EXPORT_SYMBOL_IF_KUNIT(xtp_ecntl_spans_max);

/**
 * xtp_ecntl_note() - a packet of the peer: is it probing past our answers?
 * @xs: the context, locked
 * @pkt: the packet
 *
 * A receiver that only receives sends nothing long but its ECNTLs, and
 * never learns of a black hole on its way back the way a sender does.
 * The peer's handshake tells: a control packet with SREQ is a probe, and
 * a second one before any DATA means the answer to the first went
 * unheard; the second gets the shortest list.  When %XTP_ECNTL_STUCK_ANSWERS
 * handshakes in a row went on after a long answer, the lists stay short
 * for good, as packets that a black hole made smaller stay small.
 */
void xtp_ecntl_note(struct xtp_sock *xs, const struct xtp_wire_pkt *pkt)
{
	bool long_answer = xs->rcv.last_nspan > XTP_ECNTL_CUT_SPANS;

	if (pkt->hdr.pformat != XTP_PF_DATA) {
		if (!(pkt->hdr.options & XTP_CMD_SREQ) ||
		    xs->rcv.probes == U8_MAX)
			return;
		if (++xs->rcv.probes == 2 && long_answer &&
		    xs->rcv.long_lost < XTP_ECNTL_STUCK_ANSWERS)
			xs->rcv.long_lost++;
		return;
	}
	/* The handshake is over; at the first probe a long answer got by. */
	if (xs->rcv.probes == 1 && long_answer &&
	    xs->rcv.long_lost < XTP_ECNTL_STUCK_ANSWERS)
		xs->rcv.long_lost = 0;
	xs->rcv.probes = 0;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_ecntl_note);

/**
 * xtp_snd_alloc() - the peer's ALLOC moved up
 * @xs: the context
 * @alloc: the new ALLOC
 */
void xtp_snd_alloc(struct xtp_sock *xs, u64 alloc)
{
	xs->snd.alloc = alloc;
	if (alloc > xs->snd.una)
		xs->snd.max_wnd = max_t(u32, xs->snd.max_wnd,
					min_t(u64, alloc - xs->snd.una,
					      U32_MAX));
}

/**
 * xtp_seg_max() - largest payload a packet of @sk may carry now
 * @sk: the context, locked
 *
 * The least of XTPSOCK_MAXDATA, what the cached route's MTU takes, what
 * one queued skb holds and the black-hole limit.  The route is read again whenever its MTU changed.
 *
 * Return: bytes.
 */
u32 xtp_seg_max(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct dst_entry *dst = __sk_dst_get(sk);
	u32 mtu;

	if (dst) {
		mtu = dst_mtu(dst);
		if (mtu != xs->pmtu_cookie) {
			xs->pmtu_cookie = mtu;
			xs->mtu_data = xtp_mtu_to_data(sk, mtu);
		}
	}
	return xtp_seg_limit(xs);
}

/**
 * xtp_seg_fit() - cut queued data down to @len bytes
 * @sk: the context, locked
 * @q: the queue that holds @skb; the rest goes right after it
 * @skb: queued data longer than @len
 * @len: bytes @skb keeps
 *
 * The rest keeps the packet's state (sent, lost) and its EOM and WCLOSE,
 * which belong to the last byte.
 *
 * Return: 0, or -ENOMEM with nothing changed.
 */
int xtp_seg_fit(struct sock *sk, struct sk_buff_head *q, struct sk_buff *skb,
		u32 len)
{
	struct xtp_skb_cb *cb = XTP_SKB_CB(skb);
	u32 n = skb->len - len;
	struct sk_buff *rest;

	sock_owned_by_me(sk);
	rest = xtp_data_alloc(n, GFP_ATOMIC);
	if (!rest)
		return -ENOMEM;
	xtp_wmem_force(sk, rest);
	if (skb_copy_bits(skb, len, skb_put(rest, n), n) ||
	    pskb_trim(skb, len)) {
		xtp_wmem_uncharge(sk, rest);
		kfree_skb(rest);
		return -ENOMEM;
	}
	*XTP_SKB_CB(rest) = *cb;
	XTP_SKB_CB(rest)->seq += len;
	/* Neither holds the bytes summed any more. */
	XTP_SKB_CB(rest)->csum_ok = 0;
	cb->csum_ok = 0;
	cb->options &= ~(XTP_CMD_EOM | XTP_CMD_WCLOSE);
	__skb_queue_after(q, skb, rest);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_seg_fit);

/*
 * Packets are smaller from now on: what is in flight and too big is taken
 * for lost (a router dropped it, or will) and sent again in pieces.  No
 * congestion signal: nothing says the path is congested.
 */
static void xtp_mtu_shrunk(struct sock *sk, u32 seg)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_skb_cb *cb;
	struct sk_buff *skb;

	/* The FIRST's data waits in the queue too: xtp_send_first() cuts it. */
	if (sk->sk_state == XTP_SS_FIRST_SENT) {
		if (xs->first_sent)
			xtp_send_first(sk);
		return;
	}
	skb_queue_walk(&xs->snd.rtx, skb) {
		cb = XTP_SKB_CB(skb);
		if (skb->len > seg && cb->sent && !cb->sacked && !cb->lost) {
			xtp_rtx_unheard_clear(xs, skb);
			cb->lost = 1;
			xs->rec.lost_out += skb->len;
		}
	}
	xtp_push(sk);
}

/**
 * xtp_mtu_reduced() - apply the MTU an ICMP error reported
 * @sk: the context, locked and not owned by the user
 *
 * The route learns the PMTU (inet_csk_update_pmtu() keeps it as a route
 * exception, for every socket to the peer); the context takes it unless
 * IP_MTU_DISCOVER says not to.
 */
void xtp_mtu_reduced(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct dst_entry *dst;
	u32 old, seg;

	if (xs->released || (sk->sk_state != XTP_SS_FIRST_SENT &&
			     sk->sk_state != XTP_SS_ACTIVE))
		return;
	dst = inet_csk_update_pmtu(sk, READ_ONCE(xs->mtu_info));
	if (!dst || inet_sk(sk)->pmtudisc == IP_PMTUDISC_DONT ||
	    !ip_sk_accept_pmtu(sk))
		return;
	old = xtp_seg_limit(xs);
	seg = xtp_seg_max(sk);
	if (seg >= old)
		return;
	XTP_INC_STATS(sock_net(sk), XTP_MIB_PMTUREDUCED);
	xtp_mtu_shrunk(sk, seg);
}

/**
 * xtp_mtu_icmp() - an ICMP fragmentation-needed quotes a packet of @sk
 * @sk: the context, bh-locked
 * @mtu: the next-hop MTU the router reported
 */
void xtp_mtu_icmp(struct sock *sk, u32 mtu)
{
	struct xtp_sock *xs = xtp_sk(sk);

	WRITE_ONCE(xs->mtu_info, mtu);
	if (!sock_owned_by_user(sk))
		xtp_mtu_reduced(sk);
	else if (!test_and_set_bit(XTP_DEFER_MTU, &xs->tm.deferred))
		sock_hold(sk);
}

/**
 * xtp_mtu_delivered() - the peer reported @skb for the first time
 * @xs: the context
 * @skb: the packet, in the retransmission queue
 *
 * Counts the packets of the full size that got through, which a PMTU
 * black hole lets none of (xtp_mtu_handshake_end()).
 */
void xtp_mtu_delivered(struct xtp_sock *xs, const struct sk_buff *skb)
{
	if (skb->len >= xtp_seg_limit(xs))
		xs->full_delivered++;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_mtu_delivered);

/**
 * xtp_mtu_handshake_end() - a handshake ended: is the path a black hole?
 * @sk: the context, locked, before what the answer left out is resent
 *
 * The peer answered the probe, so small packets get through.  If RSEQ is
 * where the previous handshake left it and the data the peer waits for
 * went again, since then, in a full-size packet, that packet may be too
 * big for the path.  A sender held back meanwhile (by pacing, say) has
 * shown nothing of the path.  One that has had a full-size packet
 * reported since (RSEQ or an ECNTL span) has shown that the path carries
 * them: the head was lost at random, which at 20% loss each way happens
 * twice in a row one time in 25.  Short packets prove nothing: they pass
 * a black hole.
 */
void xtp_mtu_handshake_end(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *head = skb_peek(&xs->snd.rtx);
	struct dst_entry *dst = __sk_dst_get(sk);
	u32 seg = xtp_seg_limit(xs);
	u64 prev_ns = xs->stuck_ns;
	bool carried = xs->full_delivered != xs->stuck_full;

	xs->stuck_ns = ktime_get_ns();
	xs->stuck_full = xs->full_delivered;
	/*
	 * Loopback has no black hole: what it loses is a receiver's memory
	 * (mem.c), and smaller packets would only slow the drain that
	 * ends the pressure.
	 */
	if (!head || xs->snd.una != xs->stuck_una || head->len < seg ||
	    carried || seg <= XTP_MIN_PROBE_DATA ||
	    (dst && dst->dev->flags & IFF_LOOPBACK)) {
		xs->stuck_una = xs->snd.una;
		xs->stuck_count = 0;
		return;
	}
	/* Not sent again since the last handshake: nothing was learnt. */
	if (XTP_SKB_CB(head)->xmit_ns <= prev_ns)
		return;
	if (++xs->stuck_count < XTP_STUCK_HANDSHAKES)
		return;
	xs->stuck_count = 0;
	seg = seg > XTP_BASE_PROBE_DATA ? XTP_BASE_PROBE_DATA : seg / 2;
	xs->probe_data = max_t(u32, seg, XTP_MIN_PROBE_DATA);
	XTP_INC_STATS(sock_net(sk), XTP_MIB_PMTUBLACKHOLE);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_mtu_handshake_end);
