/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel definitions net/xtp/wire.[ch] need, for building them in
 * user space.  Force-included (-include kshim.h) before every source file of
 * the unit tests, the fuzzer and the tshark oracle.
 */
#ifndef _XTP_SELFTEST_KSHIM_H
#define _XTP_SELFTEST_KSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>	/* __be16, __be32, __be64 */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef U32_MAX
#define U32_MAX	((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX	((u64)~0ULL)
#endif

#ifndef __packed
#define __packed	__attribute__((__packed__))
#endif

#endif /* _XTP_SELFTEST_KSHIM_H */
