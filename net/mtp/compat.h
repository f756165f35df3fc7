/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP: the differences between the kernels the module builds against
 * (6.1 and 6.12) that only MTP meets; <net/kcompat.h> has those XTP meets
 * too.
 */
#ifndef _NET_MTP_COMPAT_H
#define _NET_MTP_COMPAT_H

#include <linux/version.h>
#include <net/kcompat.h>
#include <net/net_namespace.h>
#include <net/udp_tunnel.h>

/*
 * udp_tunnel_xmit_skb() as 6.1 and 6.12 define it; later kernels changed
 * its arguments, and this is the one place to adapt when they become
 * targets.
 */
static inline void mtp_udp_tunnel_xmit(struct rtable *rt, struct sock *sk,
				       struct sk_buff *skb, __be32 src,
				       __be32 dst, u8 tos, u8 ttl, __be16 df,
				       __be16 sport, __be16 dport)
{
	udp_tunnel_xmit_skb(rt, sk, skb, src, dst, tos, ttl, df, sport, dport,
			    false, false);
}

/*
 * encap_err_rcv: 6.1 passes the offset of the quoted UDP header, 6.12 a
 * pointer past it (and the error it derived, which mtp_icmp_err() derives
 * itself from the ICMP header).
 */
void mtp_icmp_err(struct sock *usk, struct sk_buff *skb,
		  unsigned int udp_off);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
static inline void mtp_encap_err_rcv(struct sock *sk, struct sk_buff *skb,
				     int err, __be16 port, u32 info,
				     u8 *payload)
{
	mtp_icmp_err(sk, skb, payload - sizeof(struct udphdr) - skb->data);
}
#else
static inline void mtp_encap_err_rcv(struct sock *sk, struct sk_buff *skb,
				     unsigned int udp_offset)
{
	mtp_icmp_err(sk, skb, udp_offset);
}
#endif

#endif /* _NET_MTP_COMPAT_H */
