/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: the arithmetic of ECNTL spans, XTP's selective acknowledgment
 * (sack.c).  Pure code, so the unit tests build it in user space
 * (selftests/unit/test_sack.c).
 */
#ifndef _NET_XTP_SACK_H
#define _NET_XTP_SACK_H

#include <linux/types.h>

#include "wire.h"

/* Least reordering tolerated, in ns (see xtp_sack_windows()). */
#define XTP_REO_MIN_NS		2000000ULL

u32 xtp_sack_add(struct xtp_wire_span *spans, u32 n, u32 max, u64 seq,
		 u64 end);
bool xtp_sack_covers(const struct xtp_wire_pkt *pkt, u32 nspan, u64 seq,
		     u64 end);
/**
 * struct xtp_sack_walk - an ECNTL's spans read along packets in order
 * @pkt: the ECNTL
 * @nspan: how many of its spans to read
 * @next: the first span that may hold the next packet
 * @ordered: the spans rise and do not overlap, so @next only moves on
 */
struct xtp_sack_walk {
	const struct xtp_wire_pkt *pkt;
	u32 nspan;
	u32 next;
	bool ordered;
};

void xtp_sack_walk_start(struct xtp_sack_walk *w,
			 const struct xtp_wire_pkt *pkt, u32 nspan);
bool xtp_sack_walk_covers(struct xtp_sack_walk *w, u64 seq, u64 end);
bool xtp_sack_walk_done(const struct xtp_sack_walk *w);
void xtp_sack_windows(u32 srtt_us, u32 rttvar_us, u8 reo_mult, u64 *reo_ns,
		      u64 *rtt_ns);

/**
 * enum xtp_sack_verdict - what is known of a packet not seen by the peer
 * @XTP_SACK_UNKNOWN: sent after everything the peer has shown: no word
 *	on it yet
 * @XTP_SACK_WAIT: not lost yet; it will be at the deadline given
 * @XTP_SACK_LOST: lost: send it again
 */
enum xtp_sack_verdict {
	XTP_SACK_UNKNOWN,
	XTP_SACK_WAIT,
	XTP_SACK_LOST,
};

enum xtp_sack_verdict xtp_sack_judge(u64 xmit_ns, u64 newest_seen_ns,
				     u64 reo_ns, u64 rtt_ns, u64 now_ns,
				     u64 *due_ns);

#endif /* _NET_XTP_SACK_H */
