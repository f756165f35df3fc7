/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/math64.h>. */
#ifndef _XTP_SELFTEST_MATH64_H
#define _XTP_SELFTEST_MATH64_H

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

#endif /* _XTP_SELFTEST_MATH64_H */
