// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: building and sending packets.
 *
 * Queued data stays in its skb until acknowledged.  A DATA packet is a
 * clone of it with the header pushed in front, as TCP sends its write
 * queue; a copy only while an earlier clone still holds the data, whose
 * header room that clone owns.
 */
#include <linux/ktime.h>
#include <linux/skbuff.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/sock.h>

#include "xtp.h"
#include <trace/events/xtp.h>

/**
 * xtp_rcv_alloc() - the ALLOC to advertise
 * @sk: the context
 *
 * The window is &xtp_rcv.wnd (a quarter of SO_RCVBUF, which the kernel keeps
 * doubled) beyond RSEQ while no more than that is waiting to be read, and
 * shrinks as unread data grows towards twice that, the most the receive
 * queue holds.  ALLOC never moves back below what was advertised.
 *
 * Return: the allocation, an absolute sequence number.
 */
static u64 xtp_rcv_alloc(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 limit, win = 0, alloc;
	int rcvbuf, mem;

	/* SO_RCVBUF may change at any time; the default gives 90000. */
	rcvbuf = READ_ONCE(sk->sk_rcvbuf);
	xs->rcv.wnd = rcvbuf / 4;
	limit = 2ULL * xs->rcv.wnd;
	/*
	 * Queued packets cost their truesize, up to about twice their
	 * payload: keep what we allow within what the buffer can still take.
	 */
	mem = atomic_read(&sk->sk_rmem_alloc);
	if (xs->rcv.queued < limit && mem < rcvbuf)
		win = min3((u64)xs->rcv.wnd, limit - xs->rcv.queued,
			   (u64)(rcvbuf - mem) / 2);
	/* Under memory pressure, as TCP: a few packets more at most. */
	if (sk_under_memory_pressure(sk))
		win = min_t(u64, win, 4 * xtp_seg_max(sk));
	alloc = xs->rcv.nxt + win;
	return max(alloc, xs->rcv.alloc);
}

/* The ALLOC that goes out now: remembered, it never moves back. */
static u64 xtp_advertise_alloc(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 alloc = xtp_rcv_alloc(sk);

	xtp_tune_offer(sk, xs->rcv.alloc, alloc);
	xs->rcv.alloc = alloc;
	return alloc;
}

/* Header fields every packet of a running association shares. */
static void xtp_fill_hdr(struct sock *sk, struct xtp_wire_pkt *pkt,
			 u8 pformat, u32 options)
{
	struct xtp_sock *xs = xtp_sk(sk);

	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr.pformat = pformat;
	pkt->hdr.key = xs->pkey | XTP_KEY_RETURN;
	if (xs->close.wclose_sent)
		options |= XTP_CMD_WCLOSE;
	if (xs->close.rclose_sent)
		options |= XTP_CMD_RCLOSE;
	if (xs->close.end_sent)
		options |= XTP_CMD_END;
	if (xs->nocheck)
		options |= XTP_CMD_NOCHECK;
	if (xs->snd_edge)
		options |= XTP_CMD_EDGE;
	if (xs->fastnak)
		options |= XTP_CMD_FASTNAK;
	if (options & XTP_CMD_SREQ) {
		xs->sync++;
		xs->mib.sync++;
	}
	pkt->hdr.options = options;
	pkt->hdr.sync = xs->sync;
	pkt->hdr.seq = xs->snd.nxt;
}

static void xtp_fill_ctl(struct sock *sk, struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);

	pkt->ctl.rseq = xs->rcv.nxt;
	pkt->ctl.alloc = xtp_advertise_alloc(sk);
	pkt->ctl.echo = xs->echo;
	/* It answers every SREQ so far, one a batch still owed included. */
	xs->rcv.answered = pkt->ctl.rseq;
	xs->owe_cntl = 0;
}

static void xtp_count_out(struct xtp_sock *xs, u8 pformat)
{
	switch (pformat) {
	case XTP_PF_FIRST:
		xs->mib.fpk_out++;
		break;
	case XTP_PF_DATA:
		xs->mib.dpk_out++;
		break;
	case XTP_PF_CNTL:
		xs->mib.cpk_out++;
		break;
	case XTP_PF_TCNTL:
		xs->mib.tpk_out++;
		break;
	case XTP_PF_ECNTL:
		xs->mib.epk_out++;
		break;
	case XTP_PF_DIAG:
		xs->mib.dgpk_out++;
		break;
	}
}

/**
 * xtp_data_alloc() - an skb for @len bytes of data to queue for sending
 * @len: payload bytes
 * @gfp: allocation flags
 *
 * The headroom takes the DATA header and what ip_queue_xmit() pushes in
 * front of it, so that a transmission needs no copy (xtp_data_pkt()).
 * The queue holds the payload only: its clones own the header room.
 *
 * Return: the skb, empty, or NULL.
 */
struct sk_buff *xtp_data_alloc(u32 len, gfp_t gfp)
{
	struct sk_buff *skb;

	skb = alloc_skb(XTP_HEADROOM + XTP_WIRE_HDR_LEN + len, gfp);
	if (skb) {
		skb_reserve(skb, XTP_HEADROOM + XTP_WIRE_HDR_LEN);
		__skb_header_release(skb);
	}
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_data_alloc);

/* Encode @pkt into a new skb with room for the IP header; CHECK zero. */
static struct sk_buff *xtp_alloc_pkt(const struct xtp_wire_pkt *pkt,
				     gfp_t gfp)
{
	int len = xtp_wire_pkt_len(pkt), hlen;
	struct sk_buff *skb;

	if (len < 0)
		return NULL;
	skb = alloc_skb(XTP_HEADROOM + len, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, XTP_HEADROOM);
	hlen = xtp_wire_encode_hdr(pkt, skb_put(skb, len), len);
	if (hlen < 0) {
		kfree_skb(skb);
		return NULL;
	}
	if (pkt->data_len)
		memcpy(skb->data + hlen, pkt->data, pkt->data_len);
	skb_reset_transport_header(skb);
	return skb;
}

/*
 * The DATA packet of @pkt around queued @data: a clone with the header in
 * the headroom.  While an earlier clone still holds the data (in a qdisc,
 * or unread at a receiver on this host), the headroom is that clone's
 * header: copy instead.
 */
static struct sk_buff *xtp_data_pkt(const struct xtp_wire_pkt *pkt,
				    struct sk_buff *data)
{
	int hlen = xtp_wire_pkt_len(pkt) - (int)pkt->data_len;
	struct sk_buff *skb;

	if (hlen <= 0 || skb_cloned(data) ||
	    skb_headroom(data) < XTP_HEADROOM + hlen)
		return xtp_alloc_pkt(pkt, GFP_ATOMIC);
	skb = skb_clone(data, GFP_ATOMIC);
	if (!skb)
		return NULL;
	/* The clone carries the queue's control block: IP's is zero. */
	memset(skb->cb, 0, sizeof(skb->cb));
	if (xtp_wire_encode_hdr(pkt, skb_push(skb, hlen), hlen) != hlen) {
		kfree_skb(skb);
		return NULL;
	}
	skb_reset_transport_header(skb);
	return skb;
}

/**
 * xtp_xmit() - send one packet of a context
 * @sk: the context, locked
 * @pkt: the packet; its SREQ, if any, is guarded by the WTIMER
 * @data: for a DATA packet, the queued skb that holds @pkt's data
 * @train: for DATA, a train to add the packet to, or NULL to send it now
 *
 * Return: 0 or -errno.
 */
static int xtp_xmit(struct sock *sk, const struct xtp_wire_pkt *pkt,
		    struct sk_buff *data, struct xtp_train *train)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb;

	sock_owned_by_me(sk);
	/* DATA paid in xtp_push(); the rest now, or it stays. */
	if (pkt->hdr.pformat != XTP_PF_DATA &&
	    !xtp_av_charge(sk, xtp_wire_pkt_len(pkt) + sizeof(struct iphdr)))
		return -EAGAIN;
	if (data)
		skb = xtp_data_pkt(pkt, data);
	else
		skb = xtp_alloc_pkt(pkt, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	xtp_csum_out(sk, skb, pkt->hdr.options & XTP_CMD_NOCHECK, data);
	xtp_count_out(xs, pkt->hdr.pformat);
	if (pkt->hdr.options & XTP_CMD_SREQ) {
		xtp_rtt_sent(xs, pkt->hdr.sync);
		xtp_wtimer_arm(sk, pkt->hdr.sync);
	}
	XTP_INC_STATS(sock_net(sk), XTP_MIB_OUTPKTS);
	trace_xtp_send_pkt(inet_sk(sk)->cork.fl.u.ip4.saddr,
			   inet_sk(sk)->cork.fl.u.ip4.daddr, pkt);
	if (train)
		return xtp_train_add(sk, train, skb);
	return xtp_ip_xmit(sk, skb);
}

/*
 * The FIRST's data shares the packet with its segments: what does not fit
 * the path goes back to the write queue, for DATA after the TCNTL.
 */
static void xtp_first_fit(struct sock *sk, struct sk_buff *data)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 room = xtp_seg_max(sk) - XTP_FIRST_SEGS_LEN;
	struct sk_buff *rest;

	if (data->len <= room ||
	    xtp_seg_fit(sk, &xs->snd.rtx, data, room))
		return;
	rest = skb_peek_next(data, &xs->snd.rtx);
	__skb_unlink(rest, &xs->snd.rtx);
	XTP_SKB_CB(rest)->sent = 0;
	__skb_queue_head(&sk->sk_write_queue, rest);
}

/**
 * xtp_send_first() - open the association
 * @sk: the initiator, addresses set
 *
 * The FIRST carries the address and traffic segments, SREQ, and the first
 * queued data if any (SDT, SD_T); its SEQ is our initial allocation.
 *
 * Return: 0 or -errno.
 */
int xtp_send_first(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct inet_sock *inet = inet_sk(sk);
	struct xtp_wire_pkt pkt;
	struct sk_buff *data;
	u32 opt = XTP_CMD_SREQ;

	data = skb_peek(&xs->snd.rtx);
	if (!data) {
		data = skb_peek(&sk->sk_write_queue);
		if (data) {
			__skb_unlink(data, &sk->sk_write_queue);
			__skb_queue_tail(&xs->snd.rtx, data);
		}
	}
	if (data) {
		xtp_first_fit(sk, data);
		opt |= XTP_SKB_CB(data)->options;
	} else if (xs->close.wclose_req) {
		/* Closed before any data: the FIRST carries the WCLOSE. */
		opt |= XTP_CMD_WCLOSE;
	}
	if (opt & XTP_CMD_WCLOSE)
		xs->close.wclose_sent = 1;
	xs->snd.nxt = XTP_FIRST_SEGS_LEN + (data ? data->len : 0);
	xtp_fill_hdr(sk, &pkt, XTP_PF_FIRST, opt);
	pkt.hdr.key = xs->lkey;
	pkt.hdr.seq = xs->close.rclose_sent ? 0 : xtp_advertise_alloc(sk);
	pkt.addr.adomain = XTP_ADOMAIN_IP;
	pkt.addr.aformat = XTP_AFORMAT_IPV4;
	pkt.addr.dsthost.v4 = inet->inet_daddr;
	pkt.addr.srchost.v4 = inet->inet_saddr;
	pkt.addr.dstport = ntohs(inet->inet_dport);
	pkt.addr.srcport = ntohs(inet->inet_sport);
	pkt.traffic.service = xs->profile;
	pkt.traffic.tformat = XTP_TFORMAT_NULL;
	if (data) {
		pkt.data = data->data;
		pkt.data_len = data->len;
		XTP_SKB_CB(data)->sent = 1;
		XTP_SKB_CB(data)->xmit_ns = ktime_get_ns();
		xtp_rate_sent(sk, data);
	}
	if (!xs->first_sent) {
		/* The controllers count in packets of the route's size. */
		xtp_seg_max(sk);
		xtp_cc_start(sk);
	}
	xs->first_sent = 1;
	return xtp_xmit(sk, &pkt, NULL, NULL);
}

/**
 * xtp_send_tcntl() - answer a FIRST, or repeat our key (xtp_send_probe())
 * @sk: the new context
 * @options: SREQ to ask for an answer at once, or 0
 *
 * Return: 0 or -errno.
 */
int xtp_send_tcntl(struct sock *sk, u32 options)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_wire_pkt pkt;

	xtp_fill_hdr(sk, &pkt, XTP_PF_TCNTL, options);
	xtp_fill_ctl(sk, &pkt);
	pkt.ctl.xkey = xs->lkey;
	pkt.traffic.service = xs->profile;
	pkt.traffic.tformat = XTP_TFORMAT_NULL;
	return xtp_xmit(sk, &pkt, NULL, NULL);
}

/**
 * xtp_send_cntl() - send a control packet with the context's current state
 * @sk: the context
 * @options: options beyond the sticky WCLOSE/RCLOSE/END, e.g. SREQ
 *
 * While data above RSEQ waits for a gap to fill, the control packet is an
 * ECNTL whose spans tell the peer what to send again.
 *
 * Return: 0 or -errno.
 */
int xtp_send_cntl(struct sock *sk, u32 options)
{
	struct xtp_wire_span few[XTP_ECNTL_CUT_SPANS], *spans = few;
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_wire_pkt pkt;
	u32 nspan = 0;
	int err;

	/*
	 * A kilobyte of spans is too much for the stack of softirq code;
	 * without memory for it the shortest list will do.
	 */
	if (!skb_queue_empty(&xs->rcv.ooo)) {
		nspan = xtp_ecntl_spans_max(xs);
		if (nspan > ARRAY_SIZE(few))
			spans = kmalloc_array(nspan, sizeof(*spans), GFP_ATOMIC);
		if (!spans) {
			spans = few;
			nspan = ARRAY_SIZE(few);
		}
		nspan = xtp_rcv_spans(xs, spans, nspan);
	}
	xtp_fill_hdr(sk, &pkt, nspan ? XTP_PF_ECNTL : XTP_PF_CNTL, options);
	xtp_fill_ctl(sk, &pkt);
	if (nspan) {
		pkt.ctl.nspan = nspan;
		pkt.ctl.spans = spans;
		XTP_INC_STATS(sock_net(sk), XTP_MIB_OUTECNTLS);
	}
	xs->ctl_sent = 1;
	xs->rcv.last_nspan = nspan;
	err = xtp_xmit(sk, &pkt, NULL, NULL);
	if (spans != few)
		kfree(spans);
	return err;
}

/**
 * xtp_send_probe() - ask again: the peer did not answer an SREQ in time
 * @sk: the context
 *
 * A CNTL+SREQ; a TCNTL+SREQ while the peer has not used our key.  It may
 * not have it: the TCNTL that carried it may have been lost, and an
 * initiator still waiting for one can answer nothing else.
 *
 * Return: 0 or -errno.
 */
int xtp_send_probe(struct sock *sk)
{
	if (!READ_ONCE(xtp_sk(sk)->av.valid))
		return xtp_send_tcntl(sk, XTP_CMD_SREQ);
	return xtp_send_cntl(sk, XTP_CMD_SREQ);
}

static int xtp_send_data(struct sock *sk, struct sk_buff *data, u32 options,
			 struct xtp_train *train)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_wire_pkt pkt;

	options |= XTP_SKB_CB(data)->options;
	if (options & XTP_CMD_WCLOSE)
		xs->close.wclose_sent = 1;
	xtp_fill_hdr(sk, &pkt, XTP_PF_DATA, options);
	pkt.hdr.seq = XTP_SKB_CB(data)->seq;
	pkt.data = data->data;
	pkt.data_len = data->len;
	if (options & XTP_CMD_SREQ)
		xs->mib.datasreq_sent++;
	if (XTP_SKB_CB(data)->sent) {
		XTP_SKB_CB(data)->rtx = 1;
		xs->mib.data_retransmits++;
		xtp_rtx_undo_count(xs, data);
		XTP_INC_STATS(sock_net(sk), XTP_MIB_RETRANSSEGS);
		trace_xtp_retransmit(sk, pkt.hdr.seq, data->len);
	}
	XTP_SKB_CB(data)->sent = 1;
	XTP_SKB_CB(data)->xmit_ns = ktime_get_ns();
	xtp_rate_sent(sk, data);
	xs->mib.bytes_sent += data->len;
	return xtp_xmit(sk, &pkt, data, train);
}

/* The next packet to send: a lost one first, else new data. */
static struct sk_buff *xtp_next_to_send(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb;

	if (xs->rec.lost_out)
		skb_queue_walk(&xs->snd.rtx, skb)
			if (XTP_SKB_CB(skb)->lost)
				return skb;
	return skb_peek(&sk->sk_write_queue);
}

/*
 * May @skb go now?  New data must stay below ALLOC; anything must fit in
 * the congestion window, except that one packet may always be in flight.
 * Each wait counts once in FCwaits, until an ack or ALLOC frees the sender.
 * A sender held back by ALLOC is not using its congestion window.
 */
static bool xtp_window_admits(struct sock *sk, const struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u32 flight = xtp_in_flight(xs);
	bool alloc_ok;

	alloc_ok = XTP_SKB_CB(skb)->lost ||
		   XTP_SKB_CB(skb)->seq + skb->len <= xs->snd.alloc;
	if (alloc_ok && (!flight || flight + skb->len <= xs->cc.cwnd))
		return true;
	xs->cc.app_limited = !alloc_ok;
	if (!xs->fc_blocked) {
		xs->fc_blocked = 1;
		xs->mib.fc_wait++;
	}
	return false;
}

/* Account @skb as sent before it actually leaves (see xtp_push()). */
static void xtp_commit(struct sock *sk, struct sk_buff *skb)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_skb_cb *cb = XTP_SKB_CB(skb);

	if (cb->lost) {
		cb->lost = 0;
		xs->rec.lost_out -= skb->len;
	} else {
		__skb_unlink(skb, &sk->sk_write_queue);
		__skb_queue_tail(&xs->snd.rtx, skb);
		xs->snd.nxt = cb->seq + skb->len;
	}
	xtp_pacing_sent(sk, skb->len);
}

/*
 * SREQ or EDGE on a packet the ack-frequency policy picks: SREQ while the
 * RTT cache has room for its sample, else a toggled EDGE, which asks for
 * the ack without one (unless XTPSOCK_RTT_NODECOUPLE).
 */
static u32 xtp_ack_request(struct xtp_sock *xs, bool must)
{
	if (!must && ++xs->sreq_count < xs->sreq_freq)
		return 0;
	xs->sreq_count = 0;
	if (must || xs->rtt.nodecouple || !xtp_rtt_cache_busy(xs))
		return XTP_CMD_SREQ;
	xs->snd_edge = !xs->snd_edge;
	xs->mib.edgebit_set++;
	return 0;
}

/**
 * xtp_push() - send what the windows admit: lost packets, then new data
 * @sk: the context, locked
 *
 * SREQ goes on the packets the ack frequency picks and always on the last
 * packet of a burst, the one after which we must wait: without it a lost
 * burst tail would be noticed by nobody (thesis §5.2.4).  A packet leaves
 * only once the next one's fate is known, so that the last one can be
 * told; a packet held back by pacing does not end the burst.
 */
void xtp_push(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb, *held = NULL;
	struct xtp_train train = {}, *tr;
	bool paced = false;
	u32 n, seg, lim;

	sock_owned_by_me(sk);
	if (sk->sk_state != XTP_SS_ACTIVE || xs->released ||
	    xs->close.end_sent || xs->in_handshake)
		return;
	xtp_rtx_deadline(sk);
	seg = xtp_seg_max(sk);
	tr = xtp_train_ok(sk) ? &train : NULL;
	/* Each round takes a packet off the lost list or the write queue. */
	for (n = 0; n < U16_MAX; n++) {
		skb = xtp_next_to_send(sk);
		if (!skb) {
			xs->cc.app_limited = 1;
			break;
		}
		/*
		 * Queued before the path's MTU shrank, or more than an
		 * unvalidated peer may have yet: send it in pieces.
		 */
		lim = min(seg, xtp_av_data_room(sk));
		if (!lim || (skb->len > lim &&
			     xtp_seg_fit(sk, XTP_SKB_CB(skb)->lost ?
					 &xs->snd.rtx : &sk->sk_write_queue,
					 skb, lim)))
			break;
		if (!xtp_window_admits(sk, skb))
			break;
		if (xtp_pacing_wait(sk)) {
			xs->mib.rc_wait++;
			xs->cc.app_limited = 0;
			paced = true;
			break;
		}
		xtp_av_charge(sk, skb->len + XTP_DATA_OVERHEAD);
		if (held)
			xtp_send_data(sk, held, xtp_ack_request(xs, false),
				      tr);
		xtp_commit(sk, skb);
		held = skb;
	}
	if (held)
		xtp_send_data(sk, held, xtp_ack_request(xs, !paced), tr);
	else if (!paced)
		xtp_wtimer_guard_data(sk);
	if (tr)
		xtp_train_send(sk, tr);
}

/**
 * xtp_read_done() - the application read data: confirm DREQ, open the window
 * @sk: the context, locked
 *
 * A DREQ is confirmed once everything up to it has been read.  A window
 * update is only needed when unread data had shrunk the window, or when
 * the reading grew the buffer (tune.c): in steady state the answers to
 * SREQs carry the allocation.
 */
void xtp_read_done(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 old = xs->rcv.alloc, alloc;
	bool grew;

	if (sk->sk_state != XTP_SS_ACTIVE || xs->released || xs->close.end_sent)
		return;
	grew = xtp_tune_rcvbuf(sk);
	if (xs->rcv.dreq && xs->rcv.nxt - xs->rcv.queued >= xs->rcv.dreq) {
		xs->rcv.dreq = 0;
		xtp_send_cntl(sk, 0);
		return;
	}
	if (xs->close.wclose_rcvd)
		return;
	/* xtp_rcv_alloc() also sets rcv.wnd from the buffer. */
	alloc = xtp_rcv_alloc(sk);
	if (grew || alloc >= old + xs->rcv.wnd / 2)
		xtp_send_cntl(sk, 0);
}

/**
 * xtp_send_diag_reply() - refuse a packet that no context takes
 * @net: namespace
 * @in: the packet, its IP header still in place
 * @key: its key; the DIAG carries it with RETURN set
 * @code: &enum xtp_diag_code
 * @value: &enum xtp_diag_value
 * @msg: text for the peer's application
 */
void xtp_send_diag_reply(struct net *net, struct sk_buff *in, u64 key,
			 u32 code, u32 value, const char *msg)
{
	const struct iphdr *iiph = ip_hdr(in);
	struct xtp_wire_pkt pkt;
	struct sk_buff *skb;
	struct flowi4 fl4;
	struct rtable *rt;
	struct iphdr *iph;

	memset(&pkt, 0, sizeof(pkt));
	pkt.hdr.pformat = XTP_PF_DIAG;
	pkt.hdr.key = key | XTP_KEY_RETURN;
	pkt.diag_code = code;
	pkt.diag_value = value;
	pkt.data = (const u8 *)msg;
	pkt.data_len = strlen(msg);

	rt = ip_route_output_ports(net, &fl4, NULL, iiph->saddr, iiph->daddr,
				   0, 0, IPPROTO_XTP, 0, 0);
	if (IS_ERR(rt))
		return;
	skb = xtp_alloc_pkt(&pkt, GFP_ATOMIC);
	if (!skb) {
		ip_rt_put(rt);
		return;
	}
	xtp_csum_set(skb, false);
	skb_dst_set(skb, &rt->dst);
	iph = skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) / 4;
	iph->tos = 0;
	iph->tot_len = htons(skb->len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = ip4_dst_hoplimit(&rt->dst);
	iph->protocol = IPPROTO_XTP;
	iph->saddr = fl4.saddr;
	iph->daddr = fl4.daddr;
	ip_select_ident(net, skb, NULL);
	ip_send_check(iph);
	skb->protocol = htons(ETH_P_IP);
	XTP_INC_STATS(net, XTP_MIB_OUTPKTS);
	XTP_INC_STATS(net, XTP_MIB_OUTDIAGS);
	trace_xtp_send_pkt(fl4.saddr, fl4.daddr, &pkt);
	ip_local_out(net, NULL, skb);
}
