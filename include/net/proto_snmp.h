/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP and MTP: /proc/net/{xtp,mtp}/snmp, the per-namespace counters.
 */
#ifndef _NET_PROTO_SNMP_H
#define _NET_PROTO_SNMP_H

#include <linux/seq_file.h>
#include <net/ip.h>

/**
 * proto_snmp_show() - one "ProtoName value" line per counter
 * @seq: the file
 * @proto: the names' prefix ("Xtp", "Mtp")
 * @names: the counters' names, by index
 * @mib: the per-CPU counters, an array of unsigned long
 * @n: how many
 *
 * /proc/net/snmp6's format: the names carry the protocol, as
 * Ip6InReceives does, so nstat can merge the file with the others it
 * reads.
 */
static inline void proto_snmp_show(struct seq_file *seq, const char *proto,
				   const char *const *names,
				   void __percpu *mib, int n)
{
	int i;

	for (i = 0; i < n; i++)
		seq_printf(seq, "%s%-29s\t%lu\n", proto, names[i],
			   snmp_fold_field(mib, i));
}

#endif /* _NET_PROTO_SNMP_H */
