// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: sock_diag for IP protocol 36 (xtp_diag.ko).  inet_diag hands us
 * the requests for protocol 36, so ss and other inet_diag clients list XTP
 * contexts as they list TCP's: addresses and ports, state, queues, timers,
 * uid, inode, memory, the congestion control's name and struct xtp_info.
 * State, port and bytecode filters apply.  There is no .destroy, so
 * inet_diag refuses SOCK_DESTROY (ss -K) with EOPNOTSUPP.
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include <linux/sock_diag.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "compat.h"
#include "xtp.h"

/* Contexts taken per walk of the table; each holds a reference. */
#define XTP_DIAG_BATCH	32
/* Room for INET_DIAG_CONG: "newreno", "scc", "veno", "bbr" */
#define XTP_DIAG_CC_NAME_MAX	16

struct xtp_diag_filter {
	const struct inet_diag_req_v2 *req;
	const struct nlattr *bc;	/* bytecode, or NULL */
};

/* Called under the table's lock: reads only. */
static bool xtp_diag_match(struct sock *sk, void *arg)
{
	const struct xtp_diag_filter *f = arg;
	const struct inet_diag_req_v2 *r = f->req;

	if (sk->sk_family != r->sdiag_family ||
	    !(r->idiag_states & BIT(READ_ONCE(sk->sk_state))))
		return false;
	if (r->id.idiag_sport && r->id.idiag_sport != htons(sk->sk_num))
		return false;
	if (r->id.idiag_dport && r->id.idiag_dport != sk->sk_dport)
		return false;
	return !f->bc || inet_diag_bc_sk(f->bc, sk);
}

/* The exact socket @r names, as TCP's single-socket query matches it. */
static bool xtp_diag_match_one(struct sock *sk, void *arg)
{
	const struct inet_diag_req_v2 *r = arg;

	return sk->sk_family == r->sdiag_family &&
	       htons(sk->sk_num) == r->id.idiag_sport &&
	       sk->sk_dport == r->id.idiag_dport &&
	       sk->sk_rcv_saddr == r->id.idiag_src[0] &&
	       sk->sk_daddr == r->id.idiag_dst[0] &&
	       (!r->id.idiag_if || sk->sk_bound_dev_if == r->id.idiag_if);
}

/*
 * TCP's idiag_timer codes: 1 a retransmission (WTIMER's handshake),
 * 2 keepalive (CTIMER), 3 ZOMBIE's end (TIME_WAIT).
 */
static void xtp_diag_timer(struct sock *sk, struct inet_diag_msg *r)
{
	struct xtp_sock *xs = xtp_sk(sk);
	const struct timer_list *t = NULL;

	if (sk->sk_state == XTP_SS_ZOMBIE &&
	    xtp_timer_pending(xs, XTP_TIMER_CTIMEOUT)) {
		r->idiag_timer = 3;
		t = xtp_timer_list(xs, XTP_TIMER_CTIMEOUT);
	} else if (xtp_timer_pending(xs, XTP_TIMER_W)) {
		r->idiag_timer = 1;
		r->idiag_retrans = xs->wtimer_retries;
		t = xtp_timer_list(xs, XTP_TIMER_W);
	} else if (xtp_timer_pending(xs, XTP_TIMER_CTIMER)) {
		r->idiag_timer = 2;
		t = xtp_timer_list(xs, XTP_TIMER_CTIMER);
	}
	if (t)
		r->idiag_expires =
			jiffies_delta_to_msecs(READ_ONCE(t->expires) - jiffies);
}

/* inet_diag's get_info: queues as TCP reports them, and the info. */
static void xtp_diag_get_info(struct sock *sk, struct inet_diag_msg *r,
			      void *info)
{
	struct xtp_sock *xs = xtp_sk(sk);

	if (sk->sk_state == XTP_SS_LISTEN) {
		r->idiag_rqueue = READ_ONCE(sk->sk_ack_backlog);
		r->idiag_wqueue = READ_ONCE(sk->sk_max_ack_backlog);
	} else {
		r->idiag_rqueue = READ_ONCE(xs->rcv.queued);
		r->idiag_wqueue = READ_ONCE(sk->sk_wmem_queued);
	}
	if (info)
		xtp_get_info(sk, info);
}

static int xtp_diag_fill(struct sock *sk, struct sk_buff *skb,
			 struct netlink_callback *cb,
			 const struct inet_diag_req_v2 *req, u16 flags,
			 bool net_admin)
{
	struct user_namespace *ns = sk_user_ns(NETLINK_CB(cb->skb).sk);
	int ext = req->idiag_ext;
	struct inet_diag_msg *r;
	struct nlmsghdr *nlh;
	struct nlattr *attr;
	void *info = NULL;
	bool slow;

	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			cb->nlh->nlmsg_type, sizeof(*r), flags);
	if (!nlh)
		return -EMSGSIZE;
	r = nlmsg_data(nlh);
	memset(r, 0, sizeof(*r));
	inet_diag_msg_common_fill(r, sk);
	r->idiag_state = sk->sk_state;
	if (inet_diag_msg_attrs_fill(sk, skb, r, ext, ns, net_admin))
		goto cancel;
	if (ext & BIT(INET_DIAG_MEMINFO - 1)) {
		struct inet_diag_meminfo m = {
			.idiag_rmem = sk_rmem_alloc_get(sk),
			.idiag_wmem = READ_ONCE(sk->sk_wmem_queued),
			.idiag_fmem = sk_forward_alloc_get(sk),
			.idiag_tmem = sk_wmem_alloc_get(sk),
		};

		if (nla_put(skb, INET_DIAG_MEMINFO, sizeof(m), &m))
			goto cancel;
	}
	if ((ext & BIT(INET_DIAG_SKMEMINFO - 1)) &&
	    sock_diag_put_meminfo(sk, skb, INET_DIAG_SKMEMINFO))
		goto cancel;
	if (ext & BIT(INET_DIAG_CONG - 1)) {
		const struct xtp_cc_ops *ops = READ_ONCE(xtp_sk(sk)->cc.ops);

		if (ops && nla_put_string(skb, INET_DIAG_CONG, ops->name))
			goto cancel;
	}
	if (ext & BIT(INET_DIAG_INFO - 1)) {
		attr = nla_reserve_64bit(skb, INET_DIAG_INFO,
					 sizeof(struct xtp_info), INET_DIAG_PAD);
		if (!attr)
			goto cancel;
		info = nla_data(attr);
	}
	/* One consistent view of the context: timers, queues, info. */
	slow = lock_sock_fast(sk);
	xtp_diag_timer(sk, r);
	xtp_diag_get_info(sk, r, info);
	unlock_sock_fast(sk, slow);
	nlmsg_end(skb, nlh);
	return 0;

cancel:
	nlmsg_cancel(skb, nlh);
	return -EMSGSIZE;
}

static void xtp_diag_dump(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct inet_diag_req_v2 *r)
{
	struct inet_diag_dump_data *data = cb->data;
	struct xtp_diag_filter f = { .req = r, .bc = data->inet_diag_nla_bc };
	bool net_admin = netlink_net_capable(cb->skb, CAP_NET_ADMIN);
	struct xtp_walk ends[XTP_DIAG_BATCH], start, pos = {
		/* Where the previous message of this dump stopped. */
		.bucket = cb->args[0],
		.offset = cb->args[1],
	};
	struct sock *socks[XTP_DIAG_BATCH];
	int n, i, err = 0;

	do {
		start = pos;
		n = xtp_ctx_walk(sock_net(skb->sk), &pos, xtp_diag_match, &f,
				 socks, ends, XTP_DIAG_BATCH);
		for (i = 0; i < n; i++) {
			if (!err) {
				err = xtp_diag_fill(socks[i], skb, cb, r,
						    NLM_F_MULTI, net_admin);
				/* The next message starts with this one. */
				if (err)
					pos = i ? ends[i - 1] : start;
			}
			sock_put(socks[i]);
		}
	} while (!err && n == XTP_DIAG_BATCH);
	cb->args[0] = pos.bucket;
	cb->args[1] = pos.offset;
}

static int xtp_diag_dump_one(struct netlink_callback *cb,
			     const struct inet_diag_req_v2 *req)
{
	struct sk_buff *in_skb = cb->skb;
	struct net *net = sock_net(in_skb->sk);
	struct xtp_walk pos = { };
	struct sk_buff *rep;
	struct sock *sk;
	int err;

	if (!xtp_ctx_walk(net, &pos, xtp_diag_match_one, (void *)req, &sk,
			  NULL, 1))
		return -ENOENT;
	err = sock_diag_check_cookie(sk, req->id.idiag_cookie);
	if (err)
		goto out;
	rep = nlmsg_new(nla_total_size(sizeof(struct inet_diag_msg)) +
			inet_diag_msg_attrs_size() +
			nla_total_size(sizeof(struct inet_diag_meminfo)) +
			nla_total_size(SK_MEMINFO_VARS * sizeof(u32)) +
			nla_total_size(XTP_DIAG_CC_NAME_MAX) +
			nla_total_size_64bit(sizeof(struct xtp_info)) + 64,
			GFP_KERNEL);
	if (!rep) {
		err = -ENOMEM;
		goto out;
	}
	err = xtp_diag_fill(sk, rep, cb, req, 0,
			    netlink_net_capable(in_skb, CAP_NET_ADMIN));
	if (err) {
		WARN_ON_ONCE(err == -EMSGSIZE);
		kfree_skb(rep);
		goto out;
	}
	err = nlmsg_unicast(net->diag_nlsk, rep, NETLINK_CB(in_skb).portid);
out:
	sock_put(sk);
	return err;
}

static const struct inet_diag_handler xtp_diag_handler = {
#if XTP_DIAG_HAS_OWNER
	.owner		 = THIS_MODULE,
#endif
	.dump		 = xtp_diag_dump,
	.dump_one	 = xtp_diag_dump_one,
	.idiag_get_info	 = xtp_diag_get_info,
	.idiag_type	 = IPPROTO_XTP,
	.idiag_info_size = sizeof(struct xtp_info),
};

static int __init xtp_diag_init(void)
{
	return inet_diag_register(&xtp_diag_handler);
}

static void __exit xtp_diag_exit(void)
{
	inet_diag_unregister(&xtp_diag_handler);
}

module_init(xtp_diag_init);
module_exit(xtp_diag_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("XTP socket monitoring via SOCK_DIAG");
/* What inet_diag asks for: PF_NETLINK, NETLINK_SOCK_DIAG, AF_INET, 36 */
MODULE_ALIAS("net-pf-16-proto-4-type-2-36");
