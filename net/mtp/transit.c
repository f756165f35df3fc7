// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: bookkeeping of the bytes a client transaction has in transit.
 *
 * A transaction asks for ranges of the object; each request adds a range
 * here, each response removes what it brought (splitting a range when the
 * middle arrives first), a server's smaller per-request limit cuts them,
 * and the loss timer forgets the ranges that did not come so they are
 * asked for again.  The ranges stay disjoint and sorted, and @bytes is
 * their total, so the window check is one comparison.
 *
 * The role of SCTP's tsnmap.c, for byte ranges.  No locking: the caller
 * holds the socket's lock.  Pure code beyond the list and the slab
 * cache, so selftests/unit/test_mtp_transit.c builds it in user space.
 */
#include <linux/minmax.h>

#include "transit.h"

/**
 * mtp_transit_init() - an empty set
 * @tr: the set
 * @cache: slab cache of &struct mtp_range
 */
void mtp_transit_init(struct mtp_transit *tr, struct kmem_cache *cache)
{
	INIT_LIST_HEAD(&tr->ranges);
	tr->cache = cache;
	tr->nranges = 0;
	tr->bytes = 0;
}

/**
 * mtp_transit_charge() - count bytes in transit that have no range
 * @tr: the set, empty
 * @bytes: what the initial request asks for
 *
 * The initial request's size is known only from its limit; the first
 * response replaces the charge with a range (mtp_transit_clear(), then
 * mtp_transit_add()).
 */
void mtp_transit_charge(struct mtp_transit *tr, u32 bytes)
{
	tr->bytes += bytes;
}

static u32 mtp_transit_free(struct mtp_transit *tr, struct mtp_range *r)
{
	u32 len = (u32)(r->end - r->start);

	list_del(&r->node);
	tr->nranges--;
	kmem_cache_free(tr->cache, r);
	return len;
}

/**
 * mtp_transit_add() - [@s, @e) was asked for
 * @tr: the set; no range of it overlaps [@s, @e)
 * @s: first byte
 * @e: byte after the last, > @s
 * @seq: the subrequest's sequence number
 * @now: when (jiffies)
 *
 * Return: false if there is no room or memory: nothing was counted, and
 * the caller does not send the request.
 */
bool mtp_transit_add(struct mtp_transit *tr, u64 s, u64 e, u32 seq,
		     unsigned long now)
{
	struct mtp_range *r, *pos;

	if (tr->nranges >= MTP_TRANSIT_MAX)
		return false;
	r = kmem_cache_alloc(tr->cache, GFP_ATOMIC);
	if (!r)
		return false;
	*r = (struct mtp_range){
		.start = s, .end = e, .sent = now, .seq = seq,
	};
	/* New ranges are usually the highest: search from the tail. */
	list_for_each_entry_reverse(pos, &tr->ranges, node)
		if (pos->start < s)
			break;
	list_add(&r->node, &pos->node);
	tr->nranges++;
	tr->bytes += (u32)(e - s);
	return true;
}

/**
 * mtp_transit_find() - the range that holds byte @s
 * @tr: the set
 * @s: the byte
 *
 * Return: the range, or %NULL if @s is not in transit.
 */
struct mtp_range *mtp_transit_find(struct mtp_transit *tr, u64 s)
{
	struct mtp_range *r;

	/* Answers come mostly to the latest requests: from the tail. */
	list_for_each_entry_reverse(r, &tr->ranges, node) {
		if (r->start <= s)
			return s < r->end ? r : NULL;
	}
	return NULL;
}

/* [@os, @oe) of @r arrived, and is neither end of it: split @r. */
static u32 mtp_transit_split(struct mtp_transit *tr, struct mtp_range *r,
			     u64 os, u64 oe)
{
	struct mtp_range *n = NULL;
	u32 gone = (u32)(oe - os);

	if (tr->nranges < MTP_TRANSIT_MAX)
		n = kmem_cache_alloc(tr->cache, GFP_ATOMIC);
	if (!n) {
		/* Forget the tail: it becomes a gap, asked for again. */
		gone += (u32)(r->end - oe);
		r->end = os;
		return gone;
	}
	*n = *r;
	n->start = oe;
	r->end = os;
	list_add(&n->node, &r->node);
	tr->nranges++;
	return gone;
}

/**
 * mtp_transit_remove() - [@s, @e) arrived
 * @tr: the set
 * @s: first byte
 * @e: byte after the last
 *
 * Return: the bytes no longer in transit.
 */
u32 mtp_transit_remove(struct mtp_transit *tr, u64 s, u64 e)
{
	struct mtp_range *r, *tmp;
	u32 gone = 0;

	list_for_each_entry_safe(r, tmp, &tr->ranges, node) {
		u64 os, oe;

		if (r->start >= e)
			break;
		if (r->end <= s)
			continue;
		os = max(r->start, s);
		oe = min(r->end, e);
		if (os == r->start && oe == r->end) {
			gone += mtp_transit_free(tr, r);
		} else if (os == r->start) {
			gone += (u32)(oe - os);
			r->start = oe;
		} else if (oe == r->end) {
			gone += (u32)(oe - os);
			r->end = os;
		} else {
			gone += mtp_transit_split(tr, r, os, oe);
		}
	}
	tr->bytes -= gone;
	return gone;
}

/**
 * mtp_transit_cut() - no range brings more than @limit bytes nor any
 *	byte from @end on
 * @tr: the set
 * @limit: the server's bytes per request, 0 for no limit
 * @end: the object's end
 *
 * Return: the bytes no longer in transit: they will not come.
 */
u32 mtp_transit_cut(struct mtp_transit *tr, u32 limit, u64 end)
{
	struct mtp_range *r, *tmp;
	u32 gone = 0;

	list_for_each_entry_safe(r, tmp, &tr->ranges, node) {
		u64 e = r->end;

		if (limit && r->end - r->start > limit)
			e = r->start + limit;
		if (e > end)
			e = end;
		if (e <= r->start) {
			gone += mtp_transit_free(tr, r);
		} else if (e < r->end) {
			gone += (u32)(r->end - e);
			r->end = e;
		}
	}
	tr->bytes -= gone;
	return gone;
}

/**
 * mtp_transit_forget() - @r did not arrive: it is to be asked again
 * @tr: the set
 * @r: one of its ranges, freed
 *
 * Return: the bytes no longer in transit.
 */
u32 mtp_transit_forget(struct mtp_transit *tr, struct mtp_range *r)
{
	u32 gone = mtp_transit_free(tr, r);

	tr->bytes -= gone;
	return gone;
}

/**
 * mtp_transit_clear() - forget every range and any charge
 * @tr: the set
 *
 * Return: the bytes no longer in transit.
 */
u32 mtp_transit_clear(struct mtp_transit *tr)
{
	struct mtp_range *r, *tmp;
	u32 gone = tr->bytes;

	list_for_each_entry_safe(r, tmp, &tr->ranges, node)
		mtp_transit_free(tr, r);
	tr->bytes = 0;
	return gone;
}
