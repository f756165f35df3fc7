// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: what a client socket knows of each server host it fetches from,
 * the RTT and the congestion window (cc.c) its transactions share.  An
 * entry outlives its transactions, so that the next transaction to the
 * host repeats its request after a few round trips, not after the
 * configured interval; the idle ones are bounded and age out.  A new
 * entry starts from what another socket of the namespace learnt of the
 * host's RTT (hosts.c).
 */
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "mtp.h"

#define MTP_DEST_IDLE		16		/* idle entries kept per socket */
#define MTP_DEST_STALE		(600 * HZ)	/* an idle entry forgets then */

static struct mtp_net *mtp_dest_net(struct mtp_sock *ms)
{
	return mtp_net(sock_net(mtp_to_sk(ms)));
}

static void mtp_dest_init(struct mtp_sock *ms, struct mtp_dest *d,
			  __be32 daddr, u32 dgram, bool bbr)
{
	d->daddr = daddr;
	d->users = 0;
	d->used = jiffies;
	d->starved = false;
	mtp_rtt_init(&d->rtt);
	mtp_hosts_load(mtp_dest_net(ms), d);
	mtp_cc_init(&d->cc, dgram, jiffies);
	d->bbr = bbr;
	mtp_rate_init(&d->rate, ktime_get_ns());
}

/* net.mtp.cc of @ms's namespace chooses the delivery-rate model. */
static bool mtp_dest_wants_bbr(struct mtp_sock *ms)
{
	return READ_ONCE(mtp_dest_net(ms)->cc) == MTP_CC_BBR;
}

static void mtp_dest_free(struct mtp_sock *ms, struct mtp_dest *d)
{
	if (!list_empty(&d->idle)) {
		list_del(&d->idle);
		ms->ndest_idle--;
	}
	hash_del(&d->node);
	kfree(d);
}

/**
 * mtp_dest_get() - the entry of a host, for a new transaction to it
 * @ms: socket, &mtp_sock.lock held
 * @daddr: the host
 * @dgram: the transaction's datagram size, for a new window
 * @spare: an entry the caller allocated before taking the lock; used
 *	(and cleared) if the host has none yet
 *
 * A new entry makes room for itself: the least recently used idle
 * entries beyond %MTP_DEST_IDLE are freed.
 *
 * Return: the entry, with one more user; NULL if the host had none and
 * there was no spare.
 */
struct mtp_dest *mtp_dest_get(struct mtp_sock *ms, __be32 daddr, u32 dgram,
			      struct mtp_dest **spare)
{
	struct mtp_dest *d;

	lockdep_assert_held(&ms->lock);
	hash_for_each_possible(ms->dests, d, node, (__force u32)daddr) {
		if (d->daddr != daddr)
			continue;
		if (!d->users) {
			list_del_init(&d->idle);
			ms->ndest_idle--;
			if (time_after(jiffies, d->used + MTP_DEST_STALE))
				mtp_dest_init(ms, d, daddr, dgram,
					      mtp_dest_wants_bbr(ms));
		}
		d->users++;
		return d;
	}
	d = *spare;
	if (!d)
		return NULL;
	*spare = NULL;
	mtp_dest_init(ms, d, daddr, dgram, mtp_dest_wants_bbr(ms));
	INIT_LIST_HEAD(&d->idle);
	hash_add(ms->dests, &d->node, (__force u32)daddr);
	d->users++;
	while (ms->ndest_idle > MTP_DEST_IDLE)
		mtp_dest_free(ms, list_first_entry(&ms->dest_idle,
						   struct mtp_dest, idle));
	return d;
}

/**
 * mtp_dest_put() - a transaction to the host ended
 * @ms: socket, &mtp_sock.lock held
 * @d: its entry
 *
 * What the socket knows of the host's RTT and its token now serves the
 * namespace's next socket to it (hosts.c).
 *
 * The entry stays for the next transaction, last on the idle list once
 * no transaction uses it; mtp_dest_get() frees the oldest idle one.  It
 * is not freed here: the receive path that ends a transaction still uses
 * the entry afterwards (mtp_dest_kick()).
 */
void mtp_dest_put(struct mtp_sock *ms, struct mtp_dest *d)
{
	lockdep_assert_held(&ms->lock);
	d->used = jiffies;
	mtp_hosts_save(mtp_dest_net(ms), d);
	if (--d->users)
		return;
	list_add_tail(&d->idle, &ms->dest_idle);
	ms->ndest_idle++;
}

/**
 * mtp_dest_flush() - free every entry of a socket whose transactions ended
 * @ms: socket
 */
void mtp_dest_flush(struct mtp_sock *ms)
{
	struct hlist_node *tmp;
	struct mtp_dest *d;
	int bkt;

	hash_for_each_safe(ms->dests, bkt, tmp, d, node) {
		WARN_ON_ONCE(d->users);
		mtp_dest_free(ms, d);
	}
}
