/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP and MTP: the kernel interfaces both modules use that differ between
 * the kernels they build for (Debian's 6.1 and 6.12), in one place.
 *
 * The style is a backport's, as out-of-tree drivers' kcompat.h is: the
 * modules are written against the newest interface, and an older kernel
 * gets that interface defined here in terms of what it has.  Each
 * module's own compat.h includes this and adds what only it needs
 * (XTP: accept() and splice flags, inet_diag; MTP: the UDP tunnel).
 */
#ifndef _NET_KCOMPAT_H
#define _NET_KCOMPAT_H

#include <linux/export.h>
#include <linux/sysctl.h>
#include <linux/timer.h>
#include <linux/version.h>
#include <net/net_namespace.h>

/* The memory pressure helpers left <net/sock.h> in 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#include <net/proto_memory.h>
#else
#include <net/sock.h>
#endif

#include <net/kcompat_unaligned.h>

/* 6.2 renamed del_timer{,_sync}(). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define timer_delete_sync(t)	del_timer_sync(t)
#define timer_delete(t)		del_timer(t)
#endif

/* 6.16 renamed from_timer(). */
#ifndef timer_container_of
#define timer_container_of(var, t, field)	from_timer(var, t, field)
#endif

/*
 * Sysctl tables are sized by the caller since 6.6, and need no empty last
 * entry; before, the empty entry ends them.  Tables end with
 * KCOMPAT_SYSCTL_END and are registered with ARRAY_SIZE().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define KCOMPAT_SYSCTL_END
#else
#define KCOMPAT_SYSCTL_END	{ }
#define register_net_sysctl_sz(net, path, table, n) \
	({ (void)(n); register_net_sysctl(net, path, table); })
#endif

/*
 * KUnit hooks: with CONFIG_KUNIT a few internals become visible to the
 * KUnit modules.  Kernels without <kunit/visibility.h> (before 6.2,
 * unless backported) get the !CONFIG_KUNIT meaning of its macros.
 */
#if __has_include("kunit/visibility.h")
#include <kunit/visibility.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(...)
#define VISIBLE_IF_KUNIT		static
#endif

#endif /* _NET_KCOMPAT_H */
