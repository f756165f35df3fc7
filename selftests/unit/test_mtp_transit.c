// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/mtp/transit.c: the ranges a client
 * transaction has in transit, against a byte map kept beside them.
 */
#include <stdlib.h>

#include "kselftest_harness.h"

#include "transit.h"

#define CACHE { .size = sizeof(struct mtp_range) }

/* The ranges as "s-e s-e ...", for readable failures. */
static const char *ranges(const struct mtp_transit *tr)
{
	static char buf[4096];
	struct mtp_range *r;
	size_t n = 0;

	buf[0] = 0;
	list_for_each_entry(r, &tr->ranges, node)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%llu-%llu",
			      n ? " " : "", (unsigned long long)r->start,
			      (unsigned long long)r->end);
	return buf;
}

/* Sorted, disjoint, non-empty, counted: or the reason why not. */
static const char *invariant(const struct mtp_transit *tr, u32 charge)
{
	struct mtp_range *r;
	unsigned int n = 0;
	u64 sum = 0, last = 0;

	list_for_each_entry(r, &tr->ranges, node) {
		if (r->start >= r->end)
			return "empty range";
		if (n && r->start < last)
			return "unsorted or overlapping";
		last = r->end;
		sum += r->end - r->start;
		n++;
	}
	if (n != tr->nranges)
		return "nranges";
	if (sum + charge != tr->bytes)
		return "bytes";
	return "ok";
}

TEST(add_sorts_and_counts)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	ASSERT_TRUE(mtp_transit_add(&tr, 100, 200, 1, 7));
	ASSERT_TRUE(mtp_transit_add(&tr, 0, 50, 2, 8));
	ASSERT_TRUE(mtp_transit_add(&tr, 300, 310, 3, 9));
	ASSERT_TRUE(mtp_transit_add(&tr, 60, 70, 4, 10));
	EXPECT_STREQ("0-50 60-70 100-200 300-310", ranges(&tr));
	EXPECT_EQ(170, tr.bytes);
	EXPECT_EQ(4, tr.nranges);
	EXPECT_EQ(2, list_first_entry(&tr.ranges, struct mtp_range,
				      node)->seq);
	EXPECT_EQ(8, list_first_entry(&tr.ranges, struct mtp_range,
				      node)->sent);
	EXPECT_EQ(170, mtp_transit_clear(&tr));
	EXPECT_EQ(0, c.live);
}

TEST(remove_whole_front_back)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	mtp_transit_add(&tr, 0, 100, 1, 0);
	mtp_transit_add(&tr, 100, 200, 2, 0);
	mtp_transit_add(&tr, 200, 300, 3, 0);
	EXPECT_EQ(100, mtp_transit_remove(&tr, 100, 200));
	EXPECT_STREQ("0-100 200-300", ranges(&tr));
	EXPECT_EQ(30, mtp_transit_remove(&tr, 0, 30));
	EXPECT_EQ(20, mtp_transit_remove(&tr, 280, 400));
	EXPECT_STREQ("30-100 200-280", ranges(&tr));
	EXPECT_EQ(150, tr.bytes);
	/* Nothing of it in transit: nothing changes. */
	EXPECT_EQ(0, mtp_transit_remove(&tr, 100, 200));
	EXPECT_EQ(0, mtp_transit_remove(&tr, 500, 600));
	EXPECT_STREQ("ok", invariant(&tr, 0));
	/* One answer across both ranges and the gap between. */
	EXPECT_EQ(150, mtp_transit_remove(&tr, 0, 1000));
	EXPECT_TRUE(list_empty(&tr.ranges));
	EXPECT_EQ(0, tr.bytes);
	EXPECT_EQ(0, c.live);
}

/* The middle arrived first: two ranges, each remembering the request. */
TEST(remove_middle_splits)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;
	struct mtp_range *a, *b;

	mtp_transit_init(&tr, &c);
	mtp_transit_add(&tr, 1000, 9000, 5, 42);
	list_first_entry(&tr.ranges, struct mtp_range, node)->pending = true;
	EXPECT_EQ(1000, mtp_transit_remove(&tr, 4000, 5000));
	EXPECT_STREQ("1000-4000 5000-9000", ranges(&tr));
	EXPECT_EQ(7000, tr.bytes);
	EXPECT_EQ(2, tr.nranges);
	a = list_first_entry(&tr.ranges, struct mtp_range, node);
	b = list_next_entry(a, node);
	EXPECT_EQ(5, b->seq);
	EXPECT_EQ(42, b->sent);
	EXPECT_TRUE(b->pending);
	EXPECT_TRUE(a->pending);
	mtp_transit_clear(&tr);
	EXPECT_EQ(0, c.live);
}

/* Without memory for the split, the tail is forgotten and asked again. */
TEST(split_without_memory_drops_tail)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	mtp_transit_add(&tr, 0, 1000, 1, 0);
	c.fail = 1;
	EXPECT_EQ(900, mtp_transit_remove(&tr, 100, 200));
	EXPECT_STREQ("0-100", ranges(&tr));
	EXPECT_EQ(100, tr.bytes);
	EXPECT_STREQ("ok", invariant(&tr, 0));
	mtp_transit_clear(&tr);
	EXPECT_EQ(0, c.live);
}

/* At the range limit: no new range, and a split drops the tail too. */
TEST(range_limit)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;
	unsigned int i;

	mtp_transit_init(&tr, &c);
	for (i = 0; i < MTP_TRANSIT_MAX; i++)
		ASSERT_TRUE(mtp_transit_add(&tr, 100 * i, 100 * i + 50, i, 0));
	EXPECT_FALSE(mtp_transit_add(&tr, 100 * i, 100 * i + 50, i, 0));
	EXPECT_EQ(MTP_TRANSIT_MAX * 50, tr.bytes);
	EXPECT_EQ(MTP_TRANSIT_MAX, tr.nranges);
	EXPECT_EQ(40, mtp_transit_remove(&tr, 10, 20));
	EXPECT_EQ(MTP_TRANSIT_MAX, tr.nranges);
	EXPECT_EQ(10, list_first_entry(&tr.ranges, struct mtp_range,
				       node)->end);
	EXPECT_STREQ("ok", invariant(&tr, 0));
	mtp_transit_clear(&tr);
	EXPECT_EQ(0, c.live);
}

TEST(add_without_memory_counts_nothing)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	c.fail = 1;
	EXPECT_FALSE(mtp_transit_add(&tr, 0, 100, 1, 0));
	EXPECT_EQ(0, tr.bytes);
	EXPECT_EQ(0, tr.nranges);
	EXPECT_TRUE(mtp_transit_add(&tr, 0, 100, 1, 0));
	EXPECT_EQ(100, tr.bytes);
	mtp_transit_clear(&tr);
	EXPECT_EQ(0, c.live);
}

/* A server's limit and the object's end cut what will come. */
TEST(cut_to_limit_and_end)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	mtp_transit_add(&tr, 0, 4096, 1, 0);
	mtp_transit_add(&tr, 4096, 5000, 2, 0);
	mtp_transit_add(&tr, 8192, 16384, 3, 0);
	mtp_transit_add(&tr, 20000, 30000, 4, 0);
	/* A 1024-byte limit, and the object ends at 9000. */
	EXPECT_EQ(4096 - 1024 + 904 - 904 + 8192 - 808 + 10000,
		  mtp_transit_cut(&tr, 1024, 9000));
	EXPECT_STREQ("0-1024 4096-5000 8192-9000", ranges(&tr));
	EXPECT_EQ(1024 + 904 + 808, tr.bytes);
	/* No limit: only the end. */
	EXPECT_EQ(808 + 904 - 100, mtp_transit_cut(&tr, 0, 4196));
	EXPECT_STREQ("0-1024 4096-4196", ranges(&tr));
	EXPECT_STREQ("ok", invariant(&tr, 0));
	mtp_transit_clear(&tr);
	EXPECT_EQ(0, c.live);
}

TEST(forget_one)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	mtp_transit_add(&tr, 0, 10, 1, 0);
	mtp_transit_add(&tr, 10, 30, 2, 0);
	EXPECT_EQ(20, mtp_transit_forget(&tr, list_next_entry(
		list_first_entry(&tr.ranges, struct mtp_range, node), node)));
	EXPECT_STREQ("0-10", ranges(&tr));
	EXPECT_EQ(10, tr.bytes);
	mtp_transit_clear(&tr);
	EXPECT_EQ(0, c.live);
}

/* The initial request is counted without a range until it is answered. */
TEST(charge_then_clear)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	mtp_transit_charge(&tr, 8192);
	EXPECT_EQ(8192, tr.bytes);
	EXPECT_TRUE(list_empty(&tr.ranges));
	EXPECT_EQ(8192, mtp_transit_clear(&tr));
	EXPECT_EQ(0, tr.bytes);
	EXPECT_TRUE(mtp_transit_add(&tr, 0, 6000, 0, 0));
	EXPECT_EQ(6000, mtp_transit_clear(&tr));
	EXPECT_EQ(0, c.live);
}

/*
 * Random requests, answers (any span, so splits) and cuts against a map
 * of which bytes are in transit: the two agree after every step, and
 * every return value is the change of the map.
 */
#define SPACE	2048

static u32 map_count(const bool *map)
{
	u32 n = 0;
	int i;

	for (i = 0; i < SPACE; i++)
		n += map[i];
	return n;
}

static bool map_agrees(const struct mtp_transit *tr, const bool *map)
{
	bool seen[SPACE] = { false };
	struct mtp_range *r;
	u64 i;

	list_for_each_entry(r, &tr->ranges, node)
		for (i = r->start; i < r->end; i++)
			seen[i] = true;
	return !memcmp(seen, map, sizeof(seen));
}

TEST(random_against_byte_map)
{
	struct kmem_cache c = CACHE;
	bool map[SPACE] = { false };
	struct mtp_transit tr;
	unsigned int step, i;
	u32 before, gone;

	srandom(20261127);
	mtp_transit_init(&tr, &c);
	for (step = 0; step < 20000; step++) {
		unsigned int s = random() % SPACE;
		unsigned int e = s + 1 + random() % 200;
		unsigned int op = random() % 8;

		if (e > SPACE)
			e = SPACE;
		before = map_count(map);
		if (op < 4) {
			/* A request for the first free run from s on. */
			while (s < SPACE && map[s])
				s++;
			for (e = s; e < SPACE && !map[e] &&
			     e - s < 1 + (unsigned int)(random() % 100); e++)
				;
			if (s == e)
				continue;
			ASSERT_TRUE(mtp_transit_add(&tr, s, e, step, step));
			for (i = s; i < e; i++)
				map[i] = true;
			ASSERT_EQ(before + e - s, tr.bytes);
		} else if (op < 7) {
			gone = mtp_transit_remove(&tr, s, e);
			for (i = s; i < e; i++)
				map[i] = false;
			ASSERT_EQ(before - map_count(map), gone);
		} else {
			u32 limit = random() % 3 ? 0 : 1 + random() % 150;
			struct mtp_range *r;

			list_for_each_entry(r, &tr.ranges, node)
				for (i = r->start; i < r->end; i++)
					if ((limit && i >= r->start + limit) ||
					    i >= e)
						map[i] = false;
			gone = mtp_transit_cut(&tr, limit, e);
			ASSERT_EQ(before - map_count(map), gone);
		}
		ASSERT_STREQ("ok", invariant(&tr, 0));
		ASSERT_TRUE(map_agrees(&tr, map));
		ASSERT_EQ(map_count(map), tr.bytes);
	}
	mtp_transit_clear(&tr);
	EXPECT_EQ(0, c.live);
}

/* find: the range holding a byte, none for bytes between or beyond. */
TEST(find_holding_range)
{
	struct kmem_cache c = CACHE;
	struct mtp_transit tr;

	mtp_transit_init(&tr, &c);
	mtp_transit_add(&tr, 0, 100, 1, 0);
	mtp_transit_add(&tr, 200, 300, 2, 0);
	mtp_transit_add(&tr, 300, 400, 3, 0);
	ASSERT_NE(NULL, mtp_transit_find(&tr, 0));
	EXPECT_EQ(1, mtp_transit_find(&tr, 99)->seq);
	EXPECT_EQ(NULL, mtp_transit_find(&tr, 100));
	EXPECT_EQ(NULL, mtp_transit_find(&tr, 150));
	EXPECT_EQ(2, mtp_transit_find(&tr, 299)->seq);
	EXPECT_EQ(3, mtp_transit_find(&tr, 300)->seq);
	EXPECT_EQ(NULL, mtp_transit_find(&tr, 400));
	/* A split keeps the stamp in both halves. */
	mtp_transit_find(&tr, 200)->st.sent_ns = 77;
	mtp_transit_remove(&tr, 240, 260);
	EXPECT_EQ(77, mtp_transit_find(&tr, 200)->st.sent_ns);
	EXPECT_EQ(77, mtp_transit_find(&tr, 260)->st.sent_ns);
	EXPECT_EQ(NULL, mtp_transit_find(&tr, 250));
	mtp_transit_clear(&tr);
}

TEST_HARNESS_MAIN
