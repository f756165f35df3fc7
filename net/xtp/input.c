// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: packets from IPv4.
 */
#include <linux/skbuff.h>
#include <net/protocol.h>

#include "xtp.h"

static int xtp_rcv(struct sk_buff *skb)
{
	struct net *net = dev_net(skb->dev);

	XTP_INC_STATS(net, XTP_MIB_INPKTS);
	if (!pskb_may_pull(skb, 32)) {
		XTP_INC_STATS(net, XTP_MIB_INTRUNCATED);
		goto drop;
	}
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
