/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for include/net/kcompat_unaligned.h, found first on
 * the unit tests' include path: the big-endian accessors that the pure
 * codecs (net/xtp/wire.c, net/mtp/wire.c) take from it.
 */
#ifndef _XTP_SELFTEST_KCOMPAT_UNALIGNED_H
#define _XTP_SELFTEST_KCOMPAT_UNALIGNED_H

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u64 get_unaligned_be64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_be32(b) << 32 | get_unaligned_be32(b + 4);
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 8;
	b[1] = v & 0xff;
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = p;

	put_unaligned_be16(v >> 16, b);
	put_unaligned_be16(v & 0xffff, b + 2);
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	u8 *b = p;

	put_unaligned_be32(v >> 32, b);
	put_unaligned_be32(v & 0xffffffffU, b + 4);
}

#endif /* _XTP_SELFTEST_KCOMPAT_UNALIGNED_H */
