// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: the socket layer side of a transaction endpoint.  sendmsg() starts
 * a transaction (MTP_REQUEST) or answers one (MTP_RESPOND); recvmsg()
 * returns responses and requests with an MTP_INFO control message.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/sock.h>

#include "compat.h"
#include "mtp.h"

static const char mtp_default_idstr[] = "Linux MTP";

/*
 * sk_write_space: a transaction ended (under mtp_sock.lock, any context)
 * or SO_SNDBUF grew (under lock_sock()).  Our skbs are not charged to
 * sk_wmem_alloc, so sock_def_write_space() would test the wrong thing.
 */
static void mtp_write_space(struct sock *sk)
{
	struct socket_wq *wq;

	if (!mtp_client_writable(mtp_sk(sk)))
		return;
	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_sync_poll(&wq->wait, EPOLLOUT |
						EPOLLWRNORM | EPOLLWRBAND);
	if (wq && wq->fasync_list &&
	    !(READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN))
		sock_wake_async(wq, SOCK_WAKE_SPACE, POLL_OUT);
	rcu_read_unlock();
}

static int mtp_init_sock(struct sock *sk)
{
	struct mtp_net *mn = mtp_net(sock_net(sk));
	struct mtp_sock *ms = mtp_sk(sk);

	spin_lock_init(&ms->lock);
	hash_init(ms->ctxn);
	hash_init(ms->srec);
	hash_init(ms->dests);
	INIT_LIST_HEAD(&ms->dest_idle);
	INIT_LIST_HEAD(&ms->srec_lru);
	INIT_LIST_HEAD(&ms->srec_app);
	/*
	 * encap_rcv finds us under RCU without a reference, and releasing
	 * the UDP socket does not wait for a receiver already running: the
	 * memory must outlive a grace period.
	 */
	sock_set_flag(sk, SOCK_RCU_FREE);
	sk->sk_write_space = mtp_write_space;
	timer_setup(&ms->gc_timer, mtp_server_gc, 0);
	mtp_secrets_init(ms);
	ms->squeeze_at = jiffies;
	ms->rcvbuf_at = jiffies;
	ms->kping = true;
	ms->idlen = sizeof(mtp_default_idstr) - 1;
	memcpy(ms->idstr, mtp_default_idstr, ms->idlen);
	MTP_INC_STATS(sock_net(sk), MTP_MIB_CURRSOCKETS);
	spin_lock_bh(&mn->socks_lock);
	hlist_add_head(&ms->net_node, &mn->socks);
	spin_unlock_bh(&mn->socks_lock);
	return 0;
}

static void mtp_destroy_sock(struct sock *sk)
{
	struct mtp_net *mn = mtp_net(sock_net(sk));

	spin_lock_bh(&mn->socks_lock);
	hlist_del_init(&mtp_sk(sk)->net_node);
	spin_unlock_bh(&mn->socks_lock);
	MTP_DEC_STATS(sock_net(sk), MTP_MIB_CURRSOCKETS);
}

static void mtp_close(struct sock *sk, long timeout)
{
	struct mtp_sock *ms = mtp_sk(sk);

	lock_sock(sk);
	mtp_udp_close(ms);	/* no new input; a running receiver may finish */
	release_sock(sk);
	/* A receiver that takes the lock after this sees closing. */
	spin_lock_bh(&ms->lock);
	ms->closing = true;
	mtp_client_close(ms);
	mtp_server_close(ms);
	spin_unlock_bh(&ms->lock);
	sk_stop_timer_sync(sk, &ms->gc_timer);
	sk_common_release(sk);
}

/* Ports belong to the endpoint's kernel UDP socket, not to this table. */
static int mtp_hash(struct sock *sk)
{
	return 0;
}

static void mtp_unhash(struct sock *sk)
{
}

/**
 * mtp_queue_rcv() - give the application a received skb
 * @ms: socket
 * @skb: a piece of a response or an MTP_SKB_INFO message, cb filled in
 */
void mtp_queue_rcv(struct mtp_sock *ms, struct sk_buff *skb)
{
	struct sock *sk = mtp_to_sk(ms);

	lockdep_assert_held(&ms->lock);
	if (!skb->sk)
		skb_set_owner_r(skb, sk);
	skb_queue_tail(&sk->sk_receive_queue, skb);
	sk->sk_data_ready(sk);
}

/*
 * SO_BINDTODEVICE or SO_BINDTOIFINDEX changed sk_bound_dev_if.  The
 * kernel UDP socket does our input lookups and output routes: it must
 * follow, or binding to a device after bind() would change nothing.
 * Before bind() there is no UDP socket yet; mtp_udp_open() copies the
 * device then.
 */
static void mtp_rehash(struct sock *sk)
{
	struct socket *usock = mtp_sk(sk)->udp;

	/* sk_setsockopt() holds it; it also keeps ->udp from changing. */
	sock_owned_by_me(sk);
	if (usock)
		sock_bindtoindex(usock->sk, READ_ONCE(sk->sk_bound_dev_if),
				 true);
}

static int mtp_bind(struct socket *sock, struct sockaddr *uaddr, int len)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)uaddr;
	struct sock *sk = sock->sk;
	int err;

	if (len < (int)sizeof(*sin))
		return -EINVAL;
	if (sin->sin_family != AF_INET &&
	    (sin->sin_family != AF_UNSPEC ||
	     sin->sin_addr.s_addr != htonl(INADDR_ANY)))
		return -EAFNOSUPPORT;
	lock_sock(sk);
	if (mtp_sk(sk)->udp)
		err = -EINVAL;
	else
		err = mtp_udp_open(mtp_sk(sk), sin->sin_addr.s_addr,
				   sin->sin_port);
	release_sock(sk);
	return err;
}

static int mtp_autobind(struct sock *sk)
{
	int err = 0;

	if (READ_ONCE(mtp_sk(sk)->udp))
		return 0;
	lock_sock(sk);
	if (!mtp_sk(sk)->udp)
		err = mtp_udp_open(mtp_sk(sk), htonl(INADDR_ANY), 0);
	release_sock(sk);
	return err;
}

/*
 * Copy a control message's data.  A shorter struct than this kernel's is
 * an error (the fields the application left out are not "zero", they are
 * garbage or a bug); a longer one is accepted if the part this kernel does
 * not know is zero, as copy_struct_from_user() does.
 */
static int mtp_cmsg_copy(void *dst, size_t size, struct cmsghdr *cmsg)
{
	size_t n = cmsg->cmsg_len - CMSG_LEN(0);

	if (n < size)
		return -EINVAL;
	if (n > size && memchr_inv((u8 *)CMSG_DATA(cmsg) + size, 0, n - size))
		return -E2BIG;
	memcpy(dst, CMSG_DATA(cmsg), size);
	return 0;
}

/*
 * Like TCP, and unlike UDP (which ignores SHUT_WR), a socket shut down
 * for writing refuses to send: EPIPE and, unless MSG_NOSIGNAL, SIGPIPE.
 */
static int mtp_epipe(const struct msghdr *msg)
{
	if (!(msg->msg_flags & MSG_NOSIGNAL))
		send_sig(SIGPIPE, current, 0);
	return -EPIPE;
}

static int mtp_sendmsg(struct socket *sock, struct msghdr *msg, size_t len)
{
	DECLARE_SOCKADDR(struct sockaddr_in *, sin, msg->msg_name);
	struct sock *sk = sock->sk;
	struct mtp_response resp;
	struct mtp_request req;
	struct cmsghdr *cmsg;
	int kind = 0, err = 0;

	if (msg->msg_flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN)
		return mtp_epipe(msg);
	for_each_cmsghdr(cmsg, msg) {
		if (!CMSG_OK(msg, cmsg))
			return -EINVAL;
		if (cmsg->cmsg_level != SOL_MTP)
			continue;
		if (kind)
			return -EINVAL;
		kind = cmsg->cmsg_type;
		if (kind == MTP_REQUEST)
			err = mtp_cmsg_copy(&req, sizeof(req), cmsg);
		else if (kind == MTP_RESPOND)
			err = mtp_cmsg_copy(&resp, sizeof(resp), cmsg);
		else
			err = -EINVAL;
		if (err)
			return err;
	}
	if (!kind)
		return -EINVAL;
	if (!sin)
		return -EDESTADDRREQ;
	if (msg->msg_namelen < (int)sizeof(*sin))
		return -EINVAL;
	if (sin->sin_family != AF_INET)
		return -EAFNOSUPPORT;
	if (!sin->sin_port)
		return -EINVAL;
	err = mtp_autobind(sk);
	if (err)
		return err;
	if (kind == MTP_REQUEST)
		err = mtp_client_request(mtp_sk(sk), &req, sin->sin_addr.s_addr,
					 sin->sin_port, msg, len);
	else
		err = mtp_server_respond(mtp_sk(sk), &resp,
					 sin->sin_addr.s_addr, sin->sin_port,
					 msg, len);
	/* shut down while waiting for room */
	if (err == -EPIPE)
		return mtp_epipe(msg);
	return err;
}

static void mtp_set_name(struct msghdr *msg, const struct sk_buff *skb)
{
	DECLARE_SOCKADDR(struct sockaddr_in *, sin, msg->msg_name);

	if (!sin)
		return;
	sin->sin_family = AF_INET;
	sin->sin_port = MTP_SKB_CB(skb)->port;
	sin->sin_addr.s_addr = MTP_SKB_CB(skb)->addr;
	memset(sin->sin_zero, 0, sizeof(sin->sin_zero));
	msg->msg_namelen = sizeof(*sin);
}

static void mtp_rcv_drop(struct sock *sk, struct sk_buff *skb)
{
	skb_unlink(skb, &sk->sk_receive_queue);
	consume_skb(skb);
}

/*
 * The skb after @skb on the receive queue, or the first one if @skb is
 * NULL.  Softirq appends concurrently: the queue lock orders our reads
 * after the appender's writes of the new skb.
 */
static struct sk_buff *mtp_rcv_next(struct sock *sk, struct sk_buff *skb)
{
	struct sk_buff_head *q = &sk->sk_receive_queue;
	struct sk_buff *next;
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	next = skb ? skb_peek_next(skb, q) : skb_peek(q);
	spin_unlock_irqrestore(&q->lock, flags);
	return next;
}

/*
 * A request, a single response or a completion: one message, truncated
 * like a UDP datagram if the buffer is short; with MSG_TRUNC the return
 * value is its real length, with MSG_PEEK it stays queued.
 */
static int mtp_recv_info(struct sock *sk, struct sk_buff *skb,
			 struct msghdr *msg, size_t size, int flags,
			 struct mtp_info *info, bool *eor)
{
	struct mtp_skb_cb *cb = MTP_SKB_CB(skb);
	size_t n = min_t(size_t, size, cb->len);
	int err;

	sock_owned_by_me(sk);
	memcpy(info, skb->data, sizeof(*info));
	err = skb_copy_datagram_msg(skb, cb->off, msg, n);
	if (err)
		return err;
	if (n < cb->len)
		msg->msg_flags |= MSG_TRUNC;
	*eor = info->flags & MTP_INFO_FINAL;
	mtp_set_name(msg, skb);
	if (flags & MSG_TRUNC)
		n = cb->len;
	if (flags & MSG_PEEK)
		return n;
	if ((info->flags & (MTP_INFO_REQUEST | MTP_INFO_FORGET)) ==
	    MTP_INFO_REQUEST)
		mtp_server_taken(mtp_sk(sk), cb->addr, cb->port, cb->reqid);
	mtp_rcv_drop(sk, skb);
	return n;
}

/*
 * Pieces of a multi-datagram response: as many consecutive ones of the
 * transaction as fit, and its completion if that comes next.  Nothing is
 * lost when the buffer is short (the rest comes with the next call), so
 * MSG_TRUNC does not apply.  With MSG_PEEK the queue is left as it was.
 */
static int mtp_recv_pieces(struct sock *sk, struct sk_buff *skb,
			   struct msghdr *msg, size_t size, int flags,
			   struct mtp_info *info, bool *eor)
{
	u32 reqid = MTP_SKB_CB(skb)->reqid, end, req_addr;
	bool peek = flags & MSG_PEEK;
	struct sk_buff *next;
	struct mtp_info fin;
	size_t copied = 0;
	int err;

	/* Nobody else unlinks while we own the socket (MTP_ABORT waits). */
	sock_owned_by_me(sk);
	info->reqid = reqid;
	mtp_client_info(mtp_sk(sk), reqid, info);
	info->address = MTP_SKB_CB(skb)->pos;
	req_addr = MTP_SKB_CB(skb)->req_addr;
	end = MTP_SKB_CB(skb)->pos;
	mtp_set_name(msg, skb);
	while (skb && copied < size) {
		struct mtp_skb_cb *cb = MTP_SKB_CB(skb);
		size_t n;

		if (cb->kind != MTP_SKB_PIECE || cb->reqid != reqid ||
		    cb->pos != end)
			break;
		n = min_t(size_t, size - copied, cb->len);
		err = skb_copy_datagram_msg(skb, cb->off, msg, n);
		if (err)
			return copied ? copied : err;
		copied += n;
		end = cb->pos + n;
		if (n < cb->len) {
			if (!peek) {
				cb->off += n;
				cb->pos += n;
				cb->len -= n;
			}
			break;
		}
		next = mtp_rcv_next(sk, skb);
		if (!peek)
			mtp_rcv_drop(sk, skb);
		skb = next;
	}
	info->size = end - req_addr;
	if (skb && MTP_SKB_CB(skb)->kind == MTP_SKB_INFO &&
	    MTP_SKB_CB(skb)->reqid == reqid && !MTP_SKB_CB(skb)->len) {
		memcpy(&fin, skb->data, sizeof(fin));
		if (fin.flags & MTP_INFO_FINAL) {
			fin.address = info->address;
			fin.size = info->size;
			*info = fin;
			*eor = true;
			if (!peek)
				mtp_rcv_drop(sk, skb);
		}
	}
	return copied;
}

/*
 * sk_wait_data(), but exclusive, as UDP's receive waits are: one queued
 * message wakes one of the threads blocked in recvmsg(), not all of them
 * (a server with 64 threads woke 64 for each request, and they fought for
 * the socket lock).  Called with the socket owned; returns with it owned.
 */
static void mtp_rcv_wait(struct sock *sk, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);

	add_wait_queue_exclusive(sk_sleep(sk), &wait);
	sk_set_bit(SOCKWQ_ASYNC_WAITDATA, sk);
	sk_wait_event(sk, timeo,
		      mtp_rcv_next(sk, NULL) || READ_ONCE(sk->sk_err) ||
		      (READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN), &wait);
	sk_clear_bit(SOCKWQ_ASYNC_WAITDATA, sk);
	remove_wait_queue(sk_sleep(sk), &wait);
}

/*
 * A control buffer too short for MTP_INFO gets what fits and MSG_CTRUNC
 * (put_cmsg()); the data is consumed all the same, as UDP consumes a
 * datagram whose ancillary data did not fit.  An application that cannot
 * size its buffer in advance peeks first (MSG_PEEK).
 */
static int mtp_recvmsg(struct socket *sock, struct msghdr *msg, size_t size,
		       int flags)
{
	struct sock *sk = sock->sk;
	struct mtp_info info = {};
	struct sk_buff *skb;
	bool eor = false, piece;
	long timeo;
	int err;

	if (flags & (MSG_OOB | MSG_ERRQUEUE))
		return -EOPNOTSUPP;
	lock_sock(sk);
	timeo = sock_rcvtimeo(sk, flags & MSG_DONTWAIT);
	while (!(skb = mtp_rcv_next(sk, NULL))) {
		err = sock_error(sk);
		if (err)
			goto out;
		err = 0;
		if (sk->sk_shutdown & RCV_SHUTDOWN)
			goto out;
		err = -EAGAIN;
		if (!timeo)
			goto out;
		err = sock_intr_errno(timeo);
		if (signal_pending(current))
			goto out;
		mtp_rcv_wait(sk, &timeo);
	}
	piece = MTP_SKB_CB(skb)->kind == MTP_SKB_PIECE;
	if (piece)
		err = mtp_recv_pieces(sk, skb, msg, size, flags, &info, &eor);
	else
		err = mtp_recv_info(sk, skb, msg, size, flags, &info, &eor);
	if (err >= 0) {
		put_cmsg(msg, SOL_MTP, MTP_INFO, sizeof(info), &info);
		if (eor)
			msg->msg_flags |= MSG_EOR;
	}
out:
	release_sock(sk);
	if (err >= 0 && !(flags & MSG_PEEK))
		mtp_client_kick(mtp_sk(sk));
	return err;
}

/*
 * datagram_poll(), but writable only when sendmsg() would not wait for a
 * transaction slot or send space (mtp_client_writable()); after
 * shutdown(SHUT_WR) writable, as TCP is, since sendmsg() fails at once.
 */
static __poll_t mtp_poll(struct file *file, struct socket *sock,
			 poll_table *wait)
{
	struct sock *sk = sock->sk;
	__poll_t mask = datagram_poll(file, sock, wait);

	/*
	 * sock_poll_wait() in datagram_poll() queued us, with the barrier
	 * that pairs with skwq_has_sleeper() in mtp_write_space(): a slot
	 * freed after this test wakes us.
	 */
	if ((READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) ||
	    mtp_client_writable(mtp_sk(sk)))
		return mask;
	sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
	return mask & ~(EPOLLOUT | EPOLLWRNORM | EPOLLWRBAND);
}

static int mtp_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;

	how++;
	if ((how & ~SHUTDOWN_MASK) || !how)
		return -EINVAL;
	lock_sock(sk);
	WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | how);
	release_sock(sk);
	sk->sk_state_change(sk);
	return 0;
}

/*
 * A struct option longer than ours (a newer program's) is accepted only if
 * what we do not know of it is zero, as copy_struct_from_user() has it.
 * Not copy_struct_from_sockptr(): in 6.12 it never checks a user tail.
 */
static int mtp_sockptr_tail_zero(sockptr_t optval, unsigned int size,
				 unsigned int optlen)
{
	int ret;

	if (optlen <= size)
		return 0;
	if (sockptr_is_kernel(optval))
		return memchr_inv((u8 *)optval.kernel + size, 0,
				  optlen - size) ? -E2BIG : 0;
	ret = check_zeroed_user((u8 __user *)optval.user + size,
				optlen - size);
	if (ret < 0)
		return ret;
	return ret ? 0 : -E2BIG;
}

static int mtp_setsockopt(struct sock *sk, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	struct mtp_sock *ms = mtp_sk(sk);
	struct mtp_abort ab = {};
	char id[sizeof(ms->idstr)];
	int err = 0, val;

	if (level != SOL_MTP)
		return ip_setsockopt(sk, level, optname, optval, optlen);
	switch (optname) {
	case MTP_ABORT:
		/* All of it: a short one would abort with a made-up level. */
		if (optlen < sizeof(ab))
			return -EINVAL;
		err = mtp_sockptr_tail_zero(optval, sizeof(ab), optlen);
		if (err)
			return err;
		if (copy_from_sockptr(&ab, optval, sizeof(ab)))
			return -EFAULT;
		/* Serialised with recvmsg(): DESTROY removes queued data. */
		lock_sock(sk);
		err = mtp_client_abort(ms, ab.reqid, ab.level);
		release_sock(sk);
		return err;
	case MTP_IDSTR:
		if (optlen > sizeof(id))
			return -EINVAL;
		if (copy_from_sockptr(id, optval, optlen))
			return -EFAULT;
		spin_lock_bh(&ms->lock);
		memcpy(ms->idstr, id, optlen);
		ms->idlen = optlen;
		spin_unlock_bh(&ms->lock);
		return 0;
	case MTP_KERNEL_PING:
	case MTP_SERVER_LIMIT:
		if (optlen < sizeof(int))
			return -EINVAL;
		if (copy_from_sockptr(&val, optval, sizeof(val)))
			return -EFAULT;
		spin_lock_bh(&ms->lock);
		if (optname == MTP_KERNEL_PING)
			WRITE_ONCE(ms->kping, !!val);
		else
			WRITE_ONCE(ms->srv_limit, val);
		spin_unlock_bh(&ms->lock);
		return 0;
	}
	return -ENOPROTOOPT;
}

static int mtp_getsockopt(struct sock *sk, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	struct mtp_sock *ms = mtp_sk(sk);
	char id[sizeof(ms->idstr)];
	int len, val, n;

	if (level != SOL_MTP)
		return ip_getsockopt(sk, level, optname, optval, optlen);
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	switch (optname) {
	case MTP_IDSTR:
		spin_lock_bh(&ms->lock);
		n = ms->idlen;
		memcpy(id, ms->idstr, n);
		spin_unlock_bh(&ms->lock);
		len = min(len, n);
		if (put_user(len, optlen) || copy_to_user(optval, id, len))
			return -EFAULT;
		return 0;
	case MTP_LAST_REQID:
		val = READ_ONCE(ms->last_reqid);
		break;
	case MTP_KERNEL_PING:
		val = READ_ONCE(ms->kping);
		break;
	case MTP_SERVER_LIMIT:
		val = READ_ONCE(ms->srv_limit);
		break;
	default:
		return -ENOPROTOOPT;
	}
	len = min_t(int, len, sizeof(val));
	if (put_user(len, optlen) || copy_to_user(optval, &val, len))
		return -EFAULT;
	return 0;
}

struct proto mtp_prot = {
	.name		= "MTP",
	.owner		= THIS_MODULE,
	.init		= mtp_init_sock,
	.destroy	= mtp_destroy_sock,
	.close		= mtp_close,
	.hash		= mtp_hash,
	.unhash		= mtp_unhash,
	.rehash		= mtp_rehash,
	.setsockopt	= mtp_setsockopt,
	.getsockopt	= mtp_getsockopt,
	.obj_size	= sizeof(struct mtp_sock),
};

const struct proto_ops mtp_dgram_ops = {
	.family		= PF_INET,
	.owner		= THIS_MODULE,
	.release	= inet_release,
	.bind		= mtp_bind,
	.connect	= sock_no_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= inet_getname,
	.poll		= mtp_poll,
	.ioctl		= inet_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= mtp_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= mtp_sendmsg,
	.recvmsg	= mtp_recvmsg,
	.mmap		= sock_no_mmap,
};
