// SPDX-License-Identifier: GPL-2.0
/*
 * MTP congestion control (see cc.h).  Pure code.
 *
 * MTP's client decides what is requested, so the client holds the
 * congestion window, and one per destination: the transactions to a
 * server share it as the connections of one TCP host would share one, so
 * 256 transactions do not get 256 windows.  It bounds the bytes requested
 * from the destination and not yet received, beside each transaction's
 * own flow-control window (flow.c), which follows the receive buffer.
 *
 * The window starts at RFC 6928's initial window, grows by what arrives
 * in slow start and by one datagram per window in congestion avoidance
 * (RFC 5681), and only while it is what holds requests back.  A loss cuts
 * it at most once per round: losses of data requested before the last cut
 * are the same event.
 *
 * The dissertation's tolerance of random loss stays, with the test of
 * XTP's Veno (cc_newreno.c): cwnd * (1 - min RTT / RTT) estimates the
 * bytes the path has queued, RTT being the least of the last eight
 * samples, as Vegas and Veno take the least of the last round: one
 * answer delayed by the server's application (the first of an object
 * always is) or by the host is no queue.  More than one subrequest's
 * burst (eight datagrams, where Veno counts three packets: MTP_CC_VENO_
 * DGRAMS) means the loss came from a queue that overflowed, and the
 * window halves as TCP's would; below that the path was not queueing,
 * the loss was random (a lossy link), and the window keeps its size.  A
 * bottleneck shared with TCP queues before it drops, so there MTP yields
 * as TCP does.
 *
 * A transaction's first round of requests, which nothing but the window
 * clocks, is paced at TCP's pacing rate (client.c, mtp_txn_pump()), so
 * that its answers come spread over the round trip rather than in one
 * burst: a request is due when the bytes requested before it have had
 * their time at that rate.  Without an RTT sample nothing is paced, as
 * TCP's first window is not.
 */
#include <linux/types.h>

#include "cc.h"

static u32 mtp_cc_max(u32 a, u32 b)
{
	return a > b ? a : b;
}

static u32 mtp_cc_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

/**
 * mtp_cc_init_window() - RFC 6928's initial window for a datagram size
 * @dgram: payload bytes per response datagram
 *
 * Return: min(10 datagrams, max(2 datagrams, 14600 bytes)).
 */
u32 mtp_cc_init_window(u32 dgram)
{
	return mtp_cc_min(10 * dgram, mtp_cc_max(2 * dgram, MTP_CC_IW_BYTES));
}

/**
 * mtp_cc_init() - state of a destination nothing was requested from yet
 * @c: state
 * @dgram: payload bytes per response datagram
 * @now: jiffies
 */
void mtp_cc_init(struct mtp_cc *c, u32 dgram, unsigned long now)
{
	c->cwnd = mtp_cc_init_window(dgram);
	c->ssthresh = ~0U;
	c->inflight = 0;
	c->ca_acked = 0;
	c->epoch = now - 1;
	c->pace_next = 0;
}

/* Return: bytes that may still be requested from the destination. */
u32 mtp_cc_room(const struct mtp_cc *c)
{
	return c->cwnd > c->inflight ? c->cwnd - c->inflight : 0;
}

/**
 * mtp_cc_acked() - requested data arrived
 * @c: state, @bytes already out of @c->inflight
 * @bytes: new payload bytes
 * @dgram: payload bytes per response datagram
 *
 * The window grows only while it limits, as tcp_is_cwnd_limited() has
 * it: in slow start while at least half of it was in flight, then while
 * less than a datagram of it was left.  Transactions held back by their
 * receive buffer or by small objects must not build a window nobody used.
 */
void mtp_cc_acked(struct mtp_cc *c, u32 bytes, u32 dgram)
{
	u64 used = (u64)c->inflight + bytes;

	if (c->cwnd < c->ssthresh) {
		if (2 * used < c->cwnd)
			return;
		/* RFC 3465 with L = 2: at most two datagrams per arrival */
		c->cwnd += mtp_cc_min(bytes, 2 * dgram);
		return;
	}
	if (used + dgram <= c->cwnd)
		return;
	c->ca_acked += bytes;
	if (c->ca_acked >= c->cwnd) {
		c->ca_acked -= c->cwnd;
		c->cwnd += dgram;
	}
}

/**
 * mtp_cc_queueing() - has the path queued %MTP_CC_VENO_DGRAMS datagrams?
 * @c: state
 * @dgram: payload bytes per response datagram
 * @r: RTT state of the destination
 *
 * Without samples, assume so.
 *
 * Return: true if a loss now is to be taken as congestion.
 */
bool mtp_cc_queueing(const struct mtp_cc *c, u32 dgram,
		     const struct mtp_rtt *r)
{
	u32 rtt = mtp_rtt_recent_min(r);
	u64 queued;

	if (!rtt || !r->min_us)
		return true;
	if (rtt <= r->min_us)
		return false;
	queued = (u64)c->cwnd * (rtt - r->min_us) / rtt;
	return queued >= (u64)MTP_CC_VENO_DGRAMS * dgram;
}

/**
 * mtp_cc_lost() - requested data was declared lost
 * @c: state
 * @sent: when the lost data was requested (jiffies)
 * @now: jiffies
 * @dgram: payload bytes per response datagram
 * @r: RTT state of the destination
 *
 * An epoch so old that jiffies wrapped past it (now before it) is over.
 *
 * Return: what the loss did to the window (&enum mtp_cc_cut).
 */
enum mtp_cc_cut mtp_cc_lost(struct mtp_cc *c, unsigned long sent,
			    unsigned long now, u32 dgram,
			    const struct mtp_rtt *r)
{
	if ((long)(sent - c->epoch) <= 0 && (long)(now - c->epoch) >= 0)
		return MTP_CC_NONE;
	c->epoch = now;
	if (!mtp_cc_queueing(c, dgram, r))
		return MTP_CC_RANDOM;
	c->ssthresh = mtp_cc_max(c->cwnd / 2, 2 * dgram);
	c->cwnd = c->ssthresh;
	c->ca_acked = 0;
	return MTP_CC_CONGESTION;
}

/**
 * mtp_cc_pace_rate() - the rate requests to the destination are spread at
 * @c: state
 * @srtt_us: the destination's smoothed RTT, 0 if it has no sample
 *
 * TCP's (tcp_update_pacing_rate()): twice the window per round trip in
 * slow start, which lets the window double, and 1.2 times it after.
 *
 * Return: bytes per second; 0 for no pacing.
 */
u64 mtp_cc_pace_rate(const struct mtp_cc *c, u32 srtt_us)
{
	u64 rate;

	if (!srtt_us)
		return 0;
	rate = (u64)c->cwnd * 1000000 / srtt_us;
	return c->cwnd < c->ssthresh ? 2 * rate : rate * 6 / 5;
}

/**
 * mtp_cc_pace_wait() - how long the next request must wait for its turn
 * @c: state
 * @now_ns: the time
 * @slack_ns: a request due within this of @now_ns goes now: a timer to
 *	wait for it would be no finer
 *
 * Return: nanoseconds to wait; 0 if the request may go now.
 */
u64 mtp_cc_pace_wait(const struct mtp_cc *c, u64 now_ns, u64 slack_ns)
{
	u64 go = now_ns + slack_ns;

	return c->pace_next > go ? c->pace_next - go : 0;
}

/**
 * mtp_cc_paced() - a request for @bytes went at @now_ns
 * @c: state
 * @bytes: bytes requested
 * @rate: from mtp_cc_pace_rate(); 0 paces nothing
 * @now_ns: the time
 *
 * The next one is due when these bytes have had their time at @rate.
 * Time spent idle builds no credit: after a pause the next request is
 * due at once, the ones after it at the rate again.
 */
void mtp_cc_paced(struct mtp_cc *c, u32 bytes, u64 rate, u64 now_ns)
{
	u64 from = c->pace_next > now_ns ? c->pace_next : now_ns;

	if (rate)
		c->pace_next = from + (u64)bytes * 1000000000 / rate;
}
