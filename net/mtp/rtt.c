// SPDX-License-Identifier: GPL-2.0
/*
 * MTP round-trip time estimation (see rtt.h).  Pure code.
 */
#include <linux/string.h>
#include <linux/types.h>

#include "rtt.h"

void mtp_rtt_init(struct mtp_rtt *r)
{
	memset(r, 0, sizeof(*r));
}

/**
 * mtp_rtt_sample() - add one round-trip time measurement
 * @r: state
 * @us: the sample in microseconds; 0 is taken as 1, huge values are capped
 */
void mtp_rtt_sample(struct mtp_rtt *r, u32 us)
{
	if (!us)
		us = 1;
	if (us > MTP_RTT_MAX_US)
		us = MTP_RTT_MAX_US;
	/* The first measurement replaces a hint (mtp_rtt_hint()). */
	if (!r->min_us)
		mtp_rtt_init(r);
	if (r->n == MTP_RTT_NSAMPLES)
		r->sum -= r->ring[r->idx];
	else
		r->n++;
	r->ring[r->idx] = us;
	r->sum += us;
	r->idx = (r->idx + 1) % MTP_RTT_NSAMPLES;
	if (!r->min_us || us < r->min_us)
		r->min_us = us;
}

/**
 * mtp_rtt_hint() - start from an RTT measured before, on another socket
 * @r: state, without samples
 * @us: that RTT in microseconds
 *
 * It serves as the one sample for the repeat interval and the pacing
 * until the first measurement, which replaces it; it sets no minimum,
 * which the path may have changed since.
 */
void mtp_rtt_hint(struct mtp_rtt *r, u32 us)
{
	mtp_rtt_init(r);
	if (!us)
		return;
	r->ring[0] = us > MTP_RTT_MAX_US ? MTP_RTT_MAX_US : us;
	r->sum = r->ring[0];
	r->n = 1;
	r->idx = 1;
}

/* Return: average of the last samples in microseconds, 0 before any. */
u32 mtp_rtt_avg(const struct mtp_rtt *r)
{
	return r->n ? r->sum / r->n : 0;
}

/* Return: the least of the last samples in microseconds, 0 before any. */
u32 mtp_rtt_recent_min(const struct mtp_rtt *r)
{
	u32 m = 0;
	int i;

	for (i = 0; i < r->n; i++)
		if (!m || r->ring[i] < m)
			m = r->ring[i];
	return m;
}

/**
 * mtp_rtt_repeat_ms() - the repeat interval after the latest samples
 * @r: state
 * @cur_ms: current interval (initially the application's)
 * @floor_ms: lower bound, because fast links have unstable latencies
 *
 * MTP keeps the interval between two and four average round-trip times:
 * long enough that a jump in RTT is not taken for a loss, short enough
 * to recover quickly.
 *
 * Return: the new interval in milliseconds.
 */
u32 mtp_rtt_repeat_ms(const struct mtp_rtt *r, u32 cur_ms, u32 floor_ms)
{
	u32 avg_ms = (mtp_rtt_avg(r) + 999) / 1000;

	if (r->n) {
		if (cur_ms < 2 * avg_ms)
			cur_ms = 2 * avg_ms;
		else if (cur_ms > 4 * avg_ms)
			cur_ms = 4 * avg_ms;
	}
	return cur_ms < floor_ms ? floor_ms : cur_ms;
}
