/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP congestion control: one window per destination, shared by the
 * transactions that fetch from it (see cc.c).  Pure code, also built in
 * user space for the unit tests.
 */
#ifndef _NET_MTP_CC_H
#define _NET_MTP_CC_H

#include <linux/types.h>

#include "rtt.h"

#define MTP_CC_IW_BYTES		14600	/* RFC 6928's initial window */
/*
 * Queued datagrams that mean congestion: Veno's three, but MTP answers a
 * subrequest with a burst of up to eight datagrams (client.c,
 * MTP_SUBREQ_DGRAMS), so one burst in a queue is MTP's own doing.
 */
#define MTP_CC_VENO_DGRAMS	8

/**
 * enum mtp_cc_cut - what a loss did to the window
 * @MTP_CC_NONE: nothing: data requested before the last cut was lost
 * @MTP_CC_RANDOM: the path did not queue; the window stays (random loss)
 * @MTP_CC_CONGESTION: the path queued; the window was halved
 */
enum mtp_cc_cut {
	MTP_CC_NONE,
	MTP_CC_RANDOM,
	MTP_CC_CONGESTION,
};

/**
 * struct mtp_cc - congestion state of one destination
 * @cwnd: bytes its transactions may have requested and not yet received
 * @ssthresh: slow start ends here
 * @inflight: bytes requested from it and not yet received nor lost
 * @ca_acked: bytes received towards the next increase in congestion
 *	avoidance
 * @epoch: when the window was last cut (jiffies): losses of data
 *	requested before that belong to the same congestion event
 * @pace_next: when the next request is due (ns, ktime_get_ns()), for
 *	pacing
 */
struct mtp_cc {
	u32 cwnd;
	u32 ssthresh;
	u32 inflight;
	u32 ca_acked;
	unsigned long epoch;
	u64 pace_next;
};

u32 mtp_cc_init_window(u32 dgram);
void mtp_cc_init(struct mtp_cc *c, u32 dgram, unsigned long now);
u32 mtp_cc_room(const struct mtp_cc *c);
void mtp_cc_acked(struct mtp_cc *c, u32 bytes, u32 dgram);
bool mtp_cc_queueing(const struct mtp_cc *c, u32 dgram,
		     const struct mtp_rtt *r);
enum mtp_cc_cut mtp_cc_lost(struct mtp_cc *c, unsigned long sent,
			    unsigned long now, u32 dgram,
			    const struct mtp_rtt *r);
u64 mtp_cc_pace_rate(const struct mtp_cc *c, u32 srtt_us);
u64 mtp_cc_pace_wait(const struct mtp_cc *c, u64 now_ns, u64 slack_ns);
void mtp_cc_paced(struct mtp_cc *c, u32 bytes, u64 rate, u64 now_ns);

#endif /* _NET_MTP_CC_H */
