/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP: internal declarations shared by the files of the module.
 */
#ifndef _NET_MTP_MTP_H
#define _NET_MTP_MTP_H

#include <linux/types.h>
#include <net/inet_sock.h>
#include <net/netns/generic.h>
#include <net/snmp.h>
#include <uapi/linux/mtp.h>

/**
 * enum mtp_mib_field - per-namespace MTP counters (/proc/net/mtp/snmp)
 * @MTP_MIB_CURRSOCKETS: MTP sockets that exist in the namespace (gauge)
 * @__MTP_MIB_MAX: number of counters
 */
enum mtp_mib_field {
	MTP_MIB_CURRSOCKETS,
	__MTP_MIB_MAX
};

struct mtp_mib {
	unsigned long mibs[__MTP_MIB_MAX];
};

/**
 * struct mtp_net - MTP state of one network namespace
 * @mib: per-CPU counters, folded when read
 */
struct mtp_net {
	struct mtp_mib __percpu *mib;
};

/**
 * struct mtp_sock - an MTP transaction endpoint
 * @inet: the inet socket, first so that inet_sk() works
 */
struct mtp_sock {
	struct inet_sock inet;
};

extern unsigned int mtp_net_id;
extern struct proto mtp_prot;
extern const struct proto_ops mtp_dgram_ops;

static inline struct mtp_net *mtp_net(const struct net *net)
{
	return net_generic(net, mtp_net_id);
}

#define MTP_INC_STATS(net, field) \
	this_cpu_inc(mtp_net(net)->mib->mibs[field])
#define MTP_DEC_STATS(net, field) \
	this_cpu_dec(mtp_net(net)->mib->mibs[field])

int mtp_proc_init_net(struct net *net);
void mtp_proc_exit_net(struct net *net);

#endif /* _NET_MTP_MTP_H */
