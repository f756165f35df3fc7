// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: holds IP protocol 36 so that loading xtp.ko fails half way
 * and its error unwind can be observed.
 */
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/protocol.h>

static int xtp_blocker_rcv(struct sk_buff *skb)
{
	kfree_skb(skb);
	return 0;
}

static const struct net_protocol xtp_blocker_protocol = {
	.handler = xtp_blocker_rcv,
};

static int __init xtp_blocker_init(void)
{
	return inet_add_protocol(&xtp_blocker_protocol, 36) ? -EBUSY : 0;
}

static void __exit xtp_blocker_exit(void)
{
	inet_del_protocol(&xtp_blocker_protocol, 36);
	synchronize_net();
}

module_init(xtp_blocker_init);
module_exit(xtp_blocker_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("selftest helper: occupies IP protocol 36");
