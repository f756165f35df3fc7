// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: trains of DATA packets that go through the stack as one GSO skb.
 *
 * A train is one IP datagram whose payload is whole XTP packets back to
 * back: the first in the head skb's linear data, each later one an skb
 * of its own on the head's frag_list (SKB_GSO_FRAGLIST), with room for
 * link and IP headers in front of it.  A device that takes such skbs
 * (veth, a bridge) hands the train on whole and the receiving XTP splits
 * it (xtp_train_split()); before any other device the stack splits it
 * with xtp_gso_segment().  Either way every packet gets its own IP
 * header, so the wire carries the packets a context without trains
 * would have sent, one IP header and one trip through IP, netfilter and
 * the qdisc per train instead of per packet.
 */
#include <linux/skbuff.h>
#include <net/ip.h>
#include <net/kcompat_unaligned.h>
#include <net/protocol.h>

#include "compat.h"
#include "xtp.h"

/* The length of the XTP packet at @p, from its header. */
static u32 xtp_pkt_len(const u8 *p)
{
	return XTP_WIRE_HDR_LEN + get_unaligned_be32(p + XTP_WIRE_OFF_DLEN);
}

/*
 * As xtp_train_add() built it: the first packet in the head's linear
 * data, each later one alone in a linear skb of the list with room for
 * the headers.  Anything that changed that (an XDP program's copy, a
 * pull into the head) would have the list split where no packet ends.
 */
static bool xtp_train_intact(const struct sk_buff *skb)
{
	const struct sk_buff *seg;

	if (!skb_has_frag_list(skb) || skb_headlen(skb) < XTP_WIRE_HDR_LEN ||
	    xtp_pkt_len(skb->data) != skb_headlen(skb))
		return false;
	skb_walk_frags(skb, seg) {
		if (skb_is_nonlinear(seg) || seg->len < XTP_WIRE_HDR_LEN ||
		    xtp_pkt_len(seg->data) != seg->len)
			return false;
	}
	return true;
}

/*
 * The tunnels a train may be inside when the stack segments it.  An IP in
 * IP tunnel (ipip, ip6tnl) leaves its outer header in front of the inner
 * one: skb->encapsulation is still set and mac_len counts the outer
 * header.  GRE and UDP tunnels (gre, gretap, VXLAN, GENEVE, FOU) pull
 * theirs before calling us: skb_tnl_header_len() bytes in front of the
 * inner mac header.  skb_segment_list() copies either into every packet's
 * headroom, and the tunnel's own callback then fills in its headers.
 */
#define XTP_GSO_IPIP	(SKB_GSO_IPXIP4 | SKB_GSO_IPXIP6)
#define XTP_GSO_GRE	(SKB_GSO_GRE | SKB_GSO_GRE_CSUM)
#define XTP_GSO_UDP	(SKB_GSO_UDP_TUNNEL | SKB_GSO_UDP_TUNNEL_CSUM)

/*
 * FRAGLIST, with the tunnels above, nothing else (DODGY, PARTIAL, ESP,
 * REMCSUM); no GRE checksum inside a UDP tunnel, whose callback would
 * pull the GRE header unsummed; and an encapsulation only an IP in IP
 * tunnel explains, with XTP right behind its inner IP header.
 */
static bool xtp_gso_type_ok(const struct sk_buff *skb)
{
	unsigned int type = skb_shinfo(skb)->gso_type;

	if (!(type & SKB_GSO_FRAGLIST) ||
	    (type & ~(SKB_GSO_FRAGLIST | XTP_GSO_IPIP | XTP_GSO_GRE |
		      XTP_GSO_UDP)) ||
	    ((type & SKB_GSO_GRE_CSUM) && (type & XTP_GSO_UDP)))
		return false;
	return !skb->encapsulation ||
	       ((type & XTP_GSO_IPIP) &&
		skb_inner_network_header(skb) == skb_network_header(skb));
}

/*
 * Room in front of each packet of the list for what skb_segment_list()
 * and the tunnel's callback write there.  A packet whose headroom is
 * short (a GENEVE header with options is longer than XTP_HEADROOM
 * leaves) gets a copy of its own, unless another skb may see it: the
 * list of a cloned head is shared.
 */
static bool xtp_train_headroom(struct sk_buff *skb, unsigned int hlen)
{
	struct sk_buff *seg;

	skb_walk_frags(skb, seg) {
		if (skb_headroom(seg) >= hlen)
			continue;
		if (skb_cloned(skb) || skb_shared(seg) ||
		    pskb_expand_head(seg, hlen - skb_headroom(seg), 0,
				     GFP_ATOMIC))
			return false;
	}
	return true;
}

/*
 * A GRE or UDP tunnel with a checksum of its own sums each packet from
 * its outer header to SKB_GSO_CB()->csum_start and adds
 * SKB_GSO_CB()->csum, the sum of the rest, which skb_segment() leaves and
 * skb_segment_list() does not.  The rest is the XTP packet, which no later
 * callback changes.
 */
static void xtp_gso_tunnel_sums(struct sk_buff *segs)
{
	struct sk_buff *seg;
	int off;

	for (seg = segs; seg; seg = seg->next) {
		off = skb_transport_offset(seg);
		SKB_GSO_CB(seg)->csum = skb_checksum(seg, off, seg->len - off, 0);
		SKB_GSO_CB(seg)->csum_start = skb_transport_header(seg) -
					      seg->head;
	}
}

/*
 * Only trains XTP built take this path: SKB_GSO_FRAGLIST, perhaps tagged
 * by the tunnels above, not DODGY (from a vnet header), and intact, with
 * room in front of every packet for all the headers skb_segment_list()
 * writes there.
 *
 * skb_segment_list() copies the link header (and a tunnel's) only, as
 * GRO's trains keep each packet's own headers: each packet of the list
 * gets the head's IP header once skb_segment_list() has made it private,
 * and inet_gso_segment() then sets each one's ID, length and checksum.
 *
 * A train's head counts the truesize of the whole train, as GRO's do
 * (xtp_train_add()), and kernels differ in whether skb_segment_list()
 * takes the list's share off it.  Either way the head leaves as one
 * packet of its own size: a receiver would charge it for the whole
 * train otherwise.  A head the sender still owns gives the rest back
 * to sk_wmem_alloc; the head keeps a charge of its own, so the count
 * cannot reach zero.
 */
static struct sk_buff *xtp_gso_segment(struct sk_buff *skb,
				       netdev_features_t features)
{
	unsigned int ihl = skb_transport_header(skb) - skb_network_header(skb);
	unsigned int mac_len = skb_mac_header_len(skb);
	unsigned int truesize = skb->truesize, rest = 0;
	int tnl_hlen = skb_tnl_header_len(skb);
	struct sk_buff *seg, *segs;

	if (!xtp_gso_type_ok(skb) || tnl_hlen < 0 || !xtp_train_intact(skb))
		return ERR_PTR(-EINVAL);
	/* What the sender charged, before any copy below changes it. */
	skb_walk_frags(skb, seg)
		rest += seg->truesize;
	if (rest >= truesize)
		return ERR_PTR(-EINVAL);
	if (!xtp_train_headroom(skb, mac_len + ihl + tnl_hlen))
		return ERR_PTR(-ENOMEM);
	skb_walk_frags(skb, seg) {
		skb_reset_transport_header(seg);
		skb_set_network_header(seg, -(int)ihl);
	}
	segs = skb_segment_list(skb, features, mac_len);
	if (IS_ERR(segs))
		return segs;
	for (seg = segs->next; seg; seg = seg->next)
		memcpy(skb_network_header(seg), skb_network_header(skb), ihl);
	/*
	 * The train's UNNECESSARY vouches for its packets as the sender
	 * built them.  One split off on the way may yet be changed (netem
	 * corrupts the first packet of what it splits): verify it as any
	 * other.  The receiver's own split keeps the claim.  The head
	 * goes NONE too: __skb_gso_segment() warns of a bad offload when
	 * the skb it was given ends neither PARTIAL nor UNNECESSARY, but
	 * only if it is not itself the first segment, and
	 * skb_segment_list() always returns the head first.
	 */
	for (seg = segs; seg; seg = seg->next)
		seg->ip_summed = CHECKSUM_NONE;
	if (skb->encap_hdr_csum)
		xtp_gso_tunnel_sums(segs);
	skb->truesize = truesize - rest;
	if (skb->sk && skb->destructor == sock_wfree)
		WARN_ON_ONCE(refcount_sub_and_test(rest,
						   &skb->sk->sk_wmem_alloc));
	return segs;
}

/*
 * The most a train may carry after its IP header, options included: what
 * the route's device takes as one GSO skb, and an IP datagram's length.
 * 0 when that is no more than the headers (gso_ipv4_max_size may be set
 * that low).
 */
static u32 xtp_train_room(const struct sock *sk)
{
	u32 max = min_t(u32, READ_ONCE(sk->sk_gso_max_size), IP_MAX_MTU + 1);
	u32 hdr = 1 + sizeof(struct iphdr) + MAX_IPOPTLEN;

	return max > hdr ? max - hdr : 0;
}

/**
 * xtp_train_ok() - may the context's DATA go in trains now?
 * @sk: the context, locked
 *
 * With net.xtp.trains 1, where the route's device, or the stack's GSO
 * before it, can split them (sk_gso_type, a u16, cannot name
 * SKB_GSO_FRAGLIST for sk_can_gso()), except on loopback: there a packet
 * is as large as an order-2 skb already (xtp_seg_limit()), so a train
 * saves little, and the packets seen on lo stay those of the wire.
 *
 * Return: true if xtp_train_add() may gather packets.
 */
bool xtp_train_ok(struct sock *sk)
{
	struct dst_entry *dst = __sk_dst_check(sk, 0);

	return READ_ONCE(xtp_net(sock_net(sk))->trains) &&
	       dst && !(dst->dev->flags & IFF_LOOPBACK) &&
	       net_gso_ok(sk->sk_route_caps, SKB_GSO_FRAGLIST) &&
	       xtp_train_room(sk) > 2 * XTP_WIRE_HDR_LEN;
}

/**
 * xtp_ip_xmit() - hand one skb of a context to IP
 * @sk: the context, locked
 * @skb: a packet or a train, at its XTP header; unowned
 *
 * Return: 0 or -errno, as ip_queue_xmit() gives it.
 */
int xtp_ip_xmit(struct sock *sk, struct sk_buff *skb)
{
	int err;

	skb_set_owner_w(skb, sk);
	/* Not inside net_xmit_eval(): it evaluates its argument twice. */
	err = ip_queue_xmit(sk, skb, &inet_sk(sk)->cork.fl);
	return net_xmit_eval(err);
}

/**
 * xtp_train_send() - hand a train to IP
 * @sk: the context, locked
 * @t: the train; empty afterwards
 *
 * A train of one packet is that packet, without GSO.
 *
 * Return: 0 or -errno, as ip_queue_xmit() gives it.
 */
int xtp_train_send(struct sock *sk, struct xtp_train *t)
{
	struct sk_buff *skb = t->head;

	if (!skb)
		return 0;
	t->head = NULL;
	if (t->segs > 1) {
		skb_shinfo(skb)->gso_type = SKB_GSO_FRAGLIST;
		skb_shinfo(skb)->gso_size = t->seg_max;
		skb_shinfo(skb)->gso_segs = t->segs;
		/*
		 * Every packet's CHECK is summed; on output UNNECESSARY means
		 * what NONE does, and tells GSO it has no sum to compute.
		 */
		skb->ip_summed = CHECKSUM_UNNECESSARY;
		XTP_INC_STATS(sock_net(sk), XTP_MIB_OUTTRAINS);
	}
	return xtp_ip_xmit(sk, skb);
}

/**
 * xtp_train_add() - add a DATA packet to a train, sending it when full
 * @sk: the context, locked
 * @t: the train
 * @skb: the packet, at its XTP header, with room for the link and IP
 *	headers in front of it; unowned
 *
 * Return: 0, or the error of a full train sent.
 */
int xtp_train_add(struct sock *sk, struct xtp_train *t, struct sk_buff *skb)
{
	int err = 0;

	if (t->head && (t->segs >= min_t(u32, XTP_TRAIN_MAX_SEGS,
					 READ_ONCE(sk->sk_gso_max_segs)) ||
			t->head->len + skb->len > xtp_train_room(sk)))
		err = xtp_train_send(sk, t);
	/* The head's shared info takes the list: a clone shares it. */
	if (t->head && t->segs == 1 && skb_unclone(t->head, GFP_ATOMIC))
		err = xtp_train_send(sk, t);
	if (!t->head) {
		t->head = skb;
		t->segs = 1;
		t->seg_max = skb->len;
		return err;
	}
	if (t->segs == 1)
		skb_shinfo(t->head)->frag_list = skb;
	else
		t->tail->next = skb;
	t->tail = skb;
	t->head->len += skb->len;
	t->head->data_len += skb->len;
	t->head->truesize += skb->truesize;
	t->segs++;
	t->seg_max = max_t(u32, t->seg_max, skb->len);
	return err;
}

static const struct net_offload xtp_offload = {
	.callbacks = {
		.gso_segment = xtp_gso_segment,
	},
};

/*
 * Packet @off..@off + @len of @train, copied behind a copy of its IP
 * header into an skb of its own that looks as if it had come alone.
 */
static struct sk_buff *xtp_train_copy_pkt(struct sk_buff *train, u32 off,
					  u32 len)
{
	unsigned int iphlen = ip_hdrlen(train);
	struct sk_buff *skb;
	struct iphdr *iph;

	skb = alloc_skb(iphlen + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_copy_header(skb, train);
	skb_gso_reset(skb);
	skb_reset_mac_header(skb);
	skb->mac_len = 0;
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, iphlen);
	iph = skb_put_data(skb, ip_hdr(train), iphlen);
	iph->tot_len = htons(iphlen + len);
	ip_send_check(iph);
	if (skb_copy_bits(train, off, skb_put(skb, len), len)) {
		kfree_skb(skb);
		return NULL;
	}
	__skb_pull(skb, iphlen);
	return skb;
}

/*
 * A train whose list is gone: generic XDP copies a nonlinear skb into a
 * head and pages before its program runs, and the copy keeps the GSO
 * type (skb_cow_data_for_xdp()).  Its packets still lie back to back,
 * each as long as its header says: each is copied out on its own.  Not
 * clones: each would be charged the whole train's truesize.
 */
static struct sk_buff *xtp_train_copy(struct sk_buff *train)
{
	struct net *net = dev_net(train->dev);
	struct sk_buff *segs = NULL, **tail = &segs, *seg;
	enum xtp_mib_field bad = XTP_MIB_INBADFORMAT;
	u32 off = 0, len;
	__be32 dlen;

	while (off < train->len) {
		if (train->len - off < XTP_WIRE_HDR_LEN ||
		    skb_copy_bits(train, off + XTP_WIRE_OFF_DLEN, &dlen,
				  sizeof(dlen)))
			goto drop;
		len = be32_to_cpu(dlen);
		if (len > train->len - off - XTP_WIRE_HDR_LEN)
			goto drop;
		len += XTP_WIRE_HDR_LEN;
		seg = xtp_train_copy_pkt(train, off, len);
		if (!seg) {
			bad = XTP_MIB_INNOMEM;
			goto drop;
		}
		*tail = seg;
		tail = &seg->next;
		off += len;
	}
	consume_skb(train);
	XTP_INC_STATS(net, XTP_MIB_INTRAINS);
	return segs;
drop:
	XTP_INC_STATS(net, bad);
	kfree_skb_list(segs);
	kfree_skb(train);
	return NULL;
}

/**
 * xtp_train_split() - the packets of a train that arrived whole
 * @skb: the train, at its XTP header, as ip_local_deliver() passes it
 *
 * As UDP takes a GSO skb it cannot queue whole: back to the link header,
 * segmented by the stack's own GSO code (through xtp_gso_segment()).
 *
 * Return: the packets, a list, each at its XTP header; NULL if the train
 * was dropped.
 */
struct sk_buff *xtp_train_split(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);
	struct sk_buff *segs = ERR_PTR(-EINVAL), *seg;
	bool summed = skb->ip_summed == CHECKSUM_UNNECESSARY;

	/*
	 * Only the sender's "each CHECK summed" holds for every packet.  A
	 * sum of the whole train (a GRE or UDP tunnel's checksum, converted
	 * to CHECKSUM_COMPLETE when it was decapsulated) would go to each
	 * packet: each is verified on its own instead.
	 */
	if (!summed)
		skb->ip_summed = CHECKSUM_NONE;
	if (!xtp_train_intact(skb))
		return xtp_train_copy(skb);
	if (skb_mac_header_was_set(skb)) {
		__skb_push(skb, -skb_mac_offset(skb));
		segs = __skb_gso_segment(skb, NETIF_F_SG, false);
	}
	if (IS_ERR_OR_NULL(segs)) {
		XTP_INC_STATS(net, PTR_ERR(segs) == -ENOMEM ?
			      XTP_MIB_INNOMEM : XTP_MIB_INBADFORMAT);
		kfree_skb(skb);
		return NULL;
	}
	consume_skb(skb);
	XTP_INC_STATS(net, XTP_MIB_INTRAINS);
	for (seg = segs; seg; seg = seg->next) {
		__skb_pull(seg, skb_transport_offset(seg));
		if (summed)
			seg->ip_summed = CHECKSUM_UNNECESSARY;
	}
	return segs;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_train_split);

int xtp_offload_init(void)
{
	return inet_add_offload(&xtp_offload, IPPROTO_XTP);
}

void xtp_offload_exit(void)
{
	inet_del_offload(&xtp_offload, IPPROTO_XTP);
}
