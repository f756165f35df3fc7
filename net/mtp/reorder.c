// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: the early loss depth of a client transaction (reorder.h).
 *
 * A range is taken for lost when the answer to a subrequest sent @depth
 * subrequests after it arrives first (client.c, mtp_txn_early_loss()).
 * An answer that comes after all, a duplicate, shows the path or the
 * server reorders by more than that, so the depth doubles, once per
 * reordering: one late burst brings a duplicate for each range it
 * overtook, and each of them is the same evidence.  Doubling on every
 * duplicate took a depth of 3 past 24000 in one 20 ms burst of 14 (a
 * 2 MB fetch through 10% loss): early detection was off for the rest of
 * the transfer and every later loss waited for the repeat interval.  A
 * server whose application answers some requests after its kernel's
 * copy answered later ones reorders by hundreds, so the depth may grow
 * as far; it halves again after %MTP_REORDER_CALM early losses that no
 * duplicate contradicted, down to where it started, as TCP's RACK
 * widens its reordering window per DSACK round and resets it after 16
 * clean recoveries.
 */
#include <linux/minmax.h>

#include "reorder.h"

/**
 * mtp_reorder_init() - a new transaction's depth
 * @o: state
 * @base: net.mtp.reorder, 0 for no early detection
 */
void mtp_reorder_init(struct mtp_reorder *o, u32 base)
{
	base = min_t(u32, base, MTP_REORDER_MAX);
	*o = (struct mtp_reorder){ .depth = base, .base = base };
}

/**
 * mtp_reorder_dup() - an answer brought only bytes the client had
 * @o: state
 * @seq: the transaction's subrequest sequence number now
 *
 * The first duplicate of a reordering doubles the depth; those that
 * come within the next @depth subrequests are of the same reordering.
 */
void mtp_reorder_dup(struct mtp_reorder *o, u32 seq)
{
	if (!o->base)
		return;
	o->calm = 0;
	if (o->depth > o->base && seq - o->raised < o->depth)
		return;
	o->depth = min_t(u32, o->depth * 2, MTP_REORDER_MAX);
	o->raised = seq;
}

/**
 * mtp_reorder_early_loss() - a range was taken for lost by the depth
 * @o: state
 */
void mtp_reorder_early_loss(struct mtp_reorder *o)
{
	if (o->depth <= o->base || ++o->calm < MTP_REORDER_CALM)
		return;
	o->depth = max(o->depth / 2, o->base);
	o->calm = 0;
}
