/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/build_bug.h>, found first on
 * the unit tests' include path: static_assert() with an optional message.
 */
#ifndef _XTP_SELFTEST_BUILD_BUG_H
#define _XTP_SELFTEST_BUILD_BUG_H

#undef static_assert
#define xtp_shim_sa(cond, msg, ...)	_Static_assert(cond, msg)
#define static_assert(...)		xtp_shim_sa(__VA_ARGS__, "static_assert")

#endif /* _XTP_SELFTEST_BUILD_BUG_H */
