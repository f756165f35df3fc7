// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: the socket layer side of a context (struct proto, proto_ops).
 */
#include <linux/module.h>
#include <linux/net.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/sock.h>

#include "xtp.h"

static int xtp_init_sock(struct sock *sk)
{
	XTP_INC_STATS(sock_net(sk), XTP_MIB_CURRSOCKETS);
	return 0;
}

static void xtp_destroy_sock(struct sock *sk)
{
	XTP_DEC_STATS(sock_net(sk), XTP_MIB_CURRSOCKETS);
}

static void xtp_close(struct sock *sk, long timeout)
{
	sk_common_release(sk);
}

/* A context is not in any lookup table yet. */
static int xtp_hash(struct sock *sk)
{
	return 0;
}

static void xtp_unhash(struct sock *sk)
{
}

static int xtp_setsockopt(struct sock *sk, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	if (level != SOL_XTP)
		return ip_setsockopt(sk, level, optname, optval, optlen);
	return -ENOPROTOOPT;
}

static int xtp_getsockopt(struct sock *sk, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	if (level != SOL_XTP)
		return ip_getsockopt(sk, level, optname, optval, optlen);
	return -ENOPROTOOPT;
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
	.obj_size	= sizeof(struct xtp_sock),
};

const struct proto_ops xtp_stream_ops = {
	.family		= PF_INET,
	.owner		= THIS_MODULE,
	.release	= inet_release,
	.bind		= sock_no_bind,
	.connect	= sock_no_connect,
	.socketpair	= sock_no_socketpair,
	.accept		= sock_no_accept,
	.getname	= inet_getname,
	.ioctl		= inet_ioctl,
	.listen		= sock_no_listen,
	.shutdown	= sock_no_shutdown,
	.setsockopt	= sock_common_setsockopt,
	.getsockopt	= sock_common_getsockopt,
	.sendmsg	= sock_no_sendmsg,
	.recvmsg	= sock_no_recvmsg,
	.mmap		= sock_no_mmap,
};
