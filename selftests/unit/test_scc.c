// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/xtp/scc.c, the thesis' Simple Congestion
 * Control.  The no-loss runs replay the acknowledgments behind the
 * thesis' metric dumps (Fig. 22 and Fig. 24, 100000 bytes) and must end
 * with the dumped trainsize, linear count and growth counts; the loss
 * scripts check each decrease rule of §5.3.5.1 step by step.
 */
#include "kselftest_harness.h"

#include "scc.h"

#define MD	1448

static void ack_n(struct xtp_scc *s, unsigned int n, u32 bytes)
{
	while (n--)
		xtp_scc_acked(s, bytes);
}

/* Fig. 24 (AckFreq 99): one ack per burst, the window doubling. */
TEST(fig24_ackfreq99)
{
	struct xtp_scc s;

	xtp_scc_init(&s, MD, MD, 32000);
	xtp_scc_acked(&s, 1448);	/* TCNTL: the FIRST's 24 + 1424 */
	xtp_scc_acked(&s, 2896);
	xtp_scc_acked(&s, 5792);
	xtp_scc_acked(&s, 11584);
	xtp_scc_acked(&s, 23168);
	EXPECT_EQ(46336, s.trainsize);
	EXPECT_EQ(5, s.n.xp_inc);
	xtp_scc_acked(&s, 46336);
	xtp_scc_acked(&s, 4400);
	xtp_scc_acked(&s, 4400);
	EXPECT_EQ(47784, s.trainsize);	/* Final_trainsize */
	EXPECT_EQ(8800, s.linear_count);	/* Linear_count */
	EXPECT_EQ(3, s.n.lin_inc);
	EXPECT_EQ(32000, s.linear_thresh);
	EXPECT_EQ(0, s.n.xp_dec + s.n.lin_dec);
}

/* Fig. 22 (AckFreq 1): an ack per packet, 100024 bytes in all. */
TEST(fig22_ackfreq1)
{
	struct xtp_scc s;

	xtp_scc_init(&s, MD, MD, 32000);
	ack_n(&s, 22, MD);
	EXPECT_EQ(33304, s.trainsize);
	ack_n(&s, 23, MD);
	EXPECT_EQ(34752, s.trainsize);
	ack_n(&s, 24, MD);
	xtp_scc_acked(&s, 112);
	xtp_scc_acked(&s, 0);
	EXPECT_EQ(36200, s.trainsize);
	EXPECT_EQ(112, s.linear_count);
	EXPECT_EQ(22, s.n.xp_inc);
	EXPECT_EQ(49, s.n.lin_inc);
}

/* K = 2 in exponential mode: LGT = BIFW / 2, BIFW = LGT. */
TEST(moderate_decrease_exponential)
{
	struct xtp_scc s;

	xtp_scc_init(&s, MD, MD, 32000);
	ack_n(&s, 15, MD);		/* 16 packets, still below LGT */
	ASSERT_EQ(23168, s.trainsize);
	xtp_scc_handshake_end(&s, 2);
	EXPECT_EQ(11584, s.linear_thresh);
	EXPECT_EQ(11584, s.trainsize);
	EXPECT_EQ(1, s.n.xp_dec);
	EXPECT_EQ(0, s.n.lin_dec);
	/* trainsize == LGT: linear growth from here */
	xtp_scc_acked(&s, 11584);
	EXPECT_EQ(11584 + MD, s.trainsize);
	EXPECT_EQ(1, s.n.lin_inc);
}

/* K = 2 in linear mode: LGT = LGT / 2, BIFW = LGT. */
TEST(moderate_decrease_linear)
{
	struct xtp_scc s;

	xtp_scc_init(&s, MD, MD, 32000);
	ack_n(&s, 22, MD);
	ASSERT_EQ(33304, s.trainsize);
	xtp_scc_acked(&s, 1000);	/* a linear count to be dropped */
	xtp_scc_handshake_end(&s, 2);
	EXPECT_EQ(16000, s.linear_thresh);
	EXPECT_EQ(16000, s.trainsize);
	EXPECT_EQ(0, s.linear_count);
	EXPECT_EQ(1, s.n.lin_dec);
}

/* K > 2 or an ECNTL: BIFW = one packet, LGT = LGT / 2, then regrowth. */
TEST(high_decrease_and_regrowth)
{
	struct xtp_scc s;

	xtp_scc_init(&s, MD, MD, 32000);
	ack_n(&s, 22, MD);
	xtp_scc_handshake_end(&s, 3);
	EXPECT_EQ(MD, s.trainsize);
	EXPECT_EQ(16000, s.linear_thresh);
	EXPECT_EQ(1, s.n.lin_dec);
	/* exponential again up to the new threshold */
	ack_n(&s, 10, MD);
	EXPECT_EQ(11 * MD, s.trainsize);
	xtp_scc_acked(&s, MD);
	EXPECT_EQ(12 * MD, s.trainsize);	/* 17376 >= 16000: linear now */
	xtp_scc_ecntl(&s);
	EXPECT_EQ(MD, s.trainsize);
	EXPECT_EQ(8000, s.linear_thresh);
	EXPECT_EQ(2, s.n.lin_dec);
	xtp_scc_ecntl(&s);		/* in exponential mode now */
	EXPECT_EQ(4000, s.linear_thresh);
	EXPECT_EQ(1, s.n.xp_dec);
}

/* Floors the thesis leaves out: one packet of window, two of threshold. */
TEST(floors)
{
	struct xtp_scc s;
	int i;

	xtp_scc_init(&s, MD, MD, 32000);
	for (i = 0; i < 20; i++)
		xtp_scc_ecntl(&s);
	EXPECT_EQ(MD, s.trainsize);
	EXPECT_EQ(2 * MD, s.linear_thresh);
	xtp_scc_handshake_end(&s, 2);
	EXPECT_EQ(2 * MD, s.trainsize);
	EXPECT_EQ(2 * MD, s.linear_thresh);
	xtp_scc_init(&s, MD, 100, 100);
	EXPECT_EQ(MD, s.trainsize);
	EXPECT_EQ(2 * MD, s.linear_thresh);
}

TEST_HARNESS_MAIN
