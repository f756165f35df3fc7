// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: what a client socket knows of each server host it fetches from,
 * the RTT and the congestion window (cc.c) its transactions share.  An
 * entry outlives its transactions, so that the next transaction to the
 * host repeats its request after a few round trips, not after the
 * configured interval; the idle ones are bounded and age out.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "mtp.h"

#define MTP_DEST_IDLE		16		/* idle entries kept per socket */
#define MTP_DEST_STALE		(600 * HZ)	/* an idle entry forgets then */

static void mtp_dest_init(struct mtp_dest *d, __be32 daddr, u32 dgram)
{
	d->daddr = daddr;
	d->users = 0;
	d->used = jiffies;
	d->starved = false;
	mtp_rtt_init(&d->rtt);
	mtp_cc_init(&d->cc, dgram, jiffies);
}

/* Free the least recently used idle entries beyond MTP_DEST_IDLE. */
static void mtp_dest_trim(struct mtp_sock *ms)
{
	struct mtp_dest *d, *old;
	unsigned int idle;
	int bkt;

	for (;;) {
		idle = 0;
		old = NULL;
		hash_for_each(ms->dests, bkt, d, node) {
			if (d->users)
				continue;
			idle++;
			if (!old || time_before(d->used, old->used))
				old = d;
		}
		if (idle <= MTP_DEST_IDLE)
			return;
		hash_del(&old->node);
		kfree(old);
	}
}

/**
 * mtp_dest_get() - the entry of a host, for a new transaction to it
 * @ms: socket, &mtp_sock.lock held
 * @daddr: the host
 * @dgram: the transaction's datagram size, for a new window
 * @spare: an entry the caller allocated before taking the lock; used
 *	(and cleared) if the host has none yet
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
		if (!d->users && time_after(jiffies, d->used + MTP_DEST_STALE))
			mtp_dest_init(d, daddr, dgram);
		d->users++;
		return d;
	}
	d = *spare;
	if (!d)
		return NULL;
	*spare = NULL;
	mtp_dest_init(d, daddr, dgram);
	hash_add(ms->dests, &d->node, (__force u32)daddr);
	d->users++;
	mtp_dest_trim(ms);
	return d;
}

/**
 * mtp_dest_put() - a transaction to the host ended
 * @d: its entry, &mtp_sock.lock held
 *
 * The entry stays for the next transaction; mtp_dest_get() trims.
 */
void mtp_dest_put(struct mtp_dest *d)
{
	d->users--;
	d->used = jiffies;
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
		hash_del(&d->node);
		kfree(d);
	}
}
