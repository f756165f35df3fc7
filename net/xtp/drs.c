// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: dynamic right-sizing of the receive window.
 *
 * A window of W bytes moves at most W per round trip, so a fixed window
 * caps goodput at W/RTT whatever the path can do.  The receiver instead
 * measures how much the application reads per round trip and offers
 * twice that: a sender limited by the window can then double its rate
 * each round trip, as in slow start, and one limited by the path or the
 * reader leaves the window where it is.  While the reading still grows
 * by half or more per period the sender is in slow start and will have
 * doubled again by the time the new window reaches it: offer four times.
 *
 * The receiver has no timestamps to time a round trip with.  It times
 * how long after it raised ALLOC the first byte beyond the old ALLOC
 * arrives: the sender cannot have sent that byte before it heard of the
 * raise, so that is one round trip when the sender was waiting for the
 * window, more otherwise.  A smaller sample replaces the estimate at
 * once, a larger one moves it by an eighth, so a sender that was not
 * window limited for a while does not stretch the period much; a sample
 * that runs past eight estimates (an idle sender) is dropped.
 *
 * A period of reading longer than two round trips does not size the
 * window: a reader that paused would count a whole backlog as one round
 * trip's reading.  It starts the next period instead.
 *
 * Pure arithmetic: compiled into the module and into the unit tests.
 */
#include <linux/limits.h>
#include <linux/types.h>

#include "drs.h"

static void xtp_drs_rtt_sample(struct xtp_drs *d, u64 sample)
{
	if (!sample)
		sample = 1;
	if (!d->rtt_ns || sample < d->rtt_ns)
		d->rtt_ns = sample;
	else
		d->rtt_ns += (sample - d->rtt_ns) >> 3;
}

/**
 * xtp_drs_offer() - ALLOC goes out; a raise starts a sample if none runs
 * @d: the receiver's measurements
 * @now_ns: the time, never 0
 * @old_alloc: ALLOC advertised before
 * @new_alloc: ALLOC advertised now
 */
void xtp_drs_offer(struct xtp_drs *d, u64 now_ns, u64 old_alloc,
		   u64 new_alloc)
{
	if (d->rtt_start_ns || new_alloc <= old_alloc)
		return;
	d->rtt_seq = old_alloc;
	d->rtt_start_ns = now_ns;
}

/**
 * xtp_drs_arrival() - in-order data moved RSEQ
 * @d: the receiver's measurements
 * @now_ns: the time, never 0
 * @rcv_nxt: RSEQ after the data
 * @read_seq: what the application has read up to
 * @init_space: the reading to assume before any was measured
 */
void xtp_drs_arrival(struct xtp_drs *d, u64 now_ns, u64 rcv_nxt,
		     u64 read_seq, u32 init_space)
{
	bool stale;

	if (!d->mark_ns) {
		d->mark_ns = now_ns;
		d->mark_seq = read_seq;
		d->space = init_space;
	}
	if (!d->rtt_start_ns)
		return;
	stale = d->rtt_ns &&
		now_ns - d->rtt_start_ns > XTP_DRS_STALE * d->rtt_ns;
	if (rcv_nxt > d->rtt_seq && !stale)
		xtp_drs_rtt_sample(d, now_ns - d->rtt_start_ns);
	if (rcv_nxt > d->rtt_seq || stale)
		d->rtt_start_ns = 0;
}

/**
 * xtp_drs_read() - the application read; once per round trip, size the window
 * @d: the receiver's measurements
 * @now_ns: the time
 * @read_seq: what the application has read up to now
 * @seg: the largest payload of one packet
 *
 * Return: the window the reading asks for, or 0 when it asks for no more
 * than before (too early, not measured yet, or no faster than the
 * fastest period so far).
 */
u32 xtp_drs_read(struct xtp_drs *d, u64 now_ns, u64 read_seq, u32 seg)
{
	u64 copied, win;
	u32 prev;

	if (!d->rtt_ns || !d->mark_ns || now_ns - d->mark_ns < d->rtt_ns)
		return 0;
	copied = read_seq - d->mark_seq;
	if (now_ns - d->mark_ns > 2 * d->rtt_ns)
		copied = 0;
	d->mark_ns = now_ns;
	d->mark_seq = read_seq;
	if (copied <= d->space)
		return 0;
	prev = d->space;
	d->space = copied > U32_MAX ? U32_MAX : (u32)copied;
	win = 2 * copied;
	if (copied >= (u64)prev + prev / 2)
		win = 4 * copied;
	if (win < 2 * copied + (u64)XTP_DRS_SLACK_SEGS * seg)
		win = 2 * copied + (u64)XTP_DRS_SLACK_SEGS * seg;
	return win > U32_MAX ? U32_MAX : (u32)win;
}
