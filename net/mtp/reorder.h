/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP: how many subrequests a later answer must overtake before a client
 * transaction takes the range it did not get for lost (reorder.c).  Pure
 * code, so the unit tests build it in user space.
 */
#ifndef _NET_MTP_REORDER_H
#define _NET_MTP_REORDER_H

#include <linux/types.h>

/* The deepest the depth goes. */
#define MTP_REORDER_MAX		0x8000
/* Early losses without a duplicate before the depth steps back down. */
#define MTP_REORDER_CALM	16

/**
 * struct mtp_reorder - a transaction's early loss depth
 * @depth: current depth in subrequests, 0 for no early detection
 * @base: net.mtp.reorder when the transaction began: the floor
 * @raised: subrequest sequence number when @depth last went up
 * @calm: early losses since then that no duplicate followed
 */
struct mtp_reorder {
	u32 depth;
	u32 base;
	u32 raised;
	u32 calm;
};

void mtp_reorder_init(struct mtp_reorder *o, u32 base);
void mtp_reorder_dup(struct mtp_reorder *o, u32 seq);
void mtp_reorder_early_loss(struct mtp_reorder *o);

#endif /* _NET_MTP_REORDER_H */
