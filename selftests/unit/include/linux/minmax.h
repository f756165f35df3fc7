/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/minmax.h>: min() and max(). */
#ifndef _XTP_SELFTEST_MINMAX_H
#define _XTP_SELFTEST_MINMAX_H

#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))

#endif /* _XTP_SELFTEST_MINMAX_H */
