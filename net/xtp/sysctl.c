// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: per-namespace sysctls under net.xtp.
 */
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <net/net_namespace.h>

#include "xtp.h"

#define XTP_DEFAULT_MSL_MS	60000
#define XTP_DEFAULT_ATM_MAX	65536

static int xtp_msl_max = 3600 * 1000;
static int xtp_cc_min = XTP_CC_SCC;
static int xtp_cc_max = XTP_CC_VENO;
static int xtp_atm_max_max = 1 << 24;

static const struct ctl_table xtp_sysctl_template[] = {
	{
		/* ATM entries outlive their association by twice this */
		.procname	= "msl_ms",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &xtp_msl_max,
	},
	{
		/* cap on ATM entries, live and waiting */
		.procname	= "atm_max",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= &xtp_atm_max_max,
	},
	{
		/* congestion controller of new sockets: enum xtp_cc */
		.procname	= "cc",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= &xtp_cc_min,
		.extra2		= &xtp_cc_max,
	},
	{
		/* 0: a FIRST's data waits until its peer is validated */
		.procname	= "first_data",
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
	{
		/* pages: pressure starts, hard limit; initial namespace only */
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
	XTP_SYSCTL_END
};

/* From "mem" on (mem, rmem, wmem), the initial namespace only. */
#define XTP_SYSCTL_GLOBAL	4

/*
 * In a namespace other than the initial one, @t's int (at @val in @xn)
 * cannot be set above the initial namespace's value, nor start above it:
 * a user namespace's root must not hold more replay state, longer, than
 * the host allows.
 */
static void xtp_sysctl_cap(struct ctl_table *t, int *val, struct xtp_net *xn)
{
	int *init = (int *)((char *)xtp_net(&init_net) +
			    ((char *)val - (char *)xn));

	t->extra2 = init;
	*val = min(*val, READ_ONCE(*init));
}

int xtp_sysctl_init_net(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);
	size_t n = ARRAY_SIZE(xtp_sysctl_template);
	struct ctl_table *table;

	xn->msl_ms = XTP_DEFAULT_MSL_MS;
	xn->atm_max = XTP_DEFAULT_ATM_MAX;
	xn->cc = XTP_DEFAULT_CC;
	xn->first_data = 1;
	table = kmemdup(xtp_sysctl_template, sizeof(xtp_sysctl_template),
			GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	table[0].data = &xn->msl_ms;
	table[1].data = &xn->atm_max;
	table[2].data = &xn->cc;
	table[3].data = &xn->first_data;
	if (!net_eq(net, &init_net)) {
		xtp_sysctl_cap(&table[0], &xn->msl_ms, xn);
		xtp_sysctl_cap(&table[1], &xn->atm_max, xn);
		/* On kernels before 6.6 an empty entry ends the table. */
		memset(&table[XTP_SYSCTL_GLOBAL], 0,
		       sizeof(*table) * (n - XTP_SYSCTL_GLOBAL));
		n = XTP_SYSCTL_GLOBAL;
	}
	xn->sysctl = xtp_register_net_sysctl(net, "net/xtp", table, n);
	if (!xn->sysctl) {
		kfree(table);
		return -ENOMEM;
	}
	return 0;
}

void xtp_sysctl_exit_net(struct net *net)
{
	struct xtp_net *xn = xtp_net(net);
	const struct ctl_table *table = xn->sysctl->ctl_table_arg;

	unregister_net_sysctl_table(xn->sysctl);
	kfree(table);
}
