// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: per-namespace sysctls under net.xtp.
 */
#include <net/pernet_sysctl.h>

#include "xtp.h"

#define XTP_DEFAULT_MSL_MS	60000
#define XTP_DEFAULT_ATM_MAX	65536

static int xtp_msl_max = 3600 * 1000;
static int xtp_cc_min = XTP_CC_SCC;
static int xtp_cc_max = XTP_CC_BBR;
static int xtp_atm_max_max = 1 << 24;

#define XTP_FIELD(f)	PERNET_SYSCTL_FIELD(struct xtp_net, f)

/* An int field of struct xtp_net, bounded by *min and *max. */
#define XTP_SYSCTL_INT(name, min, max) {				\
	.procname	= #name,					\
	.data		= XTP_FIELD(name),				\
	.maxlen		= sizeof(int),					\
	.mode		= 0644,						\
	.proc_handler	= proc_dointvec_minmax,				\
	.extra1		= (min),					\
	.extra2		= (max),					\
}

static const struct ctl_table xtp_sysctl_template[] = {
	/* ATM entries outlive their association by twice this */
	XTP_SYSCTL_INT(msl_ms, SYSCTL_ZERO, &xtp_msl_max),
	/* cap on ATM entries, live and waiting */
	XTP_SYSCTL_INT(atm_max, SYSCTL_ONE, &xtp_atm_max_max),
	/* congestion controller of new sockets: enum xtp_cc */
	XTP_SYSCTL_INT(cc, &xtp_cc_min, &xtp_cc_max),
	/* 0: a FIRST's data waits until its peer is validated */
	XTP_SYSCTL_INT(first_data, SYSCTL_ZERO, SYSCTL_ONE),
	/* 1: DATA may go in trains, one GSO skb (offload.c) */
	XTP_SYSCTL_INT(trains, SYSCTL_ZERO, SYSCTL_ONE),
	KCOMPAT_SYSCTL_END
};

/*
 * In other namespaces these are bounded by the initial namespace's
 * values: a user namespace's root must not hold more replay state,
 * longer, than the host allows.
 */
static const void *const xtp_sysctl_capped[] = {
	&xtp_msl_max, &xtp_atm_max_max,
};

/*
 * Memory limits, global as TCP's are: the initial namespace shows them,
 * registered once by the module (xtp_sysctl_init()).
 */
static struct ctl_table xtp_sysctl_global[] = {
	{
		/* pages: pressure starts, hard limit */
		.procname	= "mem",
		.data		= &sysctl_xtp_mem,
		.maxlen		= sizeof(sysctl_xtp_mem),
		.mode		= 0644,
		.proc_handler	= proc_doulongvec_minmax,
	},
	{
		/* receive buffer: least, initial, most autotuning gives */
		.procname	= "rmem",
		.data		= &sysctl_xtp_rmem,
		.maxlen		= sizeof(sysctl_xtp_rmem),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
	},
	{
		/* send buffer: least, initial, most autotuning gives */
		.procname	= "wmem",
		.data		= &sysctl_xtp_wmem,
		.maxlen		= sizeof(sysctl_xtp_wmem),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
	},
	KCOMPAT_SYSCTL_END
};

static struct ctl_table_header *xtp_sysctl_global_hdr;

int xtp_sysctl_init_net(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);

	xn->msl_ms = XTP_DEFAULT_MSL_MS;
	xn->atm_max = XTP_DEFAULT_ATM_MAX;
	xn->cc = XTP_DEFAULT_CC;
	xn->first_data = 1;
	xn->trains = 1;
	xn->sysctl = pernet_sysctl_register(net, "net/xtp", xtp_sysctl_template,
					    ARRAY_SIZE(xtp_sysctl_template),
					    xn, xtp_net(&init_net),
					    xtp_sysctl_capped,
					    ARRAY_SIZE(xtp_sysctl_capped));
	return xn->sysctl ? 0 : -ENOMEM;
}

void xtp_sysctl_exit_net(struct net *net)
{
	pernet_sysctl_unregister(xtp_net(net)->sysctl);
}

/**
 * xtp_sysctl_init() - the global sysctls, in the initial namespace
 *
 * Return: 0, or -ENOMEM.
 */
int __init xtp_sysctl_init(void)
{
	xtp_sysctl_global_hdr =
		register_net_sysctl_sz(&init_net, "net/xtp", xtp_sysctl_global,
				       ARRAY_SIZE(xtp_sysctl_global));
	return xtp_sysctl_global_hdr ? 0 : -ENOMEM;
}

void xtp_sysctl_exit(void)
{
	unregister_net_sysctl_table(xtp_sysctl_global_hdr);
}
