/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP: delivery-rate samples of a server host's answers, for XTP's
 * delivery-rate model (net/xtp/bbr.c, built into this module too) when
 * net.mtp.cc selects it (rate.c).  Pure code, also built in user space
 * for the unit tests.
 */
#ifndef _NET_MTP_RATE_H
#define _NET_MTP_RATE_H

#include <linux/types.h>

#include "../xtp/bbr.h"
#include "cc.h"

/**
 * enum mtp_cc_mode - net.mtp.cc: what sets a server host's window
 * @MTP_CC_WINDOW: the loss-based window of cc.c
 * @MTP_CC_BBR: the delivery-rate model, with pacing of every request
 */
enum mtp_cc_mode {
	MTP_CC_WINDOW = 1,
	MTP_CC_BBR = 2,
};

/**
 * struct mtp_rate_stamp - what a subrequest saw of its host when it left
 * @delivered: &mtp_rate.delivered then
 * @delivered_ns: &mtp_rate.delivered_ns then
 * @first_ns: &mtp_rate.first_ns then: when its flight began
 * @sent_ns: when it left, 0 for a range with no stamp (no sample)
 * @no_rtt: no RTT from its answers: it asked again for bytes asked
 *	before, the server held it for its application, or the first of its
 *	datagrams gave one (the others queued behind that one)
 * @app_limited: it left while something other than the host's window or
 *	pacing held the client back, or the server held it for its
 *	application: a low rate says nothing of the path
 * @idle: nothing else was in transit from the host when it left
 */
struct mtp_rate_stamp {
	u64 delivered;
	u64 delivered_ns;
	u64 first_ns;
	u64 sent_ns;
	bool no_rtt;
	bool app_limited;
	bool idle;
};

/**
 * struct mtp_rate - a server host's delivery rate and its model
 * @bbr: the model
 * @delivered: answer bytes that arrived from the host, ever
 * @delivered_ns: when @delivered last grew, or the host went from idle
 * @first_ns: when the subrequest of the newest bytes delivered left (or
 *	the host went from idle): the start of the current flight
 * @app_limited_until: the subrequests are application-limited until
 *	@delivered passes this, 0 for not
 * @lost: bytes declared lost since the last sample
 */
struct mtp_rate {
	struct xtp_bbr bbr;
	u64 delivered;
	u64 delivered_ns;
	u64 first_ns;
	u64 app_limited_until;
	u32 lost;
};

void mtp_rate_init(struct mtp_rate *r, u64 now_ns);
void mtp_rate_sent(struct mtp_rate *r, struct mtp_rate_stamp *st,
		   bool idle, bool repeat, u64 now_ns);
void mtp_rate_app_limited(struct mtp_rate *r, u32 inflight);
void mtp_rate_lost(struct mtp_rate *r, u32 bytes);
void mtp_rate_delivered(struct mtp_rate *r, struct mtp_cc *cc,
			const struct mtp_rate_stamp *st, u32 bytes, u32 dgram,
			u64 now_ns);
u64 mtp_rate_pace(const struct mtp_rate *r, const struct mtp_cc *cc,
		  u32 srtt_us, u32 dgram);

#endif /* _NET_MTP_RATE_H */
