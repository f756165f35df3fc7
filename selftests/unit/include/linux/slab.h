/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space stand-in for the kernel's <linux/slab.h>: a slab cache is a
 * size and a counter of live objects, and a test can make the next
 * allocations fail.
 */
#ifndef _XTP_SELFTEST_SLAB_H
#define _XTP_SELFTEST_SLAB_H

#include <stdlib.h>

typedef unsigned int gfp_t;
#define GFP_ATOMIC	1U
#define GFP_KERNEL	2U

/**
 * struct kmem_cache - a test's slab cache
 * @size: object size
 * @live: objects allocated and not freed
 * @fail: the next this many allocations fail
 */
struct kmem_cache {
	size_t size;
	long live;
	unsigned int fail;
};

static inline void *kmem_cache_alloc(struct kmem_cache *c, gfp_t gfp)
{
	void *p;

	(void)gfp;
	if (c->fail) {
		c->fail--;
		return NULL;
	}
	p = malloc(c->size);
	if (p)
		c->live++;
	return p;
}

static inline void kmem_cache_free(struct kmem_cache *c, void *p)
{
	if (p)
		c->live--;
	free(p);
}

#endif /* _XTP_SELFTEST_SLAB_H */
