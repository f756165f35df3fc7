// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: request ids and the server's record hash, both keyed by secrets of
 * the socket.
 *
 * The dissertation counts request ids up from a random start.  Whoever
 * sees one id then knows the next: he can forge the errors and EODs that
 * end a client's transactions, or create the server record of the
 * client's next transaction in advance.  A random id per transaction would
 * stop that, but random ids repeat: a new transaction that drew the id of
 * one a server still remembers would be answered from the old one's
 * cache.  So a socket's ids are a counter passed through a keyed
 * permutation of the 32-bit ids (a balanced Feistel network with SipHash
 * rounds): as unique as the counter for 2^32 transactions, and not
 * predictable from the ids seen before.
 *
 * Server records are hashed by (client address, port, id) with SipHash
 * under another secret, so a client cannot aim a flood of ids at one
 * bucket.
 */
#include <linux/siphash.h>

#include "mtp.h"

/*
 * Rounds of the Feistel network.  Four rounds of a pseudo-random function
 * make a pseudo-random permutation; on 16-bit halves the bound is weak,
 * and eight cost well under a microsecond per transaction.
 */
#define MTP_REQID_ROUNDS	8

/**
 * mtp_secrets_init() - draw a new socket's secrets and first counter
 * @ms: the socket
 */
void mtp_secrets_init(struct mtp_sock *ms)
{
	get_random_bytes(&ms->reqid_key, sizeof(ms->reqid_key));
	get_random_bytes(&ms->srec_key, sizeof(ms->srec_key));
	ms->reqid_ctr = get_random_u32();
}

/**
 * mtp_reqid_next() - the id of a new client transaction
 * @ms: the socket, &mtp_sock.lock held
 *
 * Return: the next counter value under the socket's permutation; distinct
 * from the ids of the socket's last 2^32 - 1 transactions.
 */
u32 mtp_reqid_next(struct mtp_sock *ms)
{
	u32 c = ms->reqid_ctr++;
	u16 l = c >> 16, r = c;
	unsigned int i;

	lockdep_assert_held(&ms->lock);
	for (i = 0; i < MTP_REQID_ROUNDS; i++) {
		u16 f = siphash_2u32(r, i, &ms->reqid_key);
		u16 t = l ^ f;

		l = r;
		r = t;
	}
	return (u32)l << 16 | r;
}

/**
 * mtp_srec_hash() - hash of a server record's key
 * @ms: the socket
 * @caddr: client address
 * @cport: client port
 * @reqid: transaction id
 *
 * Return: the hash, for &mtp_sock.srec.
 */
u32 mtp_srec_hash(const struct mtp_sock *ms, __be32 caddr, __be16 cport,
		  u32 reqid)
{
	return siphash_3u32((__force u32)caddr, (__force u16)cport, reqid,
			    &ms->srec_key);
}
