/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP and MTP: the unaligned accessors, wherever the kernel keeps them.
 * Part of <net/kcompat.h>, apart so that the pure codecs (wire.c) take
 * only this; user space has a stand-in of the same name.
 */
#ifndef _NET_KCOMPAT_UNALIGNED_H
#define _NET_KCOMPAT_UNALIGNED_H

/* <asm/unaligned.h> became <linux/unaligned.h> in 6.12. */
#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _NET_KCOMPAT_UNALIGNED_H */
