/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP and MTP: per-namespace sysctls kept in a module's net_generic()
 * struct.  TCP's tables point into init_net and move each pointer by the
 * distance between two struct nets; a module's struct is allocated apart
 * from struct net, so its template holds offsets into that struct
 * (PERNET_SYSCTL_FIELD()) and each namespace gets a copy made absolute.
 */
#ifndef _NET_PERNET_SYSCTL_H
#define _NET_PERNET_SYSCTL_H

#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/kcompat.h>
#include <net/net_namespace.h>

/* A template entry's .data: where its int lies in the per-net struct. */
#define PERNET_SYSCTL_FIELD(type, field)	((void *)offsetof(type, field))

/*
 * A capped int of a namespace other than the initial one: its maximum is
 * the initial namespace's value, read when written, and it starts no
 * higher.  A user namespace's root must not hold more state, longer,
 * than the host allows.
 */
static inline void pernet_sysctl_cap(struct ctl_table *t, int *init)
{
	t->extra2 = init;
	*(int *)t->data = min(*(int *)t->data, READ_ONCE(*init));
}

/**
 * pernet_sysctl_register() - register one namespace's copy of a template
 * @net: the namespace
 * @path: "net/xtp", "net/mtp"
 * @tmpl: the template: .data of each entry from PERNET_SYSCTL_FIELD(),
 *	ended by KCOMPAT_SYSCTL_END
 * @n: ARRAY_SIZE(@tmpl)
 * @priv: @net's per-net struct
 * @init_priv: the initial namespace's
 * @capped: the .extra2 values that mark an entry capped by the initial
 *	namespace's value (pernet_sysctl_cap()) in other namespaces
 * @ncapped: entries in @capped
 *
 * Unregister with pernet_sysctl_unregister(), which frees the copy.
 *
 * Return: the header, or NULL without memory.
 */
static inline struct ctl_table_header *
pernet_sysctl_register(struct net *net, const char *path,
		       const struct ctl_table *tmpl, size_t n, void *priv,
		       void *init_priv, const void *const *capped,
		       size_t ncapped)
{
	struct ctl_table_header *hdr;
	struct ctl_table *t;
	size_t i, j;

	t = kmemdup(tmpl, n * sizeof(*tmpl), GFP_KERNEL);
	if (!t)
		return NULL;
	for (i = 0; i < n && t[i].procname; i++) {
		t[i].data = priv + (uintptr_t)tmpl[i].data;
		for (j = 0; j < ncapped && !net_eq(net, &init_net); j++)
			if (t[i].extra2 == capped[j])
				pernet_sysctl_cap(&t[i], init_priv +
						  (uintptr_t)tmpl[i].data);
	}
	hdr = register_net_sysctl_sz(net, path, t, n);
	if (!hdr)
		kfree(t);
	return hdr;
}

/**
 * pernet_sysctl_unregister() - undo pernet_sysctl_register()
 * @hdr: its header
 */
static inline void pernet_sysctl_unregister(struct ctl_table_header *hdr)
{
	const struct ctl_table *t = hdr->ctl_table_arg;

	unregister_net_sysctl_table(hdr);
	kfree(t);
}

#endif /* _NET_PERNET_SYSCTL_H */
