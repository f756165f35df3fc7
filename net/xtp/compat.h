/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: differences between the kernels the module builds for (6.1, 6.12)
 * that only XTP meets; <net/kcompat.h> has those MTP meets too.
 */
#ifndef _NET_XTP_COMPAT_H
#define _NET_XTP_COMPAT_H

#include <linux/version.h>
#include <net/kcompat.h>

/* proto_ops.accept took (flags, kern) until 6.10 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define XTP_ACCEPT_ARGS	struct socket *sock, struct socket *newsock, \
			struct proto_accept_arg *arg
#define XTP_ACCEPT_FLAGS	(arg->flags)
#else
#define XTP_ACCEPT_ARGS	struct socket *sock, struct socket *newsock, \
			int flags, bool kern
#define XTP_ACCEPT_FLAGS	(flags)
#endif

/*
 * inet_diag takes a reference on a handler's module since 6.9; before,
 * a mutex kept the handler from going during a request.
 */
#define XTP_DIAG_HAS_OWNER \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0))

/*
 * sendfile() and splice() into a socket: since 6.5 they call sendmsg()
 * with MSG_SPLICE_PAGES and a bvec iterator; before, sock_no_sendpage()
 * called it with MSG_SENDPAGE_NOTLAST on all but a splice's last page.
 * Either way the data can be copied like any other, and the flag that
 * says more follows counts as MSG_MORE.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define XTP_MSG_SPLICE		MSG_SPLICE_PAGES
#define XTP_MSG_SPLICE_MORE	0
#define xtp_msg_spliced(msg)	((msg)->msg_flags & MSG_SPLICE_PAGES)
#else
#define XTP_MSG_SPLICE		MSG_SENDPAGE_NOTLAST
#define XTP_MSG_SPLICE_MORE	MSG_SENDPAGE_NOTLAST
/* sock_no_sendpage() is the one sender of kernel memory (a kvec) here. */
#define xtp_msg_spliced(msg)	iov_iter_is_kvec(&(msg)->msg_iter)
#endif

/* The GSO entry points moved from <linux/netdevice.h> in 6.5. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#include <net/gso.h>
#else
#include <linux/netdevice.h>
#endif

#endif /* _NET_XTP_COMPAT_H */
