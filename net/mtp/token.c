// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: the rate of the kernel's own answers.
 */
#include <linux/ratelimit.h>

#include "mtp.h"

/**
 * mtp_kping_init_net() - set up the rate limit of the kernel's answers
 * @mn: namespace state, sysctls already at their defaults
 */
void mtp_kping_init_net(struct mtp_net *mn)
{
	ratelimit_state_init(&mn->kping_rs, HZ, mn->kping_rate);
	/* Drops are counted (KernelRateDrops), never logged. */
	ratelimit_set_flags(&mn->kping_rs, RATELIMIT_MSG_ON_RELEASE);
}

/**
 * mtp_kping_allow() - may the kernel answer one more PING or IDSTR?
 * @net: namespace
 *
 * At most net.mtp.kping_rate answers per second in the namespace, however
 * many sockets and sources ask: each answer goes to a source nobody has
 * vouched for, and answers must not become a reflector's traffic.
 *
 * Return: true to answer.
 */
bool mtp_kping_allow(struct net *net)
{
	struct mtp_net *mn = mtp_net(net);
	int rate = READ_ONCE(mn->kping_rate);

	/* The sysctl may have changed since the last answer. */
	if (READ_ONCE(mn->kping_rs.burst) != rate)
		WRITE_ONCE(mn->kping_rs.burst, rate);
	if (__ratelimit(&mn->kping_rs))
		return true;
	MTP_INC_STATS(net, MTP_MIB_KERNELRATEDROPS);
	return false;
}
