// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/xtp/drs.c, receive-buffer autotuning: how
 * the receiver times a round trip from a raise of its ALLOC, and the
 * window it asks for from what the application read in one.
 */
#include "kselftest_harness.h"

#include "drs.h"

#define SEG	1448
#define MS	1000000ULL

/* Before a round trip is known, reading asks for nothing. */
TEST(no_window_before_a_round_trip)
{
	struct xtp_drs d = { 0 };

	xtp_drs_arrival(&d, 5 * MS, 1000, 0, 16 * SEG);
	EXPECT_EQ(16 * SEG, d.space);
	EXPECT_EQ(5 * MS, d.mark_ns);
	EXPECT_EQ(0, d.rtt_ns);
	EXPECT_EQ(0, xtp_drs_read(&d, 500 * MS, 1000, SEG));
}

/* From a raise of ALLOC to the first byte beyond the old one. */
TEST(round_trip_from_a_raise)
{
	struct xtp_drs d = { 0 };

	/* No raise, no sample. */
	xtp_drs_offer(&d, 1, 90000, 90000);
	EXPECT_EQ(0, d.rtt_start_ns);
	xtp_drs_offer(&d, 1, 90000, 135000);
	EXPECT_EQ(90000, d.rtt_seq);
	EXPECT_EQ(1, d.rtt_start_ns);
	/* A later raise while one runs does not restart it. */
	xtp_drs_offer(&d, 20 * MS, 135000, 180000);
	EXPECT_EQ(90000, d.rtt_seq);
	/* Data up to the old ALLOC was sent before the raise was heard. */
	xtp_drs_arrival(&d, 30 * MS, 90000, 0, 16 * SEG);
	EXPECT_EQ(0, d.rtt_ns);
	xtp_drs_arrival(&d, 50 * MS + 1, 91448, 0, 16 * SEG);
	EXPECT_EQ(50 * MS, d.rtt_ns);
	EXPECT_EQ(0, d.rtt_start_ns);
	/* The next raise starts the next sample. */
	xtp_drs_offer(&d, 60 * MS, 180000, 200000);
	EXPECT_EQ(180000, d.rtt_seq);
	EXPECT_EQ(60 * MS, d.rtt_start_ns);
}

/* sample NS: one round trip of @ns from a raise at 1000 s. */
static void sample(struct xtp_drs *d, u64 ns)
{
	u64 t = 1000000 * MS;

	xtp_drs_offer(d, t, 1000, 2000);
	xtp_drs_arrival(d, t + ns, 1001, 0, SEG);
}

/* Smaller samples replace the estimate; larger ones move it an eighth. */
TEST(round_trip_filter)
{
	struct xtp_drs d = { 0 };

	sample(&d, 80 * MS);
	EXPECT_EQ(80 * MS, d.rtt_ns);
	sample(&d, 40 * MS);
	EXPECT_EQ(40 * MS, d.rtt_ns);
	sample(&d, 120 * MS);
	EXPECT_EQ(40 * MS + 80 * MS / 8, d.rtt_ns);
	/* A sample of no time still counts as one: 0 means unmeasured. */
	sample(&d, 0);
	EXPECT_EQ(1, d.rtt_ns);
}

/*
 * Reading that grows by half or more per round trip is a sender in slow
 * start: four times the reading.  Slower growth gets twice, plus slack.
 */
TEST(window_follows_the_reading)
{
	struct xtp_drs d = { 0 };
	u64 t = 1;

	xtp_drs_arrival(&d, t, 0, 0, 16 * SEG);
	xtp_drs_offer(&d, t, 0, 90000);
	xtp_drs_arrival(&d, t + 50 * MS, 1448, 0, 16 * SEG);
	ASSERT_EQ(50 * MS, d.rtt_ns);
	/* Too early: the period has not lasted a round trip. */
	EXPECT_EQ(0, xtp_drs_read(&d, t + 49 * MS, 90000, SEG));
	EXPECT_EQ(0, d.mark_seq);
	t += 50 * MS;
	EXPECT_EQ(4 * 90000, xtp_drs_read(&d, t, 90000, SEG));
	EXPECT_EQ(90000, d.space);
	EXPECT_EQ(90000, d.mark_seq);
	/* 100000 is less than half again as much: twice, plus slack. */
	t += 50 * MS;
	EXPECT_EQ(2 * 100000 + 16 * SEG,
		  xtp_drs_read(&d, t, 190000, SEG));
	/* No more than the fastest period asks for nothing. */
	t += 50 * MS;
	EXPECT_EQ(0, xtp_drs_read(&d, t, 290000, SEG));
	EXPECT_EQ(100000, d.space);
	EXPECT_EQ(290000, d.mark_seq);
	/* Small reads: the slack is the floor. */
	d.space = 10;
	t += 50 * MS;
	EXPECT_EQ(2 * 20 + 16 * SEG, xtp_drs_read(&d, t, 290020, SEG));
}

/* A sample that outlives eight estimates (an idle sender) is dropped. */
TEST(stale_sample_dropped)
{
	struct xtp_drs d = { 0 };

	sample(&d, 10 * MS);
	xtp_drs_offer(&d, 1 * MS, 5000, 6000);
	/* Nothing beyond the old ALLOC for 81 ms: no sample of 81 ms. */
	xtp_drs_arrival(&d, 82 * MS, 5001, 0, SEG);
	EXPECT_EQ(10 * MS, d.rtt_ns);
	EXPECT_EQ(0, d.rtt_start_ns);
	/* Eight estimates exactly still count. */
	xtp_drs_offer(&d, 100 * MS, 6000, 7000);
	xtp_drs_arrival(&d, 180 * MS, 6001, 0, SEG);
	EXPECT_EQ(10 * MS + 70 * MS / 8, d.rtt_ns);
}

/* A reader that paused does not count its backlog as one period's. */
TEST(pause_is_not_a_period)
{
	struct xtp_drs d = { .rtt_ns = 50 * MS, .mark_ns = 1,
			     .space = 16 * SEG };

	/* 1 MB read after a 101 ms pause: no window, a new period. */
	EXPECT_EQ(0, xtp_drs_read(&d, 101 * MS + 2, 1 << 20, SEG));
	EXPECT_EQ(16 * SEG, d.space);
	EXPECT_EQ(1 << 20, d.mark_seq);
	EXPECT_EQ(101 * MS + 2, d.mark_ns);
	/* The same amount in one round trip sizes it. */
	EXPECT_EQ(4 * (1 << 20),
		  xtp_drs_read(&d, 151 * MS + 2, 2 << 20, SEG));
}

/* Readings beyond 32 bits saturate rather than wrap. */
TEST(window_saturates)
{
	struct xtp_drs d = { .rtt_ns = MS, .mark_ns = 1, .space = 1 };

	EXPECT_EQ(U32_MAX, xtp_drs_read(&d, 2 * MS, 3ULL << 32, SEG));
	EXPECT_EQ(U32_MAX, d.space);
}

TEST_HARNESS_MAIN
