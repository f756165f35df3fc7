/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP and MTP: memory that a socket keeps for its peers, allocated in
 * softirq and charged to the socket's memory cgroup.  Shared by both
 * modules, so a static inline.
 */
#ifndef _NET_SK_MEMCG_ALLOC_H
#define _NET_SK_MEMCG_ALLOC_H

#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <net/sock.h>

/**
 * sk_memcg_kzalloc_atomic() - zeroed memory charged to a socket's cgroup
 * @sk: the socket that pays
 * @size: bytes
 *
 * In softirq no task says whose memory it is: charge the cgroup of the
 * socket that keeps it, not that of whatever task was interrupted, and
 * nobody's if the socket has none.
 *
 * Return: the memory (GFP_ATOMIC), or NULL.
 */
static inline void *sk_memcg_kzalloc_atomic(const struct sock *sk,
					    size_t size)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *old;
	void *p;

	if (sk->sk_memcg) {
		old = set_active_memcg(sk->sk_memcg);
		p = kzalloc(size, GFP_ATOMIC | __GFP_ACCOUNT);
		set_active_memcg(old);
		return p;
	}
#endif
	return kzalloc(size, GFP_ATOMIC);
}

#endif /* _NET_SK_MEMCG_ALLOC_H */
