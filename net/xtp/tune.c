// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: socket buffer sizes, net.xtp.rmem and net.xtp.wmem, and their
 * autotuning.
 *
 * A context starts with the middle value of each triple.  Unless the
 * application set SO_RCVBUF, the receive buffer then grows with what the
 * application reads per round trip (drs.c); the window stays a quarter
 * of it (xtp_rcv_alloc()).  Unless it set SO_SNDBUF, the send buffer of
 * a writer waiting for room grows to twice what may be in flight (the
 * congestion window, or the peer's window if smaller), in the truesize
 * its queued skbs actually take.  Neither grows past the triple's last
 * value, nor while XTP's memory is above the first value of
 * net.xtp.mem; neither shrinks.
 */
#include <linux/ktime.h>
#include <net/sock.h>

#include "xtp.h"

/*
 * The windows these allow, 4 MB each way, are what TCP reaches with
 * tcp_rmem's 6 MB: XTP queues one skb per packet, which costs about
 * twice its payload, where TCP coalesces.
 */
int sysctl_xtp_rmem[3] = { 4096, 4 * XTP_DEFAULT_WINDOW, 16 << 20 };
int sysctl_xtp_wmem[3] = { 4096, 212992, 8 << 20 };

/* Growth is for sockets the application left alone, with memory to spare. */
static bool xtp_may_grow(const struct sock *sk, u8 lock)
{
	return !(sk->sk_userlocks & lock) && !sk_under_memory_pressure(sk) &&
	       sk_memory_allocated(sk) < sk_prot_mem_limits(sk, 0);
}

/**
 * xtp_tune_offer() - ALLOC goes out: a raise may start timing the sender
 * @sk: the context, locked
 * @old_alloc: ALLOC advertised before
 * @new_alloc: ALLOC advertised now
 */
void xtp_tune_offer(struct sock *sk, u64 old_alloc, u64 new_alloc)
{
	xtp_drs_offer(&xtp_sk(sk)->rcv.drs, ktime_get_ns(), old_alloc,
		      new_alloc);
}

/**
 * xtp_tune_arrival() - in-order data arrived: time the sender
 * @sk: the context, locked
 */
void xtp_tune_arrival(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xtp_drs_arrival(&xs->rcv.drs, ktime_get_ns(), xs->rcv.nxt,
			xs->rcv.nxt - xs->rcv.queued,
			min_t(u32, xs->rcv.wnd,
			      XTP_DRS_SLACK_SEGS * xtp_seg_max(sk)));
}

/**
 * xtp_tune_rcvbuf() - the application read: grow the receive buffer
 * @sk: the context, locked
 *
 * Return: true if the buffer, and so the window, grew.
 */
bool xtp_tune_rcvbuf(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 rcvbuf;
	u32 win;

	win = xtp_drs_read(&xs->rcv.drs, ktime_get_ns(),
			   xs->rcv.nxt - xs->rcv.queued, xtp_seg_max(sk));
	if (!win || !xtp_may_grow(sk, SOCK_RCVBUF_LOCK))
		return false;
	rcvbuf = min_t(u64, 4ULL * win, READ_ONCE(sysctl_xtp_rmem[2]));
	if (rcvbuf <= READ_ONCE(sk->sk_rcvbuf))
		return false;
	WRITE_ONCE(sk->sk_rcvbuf, (int)rcvbuf);
	return true;
}

/**
 * xtp_tune_sndbuf() - an acknowledgment came: grow the send buffer
 * @sk: the context, locked
 *
 * While a writer waits for room, the buffer grows to twice what may be
 * in flight: the congestion window, or less if the peer's window is
 * smaller (a slow reader's sender has no use for more).
 */
void xtp_tune_sndbuf(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	u64 payload = xs->snd.write_seq - xs->snd.una, flight, want;
	struct socket *sock = sk->sk_socket;

	if (!payload || !sock || !test_bit(SOCK_NOSPACE, &sock->flags) ||
	    !xtp_may_grow(sk, SOCK_SNDBUF_LOCK))
		return;
	flight = min_t(u64, xs->cc.cwnd, xs->snd.alloc - xs->snd.una);
	/* At what each queued byte costs now, in skbs and their heads. */
	want = div64_u64(2 * flight * READ_ONCE(sk->sk_wmem_queued), payload);
	want = min_t(u64, want, READ_ONCE(sysctl_xtp_wmem[2]));
	/* Never below what memory pressure will give back. */
	if (want <= max(READ_ONCE(sk->sk_sndbuf), xs->sndbuf_want))
		return;
	WRITE_ONCE(sk->sk_sndbuf, (int)want);
	xs->sndbuf_want = (int)want;
}
