/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MTP (Multipurpose Transaction Protocol) socket interface.
 *
 * socket(AF_INET, SOCK_MTP, 0) opens an MTP transaction endpoint.  MTP
 * datagrams travel over UDP, so the protocol argument may also be
 * IPPROTO_UDP.
 */
#ifndef _UAPI_LINUX_MTP_H
#define _UAPI_LINUX_MTP_H

#include <linux/types.h>

#ifndef SOCK_MTP
#define SOCK_MTP	8
#endif

/*
 * Socket option level.  MTP has no IP protocol number of its own, so the
 * level is 0x4d54 ("MT"): above every IP protocol number and far from the
 * kernel's sequentially allocated SOL_* values (SOL_VSOCK is 287).
 */
#define SOL_MTP		0x4d54

#endif /* _UAPI_LINUX_MTP_H */
