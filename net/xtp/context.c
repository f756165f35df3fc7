// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: context objects, their keys and their ports.
 *
 * Every context has a 63-bit key that is unpredictable (siphash of a
 * counter under a per-boot secret), so a packet carrying a RETURN key is
 * found by a direct lookup without letting an off-path sender guess its
 * way in.  Listening sockets and sockets with a local port sit in a port
 * table; accepted contexts share their listener's port and are reached by
 * key only.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/rhashtable.h>
#include <linux/siphash.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/sock.h>

#include "xtp.h"

static siphash_key_t xtp_key_secret __read_mostly;
/* Visible to the KUnit suite, which rewinds it to make keys collide. */
VISIBLE_IF_KUNIT atomic64_t xtp_key_counter;
EXPORT_SYMBOL_IF_KUNIT(xtp_key_counter);

static const struct rhashtable_params xtp_key_params = {
	.head_offset	= offsetof(struct xtp_sock, key_node),
	.key_offset	= offsetof(struct xtp_sock, lkey),
	.key_len	= sizeof(u64),
	.automatic_shrinking = true,
};

/*
 * Contexts by the key their packets carry, their peer's, and the peer's
 * address: an ICMP error quotes one of our packets, and this is how it
 * finds the context that sent it.
 */
static const struct rhashtable_params xtp_peer_params = {
	.head_offset	= offsetof(struct xtp_sock, peer_node),
	.key_offset	= offsetof(struct xtp_sock, peer_id),
	.key_len	= sizeof(struct xtp_peer_id),
	.automatic_shrinking = true,
};

int xtp_ctx_init_net(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);
	int i, err;

	spin_lock_init(&xn->port_lock);
	for (i = 0; i < XTP_PORT_HASH_SIZE; i++)
		INIT_HLIST_HEAD(&xn->ports[i]);
	spin_lock_init(&xn->socks_lock);
	for (i = 0; i < XTP_SOCKS_HASH_SIZE; i++)
		INIT_HLIST_HEAD(&xn->socks[i]);
	err = rhashtable_init(&xn->keys, &xtp_key_params);
	if (err)
		return err;
	err = rhashtable_init(&xn->peers, &xtp_peer_params);
	if (err)
		rhashtable_destroy(&xn->keys);
	return err;
}

void xtp_ctx_exit_net(struct net *net)
{
	/* Every context holds a reference on its namespace: none is left. */
	rhashtable_destroy(&xtp_net(net)->peers);
	rhashtable_destroy(&xtp_net(net)->keys);
}

/**
 * xtp_ctx_init() - reset the protocol state of a new or cloned context
 * @sk: the context
 *
 * Configuration (association type, timers, ...) is left alone: a new
 * socket gets the defaults from xtp_init_sock(), an accepted context its
 * listener's values through the clone.  The timers themselves are set up
 * once, by xtp_timers_init(): connect() after a failed one comes here
 * again while a timer callback may still be running.
 */
void xtp_ctx_init(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->lkey = 0;
	xs->pkey = 0;
	xs->atm = NULL;
	xs->peer_hashed = 0;
	WRITE_ONCE(xs->av.valid, true);
	xs->av.asked = 0;
	xs->av.probed = 0;
	xs->av.blocked = 0;
	xs->av.hold = 0;
	xs->rd_shut = 0;
	xs->rcv_trunc = 0;
	xs->av.in = 0;
	xs->av.out = 0;
	xs->mtu_data = 0;
	xs->probe_data = 0;
	xs->pmtu_cookie = 0;
	xs->stuck_una = 0;
	xs->stuck_ns = 0;
	xs->full_delivered = 0;
	xs->stuck_full = 0;
	xs->stuck_count = 0;
	INIT_HLIST_NODE(&xs->port_node);
	INIT_LIST_HEAD(&xs->accept_queue);
	INIT_LIST_HEAD(&xs->accept_node);
	WRITE_ONCE(sk->sk_ack_backlog, 0);
	xs->listener = NULL;
	xs->first_pending = 0;
	xs->first_sent = 0;
	xs->close.wclose_req = 0;
	xs->close.wclose_sent = 0;
	xs->close.rclose_rcvd = 0;
	xs->close.wclose_rcvd = 0;
	xs->close.rclose_sent = 0;
	xs->close.end_sent = 0;
	xs->close.end_rcvd = 0;
	xs->released = 0;
	xs->in_handshake = 0;
	xs->close.wclose_seen = 0;
	xs->fc_blocked = 0;
	xs->close.end_delay = 0;
	xs->close.wclose_answered = 0;
	xs->close.wclose_implied = 0;
	xs->last_edge = 0;
	xs->rcv.dreq = 0;
	xs->snd.write_seq = 0;
	xs->close.rcv_wclose = 0;
	xs->snd.una = 0;
	xs->snd.nxt = 0;
	xs->snd.alloc = 0;
	xs->snd.max_wnd = 0;
	xs->snd.queued = 0;
	xs->sync = 0;
	xs->echo = 0;
	xs->sreq_count = 0;
	xs->wsync = 0;
	xs->wtimer_retries = 0;
	xs->rcv.nxt = 0;
	xs->rcv.answered = 0;
	xs->owe_cntl = 0;
	xs->rcv.high = 0;
	xs->rcv.queued = 0;
	xs->rcv.alloc = 0;
	xs->rtt.srtt_us = 0;
	xs->rtt.rttvar_us = 0;
	xs->rtt.min_rtt_us = 0;
	memset(&xs->rcv.drs, 0, sizeof(xs->rcv.drs));
	skb_queue_head_init(&xs->snd.rtx);
	skb_queue_head_init(&xs->rcv.ooo);
	skb_queue_head_init(&xs->rcv.early);
	memset(&xs->mib, 0, sizeof(xs->mib));
	xs->snd_edge = 0;
	xtp_cc_start(sk);
}

/**
 * xtp_ctx_track() - count a new socket (or child) and list it for /proc
 * @sk: the socket
 */
void xtp_ctx_track(struct sock *sk)
{
	struct xtp_net *xn = xtp_net(sock_net(sk));

	XTP_INC_STATS(sock_net(sk), XTP_MIB_CURRSOCKETS);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, 1);
	spin_lock_bh(&xn->socks_lock);
	hlist_add_head(&xtp_sk(sk)->net_node,
		       &xn->socks[hash_ptr(sk, ilog2(XTP_SOCKS_HASH_SIZE))]);
	spin_unlock_bh(&xn->socks_lock);
}

/**
 * xtp_ctx_untrack() - the socket is being destroyed
 * @sk: the socket
 */
void xtp_ctx_untrack(struct sock *sk)
{
	struct xtp_net *xn = xtp_net(sock_net(sk));

	spin_lock_bh(&xn->socks_lock);
	hlist_del_init(&xtp_sk(sk)->net_node);
	spin_unlock_bh(&xn->socks_lock);
	XTP_DEC_STATS(sock_net(sk), XTP_MIB_CURRSOCKETS);
	sock_prot_inuse_add(sock_net(sk), sk->sk_prot, -1);
}

/**
 * xtp_ctx_walk() - take references on the next contexts of a namespace
 * @net: the namespace
 * @pos: where to start; on return, just past the last entry examined
 * @match: which contexts to take; called under the table's lock with
 *	BHs off, so it only reads.  NULL takes every context.
 * @arg: passed to @match
 * @socks: filled with the contexts taken, each with a reference the
 *	caller drops with sock_put()
 * @ends: if not NULL, where a walk resumes just after each of @socks
 * @max: room in @socks and @ends
 *
 * sock_diag dumps resume at a position between netlink messages;
 * contexts that come and go meanwhile may be missed or seen twice, as
 * for TCP.
 *
 * Return: the number taken, fewer than @max only at the table's end.
 */
int xtp_ctx_walk(struct net *net, struct xtp_walk *pos,
		 bool (*match)(struct sock *sk, void *arg), void *arg,
		 struct sock **socks, struct xtp_walk *ends, int max)
{
	struct xtp_net *xn = xtp_net(net);
	struct xtp_sock *xs;
	int n = 0;

	spin_lock_bh(&xn->socks_lock);
	for (; pos->bucket < XTP_SOCKS_HASH_SIZE && n < max;
	     pos->bucket++, pos->offset = 0) {
		unsigned long i = 0;

		hlist_for_each_entry(xs, &xn->socks[pos->bucket], net_node) {
			struct sock *sk = &xs->inet.sk;

			if (i++ < pos->offset)
				continue;
			pos->offset = i;
			if (match && !match(sk, arg))
				continue;
			sock_hold(sk);
			if (ends)
				ends[n] = *pos;
			socks[n++] = sk;
			if (n == max)
				goto out;
		}
	}
out:
	spin_unlock_bh(&xn->socks_lock);
	return n;
}
EXPORT_SYMBOL_GPL(xtp_ctx_walk);

/**
 * xtp_key_insert() - give a context its key and make it reachable by it
 * @sk: the context
 *
 * Return: 0, or -errno if the table cannot take it.
 */
int xtp_key_insert(struct sock *sk)
{
	struct xtp_net *xn = xtp_net(sock_net(sk));
	struct xtp_sock *xs = xtp_sk(sk);
	int tries, err = -EEXIST;

	net_get_random_once(&xtp_key_secret, sizeof(xtp_key_secret));
	for (tries = 0; tries < 8 && err == -EEXIST; tries++) {
		xs->lkey = siphash_2u64(atomic64_inc_return(&xtp_key_counter),
					net_hash_mix(sock_net(sk)),
					&xtp_key_secret) & ~XTP_KEY_RETURN;
		if (!xs->lkey)
			continue;
		err = rhashtable_lookup_insert_fast(&xn->keys, &xs->key_node,
						    xtp_key_params);
	}
	if (err)
		xs->lkey = 0;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_key_insert);

void xtp_key_remove(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->lkey)
		return;
	rhashtable_remove_fast(&xtp_net(sock_net(sk))->keys, &xs->key_node,
			       xtp_key_params);
	xs->lkey = 0;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_key_remove);

/* A reference on a context found under RCU, unless it is being freed. */
static struct sock *xtp_ctx_get(struct xtp_sock *xs)
{
	if (xs && refcount_inc_not_zero(&xs->inet.sk.sk_refcnt))
		return &xs->inet.sk;
	return NULL;
}

/**
 * xtp_key_lookup() - the context whose own key is @key
 * @net: namespace
 * @key: key without the RETURN bit
 *
 * Return: the context with a reference held, or NULL.
 */
struct sock *xtp_key_lookup(struct net *net, u64 key)
{
	struct sock *sk;

	rcu_read_lock();
	sk = xtp_ctx_get(rhashtable_lookup(&xtp_net(net)->keys, &key,
					   xtp_key_params));
	rcu_read_unlock();
	return sk;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_key_lookup);

/**
 * xtp_peer_insert() - make a context reachable by its peer's key and address
 * @sk: the context, @pkey and the peer's address known
 *
 * Two contexts of one peer address with the same peer key can only come
 * from a peer that chose the key twice; the second stays out of the table
 * and does without ICMP errors.
 */
void xtp_peer_insert(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->peer_id = (struct xtp_peer_id){
		.key = xs->pkey,
		.addr = inet_sk(sk)->inet_daddr,
	};
	if (!rhashtable_lookup_insert_fast(&xtp_net(sock_net(sk))->peers,
					   &xs->peer_node, xtp_peer_params))
		xs->peer_hashed = 1;
}

void xtp_peer_remove(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (!xs->peer_hashed)
		return;
	rhashtable_remove_fast(&xtp_net(sock_net(sk))->peers, &xs->peer_node,
			       xtp_peer_params);
	xs->peer_hashed = 0;
}

/**
 * xtp_peer_lookup() - the context that sends to @addr with key @key
 * @net: namespace
 * @key: the key of our packet, RETURN bit cleared
 * @addr: its destination
 *
 * Return: the context with a reference held, or NULL.
 */
struct sock *xtp_peer_lookup(struct net *net, u64 key, __be32 addr)
{
	struct xtp_peer_id id = { .key = key, .addr = addr };
	struct sock *sk;

	rcu_read_lock();
	sk = xtp_ctx_get(rhashtable_lookup(&xtp_net(net)->peers, &id,
					   xtp_peer_params));
	rcu_read_unlock();
	return sk;
}

static struct hlist_head *xtp_port_head(struct xtp_net *xn, u16 port)
{
	return &xn->ports[port % XTP_PORT_HASH_SIZE];
}

/*
 * Does a socket on @port and @addr clash with @sk?  As for TCP, two sockets
 * that both set SO_REUSEADDR share a port unless the other one listens; an
 * ephemeral port (@sk NULL) is only one that nobody holds.
 */
static bool xtp_port_conflict(struct xtp_net *xn, const struct sock *sk,
			      __be32 addr, u16 port)
{
	struct sock *other;

	hlist_for_each_entry(other, xtp_port_head(xn, port),
			     sk_bind_node) {
		if (other == sk || inet_sk(other)->inet_num != port)
			continue;
		if (other->sk_rcv_saddr && addr && other->sk_rcv_saddr != addr)
			continue;
		if (sk && sk->sk_reuse && other->sk_reuse &&
		    other->sk_state != XTP_SS_LISTEN)
			continue;
		return true;
	}
	return false;
}

/**
 * xtp_port_bind() - bind a socket to a local address and port
 * @sk: the socket, not yet bound
 * @addr: local address or INADDR_ANY
 * @port: port in host order, 0 for an ephemeral one
 *
 * Return: 0, -EADDRINUSE, or -EADDRNOTAVAIL when no ephemeral port is free.
 */
int xtp_port_bind(struct sock *sk, __be32 addr, u16 port)
{
	struct net *net = sock_net(sk);
	struct xtp_net *xn = xtp_net(net);
	int low, high, remaining, err = 0;
	u32 offset;

	spin_lock_bh(&xn->port_lock);
	if (!port) {
		inet_get_local_port_range(net, &low, &high);
		remaining = high - low + 1;
		offset = get_random_u32_below(remaining);
		for (; remaining > 0; remaining--, offset++) {
			port = low + offset % (high - low + 1);
			if (!inet_is_local_reserved_port(net, port) &&
			    !xtp_port_conflict(xn, NULL, addr, port))
				break;
		}
		if (!remaining)
			err = -EADDRNOTAVAIL;
	} else if (xtp_port_conflict(xn, sk, addr, port)) {
		err = -EADDRINUSE;
	}
	if (!err) {
		inet_sk(sk)->inet_num = port;
		inet_sk(sk)->inet_sport = htons(port);
		sk->sk_rcv_saddr = addr;
		inet_sk(sk)->inet_saddr = addr;
		sk_add_bind_node(sk, xtp_port_head(xn, port));
	}
	spin_unlock_bh(&xn->port_lock);
	return err;
}

/**
 * xtp_port_listen() - make a bound socket a listener
 * @sk: the socket, bound, locked
 *
 * Sockets that share the port through SO_REUSEADDR may not listen side by
 * side: the check and the state change happen under the port lock.
 *
 * Return: 0 or -EADDRINUSE.
 */
int xtp_port_listen(struct sock *sk)
{
	struct xtp_net *xn = xtp_net(sock_net(sk));
	u16 port = inet_sk(sk)->inet_num;
	int err = -EADDRINUSE;

	spin_lock_bh(&xn->port_lock);
	if (!xtp_port_conflict(xn, sk, sk->sk_rcv_saddr, port)) {
		inet_sk_set_state(sk, XTP_SS_LISTEN);
		err = 0;
	}
	spin_unlock_bh(&xn->port_lock);
	return err;
}

void xtp_port_unbind(struct sock *sk)
{
	struct xtp_net *xn = xtp_net(sock_net(sk));

	spin_lock_bh(&xn->port_lock);
	if (!hlist_unhashed(&sk->sk_bind_node))
		__sk_del_bind_node(sk);
	sk_node_init(&sk->sk_bind_node);
	spin_unlock_bh(&xn->port_lock);
}

/**
 * xtp_listener_lookup() - First Packet Matching: who accepts this FIRST?
 * @net: namespace
 * @daddr: the FIRST's IP destination
 * @port: destination port from its address segment
 * @dif: the interface it came in on
 * @sdif: its L3 master (VRF) device, or 0
 *
 * Only listeners whose SO_BINDTODEVICE device (if any) matches, with the
 * VRF rules TCP applies (net.ipv4.tcp_l3mdev_accept).  A listener bound
 * to @daddr wins over one bound to INADDR_ANY, then one bound to a device
 * over one that is not.
 *
 * Return: the listener with a reference held, or NULL.
 */
struct sock *xtp_listener_lookup(struct net *net, __be32 daddr, u16 port,
				 int dif, int sdif)
{
	struct xtp_net *xn = xtp_net(net);
	struct sock *sk, *best = NULL;
	int score, best_score = -1;

	spin_lock_bh(&xn->port_lock);
	hlist_for_each_entry(sk, xtp_port_head(xn, port), sk_bind_node) {
		if (inet_sk(sk)->inet_num != port ||
		    sk->sk_state != XTP_SS_LISTEN ||
		    (sk->sk_rcv_saddr && sk->sk_rcv_saddr != daddr) ||
		    !inet_sk_bound_dev_eq(net, sk->sk_bound_dev_if, dif, sdif))
			continue;
		/* As TCP: the address bound, then the device, wins. */
		score = (sk->sk_rcv_saddr ? 2 : 0) + !!sk->sk_bound_dev_if;
		if (score > best_score) {
			best = sk;
			best_score = score;
		}
	}
	if (best)
		sock_hold(best);
	spin_unlock_bh(&xn->port_lock);
	return best;
}

/**
 * xtp_ctx_done() - the association is over
 * @sk: the context, locked
 * @err: error for the application, 0 for a normal end
 *
 * The context stops taking packets and timers; its ATM entry starts the
 * replay timer.  An orphaned context (closed by its owner) is freed.
 */
void xtp_ctx_done(struct sock *sk, int err)
{
	struct xtp_sock *xs = xtp_sk(sk);

	sock_owned_by_me(sk);
	if (xs->released)
		return;
	xs->released = 1;
	if (err)
		WRITE_ONCE(sk->sk_err, err);
	xtp_key_remove(sk);
	xtp_peer_remove(sk);
	xtp_atm_release(sk);
	xtp_timers_stop(sk);
	xtp_wmem_purge(sk);
	skb_queue_purge(&xs->rcv.ooo);
	skb_queue_purge(&xs->rcv.early);
	inet_sk_set_state(sk, XTP_SS_CLOSED);
	sk->sk_shutdown = SHUTDOWN_MASK;
	if (sock_flag(sk, SOCK_DEAD))
		xtp_ctx_release(sk);
	else
		sk->sk_state_change(sk);
}

/**
 * xtp_ctx_release() - drop the protocol's reference on a finished context
 * @sk: the context, released and orphaned
 *
 * Called exactly once per context, when both the owner (close) and the
 * protocol (xtp_ctx_done) are finished with it.
 */
void xtp_ctx_release(struct sock *sk)
{
	xtp_port_unbind(sk);
	skb_queue_purge(&sk->sk_receive_queue);
	xtp_sk(sk)->rcv.queued = 0;
	sk->sk_prot->destroy(sk);
	sock_put(sk);
}
