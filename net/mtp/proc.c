// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: /proc/net/mtp, one directory per network namespace.
 */
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/ip.h>
#include <net/net_namespace.h>
#include <net/proto_snmp.h>

#include "mtp.h"

static const char *const mtp_mib_names[__MTP_MIB_MAX] = {
	[MTP_MIB_CURRSOCKETS]		= "CurrSockets",
	[MTP_MIB_INDATAGRAMS]		= "InDatagrams",
	[MTP_MIB_INTRUNCATED]		= "InTruncated",
	[MTP_MIB_INBADVERSION]		= "InBadVersion",
	[MTP_MIB_INBADOPTIONS]		= "InBadOptions",
	[MTP_MIB_INBADERROR]		= "InBadError",
	[MTP_MIB_INBADSHIFT]		= "InBadDgramSize",
	[MTP_MIB_INBADSIZE]		= "InBadSize",
	[MTP_MIB_INBADRANGE]		= "InBadRange",
	[MTP_MIB_INNOTXN]		= "InNoTransaction",
	[MTP_MIB_INRCVBUFERRORS]	= "InRcvbufErrors",
	[MTP_MIB_INNOMEM]		= "InNoMem",
	[MTP_MIB_INREQUESTS]		= "InRequests",
	[MTP_MIB_INRESPONSES]		= "InResponses",
	[MTP_MIB_INDUPLICATES]		= "InDuplicates",
	[MTP_MIB_OUTREQUESTS]		= "OutRequests",
	[MTP_MIB_OUTREPEATS]		= "OutRepeats",
	[MTP_MIB_OUTRESPONSES]		= "OutResponses",
	[MTP_MIB_OUTERRORS]		= "OutErrors",
	[MTP_MIB_LOSSES]		= "Losses",
	[MTP_MIB_TXNSTARTED]		= "TxnStarted",
	[MTP_MIB_TXNDONE]		= "TxnDone",
	[MTP_MIB_TXNFAILED]		= "TxnFailed",
	[MTP_MIB_TXNEXPIRED]		= "TxnExpired",
	[MTP_MIB_TXNABORTED]		= "TxnAborted",
	[MTP_MIB_SRVDROPS]		= "SrvDrops",
	[MTP_MIB_CACHEHITS]		= "CacheHits",
	[MTP_MIB_CACHEMISSES]		= "CacheMisses",
	[MTP_MIB_KERNELREPLIES]		= "KernelReplies",
	[MTP_MIB_SRVRECORDS]		= "SrvRecords",
	[MTP_MIB_SRVCACHEDBYTES]	= "SrvCachedBytes",
	[MTP_MIB_SRVEVICTIONS]		= "SrvEvictions",
	[MTP_MIB_SRVPENDDROPS]		= "SrvPendDrops",
	[MTP_MIB_EARLYLOSSES]		= "EarlyLosses",
	[MTP_MIB_SQUEEZES]		= "Squeezes",
	[MTP_MIB_OUTPENDING]		= "OutPending",
	[MTP_MIB_INPENDING]		= "InPending",
	[MTP_MIB_INNOTUNICAST]		= "InNotUnicast",
	[MTP_MIB_KERNELRATEDROPS]	= "KernelRateDrops",
	[MTP_MIB_SRVAMPLIMITED]		= "SrvAmpLimited",
	[MTP_MIB_OUTVALIDATE]		= "OutValidate",
	[MTP_MIB_SRVVALIDATED]		= "SrvValidated",
	[MTP_MIB_INBADTOKEN]		= "InBadToken",
	[MTP_MIB_INFILTERED]		= "InFiltered",
	[MTP_MIB_INUNREACH]		= "InUnreach",
	[MTP_MIB_CONGCUTS]		= "CongCuts",
	[MTP_MIB_RANDOMLOSSES]		= "RandomLosses",
	[MTP_MIB_RCVBUFGROWS]		= "RcvbufGrows",
};

static int mtp_snmp_show(struct seq_file *seq, void *v)
{
	proto_snmp_show(seq, "Mtp", mtp_mib_names,
			mtp_net(seq_file_single_net(seq))->mib, __MTP_MIB_MAX);
	return 0;
}

/* /proc/net/mtp/sockets: one line per MTP socket, under socks_lock. */
static void *mtp_socks_start(struct seq_file *seq, loff_t *pos)
	__acquires(&mtp_net(seq_file_net(seq))->socks_lock)
{
	struct mtp_net *mn = mtp_net(seq_file_net(seq));

	spin_lock_bh(&mn->socks_lock);
	return seq_hlist_start_head(&mn->socks, *pos);
}

static void *mtp_socks_next(struct seq_file *seq, void *v, loff_t *pos)
{
	return seq_hlist_next(v, &mtp_net(seq_file_net(seq))->socks, pos);
}

static void mtp_socks_stop(struct seq_file *seq, void *v)
	__releases(&mtp_net(seq_file_net(seq))->socks_lock)
{
	spin_unlock_bh(&mtp_net(seq_file_net(seq))->socks_lock);
}

static int mtp_socks_show(struct seq_file *seq, void *v)
{
	struct mtp_sock *ms;
	struct sock *sk;

	if (v == SEQ_START_TOKEN) {
		seq_puts(seq, "local_address txns records cached_bytes tx_queue rx_queue uid inode drops\n");
		return 0;
	}
	ms = hlist_entry(v, struct mtp_sock, net_node);
	sk = mtp_to_sk(ms);
	seq_printf(seq, "%pI4:%u %u %u %zu %d %d %u %lu %d\n",
		   &ms->inet.inet_rcv_saddr, ntohs(ms->inet.inet_sport),
		   READ_ONCE(ms->nctxn), READ_ONCE(ms->nsrec),
		   READ_ONCE(ms->cached), READ_ONCE(sk->sk_wmem_queued),
		   sk_rmem_alloc_get(sk),
		   from_kuid_munged(seq_user_ns(seq), sock_i_uid(sk)),
		   sock_i_ino(sk), atomic_read(&sk->sk_drops));
	return 0;
}

static const struct seq_operations mtp_socks_ops = {
	.start	= mtp_socks_start,
	.next	= mtp_socks_next,
	.stop	= mtp_socks_stop,
	.show	= mtp_socks_show,
};

/* /proc/net/mtp/transactions: one line per client transaction. */
static int mtp_txns_show(struct seq_file *seq, void *v)
{
	struct mtp_net *mn = mtp_net(seq_file_single_net(seq));
	struct mtp_sock *ms;

	seq_puts(seq, "local_address remote_address reqid state received window dgram rtt_avg_us rtt_min_us requests repeats\n");
	spin_lock_bh(&mn->socks_lock);
	hlist_for_each_entry(ms, &mn->socks, net_node)
		mtp_client_seq_show(seq, ms);
	spin_unlock_bh(&mn->socks_lock);
	return 0;
}

int mtp_proc_init_net(struct net *net)
{
	struct proc_dir_entry *dir;

	dir = proc_net_mkdir(net, "mtp", net->proc_net);
	if (!dir)
		return -ENOMEM;
	if (!proc_create_net_single("snmp", 0444, dir, mtp_snmp_show, NULL) ||
	    !proc_create_net("sockets", 0444, dir, &mtp_socks_ops,
			     sizeof(struct seq_net_private)) ||
	    !proc_create_net_single("transactions", 0444, dir, mtp_txns_show,
				    NULL)) {
		remove_proc_subtree("mtp", net->proc_net);
		return -ENOMEM;
	}
	return 0;
}

void mtp_proc_exit_net(struct net *net)
{
	remove_proc_subtree("mtp", net->proc_net);
}
