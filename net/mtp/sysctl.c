// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: net.mtp.* sysctls, one set per network namespace.
 */
#include <net/pernet_sysctl.h>

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
		.data = PERNET_SYSCTL_FIELD(struct mtp_net, field), \
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

static const struct ctl_table mtp_sysctl_template[] = {
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
	/* enum mtp_cc_mode */
	MTP_SYSCTL_MIN_MAX(cc, &mtp_one, SYSCTL_TWO),
	MTP_SYSCTL_CAP(rmem_max),
	KCOMPAT_SYSCTL_END
};

static const void *const mtp_sysctl_capped[] = { &mtp_int_max_capped };

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
	/* mtp.rst, "The delivery-rate model": not yet, it loses at heavy
	 * loss and repeats more where the path stalls.
	 */
	mn->cc = MTP_CC_WINDOW;
	/* What XTP's autotuning reaches; TCP's tcp_rmem goes to 6 MB. */
	mn->rmem_max = 4 << 20;
}

int mtp_sysctl_init_net(struct net *net)
{
	struct mtp_net *mn = mtp_net(net);

	mtp_sysctl_defaults(mn);
	mtp_kping_init_net(mn);
	mn->sysctl = pernet_sysctl_register(net, "net/mtp", mtp_sysctl_template,
					    ARRAY_SIZE(mtp_sysctl_template),
					    mn, mtp_net(&init_net),
					    mtp_sysctl_capped,
					    ARRAY_SIZE(mtp_sysctl_capped));
	return mn->sysctl ? 0 : -ENOMEM;
}

void mtp_sysctl_exit_net(struct net *net)
{
	pernet_sysctl_unregister(mtp_net(net)->sysctl);
}
