// SPDX-License-Identifier: GPL-2.0
/*
 * MTP client flow control (see flow.h).  Pure code.
 *
 * The window is a quantity of bytes, not a range: the client may have that
 * much requested and not yet received, anywhere in the object.  It grows by
 * one datagram after M windows' worth of data arrived without a change
 * (M = 1 before any loss, 2 after, 3 when the RTT has grown past five times
 * its minimum), never when the RTT is ten times its minimum or above four
 * seconds, and shrinks by one datagram per loss outside the moratorium
 * that each decrease starts, unless the RTT shows that the path does not
 * queue (ambient loss, mtp_flow_congested()).
 */
#include <linux/types.h>

#include "flow.h"

static u32 mtp_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

static u32 mtp_max(u32 a, u32 b)
{
	return a > b ? a : b;
}

/**
 * mtp_flow_dgram_cap() - largest datagram payload for a path
 * @mtu_payload: bytes of MTP payload that fit in one IP packet of the path
 *	(MTU less the IP, UDP and MTP headers); 0 if unknown
 * @rcvbuf: receive buffer
 *
 * A power of two, so that the request can carry it as a shift; it avoids
 * IP fragmentation, because a lost fragment loses the whole datagram.
 *
 * Return: the cap in bytes, at least %MTP_FLOW_DGRAM_MIN.
 */
u32 mtp_flow_dgram_cap(u32 mtu_payload, u32 rcvbuf)
{
	u32 cap = MTP_FLOW_DGRAM_CAP;

	if (mtu_payload)
		cap = mtp_min(cap, mtu_payload);
	cap = mtp_min(cap, rcvbuf / 4);
	if (cap < MTP_FLOW_DGRAM_MIN)
		return MTP_FLOW_DGRAM_MIN;
	/* round down to a power of two */
	while (cap & (cap - 1))
		cap &= cap - 1;
	return cap;
}

static void mtp_flow_resize(struct mtp_flow *f)
{
	if (f->window / f->dgram < 4 && f->dgram > MTP_FLOW_DGRAM_MIN)
		f->dgram /= 2;
	else if (f->window / f->dgram > 16 && f->dgram * 2 <= f->dgram_max)
		f->dgram *= 2;
	f->win_min = mtp_min(f->win_min, f->window);
	f->win_max = mtp_max(f->win_max, f->window);
}

/**
 * mtp_flow_init() - state of a new transaction
 * @f: state
 * @rcvbuf: receive buffer of the socket
 * @dgram_max: from mtp_flow_dgram_cap()
 */
void mtp_flow_init(struct mtp_flow *f, u32 rcvbuf, u32 dgram_max)
{
	f->rcvbuf = mtp_max(rcvbuf, 4 * MTP_FLOW_DGRAM_MIN);
	f->dgram_max = mtp_max(dgram_max, MTP_FLOW_DGRAM_MIN);
	f->dgram = mtp_min(MTP_FLOW_DGRAM_INIT, f->dgram_max);
	f->window = mtp_min(f->rcvbuf / 2, MTP_FLOW_INIT_CAP);
	f->window = mtp_max(f->window, f->dgram);
	f->flowtimeout = 0;
	f->loss_seen = false;
	f->win_min = f->window;
	f->win_max = f->window;
	mtp_flow_resize(f);
}

/**
 * mtp_flow_rcvbuf_grown() - the socket's receive buffer grew
 * @f: state
 * @rcvbuf: its new size
 *
 * The bounds of the window follow it; the window itself grows into them
 * as data arrives.
 */
void mtp_flow_rcvbuf_grown(struct mtp_flow *f, u32 rcvbuf)
{
	f->rcvbuf = mtp_max(f->rcvbuf, rcvbuf);
}

/**
 * mtp_flow_path_cut() - the server's datagrams must be smaller
 * @f: state
 * @dgram: the power of two the server said its path takes
 *
 * The client sizes its datagrams from its own route; a smaller hop on
 * the way tells only the server, which cuts its answers and says so.
 * Asking for no more keeps the datagram size, and what is counted in
 * datagrams (the initial and congestion windows, Veno's queue), true.
 */
void mtp_flow_path_cut(struct mtp_flow *f, u32 dgram)
{
	if (dgram >= f->dgram_max)
		return;
	f->dgram_max = mtp_max(dgram, MTP_FLOW_DGRAM_MIN);
	f->dgram = mtp_min(f->dgram, f->dgram_max);
}

/**
 * mtp_flow_window_max() - upper bound of the window
 * @f: state
 * @r: RTT state
 *
 * A LAN (minimum RTT below 40 ms) is bursty, so the window stays within
 * the receive buffer there; elsewhere it may reach twice that.
 *
 * Return: bytes.
 */
u32 mtp_flow_window_max(const struct mtp_flow *f, const struct mtp_rtt *r)
{
	u32 max = f->rcvbuf;

	if (r->min_us >= MTP_FLOW_LAN_US)
		max = 2 * f->rcvbuf;
	return mtp_min(max, MTP_FLOW_MAX_DGRAMS * f->dgram);
}

/**
 * mtp_flow_received() - account for response data that arrived
 * @f: state
 * @len: new payload bytes
 * @r: RTT state, after this response's sample
 */
void mtp_flow_received(struct mtp_flow *f, u32 len, const struct mtp_rtt *r)
{
	u32 avg = mtp_rtt_avg(r);
	u32 m = f->loss_seen ? 2 : 1;

	f->flowtimeout -= len;
	if (avg && (avg > 10ULL * r->min_us || avg > 4000000))
		return;
	if (avg && avg > 5ULL * r->min_us)
		m = 3;
	if (f->flowtimeout > -(s64)m * f->window)
		return;
	f->flowtimeout = 0;
	if (f->window + f->dgram <= mtp_flow_window_max(f, r))
		f->window += f->dgram;
	mtp_flow_resize(f);
}

/**
 * mtp_flow_grow_max() - bound of the window with the delivery-rate model
 * @f: state
 *
 * A quarter of the receive buffer (each datagram's skb takes about twice
 * its payload there, and as much again waits behind holes), never below
 * the initial window: beyond, answers would overflow the buffer and be
 * asked for again.  Not the loss-driven window's 256 datagrams: the
 * model answers for the path, and the buffer grows with the reader
 * (client.c, mtp_rx_autotune()).
 *
 * Return: bytes.
 */
u32 mtp_flow_grow_max(const struct mtp_flow *f)
{
	return mtp_max(f->rcvbuf / 4, mtp_min(f->rcvbuf / 2, MTP_FLOW_INIT_CAP));
}

/**
 * mtp_flow_grow() - response data arrived, with the delivery-rate model
 * @f: state
 * @len: new payload bytes
 *
 * The model (net.mtp.cc = 2) answers for congestion, so the window is
 * flow control alone: it grows by what arrives up to mtp_flow_grow_max(),
 * losses or not, and only the receive buffer (mtp_flow_squeeze()) takes
 * from it.
 */
void mtp_flow_grow(struct mtp_flow *f, u32 len)
{
	u32 max = mtp_flow_grow_max(f);

	f->window = len >= max || f->window >= max - len ? max :
		    f->window + len;
	f->window = mtp_max(f->window, f->dgram);
	mtp_flow_resize(f);
}

/**
 * mtp_flow_congested() - does the path queue, i.e. is loss congestion?
 * @r: RTT state
 *
 * MTP takes the round-trip time as its measure of congestion (Ch V,
 * "Window Adjustment": the window stops growing as the average RTT rises
 * over its minimum; "variations in network latency and loss rates may be
 * used to assess network congestion", Ch IV): a router that drops because
 * its queue overflows first delays.  Loss while the average RTT stays
 * within twice the minimum comes from a path that is not queueing
 * (ambient loss); taking a datagram off the window for it cannot avoid
 * the next one and only starves the transaction down to one datagram.
 * Without samples, assume congestion.
 *
 * Return: true if losses are to be taken as congestion.
 */
bool mtp_flow_congested(const struct mtp_rtt *r)
{
	u32 avg = mtp_rtt_avg(r);

	return !avg || avg > 2ULL * r->min_us;
}

/**
 * mtp_flow_lost() - account for data declared lost
 * @f: state
 * @len: bytes declared lost
 * @r: RTT state
 *
 * Outside the moratorium a loss takes one datagram off the window and
 * starts a new moratorium (Ch V, "Window Adjustment").  An ambient loss
 * (see mtp_flow_congested()) only starts the moratorium: the window
 * keeps its size and does not grow while losses keep coming.
 */
void mtp_flow_lost(struct mtp_flow *f, u32 len, const struct mtp_rtt *r)
{
	f->loss_seen = true;
	f->flowtimeout -= len;
	if (f->flowtimeout > 0)
		return;		/* moratorium */
	if (f->window > f->dgram && mtp_flow_congested(r))
		f->window -= f->dgram;
	f->flowtimeout = mtp_max(f->window, 3 * f->dgram);
	mtp_flow_resize(f);
}

/**
 * mtp_flow_squeeze() - the receive buffer is filling up
 * @f: state of the fastest transaction
 *
 * Takes one datagram off the window even during a moratorium.
 */
void mtp_flow_squeeze(struct mtp_flow *f)
{
	f->window = f->window > 2 * f->dgram ? f->window - f->dgram : f->dgram;
	f->flowtimeout = 0;
	mtp_flow_resize(f);
}

/* Return: log2 of the datagram size, for the request header. */
unsigned int mtp_flow_shift(const struct mtp_flow *f)
{
	unsigned int s = 0;

	while ((1U << s) < f->dgram)
		s++;
	return s;
}
