// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: RTT samples from SYNC/ECHO, through the RTT cache.
 *
 * Every SREQ leaves its SYNC and send time in slot SYNC % size of a small
 * cache; a control packet whose ECHO finds its own SYNC there yields a
 * sample.  With one slot (LinuxXTP's single WTIMER timestamp) a burst of
 * SREQs overwrites the slot before the answers come back and the estimator
 * starves; ten slots keep up to ten SREQs measurable per round trip
 * (thesis §5.3.2.2).  When they are all taken, the sender toggles EDGE
 * instead of setting SREQ, which asks for an ack without a sample.
 */
#include <linux/ktime.h>

#include "xtp.h"

/*
 * Slots keep microseconds in 32 bits: differences hold for 71 minutes.
 * A slot left unanswered that long may look recent again for one WTIMER
 * period, which only turns an SREQ into an EDGE toggle.
 */
static u32 xtp_rtt_now_us(void)
{
	return (u32)div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

static struct xtp_rtt_slot *xtp_rtt_slot(struct xtp_sock *xs, u32 sync)
{
	return &xs->rtt.cache[sync % xs->rtt.cache_sz];
}

/* RFC 6298 gains; the WTIMER doubles the result (timer.c). */
static void xtp_rtt_sample(struct xtp_sock *xs, u32 m)
{
	struct xtp_rtt *r = &xs->rtt;

	if (!m)
		m = 1;
	if (!r->min_rtt_us || m < r->min_rtt_us)
		r->min_rtt_us = m;
	if (!r->srtt_us) {
		r->srtt_us = m;
		r->rttvar_us = m / 2;
	} else {
		u32 err = r->srtt_us > m ? r->srtt_us - m : m - r->srtt_us;

		r->rttvar_us = r->rttvar_us - r->rttvar_us / 4 + err / 4;
		r->srtt_us = r->srtt_us - r->srtt_us / 8 + m / 8;
	}
	xs->mib.rtt_updates++;
}

/**
 * xtp_rtt_sent() - an SREQ with @sync left: remember when
 * @xs: the context
 * @sync: its SYNC
 */
void xtp_rtt_sent(struct xtp_sock *xs, u32 sync)
{
	struct xtp_rtt_slot *slot = xtp_rtt_slot(xs, sync);

	slot->sync = sync;
	slot->sent_us = xtp_rtt_now_us();
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtt_sent);

/**
 * xtp_rtt_echo() - a control packet echoed @echo: sample if it is cached
 * @xs: the context
 * @echo: its ECHO
 *
 * SYNC and ECHO match exactly, so a sample is never ambiguous, not even
 * for a retransmission; the slot is cleared so a second answer to the
 * same SREQ does not count again.  The answer also answers the SREQs
 * before it, which a peer that takes packets in batches leaves without
 * an answer of their own (input.c): their slots are freed, unsampled.
 */
void xtp_rtt_echo(struct xtp_sock *xs, u32 echo)
{
	struct xtp_rtt_slot *slot;
	u32 i;

	if (!echo)
		return;
	for (i = 1; i < xs->rtt.cache_sz; i++) {
		slot = xtp_rtt_slot(xs, echo - i);
		if (slot->sync == echo - i)
			slot->sync = 0;
	}
	slot = xtp_rtt_slot(xs, echo);
	if (slot->sync != echo)
		return;
	slot->sync = 0;
	xtp_rtt_sample(xs, xtp_rtt_now_us() - slot->sent_us);
}
EXPORT_SYMBOL_IF_KUNIT(xtp_rtt_echo);

static bool xtp_rtt_slot_waiting(const struct xtp_sock *xs, u32 sync,
				 u32 now, u32 horizon)
{
	const struct xtp_rtt_slot *slot =
		&xs->rtt.cache[sync % xs->rtt.cache_sz];

	return slot->sync && (u32)(now - slot->sent_us) < horizon;
}

/**
 * xtp_rtt_cache_busy() - should an optional SREQ give way to an EDGE toggle?
 * @xs: the context
 *
 * The thesis' condition A, no more SREQs in flight than cache slots, as
 * it matters here: SYNCs are consecutive, so the next SREQ lands in the
 * slot of the oldest one still cached.  One slot more is kept free for
 * the SREQ that the end of a burst requires, which would otherwise
 * overwrite a sample still to come.  A slot counts as in flight until
 * its answer is overdue (one WTIMER period): on a path where answers are
 * processed in batches an SRTT-old SREQ is often about to be answered.
 *
 * Return: true if the next two SREQs would overwrite samples in flight.
 */
bool xtp_rtt_cache_busy(const struct xtp_sock *xs)
{
	u32 horizon = xtp_wtimer_ms(xs) * USEC_PER_MSEC;
	u32 now = xtp_rtt_now_us();

	return xtp_rtt_slot_waiting(xs, xs->sync + 1, now, horizon) ||
	       xtp_rtt_slot_waiting(xs, xs->sync + 2, now, horizon);
}
