// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: /proc/net/xtp, one directory per network namespace.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/ip.h>
#include <net/net_namespace.h>

#include "xtp.h"

static const char *const xtp_mib_names[__XTP_MIB_MAX] = {
	[XTP_MIB_INPKTS]	= "InPkts",
	[XTP_MIB_INTRUNCATED]	= "InTruncated",
	[XTP_MIB_INBADVERSION]	= "InBadVersion",
	[XTP_MIB_INBADTYPE]	= "InBadType",
	[XTP_MIB_INBADLEN]	= "InBadLen",
	[XTP_MIB_INBADFORMAT]	= "InBadFormat",
	[XTP_MIB_INCSUMERRORS]	= "InCsumErrors",
	[XTP_MIB_INNOCONTEXT]	= "InNoContext",
	[XTP_MIB_INNOMEM]	= "InNoMem",
	[XTP_MIB_INICMPERRORS]	= "InIcmpErrors",
	[XTP_MIB_INBADPEER]	= "InBadPeer",
	[XTP_MIB_INFILTERED]	= "InFiltered",
	[XTP_MIB_INBADSTATE]	= "InBadState",
	[XTP_MIB_INDUPFIRST]	= "InDupFirst",
	[XTP_MIB_INREPLAYFIRST]	= "InReplayFirst",
	[XTP_MIB_LISTENOVERFLOW] = "ListenOverflow",
	[XTP_MIB_ATMFULL]	= "AtmFull",
	[XTP_MIB_RCVBUFERRORS]	= "RcvbufErrors",
	[XTP_MIB_OUTPKTS]	= "OutPkts",
	[XTP_MIB_OUTDIAGS]	= "OutDiags",
	[XTP_MIB_ACTIVEOPENS]	= "ActiveOpens",
	[XTP_MIB_PASSIVEOPENS]	= "PassiveOpens",
	[XTP_MIB_CURRSOCKETS]	= "CurrSockets",
	[XTP_MIB_ATMENTRIES]	= "AtmEntries",
	[XTP_MIB_OUTECNTLS]	= "OutEcntls",
	[XTP_MIB_RETRANSSEGS]	= "RetransSegs",
	[XTP_MIB_ECNTLLOSSES]	= "EcntlLosses",
	[XTP_MIB_HANDSHAKES]	= "Handshakes",
	[XTP_MIB_HANDSHAKEFAILS] = "HandshakeFails",
	[XTP_MIB_INDUPDATA]	= "InDupData",
	[XTP_MIB_SPURIOUSRTX]	= "SpuriousRtx",
};

/* One "Name value" line per counter, as /proc/net/snmp6 prints them. */
static int xtp_snmp_show(struct seq_file *seq, void *v)
{
	struct xtp_net *xn = xtp_net(seq_file_single_net(seq));
	int i;

	for (i = 0; i < __XTP_MIB_MAX; i++)
		seq_printf(seq, "%-32s\t%lu\n", xtp_mib_names[i],
			   snmp_fold_field(xn->mib, i));
	return 0;
}

int xtp_proc_init_net(struct net *net)
{
	struct proc_dir_entry *dir;

	dir = proc_net_mkdir(net, "xtp", net->proc_net);
	if (!dir)
		return -ENOMEM;
	if (!proc_create_net_single("snmp", 0444, dir, xtp_snmp_show, NULL)) {
		remove_proc_subtree("xtp", net->proc_net);
		return -ENOMEM;
	}
	return 0;
}

void xtp_proc_exit_net(struct net *net)
{
	remove_proc_subtree("xtp", net->proc_net);
}
