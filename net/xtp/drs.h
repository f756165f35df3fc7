/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: receive-buffer autotuning (dynamic right-sizing) as pure
 * arithmetic, shared by the module (tune.c) and the user-space unit tests.
 */
#ifndef _NET_XTP_DRS_H
#define _NET_XTP_DRS_H

#include <linux/types.h>

/**
 * struct xtp_drs - what the receiver measures to size its window
 * @rtt_ns: the receiver's round-trip estimate, 0 until measured
 * @rtt_seq: data beyond this sequence number ends the running sample
 * @rtt_start_ns: when the running sample began, 0 while none runs
 * @mark_ns: start of the current reading period, 0 before the first data
 * @mark_seq: sequence number the application had read up to at @mark_ns
 * @space: most bytes the application read in one period so far
 */
struct xtp_drs {
	u64 rtt_ns;
	u64 rtt_seq;
	u64 rtt_start_ns;
	u64 mark_ns;
	u64 mark_seq;
	u32 space;
};

/* Segments of slack above twice a period's reading, as a floor. */
#define XTP_DRS_SLACK_SEGS	16
/* A round-trip sample running this many estimates is dropped. */
#define XTP_DRS_STALE		8

void xtp_drs_offer(struct xtp_drs *d, u64 now_ns, u64 old_alloc,
		   u64 new_alloc);
void xtp_drs_arrival(struct xtp_drs *d, u64 now_ns, u64 rcv_nxt,
		     u64 read_seq, u32 init_space);
u32 xtp_drs_read(struct xtp_drs *d, u64 now_ns, u64 read_seq, u32 seg);

#endif /* _NET_XTP_DRS_H */
