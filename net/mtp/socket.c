// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: the socket layer side of a transaction endpoint.
 */
#include <linux/module.h>
#include <linux/net.h>
#include <net/inet_common.h>
#include <net/ip.h>
#include <net/sock.h>

#include "mtp.h"

static int mtp_init_sock(struct sock *sk)
{
	MTP_INC_STATS(sock_net(sk), MTP_MIB_CURRSOCKETS);
	return 0;
}

static void mtp_destroy_sock(struct sock *sk)
{
	MTP_DEC_STATS(sock_net(sk), MTP_MIB_CURRSOCKETS);
}

static void mtp_close(struct sock *sk, long timeout)
{
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

static int mtp_setsockopt(struct sock *sk, int level, int optname,
			  sockptr_t optval, unsigned int optlen)
{
	if (level != SOL_MTP)
		return ip_setsockopt(sk, level, optname, optval, optlen);
	return -ENOPROTOOPT;
}

static int mtp_getsockopt(struct sock *sk, int level, int optname,
			  char __user *optval, int __user *optlen)
{
	if (level != SOL_MTP)
		return ip_getsockopt(sk, level, optname, optval, optlen);
	return -ENOPROTOOPT;
}

struct proto mtp_prot = {
	.name		= "MTP",
	.owner		= THIS_MODULE,
	.init		= mtp_init_sock,
	.destroy	= mtp_destroy_sock,
	.close		= mtp_close,
	.hash		= mtp_hash,
	.unhash		= mtp_unhash,
	.setsockopt	= mtp_setsockopt,
	.getsockopt	= mtp_getsockopt,
	.obj_size	= sizeof(struct mtp_sock),
};

const struct proto_ops mtp_dgram_ops = {
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
