// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: module load and unload, registration with IPv4 and the socket
 * layer, per-namespace state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/protocol.h>
#include <net/net_namespace.h>

#include "xtp.h"

unsigned int xtp_net_id __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(xtp_net_id);

/*
 * SOCK_XTP is the thesis' interface; SOCK_STREAM and SOCK_SEQPACKET with
 * IPPROTO_XTP give the same contexts to programs that know those types
 * (SEQPACKET keeps EOM record boundaries).  Protocol 0 with SOCK_STREAM
 * stays TCP's: TCP's entry comes first.
 */
static struct inet_protosw xtp_protosw[] = {
	{
		.type		= SOCK_XTP,
		.protocol	= IPPROTO_XTP,
		.prot		= &xtp_prot,
		.ops		= &xtp_stream_ops,
	},
	{
		.type		= SOCK_STREAM,
		.protocol	= IPPROTO_XTP,
		.prot		= &xtp_prot,
		.ops		= &xtp_stream_ops,
	},
	{
		.type		= SOCK_SEQPACKET,
		.protocol	= IPPROTO_XTP,
		.prot		= &xtp_prot,
		.ops		= &xtp_stream_ops,
	},
};

static int __net_init xtp_net_init(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);
	int err;

	xn->mib = alloc_percpu(struct xtp_mib);
	if (!xn->mib)
		return -ENOMEM;
	err = xtp_sysctl_init_net(net);
	if (err)
		goto out_mib;
	err = xtp_ctx_init_net(net);
	if (err)
		goto out_sysctl;
	err = xtp_atm_init_net(net);
	if (err)
		goto out_ctx;
	err = xtp_proc_init_net(net);
	if (err)
		goto out_atm;
	return 0;

out_atm:
	xtp_atm_exit_net(net);
out_ctx:
	xtp_ctx_exit_net(net);
out_sysctl:
	xtp_sysctl_exit_net(net);
out_mib:
	free_percpu(xn->mib);
	return err;
}

static void __net_exit xtp_net_exit(struct net *net)
{
	xtp_proc_exit_net(net);
	xtp_atm_exit_net(net);
	xtp_ctx_exit_net(net);
	xtp_sysctl_exit_net(net);
	free_percpu(xtp_net(net)->mib);
}

static struct pernet_operations xtp_net_ops = {
	.init	= xtp_net_init,
	.exit	= xtp_net_exit,
	.id	= &xtp_net_id,
	.size	= sizeof(struct xtp_net),
};

/*
 * Each step is undone in reverse order if a later one fails, so a failed
 * load leaves nothing registered.  The pernet state comes first because
 * packets and sockets may arrive as soon as the protocol is registered.
 */
static int __init xtp_init(void)
{
	int i, err;

	BUILD_BUG_ON(sizeof(struct xtp_skb_cb) >
		     sizeof_field(struct sk_buff, cb));
	xtp_mem_init();
	err = percpu_counter_init(&xtp_sockets_allocated, 0, GFP_KERNEL);
	if (err)
		return err;
	err = register_pernet_subsys(&xtp_net_ops);
	if (err)
		goto out_counter;
	err = xtp_sysctl_init();
	if (err)
		goto out_pernet;
	err = proto_register(&xtp_prot, 1);
	if (err)
		goto out_sysctl;
	/* Before the handler: no train may arrive that cannot be split. */
	err = xtp_offload_init();
	if (err) {
		pr_err("IP protocol %d has an offload already\n", IPPROTO_XTP);
		err = -EBUSY;
		goto out_proto;
	}
	err = inet_add_protocol(&xtp_net_protocol, IPPROTO_XTP);
	if (err) {
		pr_err("IP protocol %d is taken\n", IPPROTO_XTP);
		err = -EBUSY;
		goto out_offload;
	}
	for (i = 0; i < ARRAY_SIZE(xtp_protosw); i++)
		inet_register_protosw(&xtp_protosw[i]);
	pr_info("XTP 4.0 registered (IP protocol %d, socket type %d)\n",
		IPPROTO_XTP, SOCK_XTP);
	return 0;

out_offload:
	xtp_offload_exit();
out_proto:
	proto_unregister(&xtp_prot);
out_sysctl:
	xtp_sysctl_exit();
out_pernet:
	unregister_pernet_subsys(&xtp_net_ops);
out_counter:
	percpu_counter_destroy(&xtp_sockets_allocated);
	return err;
}

static void __exit xtp_exit(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(xtp_protosw); i++)
		inet_unregister_protosw(&xtp_protosw[i]);
	inet_del_protocol(&xtp_net_protocol, IPPROTO_XTP);
	xtp_offload_exit();
	/*
	 * No CPU may still run xtp_rcv() or xtp_gso_segment() once the
	 * pernet state goes.
	 */
	synchronize_net();
	proto_unregister(&xtp_prot);
	xtp_sysctl_exit();
	unregister_pernet_subsys(&xtp_net_ops);
	percpu_counter_destroy(&xtp_sockets_allocated);
}

module_init(xtp_init);
module_exit(xtp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("XTP 4.0, the Xpress Transport Protocol");
/* socket(AF_INET, SOCK_XTP, IPPROTO_XTP) and socket(AF_INET, SOCK_XTP, 0) */
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, IPPROTO_XTP, SOCK_XTP);
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, 0, SOCK_XTP);
/*
 * SOCK_STREAM and SOCK_SEQPACKET are enumerators, which the macro would
 * stringify by name; inet_create() asks for their numbers.
 */
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, IPPROTO_XTP, 1);	/* SOCK_STREAM */
MODULE_ALIAS_NET_PF_PROTO_TYPE(PF_INET, IPPROTO_XTP, 5);	/* SOCK_SEQPACKET */
