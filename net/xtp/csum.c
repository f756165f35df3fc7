// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: CHECK with the kernel's checksum helpers.
 *
 * CHECK is the Internet checksum (RFC 1071) over the header, CHECK
 * counted as zero, and over the payload unless NOCHECK is set, with no
 * pseudo-header: exactly what csum_partial() and skb_checksum() sum.
 * The codec (wire.c) carries a portable loop of its own for user space;
 * the module uses the architecture's, which sum many bytes per step.
 */
#include <linux/skbuff.h>
#include <net/checksum.h>
#include <net/sock.h>

#include "xtp.h"

/**
 * xtp_csum_ok() - verify CHECK of a received packet
 * @skb: the packet, its XTP header at @skb->data
 * @cover: the bytes CHECK covers (xtp_wire_check_hdr())
 *
 * When CHECK covers the whole packet, the kernel's validation of a
 * checksum without a pseudo-header (ICMP's, GRE's) applies as it is: it
 * takes a device's CHECKSUM_COMPLETE sum and reports a device whose sum
 * was wrong.  A NOCHECK packet's header, or a packet with bytes after
 * DLEN, is summed here.
 *
 * Return: true if CHECK verifies.
 */
bool xtp_csum_ok(struct sk_buff *skb, unsigned int cover)
{
	if (cover == skb->len)
		return !skb_checksum_simple_validate(skb);
	return !csum_fold(skb_checksum(skb, 0, cover, 0));
}
EXPORT_SYMBOL_IF_KUNIT(xtp_csum_ok);

/**
 * xtp_csum_set() - compute and store CHECK of a packet to send
 * @skb: the packet, linear, its XTP header at @skb->data and CHECK zero
 * @nocheck: NOCHECK is set: CHECK covers the header only
 */
void xtp_csum_set(struct sk_buff *skb, bool nocheck)
{
	unsigned int cover = nocheck ? XTP_WIRE_HDR_LEN : skb->len;

	*(__sum16 *)(skb->data + XTP_WIRE_OFF_CHECK) =
		csum_fold(csum_partial(skb->data, cover, 0));
}
EXPORT_SYMBOL_IF_KUNIT(xtp_csum_set);

/**
 * xtp_csum_out() - CHECK of a context's packet to send, or its offload
 * @sk: the context, locked
 * @skb: the packet, linear, its XTP header at @skb->data and CHECK zero
 * @nocheck: NOCHECK is set: CHECK covers the header only
 *
 * Only loopback is left to compute CHECK, as CHECKSUM_PARTIAL with a zero
 * seed (XTP's sum has no pseudo-header), which the receiver on this host
 * takes as summed.  Any other route may end at a device that offloads
 * only TCP's and UDP's sum (NETIF_F_IP_CSUM), through a bridge, a macvlan
 * or the host that forwards a container's veth: CHECK sits at TCP's
 * offset, and skb_csum_hwoffload_help() would hand the packet to that
 * device as TCP.  The first hop's features cannot tell.
 */
void xtp_csum_out(struct sock *sk, struct sk_buff *skb, bool nocheck)
{
	struct dst_entry *dst = __sk_dst_check(sk, 0);

	if (nocheck || !dst || !(dst->dev->flags & IFF_LOOPBACK) ||
	    !skb_partial_csum_set(skb, 0, XTP_WIRE_OFF_CHECK))
		xtp_csum_set(skb, nocheck);
}
