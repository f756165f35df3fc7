/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP: the object ranges a client transaction has asked for and neither
 * received nor declared lost (transit.c).  Pure code on a list and a
 * slab cache, so the unit tests build it in user space.
 */
#ifndef _NET_MTP_TRANSIT_H
#define _NET_MTP_TRANSIT_H

#include <linux/list.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "rate.h"

/* Ranges one transaction keeps at most: a split beyond it drops a tail. */
#define MTP_TRANSIT_MAX		512

/**
 * struct mtp_range - object bytes requested and not yet received
 * @node: in &mtp_transit.ranges, sorted by @start
 * @start: first byte
 * @end: byte after the last
 * @sent: when the request went out (jiffies)
 * @seq: subrequest sequence number of that request, 0 for the initial one
 * @nodata: the server had no data for it yet (stream): not a loss
 * @pending: the server said the request waits for its application
 *	(%MTP_RES_PENDING): not a loss, and not overtaken by later answers
 * @st: the request's delivery-rate stamp (rate.c), unset for none
 */
struct mtp_range {
	struct list_head node;
	u64 start;
	u64 end;
	unsigned long sent;
	u32 seq;
	bool nodata;
	bool pending;
	struct mtp_rate_stamp st;
};

/**
 * struct mtp_transit - a transaction's bytes in transit
 * @ranges: &struct mtp_range, disjoint, sorted by start
 * @cache: where ranges come from
 * @nranges: entries on @ranges, at most %MTP_TRANSIT_MAX
 * @bytes: bytes counted in transit: the ranges' lengths, and while the
 *	initial request is unanswered what it asked for, which has no
 *	range (mtp_transit_charge())
 *
 * The caller moves the server host's count (&mtp_cc.inflight) with
 * @bytes: by what it adds or charges, and by what the other calls return.
 */
struct mtp_transit {
	struct list_head ranges;
	struct kmem_cache *cache;
	unsigned int nranges;
	u32 bytes;
};

void mtp_transit_init(struct mtp_transit *tr, struct kmem_cache *cache);
void mtp_transit_charge(struct mtp_transit *tr, u32 bytes);
bool mtp_transit_add(struct mtp_transit *tr, u64 s, u64 e, u32 seq,
		     unsigned long now);
struct mtp_range *mtp_transit_find(struct mtp_transit *tr, u64 s);
u32 mtp_transit_remove(struct mtp_transit *tr, u64 s, u64 e);
u32 mtp_transit_cut(struct mtp_transit *tr, u32 limit, u64 end);
u32 mtp_transit_forget(struct mtp_transit *tr, struct mtp_range *r);
u32 mtp_transit_clear(struct mtp_transit *tr);

#endif /* _NET_MTP_TRANSIT_H */
