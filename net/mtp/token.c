// SPDX-License-Identifier: GPL-2.0
/*
 * MTP address validation and the rate of the kernel's own answers.
 *
 * A request's source address is not proof that its sender receives there:
 * until a client has shown that it does, a server answers it with at most
 * MTP_AMP_FACTOR times the bytes it received from it (server.c), so that
 * a spoofed request cannot turn the server into an amplifier.  The proof
 * is a token: the server sends it to the address, the client echoes it.
 * Tokens are stateless, a keyed hash (SipHash, a secret drawn once per
 * boot) of the client's address, the network namespace and a time
 * bucket; a token is good in its bucket and the next, so for 64 to 128
 * seconds.  The client's port is left out: it proves nothing about the
 * address and changes behind NATs.
 */
#include <linux/net.h>
#include <linux/ratelimit.h>
#include <linux/siphash.h>
#include <linux/timekeeping.h>
#include <net/netns/hash.h>

#include "mtp.h"

#define MTP_TOKEN_BUCKET_SHIFT	6	/* 64-second buckets */

static siphash_key_t mtp_token_key __read_mostly;

/*
 * The key is drawn on first use, from this one call site: each expansion
 * of net_get_random_once() has its own once-flag, so a second site would
 * draw the key again and void the tokens made before (the first client
 * after the module loaded paid a round trip for it).
 */
static const siphash_key_t *mtp_token_secret(void)
{
	net_get_random_once(&mtp_token_key, sizeof(mtp_token_key));
	return &mtp_token_key;
}

static u64 mtp_token_at(const struct net *net, __be32 caddr, u32 bucket)
{
	return siphash_3u32((__force u32)caddr, net_hash_mix(net), bucket,
			    mtp_token_secret());
}

static u32 mtp_token_bucket(void)
{
	return (u32)(ktime_get_seconds() >> MTP_TOKEN_BUCKET_SHIFT);
}

/**
 * mtp_token_make() - the token for a client address, as of now
 * @net: namespace of the server
 * @caddr: client address
 *
 * Return: the token to send to @caddr.
 */
u64 mtp_token_make(const struct net *net, __be32 caddr)
{
	return mtp_token_at(net, caddr, mtp_token_bucket());
}

/**
 * mtp_token_check() - is @token one we sent to @caddr recently?
 * @net: namespace of the server
 * @caddr: client address
 * @token: token the request echoed
 *
 * Return: true if @token is this bucket's or the previous one's.
 */
bool mtp_token_check(const struct net *net, __be32 caddr, u64 token)
{
	u32 b = mtp_token_bucket();

	return token == mtp_token_at(net, caddr, b) ||
	       token == mtp_token_at(net, caddr, b - 1);
}

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
