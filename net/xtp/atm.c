// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: the Address Translation Map.
 *
 * The responder records (initiator address, initiator key) for every
 * association it accepts.  A FIRST that hits a live entry is a duplicate
 * of a running association: its SREQ is answered, nothing else.  When the
 * association ends the entry stays for 2 x MSL (the thesis' ATM replay
 * timer), so that a delayed or replayed FIRST of a finished association
 * is dropped instead of opening it again and delivering its data twice.
 *
 * The number of entries is capped per namespace (net.xtp.atm_max).  At
 * the cap the entry nearest the end of its replay time makes way, as TCP
 * lets TIME_WAIT sockets go beyond tcp_max_tw_buckets: a server opening
 * more than atm_max associations per 2 x MSL keeps working, the replay
 * protection of its oldest finished ones is what shrinks.  Only when
 * every entry belongs to a live association is a FIRST refused.
 */
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <net/sk_memcg_alloc.h>
#include <net/sock.h>

#include "xtp.h"
#include <trace/events/xtp.h>

struct xtp_atm_id {
	u64 key;
	__be32 addr;
	u32 pad;
};

/**
 * struct xtp_atm_entry - one ATM entry
 * @node: entry in xtp_net.atm
 * @id: initiator address and key
 * @sk: the context while it lives, NULL once released
 * @lru: entry in xtp_net.atm_replay once released
 * @net: namespace (for the timer)
 * @timer: replay timer
 * @rcu: deferred free
 */
struct xtp_atm_entry {
	struct rhash_head node;
	struct xtp_atm_id id;
	struct sock __rcu *sk;
	struct list_head lru;
	struct net *net;
	struct timer_list timer;
	struct rcu_head rcu;
};

static const struct rhashtable_params xtp_atm_params = {
	.head_offset	= offsetof(struct xtp_atm_entry, node),
	.key_offset	= offsetof(struct xtp_atm_entry, id),
	.key_len	= sizeof(struct xtp_atm_id),
	.automatic_shrinking = true,
};

static void xtp_atm_free(struct xtp_net *xn, struct xtp_atm_entry *e,
			 int why)
{
	trace_xtp_atm(e->id.addr, e->id.key, why);
	atomic_dec(&xn->atm_count);
	XTP_DEC_STATS(e->net, XTP_MIB_ATMENTRIES);
	kfree_rcu(e, rcu);
}

static void xtp_atm_expire(struct timer_list *t)
{
	struct xtp_atm_entry *e = timer_container_of(e, t, timer);
	struct xtp_net *xn = xtp_net(e->net);

	spin_lock_bh(&xn->atm_lock);
	list_del_init(&e->lru);
	spin_unlock_bh(&xn->atm_lock);
	if (!rhashtable_remove_fast(&xn->atm, &e->node, xtp_atm_params))
		xtp_atm_free(xn, e, XTP_TRACE_ATM_EXPIRE);
}

/*
 * At the cap: end the replay time of the entry released first (atm_replay
 * is in release order, so it is the one whose replay time ends soonest).
 * Stopping its timer under atm_lock makes the entry ours; a timer already
 * running waits for the lock and frees the entry itself, and the caller
 * is refused then, as when no entry is finished.
 */
static bool xtp_atm_recycle(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);
	struct xtp_atm_entry *e;

	spin_lock_bh(&xn->atm_lock);
	e = list_first_entry_or_null(&xn->atm_replay, struct xtp_atm_entry,
				     lru);
	if (e && timer_delete(&e->timer))
		list_del_init(&e->lru);
	else
		e = NULL;
	spin_unlock_bh(&xn->atm_lock);
	if (!e)
		return false;
	/* Only a listed entry's timer frees it: it is still hashed. */
	if (WARN_ON_ONCE(rhashtable_remove_fast(&xn->atm, &e->node,
						xtp_atm_params)))
		return false;
	XTP_INC_STATS(net, XTP_MIB_ATMRECYCLED);
	xtp_atm_free(xn, e, XTP_TRACE_ATM_RECYCLE);
	return true;
}

int xtp_atm_init_net(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);

	atomic_set(&xn->atm_count, 0);
	spin_lock_init(&xn->atm_lock);
	INIT_LIST_HEAD(&xn->atm_replay);
	return rhashtable_init(&xn->atm, &xtp_atm_params);
}

static void xtp_atm_destroy_entry(void *ptr, void *arg)
{
	kfree(ptr);
}

/*
 * No context is left when a namespace goes, but replay timers may be: stop
 * them all before the table is torn down under them.
 */
void xtp_atm_exit_net(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);
	struct rhashtable_iter iter;
	struct xtp_atm_entry *e;

	rhashtable_walk_enter(&xn->atm, &iter);
	rhashtable_walk_start(&iter);
	while ((e = rhashtable_walk_next(&iter))) {
		if (IS_ERR(e))
			continue;
		timer_delete_sync(&e->timer);
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	rhashtable_free_and_destroy(&xn->atm, xtp_atm_destroy_entry, NULL);
}

/**
 * xtp_atm_seq_show() - one line per ATM entry, for /proc/net/xtp/atm
 * @seq: the file
 * @net: its namespace
 *
 * Initiator address and key, LIVE while the association runs or REPLAY
 * while the replay timer keeps its FIRSTs out, and the ms left of that.
 * A table resize during the walk may show an entry twice.
 */
void xtp_atm_seq_show(struct seq_file *seq, struct net *net)
{
	struct rhashtable_iter it;
	struct xtp_atm_entry *e;

	rhashtable_walk_enter(&xtp_net(net)->atm, &it);
	rhashtable_walk_start(&it);
	while ((e = rhashtable_walk_next(&it))) {
		long left;
		bool live;

		if (IS_ERR(e)) {
			if (PTR_ERR(e) == -EAGAIN)
				continue;
			break;
		}
		live = rcu_access_pointer(e->sk);
		left = (long)(READ_ONCE(e->timer.expires) - jiffies);
		seq_printf(seq, "%pI4 %016llx %s %u\n", &e->id.addr, e->id.key,
			   live ? "LIVE" : "REPLAY",
			   live || left < 0 ? 0 : jiffies_to_msecs(left));
	}
	rhashtable_walk_stop(&it);
	rhashtable_walk_exit(&it);
}

/**
 * xtp_atm_lookup() - Full Context Lookup of a FIRST
 * @net: namespace
 * @addr: initiator address
 * @key: initiator key
 * @skp: set to the live context, with a reference, for %XTP_ATM_LIVE
 *
 * Return: what the ATM knows of (@addr, @key).
 */
enum xtp_atm_state xtp_atm_lookup(struct net *net, __be32 addr, u64 key,
				  struct sock **skp)
{
	struct xtp_atm_id id = { .key = key, .addr = addr };
	enum xtp_atm_state state = XTP_ATM_NONE;
	struct xtp_atm_entry *e;
	struct sock *sk;

	*skp = NULL;
	rcu_read_lock();
	e = rhashtable_lookup(&xtp_net(net)->atm, &id, xtp_atm_params);
	if (e) {
		state = XTP_ATM_REPLAY;
		sk = rcu_dereference(e->sk);
		if (sk && refcount_inc_not_zero(&sk->sk_refcnt)) {
			*skp = sk;
			state = XTP_ATM_LIVE;
		}
	}
	rcu_read_unlock();
	return state;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_atm_lookup);

/**
 * xtp_atm_add() - record the initiator of an association being accepted
 * @sk: the new context
 * @addr: initiator address
 * @key: initiator key
 *
 * Return: 0, -ENOSPC at the cap with no finished entry to recycle,
 * -EEXIST, or -ENOMEM.
 */
int xtp_atm_add(struct sock *sk, __be32 addr, u64 key)
{
	struct net *net = sock_net(sk);
	struct xtp_net *xn = xtp_net(net);
	struct xtp_atm_entry *e;
	int err;

	if (atomic_inc_return(&xn->atm_count) > READ_ONCE(xn->atm_max) &&
	    !xtp_atm_recycle(net)) {
		atomic_dec(&xn->atm_count);
		return -ENOSPC;
	}
	e = sk_memcg_kzalloc_atomic(sk, sizeof(*e));
	if (!e) {
		atomic_dec(&xn->atm_count);
		return -ENOMEM;
	}
	e->id.key = key;
	e->id.addr = addr;
	e->net = net;
	INIT_LIST_HEAD(&e->lru);
	RCU_INIT_POINTER(e->sk, sk);
	timer_setup(&e->timer, xtp_atm_expire, 0);
	err = rhashtable_lookup_insert_fast(&xn->atm, &e->node,
					    xtp_atm_params);
	if (err) {
		atomic_dec(&xn->atm_count);
		kfree(e);
		return err;
	}
	XTP_INC_STATS(net, XTP_MIB_ATMENTRIES);
	trace_xtp_atm(addr, key, XTP_TRACE_ATM_ADD);
	xtp_sk(sk)->atm = e;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_atm_add);

/**
 * xtp_atm_release() - the context of an ATM entry is gone
 * @sk: the context
 *
 * The entry outlives it by 2 x MSL unless XTPSOCK_NO_ATMAP_TIMER is set.
 */
void xtp_atm_release(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct xtp_atm_entry *e = xs->atm;
	struct xtp_net *xn = xtp_net(sock_net(sk));
	int msl = READ_ONCE(xn->msl_ms);

	if (!e)
		return;
	xs->atm = NULL;
	RCU_INIT_POINTER(e->sk, NULL);
	if (xs->no_atm_timer || msl <= 0) {
		if (!rhashtable_remove_fast(&xn->atm, &e->node,
					    xtp_atm_params))
			xtp_atm_free(xn, e, XTP_TRACE_ATM_EXPIRE);
		return;
	}
	/* Listed and armed at once: xtp_atm_recycle() sees both or neither. */
	spin_lock_bh(&xn->atm_lock);
	list_add_tail(&e->lru, &xn->atm_replay);
	mod_timer(&e->timer, jiffies + msecs_to_jiffies(2 * msl));
	spin_unlock_bh(&xn->atm_lock);
}
