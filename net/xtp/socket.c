// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: the socket layer side of a context (struct proto, proto_ops).
 *
 * BSD semantics as TCP has them: blocking and non-blocking connect,
 * listen/accept, stream reads and writes, poll, shutdown, close with
 * SO_LINGER.  XTP specifics: a sendto()/sendmsg() with a destination on
 * an unconnected socket opens the association with the data in the
 * FIRST, and MSG_XTP_WCLOSE closes the outbound stream with the data.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <linux/poll.h>
#include <linux/sockios.h>
#include <asm/ioctls.h>
#include <linux/sched/signal.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/route.h>
#include <net/sock.h>

#include "xtp.h"

static int xtp_init_sock(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	xs->assoc_type = XTP_ASSOC_S_D_T;
	xs->close.method = XTP_TEARDOWN_ABBREV;
	xs->service = XTP_SERVICE_DEFAULT;
	xs->profile = XTP_SVC_STREAM;
	xs->maxdata = XTP_MAX_MAXDATA;
	xs->sreq_freq = XTP_DEFAULT_SREQFREQ;
	xs->ctimer_tmo = XTP_DEFAULT_CTIMER;
	xs->ctimeout_tmo = XTP_DEFAULT_CTIMEOUT;
	xs->zombie_tmo = XTP_DEFAULT_ZOMBIE;
	xs->cc.id = READ_ONCE(xtp_net(sock_net(sk))->cc);
	xs->rtt.cache_sz = XTP_RTT_CACHE_MAX;
	/* net.xtp.rmem's default gives LinuxXTP's window of 90000. */
	sk->sk_rcvbuf = max_t(int, READ_ONCE(sysctl_xtp_rmem[1]),
			      SOCK_MIN_RCVBUF);
	sk->sk_sndbuf = max_t(int, READ_ONCE(sysctl_xtp_wmem[1]),
			      SOCK_MIN_SNDBUF);
	xs->rcv.wnd = XTP_DEFAULT_WINDOW;
	sock_set_flag(sk, SOCK_RCU_FREE);
	/*
	 * Room comes from acknowledgements (xtp_write_space()), not from
	 * freed transmissions: sock_wfree() would wake the wait queue,
	 * readers included, for every packet sent.
	 */
	sock_set_flag(sk, SOCK_USE_WRITE_QUEUE);
	xs->sndbuf_want = READ_ONCE(sk->sk_sndbuf);
	xtp_timers_init(sk);
	xtp_ctx_init(sk);
	xtp_ctx_track(sk);
	sk_sockets_allocated_inc(sk);
	return 0;
}

/* Every context, children included (sk_clone_lock() counted those). */
static void xtp_destroy_sock(struct sock *sk)
{
	xtp_ctx_untrack(sk);
	sk_sockets_allocated_dec(sk);
}

/*
 * Route to the peer; fills in our address if we have none, and as TCP
 * binds the context to it, so that /proc, sock_diag and its filters see
 * the address the association uses.  The flow goes to cork.fl, where
 * ip_queue_xmit() takes the addresses from while the route stays cached.
 */
static int xtp_route(struct sock *sk)
{
	struct inet_sock *inet = inet_sk(sk);
	struct flowi4 *fl4 = &inet->cork.fl.u.ip4;
	struct rtable *rt;

	rt = ip_route_output_ports(sock_net(sk), fl4, sk, inet->inet_daddr,
				   inet->inet_saddr, inet->inet_dport,
				   inet->inet_sport, IPPROTO_XTP, 0,
				   sk->sk_bound_dev_if);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	if (rt->rt_flags & (RTCF_MULTICAST | RTCF_BROADCAST)) {
		ip_rt_put(rt);
		return -ENETUNREACH;
	}
	if (!inet->inet_saddr)
		inet->inet_saddr = fl4->saddr;
	if (!sk->sk_rcv_saddr)
		sk->sk_rcv_saddr = inet->inet_saddr;
	sk_setup_caps(sk, &rt->dst);
	return 0;
}

/*
 * Become an initiator towards @sin: port, route and key.  The FIRST goes
 * out now, or with the first data when @defer.
 */
static int xtp_start_connect(struct sock *sk, const struct sockaddr_in *sin,
			     bool defer)
{
	struct inet_sock *inet = inet_sk(sk);
	struct xtp_sock *xs = xtp_sk(sk);
	int err;

	if (!sin->sin_port || !sin->sin_addr.s_addr ||
	    ipv4_is_multicast(sin->sin_addr.s_addr) ||
	    ipv4_is_lbcast(sin->sin_addr.s_addr))
		return -EADDRNOTAVAIL;
	if (!inet->inet_num) {
		err = xtp_port_bind(sk, 0, 0);
		if (err)
			return err;
	}
	inet->inet_daddr = sin->sin_addr.s_addr;
	inet->inet_dport = sin->sin_port;
	err = xtp_route(sk);
	if (!err)
		err = xtp_key_insert(sk);
	if (err) {
		inet->inet_daddr = 0;
		inet->inet_dport = 0;
		return err;
	}
	WRITE_ONCE(sk->sk_err, 0);
	xs->rcv.wnd = READ_ONCE(sk->sk_rcvbuf) / 4;
	if (xs->service == XTP_SERVICE_FILETRANSFER)
		xs->close.rclose_sent = 1;	/* we will not receive */
	xs->snd.write_seq = XTP_FIRST_SEGS_LEN;
	inet_sk_set_state(sk, XTP_SS_FIRST_SENT);
	xtp_ctimeout_arm(sk, xs->ctimeout_tmo);
	XTP_INC_STATS(sock_net(sk), XTP_MIB_ACTIVEOPENS);
	if (defer) {
		xs->first_pending = 1;
		return 0;
	}
	return xtp_send_first(sk);
}

static bool xtp_defers_first(const struct xtp_sock *xs)
{
	return xs->assoc_type == XTP_ASSOC_SDT ||
	       xs->assoc_type == XTP_ASSOC_SD_T;
}

static int xtp_wait_connect(struct sock *sk, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (sk->sk_state == XTP_SS_FIRST_SENT &&
	       !xtp_sk(sk)->first_pending) {
		if (!*timeo) {
			err = -EINPROGRESS;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		sk_wait_event(sk, timeo, sk->sk_state != XTP_SS_FIRST_SENT,
			      &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

static int xtp_connect(struct socket *sock, struct sockaddr *uaddr,
		       int addr_len, int flags)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)uaddr;
	struct sock *sk = sock->sk;
	struct xtp_sock *xs = xtp_sk(sk);
	bool again = false;
	long timeo;
	int err;

	if (addr_len < sizeof(uaddr->sa_family))
		return -EINVAL;

	/* As TCP: the state decides before the address is looked at. */
	lock_sock(sk);
	switch (sk->sk_state) {
	case XTP_SS_ACTIVE:
	case XTP_SS_ZOMBIE:
	case XTP_SS_LISTEN:
		err = -EISCONN;
		goto out;
	case XTP_SS_FIRST_SENT:
		err = -EALREADY;
		if (flags & O_NONBLOCK || xs->nb_connect)
			goto out;
		again = true;
		break;
	case XTP_SS_CLOSED:
		/*
		 * A finished association cannot be reused; a connect() that
		 * failed (no TCNTL ever came: no peer key) starts again, as
		 * TCP's does.
		 */
		if (xs->released) {
			err = -EISCONN;
			if (xs->pkey || xs->tm.deferred)
				goto out;
			xtp_ctx_init(sk);
			sk->sk_shutdown = 0;
			WRITE_ONCE(sk->sk_err_soft, 0);
		}
		err = -EINVAL;
		if (addr_len < sizeof(*sin))
			goto out;
		err = -EAFNOSUPPORT;
		if (uaddr->sa_family != AF_INET)
			goto out;
		err = xtp_start_connect(sk, sin, xtp_defers_first(xs));
		if (err)
			goto out;
		sock->state = SS_CONNECTING;
		if (xs->first_pending) {
			sock->state = SS_CONNECTED;
			goto out;
		}
		break;
	}
	timeo = sock_sndtimeo(sk, flags & O_NONBLOCK || xs->nb_connect);
	err = xtp_wait_connect(sk, &timeo);
	/* An earlier connect() is still under way: TCP says so on timeout. */
	if (err == -EINPROGRESS && again)
		err = -EALREADY;
	if (err)
		goto out;
	if (sk->sk_state == XTP_SS_CLOSED) {
		err = sock_error(sk) ? : -ECONNABORTED;
		sock->state = SS_UNCONNECTED;
		goto out;
	}
	sock->state = SS_CONNECTED;
	err = 0;
out:
	release_sock(sk);
	return err;
}

static int xtp_bind(struct socket *sock, struct sockaddr *uaddr, int addr_len)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)uaddr;
	struct sock *sk = sock->sk;
	struct net *net = sock_net(sk);
	u16 port;
	int err;

	if (addr_len < sizeof(*sin))
		return -EINVAL;
	if (sin->sin_family != AF_INET &&
	    !(sin->sin_family == AF_UNSPEC &&
	      sin->sin_addr.s_addr == htonl(INADDR_ANY)))
		return -EAFNOSUPPORT;
	port = ntohs(sin->sin_port);
	if (sin->sin_addr.s_addr != htonl(INADDR_ANY) &&
	    !inet_can_nonlocal_bind(net, inet_sk(sk)) &&
	    inet_addr_type(net, sin->sin_addr.s_addr) != RTN_LOCAL)
		return -EADDRNOTAVAIL;
	if (port && inet_port_requires_bind_service(net, port) &&
	    !ns_capable(net->user_ns, CAP_NET_BIND_SERVICE))
		return -EACCES;

	lock_sock(sk);
	err = -EINVAL;
	if (sk->sk_state != XTP_SS_CLOSED || inet_sk(sk)->inet_num ||
	    xtp_sk(sk)->released)
		goto out;
	err = xtp_port_bind(sk, sin->sin_addr.s_addr, port);
out:
	release_sock(sk);
	return err;
}

static int xtp_listen(struct socket *sock, int backlog)
{
	struct sock *sk = sock->sk;
	int err = -EINVAL;

	lock_sock(sk);
	if (sock->state != SS_UNCONNECTED || xtp_sk(sk)->released)
		goto out;
	if (sk->sk_state == XTP_SS_CLOSED) {
		if (!inet_sk(sk)->inet_num) {
			err = xtp_port_bind(sk, 0, 0);
			if (err)
				goto out;
		}
		err = xtp_port_listen(sk);
		if (err)
			goto out;
	} else if (sk->sk_state != XTP_SS_LISTEN) {
		goto out;
	}
	WRITE_ONCE(sk->sk_max_ack_backlog, backlog);
	err = 0;
out:
	release_sock(sk);
	return err;
}

static int xtp_accept(XTP_ACCEPT_ARGS)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = sock->sk;
	struct xtp_sock *lxs = xtp_sk(sk);
	struct xtp_sock *xs;
	struct sock *child;
	long timeo;
	int err;

	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, XTP_ACCEPT_FLAGS & O_NONBLOCK);
	/*
	 * Exclusive, as TCP's accept(): a new child wakes one waiter, not
	 * every thread of a server, which would then contend for this lock
	 * while new FIRSTs wait in the backlog.
	 */
	add_wait_queue_exclusive(sk_sleep(sk), &wait);
	for (;;) {
		err = -EINVAL;
		if (sk->sk_state != XTP_SS_LISTEN)
			break;
		err = 0;
		if (!list_empty(&lxs->accept_queue))
			break;
		err = -EAGAIN;
		if (!timeo)
			break;
		err = sock_intr_errno(timeo);
		if (signal_pending(current))
			break;
		sk_wait_event(sk, &timeo, !list_empty(&lxs->accept_queue) ||
			      sk->sk_state != XTP_SS_LISTEN, &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	if (err) {
		release_sock(sk);
		return err;
	}
	xs = list_first_entry(&lxs->accept_queue, struct xtp_sock, accept_node);
	list_del_init(&xs->accept_node);
	sk_acceptq_removed(sk);
	child = &xs->inet.sk;
	release_sock(sk);

	lock_sock(child);
	xs->listener = NULL;
	sock_graft(child, newsock);
	newsock->state = SS_CONNECTED;
	release_sock(child);
	return 0;
}

static int xtp_getname(struct socket *sock, struct sockaddr *uaddr, int peer)
{
	struct sock *sk = sock->sk;

	/* A deferred FIRST has no peer yet: like an unfinished connect. */
	if (peer && xtp_sk(sk)->first_pending)
		return -ENOTCONN;
	return inet_getname(sock, uaddr, peer);
}

/* Wait for room in the send buffer; 0, or -errno. */
static int xtp_wait_sndbuf(struct sock *sk, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (sk->sk_err || xtp_sk(sk)->released) {
			err = -EPIPE;
			break;
		}
		if (sk->sk_wmem_queued < READ_ONCE(sk->sk_sndbuf))
			break;
		if (!*timeo) {
			/* Woken by room, as poll() asks: edge-triggered epoll. */
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		sk_wait_event(sk, timeo, sk->sk_err || xtp_sk(sk)->released ||
			      sk->sk_wmem_queued < READ_ONCE(sk->sk_sndbuf),
			      &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* A FIRST deferred for the first data leaves with what is queued. */
static void xtp_flush_first(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (xs->first_pending && !skb_queue_empty(&sk->sk_write_queue)) {
		xs->first_pending = 0;
		xtp_send_first(sk);
	}
}

/* Queue up to @size bytes of @msg as packet-sized skbs. */
static int xtp_queue_user(struct sock *sk, struct msghdr *msg, size_t size,
			  long *timeo)
{
	struct xtp_sock *xs = xtp_sk(sk);
	size_t copied = 0;
	struct sk_buff *skb;
	int err = 0;

	while (copied < size) {
		u32 seg = xtp_seg_max(sk);

		/*
		 * Under memory pressure the core forces a stream socket's
		 * charge beyond the limit once it is at its send buffer: a
		 * packet of Ethernet's size overdraws it least.
		 */
		if (sk_under_memory_pressure(sk))
			seg = min_t(u32, seg, XTP_DEFAULT_MAXDATA);

		/* A FIRST's segments take room from its data. */
		if (xs->first_pending &&
		    xs->snd.write_seq == XTP_FIRST_SEGS_LEN)
			seg -= XTP_FIRST_SEGS_LEN;
		seg = min_t(size_t, seg, size - copied);
		if (sk->sk_wmem_queued >= READ_ONCE(sk->sk_sndbuf)) {
			/* Only the association can make room: open it. */
			xtp_flush_first(sk);
			xtp_push(sk);
			err = xtp_wait_sndbuf(sk, timeo);
			if (err)
				break;
		}
		skb = xtp_data_alloc(seg, sk->sk_allocation);
		if (!skb) {
			err = -ENOBUFS;
			break;
		}
		/* The first data of empty queues goes whatever the limits. */
		if (skb_queue_empty(&sk->sk_write_queue) &&
		    skb_queue_empty(&xs->snd.rtx)) {
			xtp_wmem_force(sk, skb);
		} else if (!xtp_wmem_charge(sk, skb)) {
			/* net.xtp.mem or the cgroup: wait as TCP does. */
			kfree_skb(skb);
			xtp_flush_first(sk);
			xtp_push(sk);
			err = sk_stream_wait_memory(sk, timeo);
			if (err)
				break;
			continue;
		}
		memset(XTP_SKB_CB(skb), 0, sizeof(struct xtp_skb_cb));
		if (!xtp_csum_copy_user(sk, skb, seg, &msg->msg_iter)) {
			xtp_wmem_uncharge(sk, skb);
			kfree_skb(skb);
			err = -EFAULT;
			break;
		}
		XTP_SKB_CB(skb)->seq = xs->snd.write_seq;
		xs->snd.write_seq += seg;
		xs->snd.queued += seg;
		__skb_queue_tail(&sk->sk_write_queue, skb);
		copied += seg;
	}
	return copied ? copied : err;
}

static int xtp_sendmsg(struct sock *sk, struct msghdr *msg, size_t size)
{
	DECLARE_SOCKADDR(struct sockaddr_in *, sin, msg->msg_name);
	struct xtp_sock *xs = xtp_sk(sk);
	int flags = msg->msg_flags;
	struct sk_buff *tail;
	long timeo;
	int err;

	if (flags & ~(MSG_DONTWAIT | MSG_NOSIGNAL | MSG_MORE | MSG_EOR |
		      MSG_XTP_WCLOSE | MSG_XTP_DREQ | MSG_CMSG_COMPAT |
		      MSG_WAITALL | XTP_MSG_SPLICE))
		return -EOPNOTSUPP;
	if (flags & XTP_MSG_SPLICE_MORE)
		flags |= MSG_MORE;
	lock_sock(sk);
	timeo = sock_sndtimeo(sk, flags & MSG_DONTWAIT);
	if (sin && sk->sk_state == XTP_SS_CLOSED && !xs->released) {
		err = -EINVAL;
		if (msg->msg_namelen < sizeof(*sin))
			goto out;
		err = -EAFNOSUPPORT;
		if (sin->sin_family != AF_INET)
			goto out;
		err = xtp_start_connect(sk, sin, true);
		if (err)
			goto out;
		sk->sk_socket->state = SS_CONNECTED;
	}
	if (sk->sk_state == XTP_SS_FIRST_SENT && !xs->first_pending) {
		err = xtp_wait_connect(sk, &timeo);
		if (err == -EINPROGRESS)
			err = -EAGAIN;
		if (err)
			goto out;
	}
	err = sock_error(sk);
	if (err)
		goto out;
	err = -EPIPE;
	if (xs->close.wclose_req || xs->released || xs->close.end_sent ||
	    (sk->sk_state != XTP_SS_ACTIVE &&
	     sk->sk_state != XTP_SS_FIRST_SENT))
		goto pipe;

	err = xtp_queue_user(sk, msg, size, &timeo);
	if (err < 0 && err != -EAGAIN && err != -EPIPE)
		goto out;
	if (err == -EPIPE)
		goto pipe;
	if (err >= 0 && (size_t)err == size) {
		/*
		 * EOM ends each write, and each record of a SEQPACKET; a
		 * sendfile() or splice() is one record, its chunks saying
		 * MSG_MORE up to the last.
		 */
		tail = skb_peek_tail(&sk->sk_write_queue);
		if (tail && (!(flags & MSG_MORE) ||
			     (sk->sk_type == SOCK_SEQPACKET &&
			      !xtp_msg_spliced(msg))))
			XTP_SKB_CB(tail)->options |= XTP_CMD_EOM;
		if (tail && flags & MSG_XTP_WCLOSE)
			XTP_SKB_CB(tail)->options |= XTP_CMD_WCLOSE;
		if (tail && flags & MSG_XTP_DREQ)
			XTP_SKB_CB(tail)->options |= XTP_CMD_DREQ;
		if (flags & MSG_XTP_WCLOSE) {
			xs->close.wclose_req = 1;
			sk->sk_shutdown |= SEND_SHUTDOWN;
		}
	}
	xtp_flush_first(sk);
	xtp_push(sk);
	xtp_teardown_step(sk);
	goto out;
pipe:
	if (!(flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
out:
	release_sock(sk);
	return err;
}

/* Does the receive side have nothing more to give? */
static bool xtp_rcv_done(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);

	/* Held data is still to come: its peer's end is not ours yet. */
	if (xtp_av_held(sk))
		return xs->released || xs->close.end_sent || xs->rd_shut;
	return xs->close.wclose_rcvd || xs->released || xs->close.end_sent ||
	       sk->sk_shutdown & RCV_SHUTDOWN;
}

/* Is there data the application may read? */
static bool xtp_rcv_ready(struct sock *sk)
{
	return !skb_queue_empty_lockless(&sk->sk_receive_queue) &&
	       !xtp_av_held(sk);
}

/* Copy queued data to @msg without consuming it. */
static int xtp_peek(struct sock *sk, struct msghdr *msg, size_t len)
{
	bool records = sk->sk_type == SOCK_SEQPACKET;
	struct sk_buff *skb;
	size_t copied = 0;
	int err;

	skb_queue_walk(&sk->sk_receive_queue, skb) {
		u32 off = XTP_SKB_CB(skb)->offset;
		size_t n = min_t(size_t, skb->len - off, len - copied);
		bool eom = XTP_SKB_CB(skb)->options & XTP_CMD_EOM;

		err = skb_copy_datagram_msg(skb, off, msg, n);
		if (err)
			return copied ? copied : err;
		copied += n;
		/* On SEQPACKET, what recvmsg() would return: one record. */
		if (records && n == skb->len - off && eom) {
			msg->msg_flags |= MSG_EOR;
			break;
		}
		if (copied == len) {
			if (records)
				msg->msg_flags |= MSG_TRUNC;
			break;
		}
	}
	return copied;
}

/*
 * A SEQPACKET record was truncated before all of it had arrived: drop
 * what has come of its rest.  Returns true while more is to be dropped.
 */
static bool xtp_drop_rest(struct sock *sk)
{
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb;

	while (xs->rcv_trunc && (skb = skb_peek(&sk->sk_receive_queue))) {
		if (XTP_SKB_CB(skb)->options & XTP_CMD_EOM)
			xs->rcv_trunc = 0;
		xs->rcv.queued -= skb->len - XTP_SKB_CB(skb)->offset;
		__skb_unlink(skb, &sk->sk_receive_queue);
		consume_skb(skb);
	}
	return xs->rcv_trunc;
}

/*
 * Copy and consume queued data; returns bytes copied or -errno.  On a
 * SOCK_SEQPACKET socket it stops at the end of a record (EOM): *@eor is
 * set when the record was completed, and what does not fit in @len is
 * dropped with MSG_TRUNC, as for any SEQPACKET socket, including the
 * part of the record still to arrive.
 */
static int xtp_consume(struct sock *sk, struct msghdr *msg, size_t len,
		       bool *eor)
{
	bool records = sk->sk_type == SOCK_SEQPACKET;
	struct xtp_sock *xs = xtp_sk(sk);
	struct sk_buff *skb;
	size_t copied = 0;
	int err;

	while ((skb = skb_peek(&sk->sk_receive_queue))) {
		u32 off = XTP_SKB_CB(skb)->offset;
		size_t n = min_t(size_t, skb->len - off, len - copied);
		bool eom = XTP_SKB_CB(skb)->options & XTP_CMD_EOM;

		if (copied == len && !records)
			break;
		err = skb_copy_datagram_msg(skb, off, msg, n);
		if (err)
			return copied ? copied : err;
		copied += n;
		if (records && n < skb->len - off) {
			msg->msg_flags |= MSG_TRUNC;
			n = skb->len - off;
		}
		XTP_SKB_CB(skb)->offset += n;
		xs->rcv.queued -= n;
		if (XTP_SKB_CB(skb)->offset == skb->len) {
			__skb_unlink(skb, &sk->sk_receive_queue);
			consume_skb(skb);
			if (records && eom) {
				*eor = true;
				msg->msg_flags |= MSG_EOR;
				break;
			}
		}
		if (copied == len && !records)
			break;
	}
	/* A full buffer ends the record for this reader. */
	if (records && !*eor && len && copied == len) {
		msg->msg_flags |= MSG_TRUNC;
		xs->rcv_trunc = 1;
	}
	return copied;
}

static int xtp_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
		       int flags, int *addr_len)
{
	struct xtp_sock *xs = xtp_sk(sk);
	size_t copied = 0;
	int target, err = 0;
	bool eor = false;
	long timeo;

	if (flags & (MSG_OOB | MSG_ERRQUEUE))
		return -EINVAL;
	lock_sock(sk);
	if (sk->sk_state == XTP_SS_LISTEN ||
	    (sk->sk_state == XTP_SS_CLOSED && !xs->released)) {
		err = -ENOTCONN;
		goto out;
	}
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);

	for (;;) {
		/* A peek must not show the rest of a truncated record. */
		if (sk->sk_type == SOCK_SEQPACKET)
			xtp_drop_rest(sk);
		if (xtp_rcv_ready(sk)) {
			if (!(flags & MSG_PEEK)) {
				err = xtp_consume(sk, msg, len - copied, &eor);
				if (err < 0)
					break;
				copied += err;
				err = 0;
				if (eor || copied >= target || copied == len)
					break;
				continue;
			}
			/* MSG_WAITALL with MSG_PEEK waits for all of it too. */
			if (xs->rcv.queued >= target || xtp_rcv_done(sk) ||
			    !timeo) {
				err = xtp_peek(sk, msg, len);
				break;
			}
		}
		if (sk->sk_err) {
			err = copied ? 0 : sock_error(sk);
			break;
		}
		if (xtp_rcv_done(sk))
			break;
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			break;
		}
		/* Reading may have opened the window the peer waits for. */
		xtp_read_done(sk);
		sk_wait_data(sk, &timeo, skb_peek_tail(&sk->sk_receive_queue));
	}
	if (!(flags & MSG_PEEK))
		xtp_read_done(sk);
out:
	release_sock(sk);
	if (copied)
		return copied;
	return err;
}

static __poll_t xtp_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	struct xtp_sock *xs = xtp_sk(sk);
	int state = inet_sk_state_load(sk);
	__poll_t mask = 0;

	sock_poll_wait(file, sock, wait);
	if (state == XTP_SS_LISTEN)
		return list_empty_careful(&xs->accept_queue) ? 0 :
		       EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(sk->sk_err))
		mask |= EPOLLERR;
	if (state == XTP_SS_CLOSED && !xs->released)
		return mask | EPOLLOUT | EPOLLWRNORM | EPOLLHUP;
	if (xtp_rcv_ready(sk) || xtp_rcv_done(sk))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (xtp_rcv_done(sk))
		mask |= EPOLLRDHUP;
	if (xs->released || state == XTP_SS_ZOMBIE)
		mask |= EPOLLHUP;
	if ((state == XTP_SS_ACTIVE || xs->first_pending) &&
	    !xs->close.wclose_req) {
		if (sk_stream_is_writeable(sk)) {
			mask |= EPOLLOUT | EPOLLWRNORM;
		} else {
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
			/*
			 * An acknowledgment on another CPU may have made
			 * room before it could see the bit: look again,
			 * paired with xtp_write_space()'s barrier.
			 */
			smp_mb__after_atomic();
			if (sk_stream_is_writeable(sk))
				mask |= EPOLLOUT | EPOLLWRNORM;
		}
	} else if (xs->close.wclose_req || xs->released) {
		mask |= EPOLLOUT | EPOLLWRNORM;
	}
	return mask;
}

/**
 * xtp_listen_drop() - take a child off the accept queue and end it
 * @sk: the listener, locked
 * @xs: the child, on @sk's accept queue
 * @forget: release its ATM entry at once: no application saw its data
 */
void xtp_listen_drop(struct sock *sk, struct xtp_sock *xs, bool forget)
{
	struct sock *child = &xs->inet.sk;

	list_del_init(&xs->accept_node);
	sk_acceptq_removed(sk);
	sock_hold(child);
	/* Softirqs take the child's spinlock too: keep them off. */
	local_bh_disable();
	bh_lock_sock(child);
	xs->listener = NULL;
	if (forget)
		xs->no_atm_timer = 1;
	sock_orphan(child);
	if (xs->released)
		xtp_ctx_release(child);
	else
		xtp_abort(child, ECONNRESET);
	bh_unlock_sock(child);
	local_bh_enable();
	sock_put(child);
}

/* Abort the contexts no accept() took. */
static void xtp_listen_stop(struct sock *sk)
{
	struct xtp_sock *lxs = xtp_sk(sk);
	struct xtp_sock *xs, *tmp;

	list_for_each_entry_safe(xs, tmp, &lxs->accept_queue, accept_node)
		xtp_listen_drop(sk, xs, false);
}

static int xtp_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	int err = 0;

	how++;
	if ((how & ~SHUTDOWN_MASK) || !how)
		return -EINVAL;
	lock_sock(sk);
	switch (sk->sk_state) {
	case XTP_SS_CLOSED:
		err = -ENOTCONN;
		break;
	case XTP_SS_LISTEN:
		/* As TCP's disconnect: the children no accept() took go too. */
		if (how & RCV_SHUTDOWN) {
			inet_sk_set_state(sk, XTP_SS_CLOSED);
			xtp_listen_stop(sk);
			sk->sk_state_change(sk);
		}
		break;
	default:
		sk->sk_shutdown |= how;
		if (how & RCV_SHUTDOWN)
			xtp_sk(sk)->rd_shut = 1;
		if (how & SEND_SHUTDOWN)
			xtp_close_outbound(sk);
		sk->sk_state_change(sk);
	}
	release_sock(sk);
	return err;
}

static void xtp_close(struct sock *sk, long timeout)
{
	struct xtp_sock *xs = xtp_sk(sk);

	sock_hold(sk);
	lock_sock(sk);
	sk->sk_shutdown = SHUTDOWN_MASK;
	if (sk->sk_state == XTP_SS_LISTEN) {
		inet_sk_set_state(sk, XTP_SS_CLOSED);
		xtp_listen_stop(sk);
	}
	if (xs->released) {
		/* nothing left */
	} else if (sk->sk_state == XTP_SS_CLOSED) {
		xtp_ctx_done(sk, 0);
	} else if (xs->rcv.queued || xs->close.method == XTP_TEARDOWN_ABORT ||
		   (sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) ||
		   sk->sk_state == XTP_SS_FIRST_SENT) {
		/* Unread data or SO_LINGER 0: AbortClose, as TCP resets. */
		xtp_abort(sk, 0);
	} else if (!xs->close.end_sent) {
		xtp_close_outbound(sk);
		if (!xs->released && !xs->close.end_sent) {
			xs->snd.close_una = xs->snd.una;
			xtp_ctimeout_arm(sk, xs->ctimeout_tmo);
		}
		if (timeout && sock_flag(sk, SOCK_LINGER)) {
			DEFINE_WAIT_FUNC(wait, woken_wake_function);

			add_wait_queue(sk_sleep(sk), &wait);
			while (!xs->released && !xs->close.end_sent &&
			       timeout && !signal_pending(current))
				sk_wait_event(sk, &timeout, xs->released ||
					      xs->close.end_sent, &wait);
			remove_wait_queue(sk_sleep(sk), &wait);
		}
	}
	sock_orphan(sk);
	if (xs->released)
		xtp_ctx_release(sk);
	release_sock(sk);
	sock_put(sk);
}

/* Ports are taken in bind/connect/listen, not through proto->hash. */
static int xtp_hash(struct sock *sk)
{
	return 0;
}

static void xtp_unhash(struct sock *sk)
{
}

static int xtp_get_int(sockptr_t optval, unsigned int optlen, int *val)
{
	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_sockptr(val, optval, sizeof(int)))
		return -EFAULT;
	return 0;
}

static void xtp_set_service(struct xtp_sock *xs, int service)
{
	xs->service = service;
	xs->close.method = XTP_TEARDOWN_ABBREV;
	xs->sreq_freq = XTP_DEFAULT_SREQFREQ;
	xs->assoc_type = service == XTP_SERVICE_FILETRANSFER ?
			 XTP_ASSOC_SDT : XTP_ASSOC_S_D_T;
}

/* Options that shape the association can only change before it starts. */
static bool xtp_setup_phase(struct sock *sk)
{
	return sk->sk_state == XTP_SS_CLOSED || sk->sk_state == XTP_SS_LISTEN;
}

static int xtp_setsockopt_int(struct sock *sk, int optname, int val)
{
	struct xtp_sock *xs = xtp_sk(sk);

	switch (optname) {
	case XTPSOCK_ASSOCTYPE:
		if (val < XTP_ASSOC_S_D_T || val > XTP_ASSOC_S_DT)
			return -EINVAL;
		if (!xtp_setup_phase(sk))
			return -EISCONN;
		xs->assoc_type = val;
		xs->assoc_set = 1;
		return 0;
	case XTPSOCK_TTS:
		if (val < XTP_SERVICE_DEFAULT || val > XTP_SERVICE_REQRESP)
			return -EINVAL;
		if (!xtp_setup_phase(sk))
			return -EISCONN;
		xtp_set_service(xs, val);
		return 0;
	case XTPSOCK_TEARDOWNMETHOD:
		if (val < XTP_TEARDOWN_GRACEFUL || val > XTP_TEARDOWN_ABORT)
			return -EINVAL;
		xs->close.method = val;
		return 0;
	case XTPSOCK_MAXDATA:
		if (val < XTP_FIRST_SEGS_LEN + 1 || val > XTP_MAX_MAXDATA)
			return -EINVAL;
		xs->maxdata = val;
		return 0;
	case XTPSOCK_SERVICEPROFILE:
		if (val < 0 || val > 255)
			return -EINVAL;
		xs->profile = val;
		return 0;
	case XTPSOCK_SREQFREQ:
		if (val < 1)
			return -EINVAL;
		xs->sreq_freq = val;
		return 0;
	case XTPSOCK_RTT_CACHE_SIZE:
		if (val < 1 || val > 10)
			return -EINVAL;
		xs->rtt.cache_sz = val;
		return 0;
	case XTPSOCK_LN_THRESH:
	case XTPSOCK_INIT_TRAINSIZE:
		/* At least a packet: one of Ethernet's while unconnected. */
		if (val < xtp_seg_limit(xs))
			return -EINVAL;
		if (optname == XTPSOCK_LN_THRESH)
			xs->cc.ln_thresh = val;
		else
			xs->cc.init_trainsize = val;
		return 0;
	case XTPSOCK_WTIMER_TMO:
		if (val < 0 || val > XTP_WTIMER_MAX_MS)
			return -EINVAL;
		xs->wtimer_cfg = val;
		return 0;
	case XTPSOCK_CTIMER_TMO:
	case XTPSOCK_ZOMBIE_TMO:
	case XTPSOCK_CTIMEOUT_TMO:
		if (val < 1 || val > 3600 * 1000)
			return -EINVAL;
		if (optname == XTPSOCK_CTIMER_TMO) {
			xs->ctimer_tmo = val;
		} else if (optname == XTPSOCK_ZOMBIE_TMO) {
			xs->zombie_tmo = val;
			xs->zombie_set = 1;
		} else {
			xs->ctimeout_tmo = val;
		}
		return 0;
	case XTPSOCK_NB_CONNECT:
		xs->nb_connect = !!val;
		return 0;
	case XTPSOCK_RTT_NODECOUPLE:
		xs->rtt.nodecouple = !!val;
		return 0;
	case XTPSOCK_NO_ATMAP_TIMER:
		xs->no_atm_timer = !!val;
		return 0;
	case XTPSOCK_NOCHECK:
		xs->nocheck = !!val;
		return 0;
	case XTPSOCK_RATECONTROL:
		xs->ratecontrol = !!val;
		return 0;
	case XTPSOCK_FASTNAK:
		xs->fastnak = !!val;
		return 0;
	case XTPSOCK_CONGESTION:
		if (!xtp_cc_find(val))
			return -EINVAL;
		if (!xtp_setup_phase(sk))
			return -EISCONN;
		xs->cc.id = val;
		xtp_cc_start(sk);
		return 0;
	}
	return -ENOPROTOOPT;
}

static int xtp_setsockopt(struct sock *sk, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	int val, err;

	if (level != SOL_XTP)
		return ip_setsockopt(sk, level, optname, optval, optlen);
	if (optname == XTPSOCK_MIBSTAT)
		return -ENOPROTOOPT;
	if (optname < XTPSOCK_ASSOCTYPE || optname > XTPSOCK_FASTNAK)
		return -ENOPROTOOPT;
	err = xtp_get_int(optval, optlen, &val);
	if (err)
		return err;
	lock_sock(sk);
	err = xtp_setsockopt_int(sk, optname, val);
	release_sock(sk);
	return err;
}

static int xtp_getsockopt_int(struct sock *sk, int optname, int *val)
{
	struct xtp_sock *xs = xtp_sk(sk);

	switch (optname) {
	case XTPSOCK_ASSOCTYPE:
		*val = xs->assoc_type;
		break;
	case XTPSOCK_RATECONTROL:
		*val = xs->ratecontrol;
		break;
	case XTPSOCK_TTS:
		*val = xs->service;
		break;
	case XTPSOCK_MAXDATA:
		/* As TCP_MAXSEG: what the path lets the option allow. */
		*val = xtp_seg_limit(xs);
		break;
	case XTPSOCK_LN_THRESH:
		*val = min_t(u32, xtp_cc_init_thresh(xs), INT_MAX);
		break;
	case XTPSOCK_INIT_TRAINSIZE:
		*val = xtp_cc_init_window(xs);
		break;
	case XTPSOCK_TEARDOWNMETHOD:
		*val = xs->close.method;
		break;
	case XTPSOCK_SERVICEPROFILE:
		*val = xs->profile;
		break;
	case XTPSOCK_SREQFREQ:
		*val = xs->sreq_freq;
		break;
	case XTPSOCK_NB_CONNECT:
		*val = xs->nb_connect;
		break;
	case XTPSOCK_RTT_NODECOUPLE:
		*val = xs->rtt.nodecouple;
		break;
	case XTPSOCK_RTT_CACHE_SIZE:
		*val = xs->rtt.cache_sz;
		break;
	case XTPSOCK_WTIMER_TMO:
		*val = xs->wtimer_cfg ? xs->wtimer_cfg : xtp_wtimer_ms(xs);
		break;
	case XTPSOCK_CTIMER_TMO:
		*val = xs->ctimer_tmo;
		break;
	case XTPSOCK_ZOMBIE_TMO:
		*val = xs->zombie_tmo;
		break;
	case XTPSOCK_CTIMEOUT_TMO:
		*val = xs->ctimeout_tmo;
		break;
	case XTPSOCK_NO_ATMAP_TIMER:
		*val = xs->no_atm_timer;
		break;
	case XTPSOCK_NOCHECK:
		*val = xs->nocheck;
		break;
	case XTPSOCK_FASTNAK:
		*val = xs->fastnak;
		break;
	case XTPSOCK_CONGESTION:
		*val = xs->cc.id;
		break;
	default:
		return -ENOPROTOOPT;
	}
	return 0;
}

/* The UAPI metrics: the socket's counters, then what it keeps elsewhere. */
static void xtp_fill_mibstat(struct sock *sk, struct xtp_mibstat *m)
{
	struct xtp_sock *xs = xtp_sk(sk);
	const struct xtp_counters *c = &xs->mib;

	memset(m, 0, sizeof(*m));
	m->fpk_out = c->fpk_out;
	m->dpk_out = c->dpk_out;
	m->cpk_out = c->cpk_out;
	m->tpk_out = c->tpk_out;
	m->epk_out = c->epk_out;
	m->dgpk_out = c->dgpk_out;
	m->fpk_in = c->fpk_in;
	m->dpk_in = c->dpk_in;
	m->cpk_in = c->cpk_in;
	m->tpk_in = c->tpk_in;
	m->epk_in = c->epk_in;
	m->dgpk_in = c->dgpk_in;
	m->data_retransmits = c->data_retransmits;
	m->fc_wait = c->fc_wait;
	m->rc_wait = c->rc_wait;
	m->sync = c->sync;
	m->datasreq_sent = c->datasreq_sent;
	m->edgebit_set = c->edgebit_set;
	m->rtt_updates = c->rtt_updates;
	m->handshakes = c->handshakes;
	m->bytes_sent = c->bytes_sent;
	m->bytes_received = c->bytes_received;
	m->ecntl_losses = c->ecntl_losses;
	m->dup_data_in = c->dup_data_in;
	m->random_losses = c->random_losses;
	m->init_trainsize = xs->cc.start_cwnd;
	m->pacing_rate = xs->cc.pacing_rate;
	m->assoc_type = xs->assoc_type;
	m->teardown_type = xs->close.method;
	m->profile_type = xs->profile;
	m->sreq_freq = xs->sreq_freq;
	m->trainsize = xs->cc.cwnd;
	m->cong_trainsize = xs->cc.cwnd;
	m->linear_thresh = xs->cc.ssthresh;
	m->linear_count = xs->cc.cwnd_count;
	m->cc = xs->cc.id;
	m->rtt_cache_sz = xs->rtt.cache_sz;
	m->wtimer_tmo = xtp_wtimer_ms(xs);
	m->ctimer_tmo = xs->ctimer_tmo;
	m->ctimeout_tmo = xs->ctimeout_tmo;
	m->zombie_tmo = xs->zombie_tmo;
	m->srtt_us = xs->rtt.srtt_us;
	m->rttvar_us = xs->rtt.rttvar_us;
	m->min_rtt_us = xs->rtt.min_rtt_us;
	if (xs->cc.ops->counts) {
		const struct xtp_cc_counts *n = xs->cc.ops->counts(sk);

		m->xp_inc = n->xp_inc;
		m->lin_inc = n->lin_inc;
		m->xp_dec = n->xp_dec;
		m->lin_dec = n->lin_dec;
	}
}

/**
 * xtp_get_info() - a context's state for sock_diag (INET_DIAG_INFO)
 * @sk: the context, locked by the caller
 * @info: filled whole
 */
void xtp_get_info(struct sock *sk, struct xtp_info *info)
{
	struct xtp_sock *xs = xtp_sk(sk);

	memset(info, 0, sizeof(*info));
	info->key = xs->lkey;
	info->peer_key = xs->pkey;
	info->snd_una = xs->snd.una;
	info->snd_nxt = xs->snd.nxt;
	info->snd_alloc = xs->snd.alloc;
	info->rcv_nxt = xs->rcv.nxt;
	info->rcv_alloc = xs->rcv.alloc;
	info->bytes_in_flight = xtp_in_flight(xs);
	info->sacked_out = xs->rec.sacked_out;
	info->lost_out = xs->rec.lost_out;
	info->maxdata = xtp_seg_limit(xs);
	info->wtimer_retries = xs->wtimer_retries;
	info->peer_valid = READ_ONCE(xs->av.valid);
	xtp_fill_mibstat(sk, &info->mib);
}
EXPORT_SYMBOL_GPL(xtp_get_info);

static int xtp_getsockopt(struct sock *sk, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	struct xtp_mibstat mib;
	int len, val, err;

	if (level != SOL_XTP)
		return ip_getsockopt(sk, level, optname, optval, optlen);
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	lock_sock(sk);
	if (optname == XTPSOCK_MIBSTAT) {
		xtp_fill_mibstat(sk, &mib);
		release_sock(sk);
		/* Size tolerant: an older, shorter struct gets its prefix. */
		len = min_t(int, len, sizeof(mib));
		if (put_user(len, optlen) || copy_to_user(optval, &mib, len))
			return -EFAULT;
		return 0;
	}
	err = xtp_getsockopt_int(sk, optname, &val);
	release_sock(sk);
	if (err)
		return err;
	if (len < sizeof(int))
		return -EINVAL;
	len = sizeof(int);
	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

static int xtp_ioctl(struct socket *sock, unsigned int cmd, unsigned long arg)
{
	struct sock *sk = sock->sk;
	int answ;

	switch (cmd) {
	case SIOCINQ:
		if (sk->sk_state == XTP_SS_LISTEN)
			return -EINVAL;
		lock_sock(sk);
		answ = xtp_av_held(sk) ? 0 : xtp_sk(sk)->rcv.queued;
		release_sock(sk);
		break;
	case SIOCOUTQ:
		answ = READ_ONCE(xtp_sk(sk)->snd.queued);
		break;
	default:
		return inet_ioctl(sock, cmd, arg);
	}
	return put_user(answ, (int __user *)arg);
}

struct proto xtp_prot = {
	.name		= "XTP",
	.owner		= THIS_MODULE,
	.init		= xtp_init_sock,
	.destroy	= xtp_destroy_sock,
	.close		= xtp_close,
	.hash		= xtp_hash,
	.unhash		= xtp_unhash,
	.setsockopt	= xtp_setsockopt,
	.getsockopt	= xtp_getsockopt,
	.sendmsg	= xtp_sendmsg,
	.recvmsg	= xtp_recvmsg,
	.backlog_rcv	= xtp_backlog_rcv,
	.release_cb	= xtp_release_cb,
	.keepalive	= xtp_keepalive,
	.no_autobind	= true,
	.enter_memory_pressure = xtp_enter_memory_pressure,
	.memory_pressure = &xtp_memory_pressure,
	.memory_allocated = &xtp_memory_allocated,
	.per_cpu_fw_alloc = &xtp_memory_per_cpu_fw_alloc,
	.sockets_allocated = &xtp_sockets_allocated,
	.sysctl_mem	= sysctl_xtp_mem,
	.sysctl_rmem	= &sysctl_xtp_rmem[0],
	.sysctl_wmem	= &sysctl_xtp_wmem[0],
	.obj_size	= sizeof(struct xtp_sock),
};

const struct proto_ops xtp_stream_ops = {
	.family		= PF_INET,
	.owner		= THIS_MODULE,
	.release	= inet_release,
	.bind		= xtp_bind,
	.connect	= xtp_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= xtp_accept,
	.getname	= xtp_getname,
	.poll		= xtp_poll,
	.ioctl		= xtp_ioctl,
	.listen		= xtp_listen,
	.shutdown	= xtp_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= inet_sendmsg,
	.recvmsg	= inet_recvmsg,
	.mmap		= sock_no_mmap,
};
