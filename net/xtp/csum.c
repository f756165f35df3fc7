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
#include <linux/uio.h>
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
 * xtp_csum_local() - does this context's route leave CHECK to the stack?
 * @sk: the context, locked
 *
 * Only loopback is left to compute CHECK, as CHECKSUM_PARTIAL with a zero
 * seed (XTP's sum has no pseudo-header), which the receiver on this host
 * takes as summed.  Any other route may end at a device that offloads
 * only TCP's and UDP's sum (NETIF_F_IP_CSUM), through a bridge, a macvlan
 * or the host that forwards a container's veth: CHECK sits at TCP's
 * offset, and skb_csum_hwoffload_help() would hand the packet to that
 * device as TCP.  The first hop's features cannot tell.
 *
 * Return: true if the route is loopback's.
 */
bool xtp_csum_local(struct sock *sk)
{
	struct dst_entry *dst = __sk_dst_check(sk, 0);

	return dst && (dst->dev->flags & IFF_LOOPBACK);
}

/**
 * xtp_csum_copy_user() - queue the sender's bytes, summed where it pays
 * @sk: the context, locked
 * @skb: queued data, its control block cleared
 * @len: bytes to copy
 * @from: the sender's bytes
 *
 * Where CHECK is ours to compute, the bytes are summed on the way in, so
 * that no transmission reads them again (xtp_csum_out()).
 *
 * Return: true if all @len bytes were copied.
 */
bool xtp_csum_copy_user(struct sock *sk, struct sk_buff *skb, u32 len,
			struct iov_iter *from)
{
	struct xtp_skb_cb *cb = XTP_SKB_CB(skb);

	if (xtp_csum_local(sk) || xtp_sk(sk)->nocheck)
		return copy_from_iter_full(skb_put(skb, len), len, from);
	cb->csum = 0;
	if (!csum_and_copy_from_iter_full(skb_put(skb, len), len, &cb->csum,
					  from))
		return false;
	cb->csum_ok = 1;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_csum_copy_user);

/**
 * xtp_csum_out() - CHECK of a context's packet to send, or its offload
 * @sk: the context, locked
 * @skb: the packet, linear, its XTP header at @skb->data and CHECK zero
 * @nocheck: NOCHECK is set: CHECK covers the header only
 * @data: for DATA, the queued skb whose bytes end @skb, else NULL
 *
 * Data summed as it was copied from the sender (csum_ok) is not read
 * again: only the header is summed, and the two sums added.
 */
void xtp_csum_out(struct sock *sk, struct sk_buff *skb, bool nocheck,
		  const struct sk_buff *data)
{
	unsigned int hlen;
	__wsum sum;

	if (!nocheck && xtp_csum_local(sk) &&
	    skb_partial_csum_set(skb, 0, XTP_WIRE_OFF_CHECK))
		return;
	if (nocheck || !data || !XTP_SKB_CB(data)->csum_ok ||
	    WARN_ON_ONCE(data->len >= skb->len)) {
		xtp_csum_set(skb, nocheck);
		return;
	}
	hlen = skb->len - data->len;
	/*
	 * A writer that changed the queued bytes without clearing csum_ok
	 * would send a wrong CHECK on every retransmission: debug kernels
	 * sum the bytes again and compare.
	 */
	DEBUG_NET_WARN_ON_ONCE(csum_fold(csum_sub(XTP_SKB_CB(data)->csum,
						  csum_partial(skb->data + hlen,
							       data->len, 0))));
	sum = csum_block_add(csum_partial(skb->data, hlen, 0),
			     XTP_SKB_CB(data)->csum, hlen);
	*(__sum16 *)(skb->data + XTP_WIRE_OFF_CHECK) = csum_fold(sum);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_csum_out);
