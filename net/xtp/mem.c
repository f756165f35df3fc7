// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: protocol memory accounting, as TCP's.  Every queued skb is charged
 * to its socket (sk_forward_alloc, in whole pages from the protocol's
 * total), the total is bounded by net.xtp.mem (pages: below the first
 * value no pressure, above the second pressure, above the third nothing
 * more), and the socket's memory cgroup is charged as well.
 */
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/percpu_counter.h>
#include <linux/sched/mm.h>
#include <net/sock.h>

#include "xtp.h"

atomic_long_t xtp_memory_allocated;
DEFINE_PER_CPU(int, xtp_memory_per_cpu_fw_alloc);
struct percpu_counter xtp_sockets_allocated;
unsigned long xtp_memory_pressure;
long sysctl_xtp_mem[3];
/*
 * The most one forced charge may overdraw (xtp_rmem_schedule()): one of
 * the largest packets a sender queues (%XTP_SEG_ALLOC_MAX), with room.
 */
#define XTP_MEM_FORCE_MAX	SKB_TRUESIZE(SZ_16K)

/* The core calls this when the total passes net.xtp.mem[1]. */
void xtp_enter_memory_pressure(struct sock *sk)
{
	if (!cmpxchg(&xtp_memory_pressure, 0, 1))
		XTP_INC_STATS(sock_net(sk), XTP_MIB_MEMPRESSURES);
}

/**
 * xtp_wmem_charge() - account an skb joining the send queue
 * @sk: the socket, owned by the caller
 * @skb: the new skb
 *
 * Return: false if the protocol's memory (or the cgroup's) is exhausted;
 * the skb is then not charged and must be freed, and the send buffer is
 * cut to half of what is queued, as the core does for SOCK_STREAM, so
 * that the receiving side of the host gets the memory acknowledgements
 * free.
 */
bool xtp_wmem_charge(struct sock *sk, struct sk_buff *skb)
{
	if (!sk_wmem_schedule(sk, skb->truesize)) {
		if (sk->sk_type != SOCK_STREAM)
			sk_stream_moderate_sndbuf(sk);
		return false;
	}
	sk_wmem_queued_add(sk, skb->truesize);
	sk_mem_charge(sk, skb->truesize);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(xtp_wmem_charge);

/**
 * xtp_rmem_schedule() - make room in @sk's allocation for received data
 * @sk: the socket, owned by the caller
 * @skb: the data
 * @seq: its sequence number
 *
 * Over net.xtp.mem (or the cgroup's limit) the peer must send again,
 * except the next in-order data of an empty receive queue: on one host
 * the peer's send queue may hold all the protocol's memory, and only
 * data that gets through frees it (TCP forces that charge too).  That
 * one skb is charged as an overdraft of sk_forward_alloc, repaid by the
 * next schedule; the core offers modules no forced charge of a cgroup.
 * A peer earns it by showing its address, and for packets of a normal
 * size only (a reassembled FIRST can be much bigger).
 *
 * Return: true if @skb may be charged with skb_set_owner_r().
 */
bool xtp_rmem_schedule(struct sock *sk, struct sk_buff *skb, u64 seq)
{
	struct xtp_sock *xs = xtp_sk(sk);

	return sk_rmem_schedule(sk, skb, skb->truesize) ||
	       (seq == xs->rcv.nxt && READ_ONCE(xs->av.valid) &&
		skb->truesize <= XTP_MEM_FORCE_MAX &&
		skb_queue_empty(&sk->sk_receive_queue));
}

/**
 * xtp_wmem_force() - account an skb that must join the send queue
 * @sk: the socket, owned by the caller
 * @skb: the new skb
 *
 * For what progress needs whatever the limits say, as TCP forces its
 * first skb and its splits: the first data of empty queues, and the
 * rest of a packet cut for a smaller path.  Without pages to cover it
 * the charge overdraws sk_forward_alloc (see xtp_rmem_schedule()).
 */
void xtp_wmem_force(struct sock *sk, struct sk_buff *skb)
{
	if (!sk_wmem_schedule(sk, skb->truesize) &&
	    sk->sk_type != SOCK_STREAM)
		sk_stream_moderate_sndbuf(sk);
	sk_wmem_queued_add(sk, skb->truesize);
	sk_mem_charge(sk, skb->truesize);
}

/**
 * xtp_wmem_uncharge() - an skb leaves the send queues
 * @sk: the socket, owned by the caller
 * @skb: the skb, charged by xtp_wmem_charge() and not yet freed
 */
void xtp_wmem_uncharge(struct sock *sk, struct sk_buff *skb)
{
	sk_wmem_queued_add(sk, -skb->truesize);
	sk_mem_uncharge(sk, skb->truesize);
}

/**
 * xtp_wmem_purge() - free both send queues and what they were charged
 * @sk: the socket, owned by the caller
 */
void xtp_wmem_purge(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	skb_queue_purge(&xs->snd.rtx);
	__skb_queue_purge(&sk->sk_write_queue);
	sk_mem_uncharge(sk, sk->sk_wmem_queued);
	WRITE_ONCE(sk->sk_wmem_queued, 0);
	xs->snd.queued = 0;
}

/*
 * A failed charge halved the send buffer (sk_stream_moderate_sndbuf());
 * it is given back once the protocol is out of pressure, unless the
 * application set SO_SNDBUF.
 */
void xtp_sndbuf_restore(struct sock *sk)
{
	int want = xtp_sk(sk)->sndbuf_want;

	if (unlikely(READ_ONCE(sk->sk_sndbuf) < want) &&
	    !(sk->sk_userlocks & SOCK_SNDBUF_LOCK) &&
	    !sk_under_memory_pressure(sk))
		WRITE_ONCE(sk->sk_sndbuf, want);
}

/**
 * xtp_mem_clone() - a listener's child takes its memory cgroup
 * @child: the new child, not yet visible to anyone
 * @parent: the listener
 *
 * Children are born in softirq context, where no task says whose memory
 * they use; sk_clone_lock() leaves them uncharged.  They are the
 * listener's until accept(), and almost always its owner's afterwards:
 * charge them, and their ATM entries, to the listener's cgroup.
 */
void xtp_mem_clone(struct sock *child, const struct sock *parent)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg = parent->sk_memcg;

	if (mem_cgroup_sockets_enabled && memcg && css_tryget(&memcg->css))
		child->sk_memcg = memcg;
#endif
}

/* Defaults as TCP's: in pages, from the memory the machine has. */
void __init xtp_mem_init(void)
{
	unsigned long limit = max(nr_free_buffer_pages() / 16, 128UL);

	sysctl_xtp_mem[0] = limit / 4 * 3;
	sysctl_xtp_mem[1] = limit;
	sysctl_xtp_mem[2] = sysctl_xtp_mem[0] * 2;
}
