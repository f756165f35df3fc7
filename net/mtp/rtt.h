/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP round-trip time estimation: the average of the last eight samples
 * and the minimum, as MTP's flow control and repeat interval use them.
 * Pure code (rtt.c), also built in user space for the unit tests.
 */
#ifndef _NET_MTP_RTT_H
#define _NET_MTP_RTT_H

#include <linux/types.h>

#define MTP_RTT_NSAMPLES	8
#define MTP_RTT_MAX_US		60000000U	/* samples are capped at 60 s */

/**
 * struct mtp_rtt - RTT state of one transaction
 * @ring: the last %MTP_RTT_NSAMPLES samples in microseconds
 * @sum: sum of @ring
 * @n: number of valid samples in @ring
 * @idx: next slot to write
 * @min_us: smallest sample seen, 0 before the first (@ring may then hold
 *	a hint, mtp_rtt_hint())
 */
struct mtp_rtt {
	u32 ring[MTP_RTT_NSAMPLES];
	u32 sum;
	u8 n;
	u8 idx;
	u32 min_us;
};

void mtp_rtt_init(struct mtp_rtt *r);
void mtp_rtt_sample(struct mtp_rtt *r, u32 us);
void mtp_rtt_hint(struct mtp_rtt *r, u32 us);
u32 mtp_rtt_avg(const struct mtp_rtt *r);
u32 mtp_rtt_recent_min(const struct mtp_rtt *r);
u32 mtp_rtt_repeat_ms(const struct mtp_rtt *r, u32 cur_ms, u32 floor_ms);

#endif /* _NET_MTP_RTT_H */
