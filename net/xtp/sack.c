// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: ECNTL spans, XTP's selective acknowledgment, and the time-based
 * loss rule they feed.
 *
 * A receiver lists the runs of data it holds above RSEQ (xtp_sack_add()
 * merges its out-of-order packets into them).  A sender marks the packets
 * a span covers (xtp_sack_covers()) and judges the others by their send
 * times (xtp_sack_judge()), as RACK does for TCP: a packet sent a
 * reordering window before one the peer has seen is lost; so is one
 * unanswered for a round trip, its variation and that window.
 *
 * Pure code over the codec's types: recovery.c walks the queues,
 * selftests/unit/test_sack.c tests the rules.
 */
#include <linux/minmax.h>

#include "sack.h"

/**
 * xtp_sack_add() - add [@seq, @end) to spans built in sequence order
 * @spans: the spans so far
 * @n: how many
 * @max: room in @spans
 * @seq: first sequence number of the next packet, >= the previous one's
 * @end: after its last
 *
 * A packet that touches or overlaps the last span extends it; any other
 * starts a new one if there is room.
 *
 * Return: the number of spans now (@n when @spans is full).
 */
u32 xtp_sack_add(struct xtp_wire_span *spans, u32 n, u32 max, u64 seq,
		 u64 end)
{
	if (n && seq <= spans[n - 1].right) {
		spans[n - 1].right = max(spans[n - 1].right, end);
		return n;
	}
	if (n == max)
		return n;
	spans[n].left = seq;
	spans[n].right = end;
	return n + 1;
}

/**
 * xtp_sack_covers() - does one of an ECNTL's spans hold [@seq, @end)?
 * @pkt: the decoded ECNTL
 * @nspan: how many of its spans to read
 * @seq: first sequence number
 * @end: after the last
 *
 * Return: true if a single span holds all of it.
 */
bool xtp_sack_covers(const struct xtp_wire_pkt *pkt, u32 nspan, u64 seq,
		     u64 end)
{
	u64 left, right;
	u32 i;

	for (i = 0; i < nspan; i++)
		if (!xtp_wire_span(pkt, i, &left, &right) &&
		    left <= seq && end <= right)
			return true;
	return false;
}

/**
 * xtp_sack_walk_start() - read an ECNTL's spans along the packets in order
 * @w: the walk
 * @pkt: the decoded ECNTL
 * @nspan: how many of its spans to read
 *
 * A receiver lists its spans rising and apart (xtp_sack_add()); then one
 * pass over the sender's queue answers every packet, where asking
 * xtp_sack_covers() for each would read all spans for each of a
 * megabyte's packets.  Spans in any other order are the peer's business
 * and get the slow answer.
 */
void xtp_sack_walk_start(struct xtp_sack_walk *w,
			 const struct xtp_wire_pkt *pkt, u32 nspan)
{
	u64 left, right, prev = 0;
	u32 i;

	w->pkt = pkt;
	w->nspan = nspan;
	w->next = 0;
	w->ordered = true;
	for (i = 0; i < nspan && w->ordered; i++) {
		if (xtp_wire_span(pkt, i, &left, &right) || left > right ||
		    left < prev)
			w->ordered = false;
		prev = right;
	}
}

/**
 * xtp_sack_walk_covers() - does a span of the walk hold [@seq, @end)?
 * @w: the walk
 * @seq: first sequence number of a packet, at most @end
 * @end: after its last; never less than the @end asked about before
 *
 * Return: as xtp_sack_covers().
 */
bool xtp_sack_walk_covers(struct xtp_sack_walk *w, u64 seq, u64 end)
{
	u64 left, right;

	if (!w->ordered)
		return xtp_sack_covers(w->pkt, w->nspan, seq, end);
	/* A span ending before @end holds neither this nor a later packet. */
	for (; w->next < w->nspan; w->next++) {
		if (xtp_wire_span(w->pkt, w->next, &left, &right))
			return false;
		if (right >= end)
			return left <= seq;
	}
	return false;
}

/**
 * xtp_sack_walk_done() - no later packet can be covered
 * @w: the walk
 *
 * Return: true once an ordered walk has passed its last span.
 */
bool xtp_sack_walk_done(const struct xtp_sack_walk *w)
{
	return w->ordered && w->next >= w->nspan;
}

/**
 * xtp_sack_windows() - the reordering window and the round trip allowed
 * @srtt_us: smoothed RTT
 * @rttvar_us: its variation
 * @reo_mult: reordering tolerance in quarters of SRTT (1..4)
 * @reo_ns: the reordering window: @reo_mult quarters of SRTT, at least
 *	%XTP_REO_MIN_NS (packets from different CPUs take different
 *	backlogs even on one veth pair, and timer slack is of that order)
 * @rtt_ns: SRTT plus four times its variation
 */
void xtp_sack_windows(u32 srtt_us, u32 rttvar_us, u8 reo_mult, u64 *reo_ns,
		      u64 *rtt_ns)
{
	*reo_ns = max_t(u64, (u64)srtt_us * 1000 / 4 * reo_mult,
			XTP_REO_MIN_NS);
	*rtt_ns = ((u64)srtt_us + 4 * (u64)rttvar_us) * 1000;
}

/**
 * xtp_sack_judge() - is a packet the peer has not shown lost?
 * @xmit_ns: when it was (last) sent
 * @newest_seen_ns: the latest send time of a packet the peer has shown
 * @reo_ns: reordering window (xtp_sack_windows())
 * @rtt_ns: round trip allowed (xtp_sack_windows())
 * @now_ns: now
 * @due_ns: for %XTP_SACK_WAIT, when it becomes lost
 *
 * Return: the verdict.
 */
enum xtp_sack_verdict xtp_sack_judge(u64 xmit_ns, u64 newest_seen_ns,
				     u64 reo_ns, u64 rtt_ns, u64 now_ns,
				     u64 *due_ns)
{
	u64 due = xmit_ns + rtt_ns + reo_ns;

	if (xmit_ns >= newest_seen_ns)
		return XTP_SACK_UNKNOWN;
	if (xmit_ns + reo_ns <= newest_seen_ns || due <= now_ns)
		return XTP_SACK_LOST;
	*due_ns = due;
	return XTP_SACK_WAIT;
}
