// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: building and sending packets.
 *
 * Queued data stays in its skb until acknowledged; each transmission
 * builds a fresh packet around a copy of it, so a retransmission never
 * shares header room with a packet still in flight.
 */
#include <linux/skbuff.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/sock.h>

#include "xtp.h"

#define XTP_HEADROOM	(MAX_HEADER + sizeof(struct iphdr))

/**
 * xtp_rcv_alloc - the ALLOC to advertise
 * @sk: the context
 *
 * The window is @rcv_wnd (a quarter of SO_RCVBUF, which the kernel keeps
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
	xs->rcv_wnd = rcvbuf / 4;
	limit = 2ULL * xs->rcv_wnd;
	/*
	 * Queued packets cost their truesize, up to about twice their
	 * payload: keep what we allow within what the buffer can still take.
	 */
	mem = atomic_read(&sk->sk_rmem_alloc);
	if (xs->rcv_queued < limit && mem < rcvbuf)
		win = min3((u64)xs->rcv_wnd, limit - xs->rcv_queued,
			   (u64)(rcvbuf - mem) / 2);
	alloc = xs->rcv_nxt + win;
	return max(alloc, xs->rcv_alloc);
}

/* The ALLOC that goes out now: remembered, it never moves back. */
static u64 xtp_advertise_alloc(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->rcv_alloc = xtp_rcv_alloc(sk);
	return xs->rcv_alloc;
}

/* Header fields every packet of a running association shares. */
static void xtp_fill_hdr(struct sock *sk, struct xtp_wire_pkt *pkt,
			 u8 pformat, u32 options)
{
	struct xtp_sock *xs = xtp_sk(sk);

	memset(pkt, 0, sizeof(*pkt));
	pkt->hdr.pformat = pformat;
	pkt->hdr.key = xs->pkey | XTP_KEY_RETURN;
	if (xs->wclose_sent)
		options |= XTP_CMD_WCLOSE;
	if (xs->rclose_sent)
		options |= XTP_CMD_RCLOSE;
	if (xs->end_sent)
		options |= XTP_CMD_END;
	if (xs->nocheck)
		options |= XTP_CMD_NOCHECK;
	if (options & XTP_CMD_SREQ) {
		xs->sync++;
		xs->mib.sync++;
	}
	pkt->hdr.options = options;
	pkt->hdr.sync = xs->sync;
	pkt->hdr.seq = xs->snd_nxt;
}

static void xtp_fill_ctl(struct sock *sk, struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);

	pkt->ctl.rseq = xs->rcv_nxt;
	pkt->ctl.alloc = xtp_advertise_alloc(sk);
	pkt->ctl.echo = xs->echo;
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

/* Encode @pkt into a new skb with room for the IP header in front. */
static struct sk_buff *xtp_alloc_pkt(const struct xtp_wire_pkt *pkt,
				     gfp_t gfp)
{
	struct sk_buff *skb;
	int len = xtp_wire_pkt_len(pkt);

	if (len < 0)
		return NULL;
	skb = alloc_skb(XTP_HEADROOM + len, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, XTP_HEADROOM);
	if (xtp_wire_encode(pkt, skb_put(skb, len), len) != len) {
		kfree_skb(skb);
		return NULL;
	}
	skb_reset_transport_header(skb);
	return skb;
}

/**
 * xtp_xmit - send one packet of a context
 * @sk: the context, locked
 * @pkt: the packet; its SREQ, if any, is guarded by the WTIMER
 *
 * Return: 0 or -errno.
 */
static int xtp_xmit(struct sock *sk, const struct xtp_wire_pkt *pkt)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb;
	int err;

	skb = xtp_alloc_pkt(pkt, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_set_owner_w(skb, sk);
	xtp_count_out(xs, pkt->hdr.pformat);
	if (pkt->hdr.options & XTP_CMD_SREQ)
		xtp_wtimer_arm(sk, pkt->hdr.sync);
	XTP_INC_STATS(sock_net(sk), XTP_MIB_OUTPKTS);
	err = ip_queue_xmit(sk, skb, &inet_sk(sk)->cork.fl);
	return net_xmit_eval(err);
}

/**
 * xtp_send_first - open the association
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

	data = skb_peek(&xs->rtx_queue);
	if (!data) {
		data = skb_peek(&sk->sk_write_queue);
		if (data) {
			__skb_unlink(data, &sk->sk_write_queue);
			__skb_queue_tail(&xs->rtx_queue, data);
		}
	}
	if (data)
		opt |= XTP_SKB_CB(data)->options;
	/* Closed before any data: the FIRST carries the WCLOSE. */
	if (xs->wclose_req && !data)
		opt |= XTP_CMD_WCLOSE;
	if (opt & XTP_CMD_WCLOSE)
		xs->wclose_sent = 1;
	xs->snd_nxt = XTP_FIRST_SEGS_LEN + (data ? data->len : 0);
	xtp_fill_hdr(sk, &pkt, XTP_PF_FIRST, opt);
	pkt.hdr.key = xs->lkey;
	pkt.hdr.seq = xs->rclose_sent ? 0 : xtp_advertise_alloc(sk);
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
		XTP_SKB_CB(data)->sent = true;
	}
	xs->first_sent = 1;
	return xtp_xmit(sk, &pkt);
}

/**
 * xtp_send_tcntl - answer a FIRST
 * @sk: the new context
 *
 * Return: 0 or -errno.
 */
int xtp_send_tcntl(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_wire_pkt pkt;

	xtp_fill_hdr(sk, &pkt, XTP_PF_TCNTL, 0);
	xtp_fill_ctl(sk, &pkt);
	pkt.ctl.xkey = xs->lkey;
	pkt.traffic.service = xs->profile;
	pkt.traffic.tformat = XTP_TFORMAT_NULL;
	return xtp_xmit(sk, &pkt);
}

/**
 * xtp_send_cntl - send a CNTL with the context's current state
 * @sk: the context
 * @options: options beyond the sticky WCLOSE/RCLOSE/END, e.g. SREQ
 *
 * Return: 0 or -errno.
 */
int xtp_send_cntl(struct sock *sk, u32 options)
{
	struct xtp_wire_pkt pkt;

	xtp_fill_hdr(sk, &pkt, XTP_PF_CNTL, options);
	xtp_fill_ctl(sk, &pkt);
	return xtp_xmit(sk, &pkt);
}

static int xtp_send_data(struct sock *sk, struct sk_buff *data, u32 options)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_wire_pkt pkt;

	options |= XTP_SKB_CB(data)->options;
	if (options & XTP_CMD_WCLOSE)
		xs->wclose_sent = 1;
	xtp_fill_hdr(sk, &pkt, XTP_PF_DATA, options);
	pkt.hdr.seq = XTP_SKB_CB(data)->seq;
	pkt.data = data->data;
	pkt.data_len = data->len;
	if (options & XTP_CMD_SREQ)
		xs->mib.datasreq_sent++;
	if (XTP_SKB_CB(data)->sent)
		xs->mib.data_retransmits++;
	XTP_SKB_CB(data)->sent = true;
	xs->mib.bytes_sent += data->len;
	return xtp_xmit(sk, &pkt);
}

static bool xtp_fits(const struct xtp_sock *xs, const struct sk_buff *skb)
{
	return XTP_SKB_CB(skb)->seq + skb->len <= xs->snd_alloc;
}

/**
 * xtp_push - send queued data the peer's allocation admits
 * @sk: the context, locked
 *
 * SREQ goes on every @sreq_freq-th packet and on the last packet of each
 * burst, the one after which we must wait: without it a lost burst tail
 * would be noticed by nobody (thesis §5.2.4).
 */
void xtp_push(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb, *next;
	u32 opt;

	if (sk->sk_state != TCP_ESTABLISHED || xs->released || xs->end_sent ||
	    xs->in_handshake)
		return;
	while ((skb = skb_peek(&sk->sk_write_queue))) {
		if (!xtp_fits(xs, skb)) {
			if (!xs->fc_blocked) {
				xs->fc_blocked = 1;
				xs->mib.fc_wait++;
			}
			break;
		}
		next = skb_peek_next(skb, &sk->sk_write_queue);
		opt = 0;
		if (!next || !xtp_fits(xs, next) ||
		    ++xs->sreq_count >= xs->sreq_freq)
			opt = XTP_CMD_SREQ;
		if (opt)
			xs->sreq_count = 0;
		__skb_unlink(skb, &sk->sk_write_queue);
		__skb_queue_tail(&xs->rtx_queue, skb);
		xs->snd_nxt = XTP_SKB_CB(skb)->seq + skb->len;
		xtp_send_data(sk, skb, opt);
	}
}

/**
 * xtp_read_done - the application read data: confirm DREQ, open the window
 * @sk: the context, locked
 *
 * A DREQ is confirmed once everything up to it has been read.  A window
 * update is only needed when unread data had shrunk the window: in steady
 * state the answers to SREQs carry the allocation.
 */
void xtp_read_done(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 old = xs->rcv_alloc;

	if (sk->sk_state != TCP_ESTABLISHED || xs->released || xs->end_sent)
		return;
	if (xs->rcv_dreq && xs->rcv_nxt - xs->rcv_queued >= xs->rcv_dreq) {
		xs->rcv_dreq = 0;
		xtp_send_cntl(sk, 0);
		return;
	}
	if (!xs->wclose_rcvd && xtp_rcv_alloc(sk) >= old + xs->rcv_wnd / 2)
		xtp_send_cntl(sk, 0);
}

/**
 * xtp_send_diag_reply - refuse a packet that no context takes
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
	ip_local_out(net, NULL, skb);
}
