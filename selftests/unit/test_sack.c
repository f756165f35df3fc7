// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/xtp/sack.c: the spans a receiver lists in
 * an ECNTL, which packets a sender takes them to cover, and the
 * time-based rule that calls the others lost.
 */
#include "kselftest_harness.h"

#include "sack.h"

#define MS	1000000ULL

/* The receiver's out-of-order packets, in order, become spans. */
TEST(add_merges_touching_and_overlapping)
{
	struct xtp_wire_span s[3];
	u32 n = 0;

	n = xtp_sack_add(s, n, 3, 1000, 2000);
	n = xtp_sack_add(s, n, 3, 2000, 3000);	/* touches */
	n = xtp_sack_add(s, n, 3, 2500, 3500);	/* overlaps */
	n = xtp_sack_add(s, n, 3, 2600, 2700);	/* inside */
	ASSERT_EQ(1, n);
	EXPECT_EQ(1000, s[0].left);
	EXPECT_EQ(3500, s[0].right);
	n = xtp_sack_add(s, n, 3, 5000, 6000);
	n = xtp_sack_add(s, n, 3, 7000, 8000);
	ASSERT_EQ(3, n);
	EXPECT_EQ(5000, s[1].left);
	EXPECT_EQ(8000, s[2].right);
	/* Full: a new run is left out, the last span still grows. */
	EXPECT_EQ(3, xtp_sack_add(s, n, 3, 9000, 9100));
	EXPECT_EQ(8000, s[2].right);
	EXPECT_EQ(3, xtp_sack_add(s, n, 3, 8000, 8500));
	EXPECT_EQ(8500, s[2].right);
}

/* A packet counts as seen only if one span holds all of it. */
TEST(covers_needs_one_whole_span)
{
	const struct xtp_wire_span spans[] = {
		{ 1000, 3000 }, { 3000, 4000 }, { 6000, 7000 },
	};
	struct xtp_wire_pkt pkt = { .ctl = { .nspan = 3, .spans = spans } };

	EXPECT_TRUE(xtp_sack_covers(&pkt, 3, 1000, 3000));
	EXPECT_TRUE(xtp_sack_covers(&pkt, 3, 6500, 7000));
	/* Across two spans (a receiver never splits a run, so not seen). */
	EXPECT_FALSE(xtp_sack_covers(&pkt, 3, 2500, 3500));
	EXPECT_FALSE(xtp_sack_covers(&pkt, 3, 4000, 5000));
	EXPECT_FALSE(xtp_sack_covers(&pkt, 3, 6500, 7001));
	/* Only the spans the caller reads. */
	EXPECT_FALSE(xtp_sack_covers(&pkt, 2, 6500, 7000));
}

/* The same from wire format, as a decoded ECNTL holds them. */
TEST(covers_raw_spans)
{
	const u8 raw[16] = { 0, 0, 0, 0, 0, 0, 0x03, 0xe8,	/* 1000 */
			     0, 0, 0, 0, 0, 0, 0x07, 0xd0 };	/* 2000 */
	struct xtp_wire_pkt pkt = { .ctl = { .nspan = 1, .raw_spans = raw } };

	EXPECT_TRUE(xtp_sack_covers(&pkt, 1, 1000, 2000));
	EXPECT_FALSE(xtp_sack_covers(&pkt, 1, 999, 2000));
}

/*
 * Walking an ordered list along the sender's queue answers as asking each
 * packet of every span does, and ends with the last span.
 */
TEST(walk_answers_as_covers)
{
	const struct xtp_wire_span spans[] = {
		{ 1000, 3000 }, { 3000, 4000 }, { 6000, 7000 }, { 9000, 9500 },
	};
	struct xtp_wire_pkt pkt = { .ctl = { .nspan = 4, .spans = spans } };
	struct xtp_sack_walk w;
	u32 len, seq, hits;

	/* Packets of every length from 100 to 1000 bytes, back to back. */
	for (len = 100; len <= 1000; len += 100) {
		xtp_sack_walk_start(&w, &pkt, 4);
		ASSERT_TRUE(w.ordered);
		hits = 0;
		for (seq = 0; seq + len <= 10000; seq += len) {
			ASSERT_EQ(xtp_sack_covers(&pkt, 4, seq, seq + len),
				  xtp_sack_walk_covers(&w, seq, seq + len));
			hits += xtp_sack_covers(&pkt, 4, seq, seq + len);
		}
		EXPECT_TRUE(xtp_sack_walk_done(&w));
		if (len == 500)
			EXPECT_EQ(9, hits);	/* 6 + 2 + 1 of them */
	}
	/* A packet skipped between calls changes nothing. */
	xtp_sack_walk_start(&w, &pkt, 4);
	EXPECT_TRUE(xtp_sack_walk_covers(&w, 1000, 2000));
	EXPECT_TRUE(xtp_sack_walk_covers(&w, 6000, 6500));
	EXPECT_FALSE(xtp_sack_walk_done(&w));
	EXPECT_FALSE(xtp_sack_walk_covers(&w, 9500, 9600));
	EXPECT_TRUE(xtp_sack_walk_done(&w));
}

/* Spans out of order, overlapping or inverted: each packet asks them all. */
TEST(walk_disordered_spans_ask_all)
{
	const struct xtp_wire_span back[] = { { 6000, 7000 }, { 1000, 2000 } };
	const struct xtp_wire_span over[] = { { 1000, 3000 }, { 2000, 2500 } };
	const struct xtp_wire_span inv[] = { { 1000, 2000 }, { 4000, 3000 } };
	struct xtp_wire_pkt pkt = { .ctl = { .nspan = 2, .spans = back } };
	struct xtp_sack_walk w;

	xtp_sack_walk_start(&w, &pkt, 2);
	EXPECT_FALSE(w.ordered);
	EXPECT_TRUE(xtp_sack_walk_covers(&w, 1000, 2000));
	EXPECT_TRUE(xtp_sack_walk_covers(&w, 6000, 7000));
	EXPECT_FALSE(xtp_sack_walk_done(&w));
	pkt.ctl.spans = over;
	xtp_sack_walk_start(&w, &pkt, 2);
	EXPECT_FALSE(w.ordered);
	pkt.ctl.spans = inv;
	xtp_sack_walk_start(&w, &pkt, 2);
	EXPECT_FALSE(w.ordered);
	/* Read as far as told: the second span is not looked at. */
	xtp_sack_walk_start(&w, &pkt, 1);
	EXPECT_TRUE(w.ordered);
	EXPECT_FALSE(xtp_sack_walk_covers(&w, 3000, 4000));
}

TEST(windows)
{
	u64 reo, rtt;

	/* 40 ms SRTT, 5 ms variation, one quarter. */
	xtp_sack_windows(40000, 5000, 1, &reo, &rtt);
	EXPECT_EQ(10 * MS, reo);
	EXPECT_EQ(60 * MS, rtt);
	/* Four quarters after spurious retransmissions: a whole SRTT. */
	xtp_sack_windows(40000, 5000, 4, &reo, &rtt);
	EXPECT_EQ(40 * MS, reo);
	/* Short paths: never under 2 ms. */
	xtp_sack_windows(100, 10, 1, &reo, &rtt);
	EXPECT_EQ(XTP_REO_MIN_NS, reo);
	EXPECT_EQ(140000, rtt);
}

TEST(judge)
{
	const u64 reo = 10 * MS, rtt = 60 * MS;
	u64 due = 0;

	/* Sent at or after the newest packet seen: nothing known. */
	EXPECT_EQ(XTP_SACK_UNKNOWN,
		  xtp_sack_judge(100 * MS, 100 * MS, reo, rtt, 500 * MS, &due));
	/* A packet sent 10 ms (the window) later was seen: lost. */
	EXPECT_EQ(XTP_SACK_LOST,
		  xtp_sack_judge(90 * MS, 100 * MS, reo, rtt, 101 * MS, &due));
	/* Only 5 ms later: reordering, perhaps; lost at send + rtt + reo. */
	EXPECT_EQ(XTP_SACK_WAIT,
		  xtp_sack_judge(95 * MS, 100 * MS, reo, rtt, 101 * MS, &due));
	EXPECT_EQ(165 * MS, due);
	/* And at that deadline it is. */
	EXPECT_EQ(XTP_SACK_LOST,
		  xtp_sack_judge(95 * MS, 100 * MS, reo, rtt, 165 * MS, &due));
}

TEST_HARNESS_MAIN
