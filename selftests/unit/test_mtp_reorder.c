// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/mtp/reorder.c: a client transaction's
 * early loss depth, raised by duplicates and lowered by calm.
 */
#include "kselftest_harness.h"

#include "reorder.h"

/* A burst of duplicates within one depth is one reordering: one step. */
TEST(burst_of_duplicates_raises_once)
{
	struct mtp_reorder o;
	u32 seq;

	mtp_reorder_init(&o, 3);
	ASSERT_EQ(3, o.depth);
	/* As in a 2 MB fetch through 10% loss: 14 within seq 499..509. */
	for (seq = 499; seq <= 504; seq++) {
		mtp_reorder_dup(&o, seq);
		mtp_reorder_dup(&o, seq);
	}
	EXPECT_EQ(6, o.depth);
	mtp_reorder_dup(&o, 505);
	EXPECT_EQ(12, o.depth);
	mtp_reorder_dup(&o, 509);
	EXPECT_EQ(12, o.depth);
}

/* Reordering after reordering doubles it each time, bounded. */
TEST(repeated_reordering_is_bounded)
{
	struct mtp_reorder o;
	u32 seq = 0xfffffff0, i;	/* the sequence number wraps */

	mtp_reorder_init(&o, 3);
	for (i = 0; i < 100; i++) {
		mtp_reorder_dup(&o, seq);
		ASSERT_LE(o.depth, MTP_REORDER_MAX);
		seq += o.depth;
	}
	EXPECT_EQ(MTP_REORDER_MAX, o.depth);
}

/* Calm brings it back, a halving per MTP_REORDER_CALM early losses. */
TEST(calm_lowers_to_the_base)
{
	struct mtp_reorder o;
	int i;

	mtp_reorder_init(&o, 3);
	mtp_reorder_dup(&o, 10);
	mtp_reorder_dup(&o, 20);
	ASSERT_EQ(12, o.depth);
	for (i = 0; i < MTP_REORDER_CALM - 1; i++)
		mtp_reorder_early_loss(&o);
	EXPECT_EQ(12, o.depth);
	/* A duplicate starts the count again. */
	mtp_reorder_dup(&o, 21);
	EXPECT_EQ(12, o.depth);
	for (i = 0; i < MTP_REORDER_CALM - 1; i++)
		mtp_reorder_early_loss(&o);
	EXPECT_EQ(12, o.depth);
	mtp_reorder_early_loss(&o);
	EXPECT_EQ(6, o.depth);
	for (i = 0; i < 10 * MTP_REORDER_CALM; i++)
		mtp_reorder_early_loss(&o);
	EXPECT_EQ(3, o.depth);
	/* At the base, the next duplicate raises at once. */
	mtp_reorder_dup(&o, 30);
	EXPECT_EQ(6, o.depth);
}

/* net.mtp.reorder 0 keeps early detection off; a large one is capped. */
TEST(off_stays_off_and_base_is_capped)
{
	struct mtp_reorder o;

	mtp_reorder_init(&o, 0);
	mtp_reorder_dup(&o, 1);
	mtp_reorder_early_loss(&o);
	EXPECT_EQ(0, o.depth);
	mtp_reorder_init(&o, 2 * MTP_REORDER_MAX);
	EXPECT_EQ(MTP_REORDER_MAX, o.depth);
	mtp_reorder_dup(&o, 1);
	EXPECT_EQ(MTP_REORDER_MAX, o.depth);
}

TEST_HARNESS_MAIN
