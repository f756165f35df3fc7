/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/minmax.h>: min(), max(),
 * min_t() and max_t().
 */
#ifndef _XTP_SELFTEST_MINMAX_H
#define _XTP_SELFTEST_MINMAX_H

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)

#endif /* _XTP_SELFTEST_MINMAX_H */
