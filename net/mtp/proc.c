// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: /proc/net/mtp, one directory per network namespace.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/ip.h>
#include <net/net_namespace.h>

#include "mtp.h"

static const char *const mtp_mib_names[__MTP_MIB_MAX] = {
	[MTP_MIB_CURRSOCKETS]	= "CurrSockets",
};

static int mtp_snmp_show(struct seq_file *seq, void *v)
{
	struct mtp_net *mn = mtp_net(seq_file_single_net(seq));
	int i;

	for (i = 0; i < __MTP_MIB_MAX; i++)
		seq_printf(seq, "%-32s\t%lu\n", mtp_mib_names[i],
			   snmp_fold_field(mn->mib, i));
	return 0;
}

int mtp_proc_init_net(struct net *net)
{
	struct proc_dir_entry *dir;

	dir = proc_net_mkdir(net, "mtp", net->proc_net);
	if (!dir)
		return -ENOMEM;
	if (!proc_create_net_single("snmp", 0444, dir, mtp_snmp_show, NULL)) {
		remove_proc_subtree("mtp", net->proc_net);
		return -ENOMEM;
	}
	return 0;
}

void mtp_proc_exit_net(struct net *net)
{
	remove_proc_subtree("mtp", net->proc_net);
}
