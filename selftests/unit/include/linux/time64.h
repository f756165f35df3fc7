/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in for the kernel's <linux/time64.h>: the units. */
#ifndef _XTP_SELFTEST_TIME64_H
#define _XTP_SELFTEST_TIME64_H

#define NSEC_PER_USEC	1000L
#define MSEC_PER_SEC	1000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_SEC	1000000000L

#endif /* _XTP_SELFTEST_TIME64_H */
