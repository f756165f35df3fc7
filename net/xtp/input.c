// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: packets from IPv4.
 *
 * Everything that arrives is untrusted: the codec checks every length
 * before it reads, and each reason to drop a packet has its own counter.
 */
#include <linux/skbuff.h>
#include <net/protocol.h>

#include "wire.h"
#include "xtp.h"

/* The counter that records a packet the codec rejected with @err. */
static enum xtp_mib_field xtp_decode_drop_reason(int err)
{
	switch (-err) {
	case XTP_WIRE_ETRUNC:
		return XTP_MIB_INTRUNCATED;
	case XTP_WIRE_EVERSION:
		return XTP_MIB_INBADVERSION;
	case XTP_WIRE_EPFORMAT:
		return XTP_MIB_INBADTYPE;
	case XTP_WIRE_ECSUM:
		return XTP_MIB_INCSUMERRORS;
	case XTP_WIRE_EAFORMAT:
	case XTP_WIRE_ETFORMAT:
		return XTP_MIB_INBADFORMAT;
	default:
		return XTP_MIB_INBADLEN;
	}
}

static int xtp_rcv(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);
	struct xtp_wire_pkt pkt;
	int err;

	XTP_INC_STATS(net, XTP_MIB_INPKTS);
	/* The codec works on one flat buffer: header, segments and data. */
	if (skb_linearize(skb)) {
		XTP_INC_STATS(net, XTP_MIB_INNOMEM);
		goto drop;
	}
	err = xtp_wire_decode(skb->data, skb->len, 0, &pkt);
	if (err) {
		XTP_INC_STATS(net, xtp_decode_drop_reason(err));
		goto drop;
	}
	/* No context can match yet. */
	XTP_INC_STATS(net, XTP_MIB_INNOCONTEXT);
drop:
	kfree_skb(skb);
	return 0;
}

static int xtp_err(struct sk_buff *skb, u32 info)
{
	XTP_INC_STATS(dev_net(skb->dev), XTP_MIB_INICMPERRORS);
	return 0;
}

const struct net_protocol xtp_net_protocol = {
	.handler	= xtp_rcv,
	.err_handler	= xtp_err,
};
