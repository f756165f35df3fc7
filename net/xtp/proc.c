// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: /proc/net/xtp, one directory per network namespace.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/ip.h>
#include <net/net_namespace.h>
#include <net/proto_snmp.h>

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
	[XTP_MIB_PMTUREDUCED]	= "PmtuReduced",
	[XTP_MIB_PMTUBLACKHOLE]	= "PmtuBlackhole",
	[XTP_MIB_AVLIMITED]	= "AvLimited",
	[XTP_MIB_AVEVICTED]	= "AvEvicted",
	[XTP_MIB_AVEXPIRED]	= "AvExpired",
	[XTP_MIB_INBEYONDALLOC]	= "InBeyondAlloc",
	[XTP_MIB_ATMRECYCLED]	= "AtmRecycled",
	[XTP_MIB_MEMPRESSURES]	= "MemoryPressures",
	[XTP_MIB_RCVQDROP]	= "RcvQDrop",
	[XTP_MIB_INEARLY]	= "InEarly",
	[XTP_MIB_HANDSHAKELOSSES] = "HandshakeLosses",
	[XTP_MIB_OUTTRAINS]	= "OutTrains",
	[XTP_MIB_INTRAINS]	= "InTrains",
	[XTP_MIB_SPURIOUSLOSSES] = "SpuriousLosses",
	[XTP_MIB_CWNDUNDOS]	= "CwndUndos",
	[XTP_MIB_SENDTIMERLATE]	= "SendTimerLate",
};

static int xtp_snmp_show(struct seq_file *seq, void *v)
{
	proto_snmp_show(seq, "Xtp", xtp_mib_names,
			xtp_net(seq_file_single_net(seq))->mib, __XTP_MIB_MAX);
	return 0;
}

/*
 * /proc/net/xtp/contexts: one line per XTP socket, under socks_lock.  The
 * position counts sockets across the buckets of xtp_net.socks.
 */
static struct hlist_node *xtp_socks_from(struct xtp_net *xn, int bucket)
{
	for (; bucket < XTP_SOCKS_HASH_SIZE; bucket++)
		if (!hlist_empty(&xn->socks[bucket]))
			return xn->socks[bucket].first;
	return NULL;
}

static struct hlist_node *xtp_socks_after(struct xtp_net *xn,
					  struct hlist_node *node)
{
	struct sock *sk = &hlist_entry(node, struct xtp_sock,
				       net_node)->inet.sk;

	if (node->next)
		return node->next;
	return xtp_socks_from(xn, hash_ptr(sk, ilog2(XTP_SOCKS_HASH_SIZE)) + 1);
}

static void *xtp_socks_start(struct seq_file *seq, loff_t *pos)
	__acquires(&xtp_net(seq_file_net(seq))->socks_lock)
{
	struct xtp_net *xn = xtp_net(seq_file_net(seq));
	struct hlist_node *node;
	loff_t n = *pos;

	spin_lock_bh(&xn->socks_lock);
	if (!n)
		return SEQ_START_TOKEN;
	for (node = xtp_socks_from(xn, 0); node && --n;
	     node = xtp_socks_after(xn, node))
		;
	return node;
}

static void *xtp_socks_next(struct seq_file *seq, void *v, loff_t *pos)
{
	struct xtp_net *xn = xtp_net(seq_file_net(seq));

	++*pos;
	if (v == SEQ_START_TOKEN)
		return xtp_socks_from(xn, 0);
	return xtp_socks_after(xn, v);
}

static void xtp_socks_stop(struct seq_file *seq, void *v)
	__releases(&xtp_net(seq_file_net(seq))->socks_lock)
{
	spin_unlock_bh(&xtp_net(seq_file_net(seq))->socks_lock);
}

static const char *const xtp_state_names[] = {
	[XTP_SS_ACTIVE]		= "ACTIVE",
	[XTP_SS_FIRST_SENT]	= "FIRST_SENT",
	[XTP_SS_ZOMBIE]		= "ZOMBIE",
	[XTP_SS_CLOSED]		= "CLOSED",
	[XTP_SS_LISTEN]		= "LISTEN",
};

/**
 * xtp_state_name() - a context's state in XTP's words
 * @state: &enum xtp_state
 *
 * Return: its name; "CLOSED" for a value no XTP context takes.
 */
const char *xtp_state_name(int state)
{
	if ((unsigned int)state >= ARRAY_SIZE(xtp_state_names) ||
	    !xtp_state_names[state])
		return "CLOSED";
	return xtp_state_names[state];
}

static int xtp_socks_show(struct seq_file *seq, void *v)
{
	struct xtp_sock *xs;
	struct sock *sk;
	__be32 saddr;

	if (v == SEQ_START_TOKEN) {
		seq_puts(seq, "local_address remote_address state key peer_key snd_una snd_nxt rcv_nxt tx_queue rx_queue uid inode drops\n");
		return 0;
	}
	xs = hlist_entry(v, struct xtp_sock, net_node);
	sk = &xs->inet.sk;
	/* connect() picks the source address without binding to it. */
	saddr = inet_sk(sk)->inet_saddr ?: sk->sk_rcv_saddr;
	seq_printf(seq, "%pI4:%u %pI4:%u %s %016llx %016llx %llu %llu %llu %d %d %u %lu %d\n",
		   &saddr, inet_sk(sk)->inet_num,
		   &sk->sk_daddr, ntohs(sk->sk_dport),
		   xtp_state_name(READ_ONCE(sk->sk_state)),
		   READ_ONCE(xs->lkey), READ_ONCE(xs->pkey),
		   READ_ONCE(xs->snd.una), READ_ONCE(xs->snd.nxt),
		   READ_ONCE(xs->rcv.nxt), READ_ONCE(sk->sk_wmem_queued),
		   sk_rmem_alloc_get(sk),
		   from_kuid_munged(seq_user_ns(seq), sock_i_uid(sk)),
		   sock_i_ino(sk), atomic_read(&sk->sk_drops));
	return 0;
}

/* /proc/net/xtp/atm: the Address Translation Map. */
static int xtp_atm_show(struct seq_file *seq, void *v)
{
	seq_puts(seq, "initiator key state replay_ms\n");
	xtp_atm_seq_show(seq, seq_file_single_net(seq));
	return 0;
}

static const struct seq_operations xtp_socks_ops = {
	.start	= xtp_socks_start,
	.next	= xtp_socks_next,
	.stop	= xtp_socks_stop,
	.show	= xtp_socks_show,
};

int xtp_proc_init_net(struct net *net)
{
	struct proc_dir_entry *dir;

	dir = proc_net_mkdir(net, "xtp", net->proc_net);
	if (!dir)
		return -ENOMEM;
	if (!proc_create_net_single("snmp", 0444, dir, xtp_snmp_show, NULL) ||
	    !proc_create_net("contexts", 0444, dir, &xtp_socks_ops,
			     sizeof(struct seq_net_private)) ||
	    !proc_create_net_single("atm", 0444, dir, xtp_atm_show, NULL)) {
		remove_proc_subtree("xtp", net->proc_net);
		return -ENOMEM;
	}
	return 0;
}

void xtp_proc_exit_net(struct net *net)
{
	remove_proc_subtree("xtp", net->proc_net);
}
