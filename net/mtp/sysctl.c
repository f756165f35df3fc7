// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: net.mtp.* sysctls, one set per network namespace.
 */
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>

#include "compat.h"
#include "mtp.h"

static int mtp_one = 1;
static int mtp_int_max = INT_MAX;
/*
 * The same bound, marking the limits on what strangers can make us keep
 * or send: in a namespace other than the initial one (whose root may be
 * any user's) they cannot go above the initial namespace's values.
 */
static int mtp_int_max_capped = INT_MAX;

#define MTP_SYSCTL_MIN_MAX(field, min, max)			\
	{							\
		.procname	= #field,			\
		.maxlen		= sizeof(int),			\
		.mode		= 0644,				\
		.proc_handler	= proc_dointvec_minmax,		\
		.extra1		= min,				\
		.extra2		= max,				\
	}
#define MTP_SYSCTL(field)	MTP_SYSCTL_MIN_MAX(field, &mtp_one, &mtp_int_max)
#define MTP_SYSCTL_CAP(field)					\
	MTP_SYSCTL_MIN_MAX(field, &mtp_one, &mtp_int_max_capped)
/* 0 allowed: the feature is off. */
#define MTP_SYSCTL0(field)	MTP_SYSCTL_MIN_MAX(field, SYSCTL_ZERO, &mtp_int_max)
#define MTP_SYSCTL0_CAP(field)					\
	MTP_SYSCTL_MIN_MAX(field, SYSCTL_ZERO, &mtp_int_max_capped)

/* The order must match mtp_sysctl_init_net()'s data pointers. */
static struct ctl_table mtp_sysctl_template[] = {
	MTP_SYSCTL(repeat_ms),
	MTP_SYSCTL(repeat_min_ms),
	MTP_SYSCTL(expire_ms),
	MTP_SYSCTL_CAP(cache_ms),
	MTP_SYSCTL_CAP(cache_obj_bytes),
	MTP_SYSCTL_CAP(cache_sock_bytes),
	MTP_SYSCTL_CAP(srv_max_pending),
	MTP_SYSCTL_CAP(max_txns),
	MTP_SYSCTL0(reorder),
	MTP_SYSCTL0_CAP(kping_rate),
	{ }
};

/*
 * A capped sysctl of a new namespace: bounded by the initial namespace's
 * value (read when written), and starting no higher.
 */
static void mtp_sysctl_cap(struct ctl_table *t, struct mtp_net *mn)
{
	int *init = (int *)((char *)mtp_net(&init_net) +
			    ((char *)t->data - (char *)mn));

	t->extra2 = init;
	*(int *)t->data = min(*(int *)t->data, READ_ONCE(*init));
}

void mtp_sysctl_defaults(struct mtp_net *mn)
{
	mn->repeat_ms = 1000;
	mn->repeat_min_ms = 20;
	mn->expire_ms = 30000;
	mn->cache_ms = 30000;
	mn->cache_obj_bytes = 4 << 20;
	mn->cache_sock_bytes = 32 << 20;
	mn->srv_max_pending = 1024;
	mn->max_txns = 256;
	mn->reorder = 3;
	mn->kping_rate = 1000;
}

int mtp_sysctl_init_net(struct net *net)
{
	struct mtp_net *mn = mtp_net(net);
	int *data[] = {
		&mn->repeat_ms, &mn->repeat_min_ms, &mn->expire_ms,
		&mn->cache_ms, &mn->cache_obj_bytes, &mn->cache_sock_bytes,
		&mn->srv_max_pending, &mn->max_txns, &mn->reorder,
		&mn->kping_rate,
	};
	struct ctl_table *tbl;
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(data) != ARRAY_SIZE(mtp_sysctl_template) - 1);
	mtp_sysctl_defaults(mn);
	mtp_kping_init_net(mn);
	tbl = kmemdup(mtp_sysctl_template, sizeof(mtp_sysctl_template),
		      GFP_KERNEL);
	if (!tbl)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(data); i++) {
		tbl[i].data = data[i];
		if (!net_eq(net, &init_net) &&
		    tbl[i].extra2 == &mtp_int_max_capped)
			mtp_sysctl_cap(&tbl[i], mn);
	}
	mn->sysctl = mtp_register_sysctl(net, "net/mtp", tbl,
					 ARRAY_SIZE(mtp_sysctl_template));
	if (!mn->sysctl) {
		kfree(tbl);
		return -ENOMEM;
	}
	return 0;
}

void mtp_sysctl_exit_net(struct net *net)
{
	struct mtp_net *mn = mtp_net(net);
	const struct ctl_table *tbl = mn->sysctl->ctl_table_arg;

	unregister_net_sysctl_table(mn->sysctl);
	kfree(tbl);
}
