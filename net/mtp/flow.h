/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP client flow control: the receiver's non-contiguous window, the
 * flowtimeout byte counter that paces its changes, and the datagram size
 * that follows the window.  Pure code (flow.c), also built in user space.
 */
#ifndef _NET_MTP_FLOW_H
#define _NET_MTP_FLOW_H

#include <linux/types.h>

#include "rtt.h"

#define MTP_FLOW_DGRAM_MIN	512
#define MTP_FLOW_DGRAM_INIT	1024
#define MTP_FLOW_DGRAM_CAP	8192	/* MTP 2.1 enforced 8 KiB */
#define MTP_FLOW_MAX_DGRAMS	256	/* window cap, in datagrams */
#define MTP_FLOW_LAN_US		40000	/* below: window max is rcvbuf */
#define MTP_FLOW_INIT_CAP	65536	/* initial window cap */

/**
 * struct mtp_flow - flow control state of one transaction
 * @window: bytes the client lets be requested and not yet received
 * @flowtimeout: byte counter gating window changes; positive values are
 *	a moratorium on decreases
 * @dgram: payload bytes per response datagram (P)
 * @dgram_max: largest @dgram (path MTU, rcvbuf/4, 8 KiB)
 * @rcvbuf: the socket's receive buffer when the transaction started
 * @loss_seen: some data of this transaction was declared lost
 * @win_min: smallest @window so far
 * @win_max: largest @window so far
 */
struct mtp_flow {
	u32 window;
	s64 flowtimeout;
	u32 dgram;
	u32 dgram_max;
	u32 rcvbuf;
	bool loss_seen;
	u32 win_min;
	u32 win_max;
};

u32 mtp_flow_dgram_cap(u32 mtu_payload, u32 rcvbuf);
void mtp_flow_init(struct mtp_flow *f, u32 rcvbuf, u32 dgram_max);
void mtp_flow_path_cut(struct mtp_flow *f, u32 dgram);
void mtp_flow_rcvbuf_grown(struct mtp_flow *f, u32 rcvbuf);
u32 mtp_flow_window_max(const struct mtp_flow *f, const struct mtp_rtt *r);
void mtp_flow_received(struct mtp_flow *f, u32 len, const struct mtp_rtt *r);
u32 mtp_flow_grow_max(const struct mtp_flow *f);
void mtp_flow_grow(struct mtp_flow *f, u32 len);
bool mtp_flow_congested(const struct mtp_rtt *r);
void mtp_flow_lost(struct mtp_flow *f, u32 len, const struct mtp_rtt *r);
void mtp_flow_squeeze(struct mtp_flow *f);
unsigned int mtp_flow_shift(const struct mtp_flow *f);

#endif /* _NET_MTP_FLOW_H */
