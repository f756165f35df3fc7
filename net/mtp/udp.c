// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: the kernel UDP socket each MTP socket owns.  Its port is in UDP's
 * table, so MTP and UDP sockets conflict on bind() exactly as two UDP
 * sockets do.  Datagrams for the port arrive through encap_rcv, are
 * checked here and handed to the client or server side; MTP datagrams
 * leave through udp_tunnel_xmit_skb() with the UDP checksum always set.
 */
#include <linux/filter.h>
#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/netfilter/nf_conntrack.h>
#include <net/route.h>
#include <net/sock.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>
#include <net/xfrm.h>

#include "compat.h"
#include "mtp.h"

/* Room for link, IP and UDP headers in front of the MTP header. */
#define MTP_HEADROOM	(MAX_HEADER + sizeof(struct iphdr) + \
			 sizeof(struct udphdr))

static_assert(__MTP_MIB_MAX <= 256);	/* mtp_wire_mib[] holds u8 */
static const u8 mtp_wire_mib[MTP_WIRE_NERR] = {
	[MTP_WIRE_ETRUNC]	= MTP_MIB_INTRUNCATED,
	[MTP_WIRE_EVERSION]	= MTP_MIB_INBADVERSION,
	[MTP_WIRE_EOPTIONS]	= MTP_MIB_INBADOPTIONS,
	[MTP_WIRE_EERROR]	= MTP_MIB_INBADERROR,
	[MTP_WIRE_ESHIFT]	= MTP_MIB_INBADSHIFT,
	[MTP_WIRE_ESIZE]	= MTP_MIB_INBADSIZE,
	[MTP_WIRE_ERANGE]	= MTP_MIB_INBADRANGE,
	[MTP_WIRE_ENOSPC]	= MTP_MIB_INBADSIZE,
};

/*
 * MTP is unicast only: a request sent to a broadcast or multicast address
 * would be answered by every MTP socket bound to the wildcard address of
 * every host that hears it, each answer going to a source nobody checked.
 * UDP hands us such datagrams (its multicast delivery path calls
 * encap_rcv too), so they are refused here, as are sources that cannot be
 * a sender's own address.
 */
static bool mtp_unicast(const struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	const struct rtable *rt = skb_rtable(skb);

	if (skb->pkt_type != PACKET_HOST)
		return false;
	if (rt && (rt->rt_flags & (RTCF_BROADCAST | RTCF_MULTICAST)))
		return false;
	if (ipv4_is_multicast(iph->daddr) || ipv4_is_lbcast(iph->daddr))
		return false;
	return !ipv4_is_multicast(iph->saddr) && !ipv4_is_lbcast(iph->saddr) &&
	       !ipv4_is_zeronet(iph->saddr);
}

static void mtp_input(struct mtp_sock *ms, struct sk_buff *skb)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	u8 raw[MTP_WIRE_HDR_MAX];
	struct sk_buff_head out;
	struct mtp_wire_msg m;
	const void *hdr;
	__be32 saddr, daddr;
	__be16 sport;
	int err;

	MTP_INC_STATS(net, MTP_MIB_INDATAGRAMS);
	if (!mtp_unicast(skb)) {
		MTP_INC_STATS(net, MTP_MIB_INNOTUNICAST);
		mtp_drop(ms, skb, SKB_DROP_REASON_NOT_SPECIFIED);
		return;
	}
	saddr = ip_hdr(skb)->saddr;
	daddr = ip_hdr(skb)->daddr;
	sport = udp_hdr(skb)->source;
	/* skb->data is at the UDP header, which UDP has already checked. */
	__skb_pull(skb, sizeof(struct udphdr));
	/* The header, and the token that may follow it. */
	hdr = skb_header_pointer(skb, 0, min_t(u32, skb->len, sizeof(raw)),
				 raw);
	err = hdr ? mtp_wire_decode_hdr(hdr, skb->len, &m) : -MTP_WIRE_ETRUNC;
	if (!err)
		err = mtp_wire_check(&m);
	if (err) {
		MTP_INC_STATS(net, -err < MTP_WIRE_NERR ? mtp_wire_mib[-err] :
						       MTP_MIB_INBADSIZE);
		mtp_drop(ms, skb, err == -MTP_WIRE_ETRUNC ?
			 SKB_DROP_REASON_PKT_TOO_SMALL :
			 SKB_DROP_REASON_INVALID_PROTO);
		return;
	}
	skb_dst_drop(skb);
	__skb_queue_head_init(&out);
	spin_lock(&ms->lock);
	if (ms->closing) {
		spin_unlock(&ms->lock);
		mtp_drop(ms, skb, SKB_DROP_REASON_NO_SOCKET);
		return;
	}
	if (mtp_wire_is_request(&m)) {
		mtp_server_rcv(ms, skb, &m, saddr, sport, &out);
		mtp_xmit_from(&out, daddr);
	} else {
		mtp_client_rcv(ms, skb, &m, saddr, sport, &out);
	}
	spin_unlock(&ms->lock);
	mtp_xmit_list(ms, &out);
}

/*
 * What UDP does for a datagram it queues, and skips for one it hands to
 * encap_rcv: the IPsec input policy, conntrack's reference, and the
 * socket filter (SO_ATTACH_FILTER, cgroup-BPF ingress, the LSM's
 * sock_rcv_skb).  The socket the application sees, and filters, is the
 * MTP socket; its filter sees the datagram from the UDP header on, as a
 * UDP socket's does.
 */
static enum skb_drop_reason mtp_rcv_allowed(struct mtp_sock *ms,
					    struct sk_buff *skb)
{
	struct sock *sk = mtp_to_sk(ms);

	if (!xfrm4_policy_check(sk, XFRM_POLICY_IN, skb))
		return SKB_DROP_REASON_XFRM_POLICY;
	nf_reset_ct(skb);
	if (sk_filter_trim_cap(sk, skb, sizeof(struct udphdr)))
		return SKB_DROP_REASON_SOCKET_FILTER;
	return SKB_NOT_DROPPED_YET;
}

static int mtp_encap_rcv(struct sock *usk, struct sk_buff *skb)
{
	struct mtp_sock *ms = rcu_dereference_sk_user_data(usk);
	enum skb_drop_reason reason;

	if (!ms) {
		mtp_drop(NULL, skb, SKB_DROP_REASON_NO_SOCKET);
		return 0;
	}
	reason = mtp_rcv_allowed(ms, skb);
	if (reason != SKB_NOT_DROPPED_YET) {
		MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_INFILTERED);
		mtp_drop(ms, skb, reason);
		return 0;
	}
	mtp_input(ms, skb);
	return 0;
}

/**
 * mtp_icmp_err() - an ICMP error about a datagram of ours
 * @usk: the kernel UDP socket it left from
 * @skb: the ICMP message, data at the quoted IP header
 * @udp_off: offset of the quoted UDP header from @skb->data
 *
 * A destination that refuses a request for good (port or protocol
 * unreachable, or administratively prohibited: the codes the kernel's
 * icmp_err_convert marks fatal) ends its transaction now.  The error must
 * quote the request's MTP header, id included.  Errors about responses
 * and soft errors change nothing: the repeats find out.  A path MTU
 * UDP has already stored in the route, where mtp_path_payload() sees it.
 */
void mtp_icmp_err(struct sock *usk, struct sk_buff *skb, unsigned int udp_off)
{
	struct mtp_sock *ms = rcu_dereference_sk_user_data(usk);
	const struct iphdr *iph = (const struct iphdr *)skb->data;
	u8 type = icmp_hdr(skb)->type, code = icmp_hdr(skb)->code;
	u8 raw[MTP_WIRE_HDR_MAX];
	const struct udphdr *uh;
	struct udphdr uhbuf;
	struct mtp_wire_msg m;
	const void *hdr;
	u32 len;

	if (!ms || type != ICMP_DEST_UNREACH || code > NR_ICMP_UNREACH ||
	    !icmp_err_convert[code].fatal)
		return;
	uh = skb_header_pointer(skb, udp_off, sizeof(uhbuf), &uhbuf);
	if (!uh || skb->len < udp_off + sizeof(*uh))
		return;
	len = min_t(u32, skb->len - udp_off - sizeof(*uh), sizeof(raw));
	hdr = skb_header_pointer(skb, udp_off + sizeof(*uh), len, raw);
	if (!hdr || mtp_wire_decode_hdr(hdr, len, &m) ||
	    !mtp_wire_is_request(&m))
		return;
	mtp_client_unreach(ms, iph->daddr, uh->dest, m.reqid);
}

/**
 * mtp_udp_open() - create the kernel UDP socket of an MTP socket
 * @ms: MTP socket, locked with lock_sock(), without a UDP socket
 * @addr: local address, or INADDR_ANY
 * @port: local port, or 0 for an ephemeral one
 *
 * Return: 0 or the errno bind() on a UDP socket would give.
 */
int mtp_udp_open(struct mtp_sock *ms, __be32 addr, __be16 port)
{
	struct sock *sk = mtp_to_sk(ms);
	struct udp_tunnel_sock_cfg tcfg = {};
	struct udp_port_cfg cfg = {};
	struct inet_sock *uinet;
	struct socket *sock;
	int err;

	cfg.family = AF_INET;
	cfg.local_ip.s_addr = addr;
	cfg.local_udp_port = port;
	cfg.use_udp_checksums = 1;
	cfg.bind_ifindex = sk->sk_bound_dev_if;
	err = udp_sock_create4(sock_net(sk), &cfg, &sock);
	if (err)
		return err;
	tcfg.sk_user_data = ms;
	tcfg.encap_type = 1;
	tcfg.encap_rcv = mtp_encap_rcv;
	tcfg.encap_err_rcv = mtp_encap_err_rcv;
	setup_udp_tunnel_sock(sock_net(sk), sock, &tcfg);

	uinet = inet_sk(sock->sk);
	ms->inet.inet_rcv_saddr = uinet->inet_rcv_saddr;
	ms->inet.inet_saddr = uinet->inet_saddr;
	ms->inet.inet_sport = uinet->inet_sport;
	ms->inet.inet_num = ntohs(uinet->inet_sport);
	WRITE_ONCE(ms->udp, sock);
	return 0;
}

/**
 * mtp_udp_close() - release the kernel UDP socket
 * @ms: MTP socket being closed
 *
 * When this returns, no datagram is being or will be delivered to @ms.
 */
void mtp_udp_close(struct mtp_sock *ms)
{
	struct socket *sock = ms->udp;

	if (!sock)
		return;
	WRITE_ONCE(ms->udp, NULL);
	udp_tunnel_sock_release(sock);
}

/**
 * mtp_alloc_msg() - build one MTP datagram, ready for mtp_xmit_list()
 * @m: header fields
 * @data: payload, or NULL
 * @len: payload length
 * @daddr: destination address
 * @dport: destination port
 * @gfp: allocation flags
 *
 * Return: the skb, or NULL without memory.
 */
struct sk_buff *mtp_alloc_msg(const struct mtp_wire_msg *m, const void *data,
			      u32 len, __be32 daddr, __be16 dport, gfp_t gfp)
{
	u32 hlen = mtp_wire_hdr_len(m);
	struct sk_buff *skb;

	skb = alloc_skb(MTP_HEADROOM + hlen + len, gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, MTP_HEADROOM);
	mtp_wire_encode_hdr(m, skb_put(skb, hlen), hlen);
	if (len)
		skb_put_data(skb, data, len);
	MTP_SKB_CB(skb)->addr = daddr;
	MTP_SKB_CB(skb)->saddr = 0;
	MTP_SKB_CB(skb)->port = dport;
	MTP_SKB_CB(skb)->df = false;
	return skb;
}

/*
 * The route of datagrams to @daddr:@dport from @saddr (0: the socket's
 * bound address, or the route's choice): the MTP socket's mark and TOS
 * choose it, so that mtp_path_payload() sees the MTU of the very route
 * mtp_xmit_list() takes.
 */
static struct rtable *mtp_route(struct mtp_sock *ms, struct socket *usock,
				struct flowi4 *fl4, __be32 daddr,
				__be16 dport, __be32 saddr)
{
	struct sock *sk = mtp_to_sk(ms);

	memset(fl4, 0, sizeof(*fl4));
	return ip_route_output_ports(sock_net(sk), fl4, sk, daddr,
				     saddr ?: ms->inet.inet_rcv_saddr, dport,
				     ms->inet.inet_sport, IPPROTO_UDP,
				     RT_TOS(READ_ONCE(inet_sk(sk)->tos)),
				     usock->sk->sk_bound_dev_if);
}

/**
 * mtp_xmit_from() - send datagrams from the address a request came to
 * @q: datagrams built by mtp_alloc_msg(), not sent yet
 * @saddr: that address
 *
 * A server bound to the wildcard address answers from the address the
 * client asked, as a TCP connection does: on a host with several, the
 * route's choice is another, and the client takes the answers for
 * strangers'.
 */
void mtp_xmit_from(struct sk_buff_head *q, __be32 saddr)
{
	struct sk_buff *skb;

	skb_queue_walk(q, skb)
		MTP_SKB_CB(skb)->saddr = saddr;
}

/**
 * mtp_xmit_list() - send datagrams built by mtp_alloc_msg()
 * @ms: the sending socket
 * @q: datagrams; emptied
 *
 * Called without @ms->lock.  Consecutive datagrams to one destination
 * share a route lookup.
 */
void mtp_xmit_list(struct mtp_sock *ms, struct sk_buff_head *q)
{
	struct sock *sk = mtp_to_sk(ms);
	struct inet_sock *inet = inet_sk(sk);
	struct net *net = sock_net(sk);
	u8 tos = READ_ONCE(inet->tos);
	int ttl = READ_ONCE(inet->uc_ttl);
	struct rtable *rt = NULL;
	struct socket *usock;
	struct flowi4 fl4;
	struct sk_buff *skb;
	__be32 last = 0, lsrc = 0;
	__be16 lport = 0;

	if (skb_queue_empty(q))
		return;
	rcu_read_lock();
	usock = READ_ONCE(ms->udp);
	while ((skb = __skb_dequeue(q))) {
		__be32 daddr = MTP_SKB_CB(skb)->addr;
		__be32 saddr = MTP_SKB_CB(skb)->saddr;
		__be16 dport = MTP_SKB_CB(skb)->port;

		if (!usock) {
			mtp_drop(NULL, skb, SKB_DROP_REASON_NOT_SPECIFIED);
			continue;
		}
		if (!rt || daddr != last || dport != lport || saddr != lsrc) {
			if (rt)
				ip_rt_put(rt);
			rt = mtp_route(ms, usock, &fl4, daddr, dport, saddr);
			if (IS_ERR(rt)) {
				rt = NULL;
				MTP_INC_STATS(net, MTP_MIB_OUTERRORS);
				mtp_drop(NULL, skb,
					 SKB_DROP_REASON_IP_OUTNOROUTES);
				continue;
			}
			last = daddr;
			lport = dport;
			lsrc = saddr;
		}
		/*
		 * What the application set on the MTP socket (SO_MARK,
		 * SO_PRIORITY, IP_TOS, IP_TTL) applies to its datagrams.
		 * DF on every one that fits the route: a smaller hop then
		 * says so (ICMP, which UDP's error path stores in the route)
		 * instead of fragmenting it.  One that no longer fits a
		 * lowered path MTU is fragmented rather than lost, but for
		 * the datagrams of a multi-datagram answer: cut to the path
		 * when they were built (mtp_srec_send()), one is dropped
		 * and asked again.
		 */
		skb->mark = READ_ONCE(sk->sk_mark);
		skb->priority = READ_ONCE(sk->sk_priority);
		dst_hold(&rt->dst);
		mtp_udp_tunnel_xmit(rt, usock->sk, skb, fl4.saddr, daddr, tos,
				    ttl >= 0 ? ttl : ip4_dst_hoplimit(&rt->dst),
				    MTP_SKB_CB(skb)->df ||
				    skb->len + sizeof(struct iphdr) +
				    sizeof(struct udphdr) <= dst_mtu(&rt->dst) ?
				    htons(IP_DF) : 0,
				    ms->inet.inet_sport, dport);
	}
	if (rt)
		ip_rt_put(rt);
	rcu_read_unlock();
}

/**
 * mtp_path_payload() - MTP payload that fits in one IP packet to a peer
 * @ms: socket
 * @daddr: peer
 * @dport: peer's port
 *
 * Return: bytes, or 0 if there is no route.
 */
u32 mtp_path_payload(struct mtp_sock *ms, __be32 daddr, __be16 dport)
{
	struct socket *usock = READ_ONCE(ms->udp);
	struct flowi4 fl4;
	struct rtable *rt;
	u32 mtu;

	if (!usock)
		return 0;
	rt = mtp_route(ms, usock, &fl4, daddr, dport, 0);
	if (IS_ERR(rt))
		return 0;
	mtu = dst_mtu(&rt->dst);
	ip_rt_put(rt);
	if (mtu <= sizeof(struct iphdr) + sizeof(struct udphdr) +
		   MTP_WIRE_HDR_LEN)
		return 0;
	return mtu - sizeof(struct iphdr) - sizeof(struct udphdr) -
	       MTP_WIRE_HDR_LEN;
}
