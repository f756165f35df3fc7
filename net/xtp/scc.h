/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: the thesis' Simple Congestion Control (SCC) as pure arithmetic,
 * shared by the module and the user-space unit tests.
 */
#ifndef _NET_XTP_SCC_H
#define _NET_XTP_SCC_H

#include <linux/types.h>

/**
 * struct xtp_cc_counts - how a window-based controller moved its window,
 *	as the Appendix B metrics count it (NewReno's too, by the same names)
 * @xp_inc: exponential-mode increases
 * @lin_inc: linear-mode acknowledgments counted
 * @xp_dec: decreases taken in exponential mode
 * @lin_dec: decreases taken in linear mode
 */
struct xtp_cc_counts {
	u64 xp_inc;
	u64 lin_inc;
	u64 xp_dec;
	u64 lin_dec;
};

/**
 * struct xtp_scc - SCC state, named as the Appendix B metrics name it
 * @trainsize: BIFW, the bytes-in-flight window
 * @linear_thresh: LGT, where exponential growth turns linear
 * @linear_count: bytes acknowledged towards the next linear step
 * @maxdata: one packet's payload: the growth step and the smallest window
 * @n: the growth and decrease counts
 */
struct xtp_scc {
	u32 trainsize;
	u32 linear_thresh;
	u32 linear_count;
	u32 maxdata;
	struct xtp_cc_counts n;
};

void xtp_scc_init(struct xtp_scc *s, u32 maxdata, u32 init_trainsize,
		  u32 linear_thresh);
void xtp_scc_acked(struct xtp_scc *s, u32 bytes);
void xtp_scc_handshake_end(struct xtp_scc *s, u32 k);
void xtp_scc_ecntl(struct xtp_scc *s);

#endif /* _NET_XTP_SCC_H */
