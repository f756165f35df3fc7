// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: module load and unload, registration with the socket layer,
 * per-namespace state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/protocol.h>
#include <net/udp.h>
#include <net/net_namespace.h>

#include "compat.h"
#include "mtp.h"

unsigned int mtp_net_id __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(mtp_net_id);

/* MTP rides on UDP, so its socket type is registered under IPPROTO_UDP. */
static struct inet_protosw mtp_protosw = {
	.type		= SOCK_MTP,
	.protocol	= IPPROTO_UDP,
	.prot		= &mtp_prot,
	.ops		= &mtp_dgram_ops,
};

static int __net_init mtp_net_init(struct net *net)
{
	struct mtp_net *mn = mtp_net(net);
	int err;

	mn->mib = alloc_percpu(struct mtp_mib);
	if (!mn->mib)
		return -ENOMEM;
	INIT_HLIST_HEAD(&mn->socks);
	spin_lock_init(&mn->socks_lock);
	err = mtp_hosts_init_net(mn);
	if (err)
		goto out_mib;
	err = mtp_sysctl_init_net(net);
	if (err)
		goto out_hosts;
	err = mtp_proc_init_net(net);
	if (err)
		goto out_sysctl;
	return 0;

out_sysctl:
	mtp_sysctl_exit_net(net);
out_hosts:
	mtp_hosts_exit_net(mn);
out_mib:
	free_percpu(mn->mib);
	return err;
}

static void __net_exit mtp_net_exit(struct net *net)
{
	mtp_proc_exit_net(net);
	mtp_sysctl_exit_net(net);
	mtp_hosts_exit_net(mtp_net(net));
	free_percpu(mtp_net(net)->mib);
}

static struct pernet_operations mtp_net_ops = {
	.init	= mtp_net_init,
	.exit	= mtp_net_exit,
	.id	= &mtp_net_id,
	.size	= sizeof(struct mtp_net),
};

static int __init mtp_init(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct mtp_skb_cb) >
		     sizeof_field(struct sk_buff, cb));
	mtp_mem_init();
	err = mtp_client_init();
	if (err)
		return err;
	err = register_pernet_subsys(&mtp_net_ops);
	if (err)
		goto out_client;
	err = proto_register(&mtp_prot, 1);
	if (err)
		goto out_pernet;
	/*
	 * Each socket's UDP tunnel takes a reference to the encapsulation
	 * static key; with none of our own, the first socket to open and
	 * the last to close patched kernel text (a jump label) every time.
	 * CI's QEMU TCG guest once took an "Oops: int3" in udp_destroy_sock()
	 * as a close patched it.  Held while the module is loaded, the key
	 * only counts.
	 */
	udp_encap_enable();
	inet_register_protosw(&mtp_protosw);
	pr_info("MTP transactions registered (socket type %d)\n",
		SOCK_MTP);
	return 0;

out_pernet:
	unregister_pernet_subsys(&mtp_net_ops);
out_client:
	mtp_client_exit();
	return err;
}

static void __exit mtp_exit(void)
{
	inet_unregister_protosw(&mtp_protosw);
	udp_encap_disable();
	proto_unregister(&mtp_prot);
	unregister_pernet_subsys(&mtp_net_ops);
	mtp_client_exit();
}

module_init(mtp_init);
module_exit(mtp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("MTP, the Multipurpose Transaction Protocol, over UDP");
/*
 * socket(AF_INET, SOCK_MTP, 0) and socket(AF_INET, SOCK_MTP, IPPROTO_UDP);
 * IPPROTO_UDP is an enum, so the number is spelled out.
 */
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, 0, SOCK_MTP);
MODULE_ALIAS("net-pf-" __stringify(PF_INET) "-proto-17-type-"
	     __stringify(SOCK_MTP));
