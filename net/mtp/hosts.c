// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: what the client sockets of a namespace learnt of each server
 * host, its round-trip time and its latest address validation token,
 * for the next socket to fetch from it.
 *
 * A socket keeps its own (dest.c) while it lives.  A new one, such as
 * each run of a program, would otherwise wait net.mtp.repeat_ms (1 s)
 * to repeat a first request the path lost, although the host's RTT is
 * known: with 10% loss each way that one second was most of the spread
 * between runs of the same transfer.  tcp_metrics keeps the same for TCP.
 * The token (token.c) proves to the host that we receive at our address,
 * for a minute: a new socket's first request that carries it is answered
 * in full at once, not cut to three times its size while the token makes
 * its round trip (QUIC's NEW_TOKEN serves the same end).
 *
 * A table of %MTP_HOSTS slots per namespace, one slot per hash of the
 * address (keyed per namespace): a host takes the slot of any other.
 * Nothing is allocated per host, so what a namespace keeps is bounded
 * whatever it fetches from; an entry older than %MTP_HOST_STALE is not
 * used.
 */
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "mtp.h"

#define MTP_HOSTS_BITS	8
#define MTP_HOSTS	BIT(MTP_HOSTS_BITS)
#define MTP_HOST_STALE	(600 * HZ)	/* as a socket's idle entry (dest.c) */

/**
 * struct mtp_host - one slot
 * @daddr: the host
 * @stamp: jiffies when a transaction to it last ended
 * @rtt_us: the average RTT its socket had measured then; 0 in a slot
 *	never used
 * @token: its latest token for us
 * @token_at: when that came (jiffies); 0 for none
 */
struct mtp_host {
	__be32 daddr;
	u32 rtt_us;
	unsigned long stamp;
	u64 token;
	unsigned long token_at;
};

/**
 * mtp_hosts_init_net() - the table of a new namespace
 * @mn: its MTP state
 *
 * Return: 0 or -ENOMEM.
 */
int mtp_hosts_init_net(struct mtp_net *mn)
{
	mn->hosts = kvcalloc(MTP_HOSTS, sizeof(*mn->hosts), GFP_KERNEL_ACCOUNT);
	if (!mn->hosts)
		return -ENOMEM;
	spin_lock_init(&mn->hosts_lock);
	mn->hosts_key = get_random_u32();
	return 0;
}

/**
 * mtp_hosts_exit_net() - free a namespace's table
 * @mn: its MTP state
 */
void mtp_hosts_exit_net(struct mtp_net *mn)
{
	kvfree(mn->hosts);
}

static struct mtp_host *mtp_host_slot(struct mtp_net *mn, __be32 daddr)
{
	return &mn->hosts[jhash_1word((__force u32)daddr, mn->hosts_key) &
			  (MTP_HOSTS - 1)];
}

/**
 * mtp_hosts_save() - a transaction to a host ended: keep what we know
 * @mn: MTP state of the socket's namespace
 * @d: the socket's entry of the host; its RTT is kept only if it was
 *	measured (a hint it started from is not passed on again), its token
 *	only if it has one
 */
void mtp_hosts_save(struct mtp_net *mn, const struct mtp_dest *d)
{
	struct mtp_host *h = mtp_host_slot(mn, d->daddr);

	if (!d->rtt.min_us)
		return;
	spin_lock_bh(&mn->hosts_lock);
	if (h->daddr != d->daddr)
		h->token_at = 0;
	h->daddr = d->daddr;
	h->rtt_us = mtp_rtt_avg(&d->rtt);
	h->stamp = jiffies;
	if (d->token_at) {
		h->token = d->token;
		h->token_at = d->token_at;
	}
	spin_unlock_bh(&mn->hosts_lock);
}

/**
 * mtp_hosts_load() - what another socket learnt of a host
 * @mn: MTP state of the socket's namespace
 * @d: a new entry, without RTT samples nor token; given that RTT as a
 *	hint (mtp_rtt_hint()) if it is known and fresh, and the token if it
 *	is still good
 */
void mtp_hosts_load(struct mtp_net *mn, struct mtp_dest *d)
{
	struct mtp_host *h = mtp_host_slot(mn, d->daddr);
	u32 us = 0;

	d->token_at = 0;
	spin_lock_bh(&mn->hosts_lock);
	if (h->daddr == d->daddr) {
		if (time_before(jiffies, h->stamp + MTP_HOST_STALE))
			us = h->rtt_us;
		if (h->token_at &&
		    time_before(jiffies, h->token_at + MTP_TOKEN_KEEP)) {
			d->token = h->token;
			d->token_at = h->token_at;
		}
	}
	spin_unlock_bh(&mn->hosts_lock);
	mtp_rtt_hint(&d->rtt, us);
}
