/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * XTP 4.0 (Xpress Transport Protocol) socket interface.
 *
 * socket(AF_INET, SOCK_XTP, IPPROTO_XTP) opens an XTP context.  The
 * protocol argument may also be 0.
 */
#ifndef _UAPI_LINUX_XTP_H
#define _UAPI_LINUX_XTP_H

#include <linux/types.h>

/* IANA protocol number of XTP. */
#ifndef IPPROTO_XTP
#define IPPROTO_XTP	36
#endif

/*
 * Socket type of an XTP context.  Types 7, 8 and 9 are the free values
 * below SOCK_MAX; DCCP's SOCK_DCCP (6) is the precedent.
 */
#ifndef SOCK_XTP
#define SOCK_XTP	7
#endif

/* Socket option level, as SOL_SCTP is IPPROTO_SCTP. */
#define SOL_XTP		IPPROTO_XTP

#endif /* _UAPI_LINUX_XTP_H */
