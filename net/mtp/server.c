// SPDX-License-Identifier: GPL-2.0
/*
 * MTP server side.  The application sees each request once, through
 * recvmsg(), and answers it with sendmsg(); the server application keeps
 * no per-transaction state.  The kernel remembers, for a bounded time and
 * in bounded memory, the latest request of each transaction it passed on
 * (to packetise the answer the way that request asked) and the answer
 * itself, so that subrequests for the same object are answered here
 * without waking the application.  A subrequest outside what was kept
 * goes to the application like any request.  PING and IDSTR are answered
 * in the kernel unless the application turns that off.
 */
#include <linux/ip.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <linux/uio.h>
#include <net/ip.h>
#include <net/sock.h>
#include <net/sk_memcg_alloc.h>

#include "compat.h"
#include "mtp.h"

#define MTP_GC_INTERVAL		HZ
#define MTP_SREC_PEND		8	/* ranges waiting for one answer */
/*
 * The application is asked again when it took a request and has not
 * answered it after MTP_ASK_AGAIN, doubled for each time it was asked
 * since its last answer (at most MTP_ASK_SHIFT_MAX times).
 */
#define MTP_ASK_AGAIN		HZ
#define MTP_ASK_SHIFT_MAX	3
#define MTP_ASK_LAT_MAX		(8 * HZ)
/* Largest single-datagram response: a UDP datagram less our header. */
#define MTP_MAX_SINGLE		(65507 - MTP_WIRE_HDR_LEN)
/*
 * Most datagrams sent for one request: a client never asks for more than
 * its window, which is at most 256 datagrams (flow.h), and the cap keeps
 * the work and the memory one 28-byte request can cost us bounded.
 */
#define MTP_SRV_BURST		MTP_FLOW_MAX_DGRAMS
/* Most bytes of one answer copied in, beyond what is kept. */
#define MTP_SRV_COPY_MAX	(MTP_SRV_BURST * MTP_WIRE_MAX_MULTI)
/* What a datagram costs on the wire beyond MTP: IPv4 and UDP headers. */
#define MTP_IP_UDP_LEN		(sizeof(struct iphdr) + sizeof(struct udphdr))

/**
 * struct mtp_pend - object bytes asked for while the application was busy
 * @start: first byte
 * @end: byte after the last
 * @tag: tag of the earliest request merged in, echoed in the answer
 * @shift: datagram size the requests asked for
 *
 * Consecutive subrequests of a transaction ask for adjacent ranges, so
 * they merge into one entry however many arrive.
 */
struct mtp_pend {
	u32 start;
	u64 end;
	u16 tag;
	u8 shift;
};

/**
 * struct mtp_srec - what a server socket remembers of one transaction
 * @node: in &mtp_sock.srec
 * @lru: in &mtp_sock.srec_lru
 * @caddr: client address
 * @cport: client port
 * @laddr: our address the client asked (the application's answers leave
 *	from it)
 * @reqid: transaction id
 * @expires: when to forget it
 * @req: header of the request the application was given (no payload)
 * @asked: the application has @req and has not answered yet
 * @asked_at: when it was given @req, or took it from its queue
 * @queued: requests of the transaction in the application's queue, unread
 * @asks: times the application was given a request since its last answer
 * @npend: entries in @pend
 * @pend: ranges asked for while the application was busy with @req; the
 *	answer serves those it covers
 * @answered: the application answered; the fields below are valid
 * @data: kept part of the answer, or NULL
 * @data_len: bytes at @data
 * @data_addr: object address of @data[0]
 * @obj_end: end of the object, from the answer's address and rsize
 * @error: answer's error class
 * @response: answer's response code
 * @action: answer's action
 * @flag: answer's flag
 * @appversion: answer's application version
 * @opts: MTP_OPT_STREAM, MTP_OPT_SUPPRESS
 * @channel: answer's channel
 * @limit: server's bytes per request, 0 for none
 * @rx_bytes: bytes (IP datagrams) of the transaction's requests received
 *	while the client was not validated
 * @tx_bytes: bytes (IP datagrams) sent in answer to them
 * @valid: the client proved that it receives at @caddr: no limit
 * @held: @data is a single-datagram or error answer, kept until the
 *	record expires so that a repeated request is answered again and
 *	never run twice; it waits for the client to be validated if it is
 *	more than the client may get yet.  @data_addr and @obj_end give its
 *	address and rsize
 * @sent: @held answer went out once: a repeat takes it from the cache
 */
struct mtp_srec {
	struct hlist_node node;
	struct list_head lru;
	__be32 caddr;
	__be16 cport;
	__be32 laddr;
	u32 reqid;
	unsigned long expires;
	struct mtp_wire_msg req;
	bool asked;
	unsigned long asked_at;
	u8 queued;
	u8 asks;
	u8 npend;
	struct mtp_pend pend[MTP_SREC_PEND];
	bool answered;
	u8 *data;
	u32 data_len;
	u32 data_addr;
	u64 obj_end;
	u8 error;
	u8 response;
	u8 action;
	u8 flag;
	u8 appversion;
	u8 opts;
	u32 channel;
	u32 limit;
	u32 rx_bytes;
	u32 tx_bytes;
	bool valid;
	bool held;
	bool sent;
};

static struct mtp_srec *mtp_srec_find(struct mtp_sock *ms, __be32 caddr,
				      __be16 cport, u32 reqid)
{
	struct mtp_srec *r;

	hash_for_each_possible(ms->srec, r, node,
			       mtp_srec_hash(ms, caddr, cport, reqid))
		if (r->reqid == reqid && r->caddr == caddr &&
		    r->cport == cport)
			return r;
	return NULL;
}

/*
 * The record of a request the application may still answer: not one
 * whose single-datagram answer is kept (mtp_srec_keep()), which is done.
 */
static struct mtp_srec *mtp_srec_find_open(struct mtp_sock *ms,
					   __be32 caddr, __be16 cport,
					   u32 reqid)
{
	struct mtp_srec *r = mtp_srec_find(ms, caddr, cport, reqid);

	return r && r->held && (r->opts & MTP_OPT_SINGLE) ? NULL : r;
}

static void mtp_srec_drop_data(struct mtp_sock *ms, struct mtp_srec *r)
{
	r->held = false;
	r->sent = false;
	if (!r->data)
		return;
	ms->cached -= r->data_len;
	mtp_mem_cache_uncharge(r->data_len);
	MTP_ADD_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_SRVCACHEDBYTES,
		      -(long)r->data_len);
	kvfree(r->data);
	r->data = NULL;
	r->data_len = 0;
}

static void mtp_srec_free(struct mtp_sock *ms, struct mtp_srec *r)
{
	mtp_srec_drop_data(ms, r);
	hash_del(&r->node);
	list_del(&r->lru);
	ms->nsrec--;
	MTP_DEC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_SRVRECORDS);
	kfree(r);
}

/*
 * The record was used: it expires last and is evicted last, unless the
 * application holds its request (@asked): then it is never evicted, or a
 * flood of new transactions would make the application's answer ENOENT.
 */
static void mtp_srec_touch(struct mtp_sock *ms, struct mtp_srec *r,
			   unsigned long expires)
{
	r->expires = expires;
	list_move_tail(&r->lru, r->asked ? &ms->srec_app : &ms->srec_lru);
}

static void mtp_srec_set_asked(struct mtp_sock *ms, struct mtp_srec *r,
			       bool asked)
{
	r->asked = asked;
	mtp_srec_touch(ms, r, r->expires);
}

static void mtp_gc_arm(struct mtp_sock *ms)
{
	if (!timer_pending(&ms->gc_timer))
		sk_reset_timer(mtp_to_sk(ms), &ms->gc_timer,
			       jiffies + MTP_GC_INTERVAL);
}

/* Forget the records of @list whose time is up (all with @all). */
static void mtp_srec_expire(struct mtp_sock *ms, struct list_head *list,
			    bool all)
{
	struct mtp_srec *r, *tmp;

	list_for_each_entry_safe(r, tmp, list, lru) {
		if (!all && time_before(jiffies, r->expires))
			break;
		mtp_srec_free(ms, r);
	}
}

/**
 * mtp_server_gc() - forget transactions whose time is up
 * @t: &mtp_sock.gc_timer
 *
 * Records expire in the order they were last used, so each list's walk
 * stops at the first one still alive.  A record the application holds
 * expires too: its client stopped asking for @cache_ms.
 */
void mtp_server_gc(struct timer_list *t)
{
	struct mtp_sock *ms = timer_container_of(ms, t, gc_timer);

	spin_lock_bh(&ms->lock);
	mtp_srec_expire(ms, &ms->srec_lru, false);
	mtp_srec_expire(ms, &ms->srec_app, false);
	if (ms->nsrec && !ms->closing)
		mtp_gc_arm(ms);
	spin_unlock_bh(&ms->lock);
	sock_put(mtp_to_sk(ms));
}

/**
 * mtp_req_want() - how many bytes one request may be answered with
 * @req: the request
 * @start: object address the answer starts at
 * @srv: server's limit, 0 for none
 *
 * Return: the least of the request's size (if the answer starts where it
 * asked), its limit, the server's limit and %MTP_SRV_BURST datagrams.
 */
static u64 mtp_req_want(const struct mtp_wire_msg *req, u32 start, u32 srv)
{
	u64 n = (u64)MTP_SRV_BURST << req->dgram_shift;

	if (req->rsize && req->address == start)
		n = min_t(u64, n, req->rsize);
	if (req->limit)
		n = min_t(u64, n, mtp_wire_limit_bytes(req->limit));
	if (srv)
		n = min_t(u64, n, srv);
	return n;
}

/* Size of an MTP datagram on the wire, IPv4 and UDP headers included. */
static u32 mtp_dgram_bytes(u32 payload, bool token)
{
	return MTP_IP_UDP_LEN + MTP_WIRE_HDR_LEN +
	       (token ? MTP_WIRE_TOKEN_LEN : 0) + payload;
}

/*
 * Bytes the transaction may still send its client: until the client is
 * validated, MTP_AMP_FACTOR times what it sent, less what went out.
 */
static u64 mtp_srec_credit(const struct mtp_srec *r)
{
	u64 allow = (u64)r->rx_bytes * MTP_AMP_FACTOR;

	if (r->valid)
		return U64_MAX;
	return allow > r->tx_bytes ? allow - r->tx_bytes : 0;
}

static void mtp_srec_spend(struct mtp_srec *r, u32 bytes)
{
	if (!r->valid)
		r->tx_bytes = min_t(u64, (u64)r->tx_bytes + bytes, U32_MAX);
}

/*
 * A request of the transaction arrived: count its bytes, or mark the
 * client validated when the request showed it receives at its address.
 */
static void mtp_srec_intake(struct net *net, struct mtp_srec *r,
			    const struct mtp_wire_msg *m, u32 bytes,
			    bool valid)
{
	if (r->valid)
		return;
	if (valid) {
		r->valid = true;
		if (m->options & MTP_OPT_TOKEN)
			MTP_INC_STATS(net, MTP_MIB_SRVVALIDATED);
		return;
	}
	r->rx_bytes = min_t(u64, (u64)r->rx_bytes + bytes, U32_MAX);
}

/* The header fields every datagram of @r's answer carries. */
static void mtp_srec_hdr(const struct mtp_srec *r, u16 tag,
			 struct mtp_wire_msg *m)
{
	*m = (struct mtp_wire_msg){
		.appversion = r->appversion,
		.options = r->opts,
		.error = r->error,
		.response = r->response,
		.action = r->action,
		.flag = r->flag,
		.reqid = r->reqid,
		.channel = r->channel,
		.limit = mtp_wire_limit_units(r->limit),
		.tag = tag,
	};
}

/*
 * Queue the datagrams of @n bytes at @data, the object's bytes from
 * @start, in datagrams of 2^@shift bytes or what the path MTU takes,
 * echoing @tag.
 *
 * To a client not validated yet, one datagram at most, within the
 * transaction's credit; if that cuts the answer, the datagram carries our
 * token, which tells the client that nothing more of its request comes
 * and lets it ask for the rest with proof of its address.
 */
static void mtp_srec_send(struct mtp_sock *ms, struct mtp_srec *r,
			  u32 start, const u8 *data, u32 n, u8 shift, u16 tag,
			  struct sk_buff_head *out, gfp_t gfp)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	u32 path = mtp_path_payload(ms, r->caddr, r->cport);
	u32 dgram = 1U << shift;
	u32 srv = r->limit ?: ms->srv_limit;
	struct mtp_wire_msg m;
	bool token = false;
	u32 off = 0;

	mtp_srec_hdr(r, tag, &m);
	m.error = 0;
	m.limit = mtp_wire_limit_units(srv);

	/*
	 * The client sizes its datagrams from its own route; a smaller hop
	 * on the way tells only us (ICMP fragmentation needed, which UDP's
	 * error path stores in the route).  Cut to our path, which
	 * dgram_shift tells the client, and send with DF whatever the size
	 * (a datagram built before the path MTU fell is dropped and asked
	 * again): nothing is fragmented.  The client keeps ranges.
	 */
	if (path && path < dgram) {
		dgram = path;
		m.dgram_shift = ilog2(path);
	}
	if (!r->valid) {
		u64 credit = mtp_srec_credit(r);
		u32 one = min(n, dgram);

		if (one < n || credit < mtp_dgram_bytes(n, false)) {
			u32 fixed = mtp_dgram_bytes(0, true);

			MTP_INC_STATS(net, MTP_MIB_SRVAMPLIMITED);
			n = credit > fixed ? (u32)min_t(u64, one, credit - fixed) :
			    0;
			if (!n)
				return;
			/* the token must fit the datagram too */
			if (path > MTP_WIRE_TOKEN_LEN)
				n = min(n, path - MTP_WIRE_TOKEN_LEN);
			m.options |= MTP_OPT_TOKEN;
			m.token = mtp_token_make(net, r->caddr);
			token = true;
		}
	}
	do {
		u32 chunk = min(dgram, n - off);
		u64 addr = (u64)start + off;
		struct sk_buff *skb;

		m.address = (u32)addr;
		m.rsize = r->obj_end > addr ?
			  (u32)min_t(u64, r->obj_end - addr, U32_MAX) : 0;
		skb = mtp_alloc_msg(&m, data + off, chunk, r->caddr, r->cport,
				    gfp);
		if (!skb) {
			MTP_INC_STATS(net, MTP_MIB_OUTERRORS);
			return;
		}
		MTP_SKB_CB(skb)->df = true;
		__skb_queue_tail(out, skb);
		MTP_INC_STATS(net, MTP_MIB_OUTRESPONSES);
		mtp_srec_spend(r, mtp_dgram_bytes(chunk, token));
		off += chunk;
	} while (off < n);
}

/*
 * Remember a subrequest that came while the application was busy:
 * merged with a range it touches, else in a free entry.
 * Return: false if there was no room.
 */
static bool mtp_pend_add(struct mtp_srec *r, const struct mtp_wire_msg *m,
			 u32 srv)
{
	u64 end = (u64)m->address + mtp_req_want(m, m->address, srv);
	struct mtp_pend *p;
	unsigned int i;

	/* An identical repeat of what the application was given. */
	if (m->address == r->req.address && m->rsize == r->req.rsize &&
	    m->dgram_shift == r->req.dgram_shift)
		return true;
	for (i = 0; i < r->npend; i++) {
		p = &r->pend[i];
		if (p->shift != m->dgram_shift || m->address > p->end ||
		    end < p->start)
			continue;
		/*
		 * The tag stays the earliest one: the client takes data
		 * that an answer to a later subrequest overtook as lost.
		 */
		p->start = min(p->start, m->address);
		p->end = max(p->end, end);
		return true;
	}
	if (r->npend == MTP_SREC_PEND)
		return false;
	p = &r->pend[r->npend++];
	p->start = m->address;
	p->end = end;
	p->tag = m->tag;
	p->shift = m->dgram_shift;
	return true;
}

/*
 * The kernel's own answer to @req: the header fields that echo the
 * request, with @response; the caller sets the rest.
 */
static void mtp_server_echo(struct mtp_wire_msg *m,
			    const struct mtp_wire_msg *req, u8 response)
{
	memset(m, 0, sizeof(*m));
	m->response = response;
	m->action = req->action;
	m->flag = req->flag;
	m->reqid = req->reqid;
	m->channel = req->channel;
	m->address = req->address;
	m->tag = req->tag;
}

/* Queue @m with @n bytes at @data for the client; count it in @mib. */
static bool mtp_server_queue(struct mtp_sock *ms, const struct mtp_wire_msg *m,
			     const void *data, u32 n, __be32 caddr,
			     __be16 cport, struct sk_buff_head *out, int mib)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	struct sk_buff *skb;

	skb = mtp_alloc_msg(m, data, n, caddr, cport, GFP_ATOMIC);
	if (!skb) {
		MTP_INC_STATS(net, MTP_MIB_OUTERRORS);
		return false;
	}
	__skb_queue_tail(out, skb);
	MTP_INC_STATS(net, mib);
	return true;
}

/**
 * mtp_server_validate() - tell a client its answer waits for its token
 * @ms: socket
 * @req: the client's request
 * @caddr: client
 * @cport: client port
 * @credit: bytes we may send the client
 * @out: datagrams to send after unlocking
 *
 * An empty %MTP_RES_VALIDATE reply with our token, echoing the request:
 * the answer is larger than an unvalidated client may get, and is sent
 * when the request comes again with the token.
 *
 * Return: bytes sent (on the wire), 0 if none.
 */
static u32 mtp_server_validate(struct mtp_sock *ms,
			       const struct mtp_wire_msg *req, __be32 caddr,
			       __be16 cport, u64 credit,
			       struct sk_buff_head *out)
{
	u32 bytes = mtp_dgram_bytes(0, true);
	struct mtp_wire_msg m;

	if (credit < bytes)
		return 0;
	mtp_server_echo(&m, req, MTP_RES_VALIDATE);
	m.options = MTP_OPT_TOKEN | (req->options & MTP_OPT_SINGLE);
	m.rsize = req->rsize;
	m.token = mtp_token_make(sock_net(mtp_to_sk(ms)), caddr);
	return mtp_server_queue(ms, &m, NULL, 0, caddr, cport, out,
				MTP_MIB_OUTVALIDATE) ? bytes : 0;
}

/**
 * mtp_server_pending() - tell a client its request waits for the application
 * @ms: socket
 * @r: the transaction
 * @req: the request, held in the record's pending ranges
 * @out: datagrams to send after unlocking
 *
 * An empty %MTP_RES_PENDING reply echoing the request's address, rsize
 * and tag, the server's "no data yet" for objects that are not streams
 * (Ch VI): an application answering in large chunks may take longer than
 * the client's repeat interval, and the client then neither repeats the
 * ranges nor takes them for lost as early.
 */
static void mtp_server_pending(struct mtp_sock *ms, struct mtp_srec *r,
			       const struct mtp_wire_msg *req,
			       struct sk_buff_head *out)
{
	u32 bytes = mtp_dgram_bytes(0, false);
	struct mtp_wire_msg m;

	if (mtp_srec_credit(r) < bytes) {
		MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_SRVAMPLIMITED);
		return;
	}
	mtp_server_echo(&m, req, MTP_RES_PENDING);
	m.rsize = req->rsize;
	if (mtp_server_queue(ms, &m, NULL, 0, r->caddr, r->cport, out,
			     MTP_MIB_OUTPENDING))
		mtp_srec_spend(r, bytes);
}

/*
 * PING and IDSTR, answered without the application, at most
 * net.mtp.kping_rate times a second in the namespace and, to a client not
 * validated, within MTP_AMP_FACTOR times the @rx bytes of its request.
 */
static void mtp_server_kping(struct mtp_sock *ms,
			     const struct mtp_wire_msg *req, __be32 caddr,
			     __be16 cport, u32 rx, bool valid,
			     struct sk_buff_head *out)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	u64 credit = (u64)rx * MTP_AMP_FACTOR;
	const char *data = NULL;
	struct mtp_wire_msg m;
	u32 n = 0;

	if (!mtp_kping_allow(net))
		return;

	mtp_server_echo(&m, req, MTP_RES_REPLY);
	m.options = req->options & MTP_OPT_SINGLE;
	if (req->action == MTP_ACT_IDSTR) {
		if (req->address > ms->idlen) {
			m.error = MTP_ERR_APP;
			m.response = MTP_ERR_APP_ADDRESS;
		} else {
			n = ms->idlen - req->address;
			m.rsize = n;	/* extent from address */
			if (req->rsize && req->rsize < n)
				n = req->rsize;
			if (!(req->options & MTP_OPT_SINGLE))
				n = min_t(u32, n, 1U << req->dgram_shift);
			else
				m.rsize = n;
			data = ms->idstr + req->address;
		}
	}
	if (!valid && credit < mtp_dgram_bytes(n, false)) {
		u32 fixed = mtp_dgram_bytes(0, true);

		MTP_INC_STATS(net, MTP_MIB_SRVAMPLIMITED);
		/* A single answer cannot be cut: it waits for the token. */
		if (req->options & MTP_OPT_SINGLE || credit <= fixed) {
			mtp_server_validate(ms, req, caddr, cport, credit, out);
			return;
		}
		n = (u32)min_t(u64, n, credit - fixed);
		m.options |= MTP_OPT_TOKEN;
		m.token = mtp_token_make(net, caddr);
	}
	if (mtp_server_queue(ms, &m, data, n, caddr, cport, out,
			     MTP_MIB_OUTRESPONSES))
		MTP_INC_STATS(net, MTP_MIB_KERNELREPLIES);
}

/*
 * A request of a transaction whose single-datagram or error answer is
 * held: send the answer once the client is validated, or tell it again
 * that the answer waits for its token.  The application is not asked.
 */
static void mtp_server_held(struct mtp_sock *ms, struct mtp_srec *r,
			    const struct mtp_wire_msg *req,
			    struct sk_buff_head *out)
{
	u32 bytes = mtp_dgram_bytes(r->data_len, false);
	struct mtp_wire_msg m;

	mtp_srec_hdr(r, req->tag, &m);
	m.address = r->data_addr;
	m.rsize = (u32)(r->obj_end - r->data_addr);

	if (mtp_srec_credit(r) < bytes) {
		mtp_srec_spend(r, mtp_server_validate(ms, req, r->caddr,
						      r->cport,
						      mtp_srec_credit(r), out));
		return;
	}
	if (r->sent)
		MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_CACHEHITS);
	if (mtp_server_queue(ms, &m, r->data, r->data_len, r->caddr,
			     r->cport, out, MTP_MIB_OUTRESPONSES)) {
		mtp_srec_spend(r, bytes);
		r->sent = true;
	}
}

/*
 * Has the sender of @m shown that it receives at @caddr?  It has if it
 * echoed a token of ours, or if @skb came over a loopback device: only
 * this host sends there (a datagram from outside with one of the host's
 * addresses as its source is dropped as a martian).
 */
static bool mtp_server_validated(struct net *net, const struct sk_buff *skb,
				 const struct mtp_wire_msg *m, __be32 caddr)
{
	if (m->options & MTP_OPT_TOKEN) {
		if (mtp_token_check(net, caddr, m->token))
			return true;
		MTP_INC_STATS(net, MTP_MIB_INBADTOKEN);
	}
	return skb->dev && (skb->dev->flags & IFF_LOOPBACK);
}

/* Pass a request to the application; or say why it cannot take it. */
static enum skb_drop_reason
mtp_server_deliver(struct mtp_sock *ms, struct sk_buff *skb,
		   const struct mtp_wire_msg *m, __be32 caddr, __be16 cport)
{
	struct sock *sk = mtp_to_sk(ms);
	struct mtp_info *info;
	struct sk_buff *q;

	if (atomic_read(&sk->sk_rmem_alloc) >= READ_ONCE(sk->sk_rcvbuf))
		return SKB_DROP_REASON_SOCKET_RCVBUFF;
	q = alloc_skb(sizeof(*info) + m->payload_len, GFP_ATOMIC);
	if (!q) {
		MTP_INC_STATS(sock_net(sk), MTP_MIB_INNOMEM);
		return SKB_DROP_REASON_NOMEM;
	}
	info = skb_put_zero(q, sizeof(*info));
	info->reqid = m->reqid;
	info->flags = MTP_INFO_REQUEST;
	if (m->options & MTP_OPT_SINGLE)
		info->flags |= MTP_INFO_SINGLE;
	if (m->options & MTP_OPT_NOPAYLOAD)
		info->flags |= MTP_INFO_SUPPRESS;
	if (m->options & MTP_OPT_NORESP)
		info->flags |= MTP_INFO_FORGET;
	if (m->address == MTP_STREAM_CLOSE && m->rsize == MTP_STREAM_CLOSE)
		info->flags |= MTP_INFO_CLOSE;
	info->action = m->action;
	info->flag = m->flag;
	info->mtpversion = MTP_WIRE_VERSION;
	info->appversion = m->appversion;
	info->channel = m->channel;
	info->address = m->address;
	info->rsize = m->rsize;
	info->limit = mtp_wire_limit_bytes(m->limit);
	if (m->payload_len &&
	    skb_copy_bits(skb, mtp_wire_hdr_len(m),
			  skb_put(q, m->payload_len), m->payload_len)) {
		kfree_skb(q);
		return SKB_DROP_REASON_NOMEM;
	}
	MTP_SKB_CB(q)->kind = MTP_SKB_INFO;
	MTP_SKB_CB(q)->reqid = m->reqid;
	MTP_SKB_CB(q)->addr = caddr;
	MTP_SKB_CB(q)->port = cport;
	MTP_SKB_CB(q)->off = sizeof(*info);
	MTP_SKB_CB(q)->len = m->payload_len;
	skb_set_owner_r(q, sk);
	mtp_queue_rcv(ms, q);
	return SKB_NOT_DROPPED_YET;
}

/*
 * Is the application still working on the request it was given?  It is
 * while the request waits unread in its queue, and after it took it for
 * MTP_ASK_AGAIN or twice its usual answer time, whichever is longer,
 * doubled for each ask since its last answer: asking a slow application
 * again sooner only makes it slower (each ask of mtpd reads and copies up
 * to 4 MiB) and fills its queue with requests it no longer needs.
 */
static bool mtp_srec_busy(const struct mtp_sock *ms, const struct mtp_srec *r)
{
	unsigned int shift = min_t(unsigned int, r->asks ? r->asks - 1 : 0,
				   MTP_ASK_SHIFT_MAX);
	unsigned long wait = max_t(unsigned long, MTP_ASK_AGAIN,
				   2UL * ms->srv_lat);

	return r->asked && (r->queued ||
			    time_before(jiffies, r->asked_at + (wait << shift)));
}

/*
 * Will a request passed to the application now wait for it?  Yes if
 * requests already wait in its queue, or if it usually takes half the
 * shortest repeat interval a client may use to answer.
 */
static bool mtp_server_slow(struct mtp_sock *ms, const struct mtp_net *mn)
{
	struct sock *sk = mtp_to_sk(ms);

	return !skb_queue_empty_lockless(&sk->sk_receive_queue) ||
	       2UL * ms->srv_lat >=
	       msecs_to_jiffies(READ_ONCE(mn->repeat_min_ms));
}

/**
 * mtp_server_taken() - the application read a request from its queue
 * @ms: socket
 * @caddr: client
 * @cport: client port
 * @reqid: transaction id
 *
 * Its time to answer starts now, not when the request was queued: under
 * load a queue of requests for other transactions is no sign that the
 * application lost this one.
 */
void mtp_server_taken(struct mtp_sock *ms, __be32 caddr, __be16 cport,
		      u32 reqid)
{
	struct mtp_srec *r;

	spin_lock_bh(&ms->lock);
	r = mtp_srec_find(ms, caddr, cport, reqid);
	if (r && r->queued) {
		r->queued--;
		r->asked_at = jiffies;
	}
	spin_unlock_bh(&ms->lock);
}

/*
 * A request for bytes the copy of @r's answer holds: serve them from it.
 * Return: NULL if that was all, else @rest, set to the part of @m that
 * runs past the copy, for the application to be asked.
 */
static const struct mtp_wire_msg *
mtp_server_from_copy(struct mtp_sock *ms, struct mtp_srec *r,
		     const struct mtp_wire_msg *m, struct mtp_wire_msg *rest,
		     struct sk_buff_head *out)
{
	u32 skip = m->address - r->data_addr;
	u32 have = r->data_len - skip;
	u64 n = mtp_req_want(m, m->address, r->limit ?: ms->srv_limit);

	mtp_srec_send(ms, r, m->address, r->data + skip,
		      (u32)min_t(u64, n, have), m->dgram_shift, m->tag,
		      out, GFP_ATOMIC);
	MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_CACHEHITS);
	/* A client not validated asks for the rest with its token. */
	if (!r->valid || n <= have || (u64)m->address + have >= r->obj_end)
		return NULL;
	/*
	 * The request runs past the copy: ask the application for the rest
	 * now rather than leave the client to find it lost.
	 */
	*rest = *m;
	rest->address += have;
	if (rest->rsize)
		rest->rsize -= have;
	if (rest->limit)
		rest->limit = mtp_wire_limit_units((u32)(n - have));
	return rest;
}

/*
 * A record for a new transaction.  A full table forgets its least
 * recently used record: a flood of new transactions cannot lock out the
 * clients that keep theirs alive, and memory stays bounded.  What the
 * application holds is not on that list; if it holds everything, the new
 * request waits for its repeat.  Return: the record, or NULL (@reason is
 * set when memory ran out).
 */
static struct mtp_srec *mtp_srec_new(struct mtp_sock *ms,
				     const struct mtp_wire_msg *m,
				     __be32 caddr, __be16 cport,
				     enum skb_drop_reason *reason)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	struct mtp_srec *r;

	if (ms->nsrec >= READ_ONCE(mtp_net(net)->srv_max_pending)) {
		r = list_first_entry_or_null(&ms->srec_lru, struct mtp_srec,
					     lru);
		if (!r)
			return NULL;
		mtp_srec_free(ms, r);
		MTP_INC_STATS(net, MTP_MIB_SRVEVICTIONS);
	}
	r = sk_memcg_kzalloc_atomic(mtp_to_sk(ms), sizeof(*r));
	if (!r) {
		MTP_INC_STATS(net, MTP_MIB_INNOMEM);
		*reason = SKB_DROP_REASON_NOMEM;
		return NULL;
	}
	r->caddr = caddr;
	r->cport = cport;
	r->reqid = m->reqid;
	hash_add(ms->srec, &r->node, mtp_srec_hash(ms, caddr, cport, m->reqid));
	list_add_tail(&r->lru, &ms->srec_lru);
	ms->nsrec++;
	MTP_INC_STATS(net, MTP_MIB_SRVRECORDS);
	mtp_gc_arm(ms);
	return r;
}

/* The application was handed @m for @r: record that it is asked. */
static void mtp_server_asked(struct mtp_sock *ms, struct mtp_srec *r,
			     const struct mtp_wire_msg *m, bool slow,
			     bool is_close, struct sk_buff_head *out)
{
	/*
	 * A later request of the transaction (the application answered or
	 * was asked before) now waits for a slow application: say so, or a
	 * client whose repeat interval is shorter than the application's
	 * answer takes the range for lost, narrows its window and asks
	 * again.  Not for a prompt application: a range marked pending is
	 * repeated late if its answer is lost.  The first request is left
	 * alone: its repeat interval is the application's own.
	 */
	if (slow && (r->answered || r->asked) && !is_close &&
	    !(m->options & MTP_OPT_SINGLE))
		mtp_server_pending(ms, r, m, out);
	/*
	 * Asked again after MTP_ASK_AGAIN: the application may still
	 * answer the earlier request, which must then serve both.
	 */
	if (r->asked && !is_close && !(m->options & MTP_OPT_SINGLE) &&
	    !(r->req.options & MTP_OPT_SINGLE)) {
		struct mtp_wire_msg old = r->req;

		r->req = *m;
		if (!mtp_pend_add(r, &old, r->limit ?: ms->srv_limit))
			MTP_INC_STATS(sock_net(mtp_to_sk(ms)),
				      MTP_MIB_SRVPENDDROPS);
	}
	r->req = *m;
	r->req.payload = NULL;
	mtp_srec_set_asked(ms, r, true);
	r->asked_at = jiffies;
	if (r->queued < U8_MAX)
		r->queued++;
	if (r->asks < U8_MAX)
		r->asks++;
}

/**
 * mtp_server_rcv() - a request datagram for this socket
 * @ms: socket, locked
 * @skb: the datagram, data at the MTP header; consumed
 * @m: its decoded header
 * @caddr: client
 * @cport: client port
 * @out: datagrams to send after unlocking
 */
void mtp_server_rcv(struct mtp_sock *ms, struct sk_buff *skb,
		    const struct mtp_wire_msg *m, __be32 caddr, __be16 cport,
		    struct sk_buff_head *out)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	/* What the request cost its sender on the wire. */
	u32 wire = skb->len + ip_hdrlen(skb) + sizeof(struct udphdr);
	bool valid = mtp_server_validated(net, skb, m, caddr);
	enum skb_drop_reason reason = SKB_DROP_REASON_NOT_SPECIFIED;
	struct mtp_net *mn = mtp_net(net);
	struct mtp_wire_msg rest;
	unsigned long expires;
	struct mtp_srec *r;
	bool is_close, slow;

	MTP_INC_STATS(net, MTP_MIB_INREQUESTS);
	if (ms->kping && (m->action == MTP_ACT_PING ||
			  m->action == MTP_ACT_IDSTR)) {
		if (!(m->options & MTP_OPT_NORESP))
			mtp_server_kping(ms, m, caddr, cport, wire, valid, out);
		goto consume;
	}
	if (m->options & MTP_OPT_NORESP) {
		if (mtp_server_deliver(ms, skb, m, caddr, cport) !=
		    SKB_NOT_DROPPED_YET)
			MTP_INC_STATS(net, MTP_MIB_SRVDROPS);
		goto consume;
	}
	is_close = m->address == MTP_STREAM_CLOSE &&
		   m->rsize == MTP_STREAM_CLOSE;
	expires = jiffies + msecs_to_jiffies(READ_ONCE(mn->cache_ms));
	r = mtp_srec_find(ms, caddr, cport, m->reqid);
	if (r) {
		mtp_srec_intake(net, r, m, wire, valid);
		if (r->held) {
			mtp_srec_touch(ms, r, expires);
			mtp_server_held(ms, r, m, out);
			goto consume;
		}
	}
	if (r && r->answered && r->data && !is_close &&
	    !(m->options & MTP_OPT_SINGLE) &&
	    m->address >= r->data_addr &&
	    m->address - r->data_addr < r->data_len) {
		mtp_srec_touch(ms, r, expires);
		m = mtp_server_from_copy(ms, r, m, &rest, out);
		if (!m)
			goto consume;
	}
	if (r && r->answered)
		MTP_INC_STATS(net, MTP_MIB_CACHEMISSES);
	if (!r) {
		r = mtp_srec_new(ms, m, caddr, cport, &reason);
		if (!r)
			goto drop;
		/* The application's answer leaves from where we were asked. */
		r->laddr = ip_hdr(skb)->daddr;
		mtp_srec_intake(net, r, m, wire, valid);
	}
	mtp_srec_touch(ms, r, expires);
	if (mtp_srec_busy(ms, r) && !is_close) {
		/*
		 * Do not wake the application again: its answer will do.
		 * Single requests are repeats of what it was given.
		 */
		if (!(m->options & MTP_OPT_SINGLE) &&
		    !(r->req.options & MTP_OPT_SINGLE)) {
			if (mtp_pend_add(r, m, r->limit ?: ms->srv_limit))
				mtp_server_pending(ms, r, m, out);
			else
				MTP_INC_STATS(net, MTP_MIB_SRVPENDDROPS);
		}
		goto consume;
	}
	slow = mtp_server_slow(ms, mn);
	reason = mtp_server_deliver(ms, skb, m, caddr, cport);
	if (reason != SKB_NOT_DROPPED_YET)
		goto drop;
	mtp_server_asked(ms, r, m, slow, is_close, out);
consume:
	consume_skb(skb);
	return;
drop:
	MTP_INC_STATS(net, MTP_MIB_SRVDROPS);
	mtp_drop(ms, skb, reason);
}

/*
 * The application answered @r with a single-datagram or error answer of
 * @n bytes at @buf: keep it in @r (mtp_server_held() serves it), within
 * the socket's cache bytes.  Return: true if @buf is now @r's, false if
 * there was no room (@buf is still the caller's).
 */
static bool mtp_srec_keep(struct mtp_sock *ms, struct mtp_srec *r,
			  const struct mtp_wire_msg *req,
			  const struct mtp_response *resp, u8 *buf, u32 n)
{
	struct net *net = sock_net(mtp_to_sk(ms));

	r->opts |= req->options & MTP_OPT_SINGLE;
	r->data_addr = resp->address;
	mtp_srec_set_asked(ms, r, false);
	r->asks = 0;
	r->npend = 0;
	if (ms->cached + n > READ_ONCE(mtp_net(net)->cache_sock_bytes) ||
	    !mtp_mem_cache_charge(n))
		return false;
	r->held = true;
	r->data = buf;
	r->data_len = n;
	ms->cached += n;
	MTP_ADD_STATS(net, MTP_MIB_SRVCACHEDBYTES, n);
	return true;
}

/*
 * A single-datagram or error answer larger than the client may get before
 * it is validated: keep it (mtp_srec_keep()) and send the client our
 * token; the request repeated with the token takes the answer
 * (mtp_server_held()).  Without room the answer is dropped, and the
 * validated repeat asks the application again.  Takes @buf.
 */
static void mtp_server_hold(struct mtp_sock *ms, struct mtp_srec *r,
			    const struct mtp_wire_msg *req,
			    const struct mtp_response *resp, u8 *buf, u32 n,
			    struct sk_buff_head *out)
{
	MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_SRVAMPLIMITED);
	if (!mtp_srec_keep(ms, r, req, resp, buf, n))
		kvfree(buf);
	mtp_srec_spend(r, mtp_server_validate(ms, req, r->caddr, r->cport,
					      mtp_srec_credit(r), out));
}

/* Fields of an answer that the application may not set. */
static int mtp_resp_check(const struct mtp_response *resp)
{
	if (resp->error > MTP_WIRE_MAX_CLASS || resp->reserved[0] ||
	    resp->reserved[1] || resp->reserved[2] ||
	    resp->flags & ~(MTP_RESP_STREAM | MTP_RESP_SUPPRESS |
			    MTP_RESP_NOCACHE))
		return -EINVAL;
	/* The kernel's own reply codes: an application's would mislead. */
	if (!resp->error && (resp->response == MTP_RES_PENDING ||
			     resp->response == MTP_RES_VALIDATE))
		return -EINVAL;
	return 0;
}

/**
 * struct mtp_resp_plan - what of a multi-datagram answer is copied in
 * @base: object address of the first byte copied
 * @start: address the request asked for, where sending starts
 * @copy_end: address after the last byte copied
 * @keep: bytes from @base on kept as the transaction's copy
 */
struct mtp_resp_plan {
	u64 base;
	u64 start;
	u64 copy_end;
	u32 keep;
};

/*
 * The application may answer with more than was asked, up to 4 GiB.
 * Copy in only what goes out now (the request @req and the ranges asked
 * for meanwhile, @pend) and what is kept (at most @keep_max), so the
 * kernel memory one answer takes is bounded.
 */
static void mtp_resp_plan(const struct mtp_response *resp, u32 keep_max,
			  const struct mtp_wire_msg *req,
			  const struct mtp_pend *pend, unsigned int npend,
			  u32 srv, size_t len, struct mtp_resp_plan *p)
{
	u64 lo = resp->address, hi = lo + len, need, keep_end;
	unsigned int i;

	if (!(resp->flags & MTP_RESP_STREAM))
		hi = min_t(u64, hi, lo + resp->rsize);
	p->start = lo;
	if (req->address > lo && req->address < hi)
		p->start = req->address;
	p->base = p->start;
	need = min_t(u64, hi, p->start + mtp_req_want(req, p->start, srv));
	for (i = 0; i < npend; i++) {
		if (pend[i].end <= lo || pend[i].start >= hi ||
		    (u64)pend[i].start + MTP_SRV_COPY_MAX / 2 < p->start)
			continue;
		p->base = max_t(u64, lo, min_t(u64, p->base, pend[i].start));
		need = max_t(u64, need, min(hi, pend[i].end));
	}
	keep_end = p->base;
	if (!(resp->flags & (MTP_RESP_NOCACHE | MTP_RESP_STREAM)))
		keep_end = min_t(u64, hi, p->base + keep_max);
	p->copy_end = max(need, keep_end);
	p->copy_end = min_t(u64, p->copy_end, p->base +
			    max_t(u64, keep_end - p->base, MTP_SRV_COPY_MAX));
	p->keep = keep_end - p->base;
}

/* @r is answered with @resp: the fields every datagram of it carries. */
static void mtp_srec_answered(struct mtp_sock *ms, struct mtp_srec *r,
			      const struct mtp_response *resp)
{
	struct mtp_net *mn = mtp_net(sock_net(mtp_to_sk(ms)));

	mtp_srec_drop_data(ms, r);
	if (r->asked && !r->queued) {
		/* How long the application takes, from its recvmsg(). */
		u32 lat = min_t(unsigned long, jiffies - r->asked_at,
				MTP_ASK_LAT_MAX);

		ms->srv_lat = ms->srv_lat ? (3 * ms->srv_lat + lat) / 4 : lat;
	}
	r->answered = true;
	r->error = resp->error;
	r->response = resp->response ?: (resp->error ? 0 : MTP_RES_REPLY);
	r->action = resp->action;
	r->flag = resp->flag;
	r->appversion = resp->appversion;
	r->channel = resp->channel;
	r->limit = resp->limit;
	r->opts = 0;
	if (resp->flags & MTP_RESP_STREAM)
		r->opts |= MTP_OPT_STREAM;
	if (resp->flags & MTP_RESP_SUPPRESS)
		r->opts |= MTP_OPT_SUPPRESS;
	r->obj_end = (u64)resp->address + resp->rsize;
	mtp_srec_touch(ms, r,
		       jiffies + msecs_to_jiffies(READ_ONCE(mn->cache_ms)));
}

/*
 * A single-datagram answer, or an error: held for a client that has not
 * proved its address, kept for the repeats of a single request, or sent
 * and forgotten.  Called locked; unlocks.  Takes @buf.
 */
static int mtp_server_respond_one(struct mtp_sock *ms, struct mtp_srec *r,
				  const struct mtp_wire_msg *req,
				  const struct mtp_response *resp, u8 *buf,
				  u32 copy, struct sk_buff_head *out)
	__releases(&ms->lock)
{
	__be32 caddr = r->caddr;
	__be16 cport = r->cport;
	struct mtp_wire_msg m;
	struct sk_buff *skb;

	mtp_srec_hdr(r, req->tag, &m);
	m.options |= req->options & MTP_OPT_SINGLE;
	m.address = resp->address;
	m.rsize = resp->rsize;

	if (mtp_srec_credit(r) < mtp_dgram_bytes(copy, false)) {
		mtp_server_hold(ms, r, req, resp, buf, copy, out);
		spin_unlock_bh(&ms->lock);
		return 0;
	}
	/*
	 * Kept, a repeat of a single request is answered from the copy: the
	 * application runs it at most once.  Unless it said the answer may
	 * not be kept, or there is no room: then a repeat asks it again.  An
	 * error for a multi-datagram request is not kept: its client may ask
	 * again otherwise (with the payload after MTP_ERR_APP_CHANNEL, for
	 * one).
	 */
	if ((req->options & MTP_OPT_SINGLE) &&
	    !(resp->flags & MTP_RESP_NOCACHE) &&
	    mtp_srec_keep(ms, r, req, resp, buf, copy)) {
		mtp_server_held(ms, r, req, out);
		spin_unlock_bh(&ms->lock);
		return 0;
	}
	mtp_srec_free(ms, r);
	spin_unlock_bh(&ms->lock);
	skb = mtp_alloc_msg(&m, buf, copy, caddr, cport, GFP_KERNEL);
	kvfree(buf);
	if (!skb)
		return -ENOBUFS;
	MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_OUTRESPONSES);
	__skb_queue_tail(out, skb);
	return 0;
}

/*
 * A multi-datagram answer, [@p->base, @p->copy_end) of it in @buf: send
 * what the request and the ranges asked for meanwhile want, and keep
 * @p->keep bytes if the socket and the module have room.  Called locked.
 * Return: @buf if it was not kept, for the caller to free.
 */
static u8 *mtp_server_respond_multi(struct mtp_sock *ms, struct mtp_srec *r,
				    const struct mtp_wire_msg *req,
				    const struct mtp_resp_plan *p, u8 *buf,
				    u32 srv, struct sk_buff_head *out)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	unsigned int i;

	r->data_addr = (u32)p->base;
	mtp_srec_send(ms, r, (u32)p->start, buf + (p->start - p->base),
		      (u32)min_t(u64, mtp_req_want(req, (u32)p->start, srv),
				 p->copy_end - p->start),
		      req->dgram_shift, req->tag, out, GFP_ATOMIC);
	/* The ranges asked for meanwhile, as far as the copy covers them. */
	for (i = 0; i < r->npend; i++) {
		const struct mtp_pend *q = &r->pend[i];
		u64 s = max_t(u64, q->start, p->base);
		u64 e = min(q->end, p->copy_end);

		if (s < e)
			mtp_srec_send(ms, r, (u32)s, buf + (s - p->base),
				      (u32)(e - s), q->shift, q->tag, out,
				      GFP_ATOMIC);
	}
	mtp_srec_set_asked(ms, r, false);
	r->asks = 0;
	r->npend = 0;
	if (p->keep &&
	    ms->cached + p->keep <=
		READ_ONCE(mtp_net(net)->cache_sock_bytes) &&
	    mtp_mem_cache_charge(p->keep)) {
		r->data = buf;
		r->data_len = p->keep;
		ms->cached += p->keep;
		MTP_ADD_STATS(net, MTP_MIB_SRVCACHEDBYTES, p->keep);
		return NULL;
	}
	return buf;
}

/**
 * mtp_server_respond() - answer a request (sendmsg with MTP_RESPOND)
 * @ms: socket
 * @resp: the application's answer
 * @caddr: client, as recvmsg() reported it
 * @cport: client port
 * @msg: the payload
 * @len: its length
 *
 * Return: @len, or -ENOENT when the transaction is not (or no longer)
 * known, -EMSGSIZE for a payload its kind cannot carry, -EINVAL for bad
 * fields, -ENOBUFS without memory.
 */
int mtp_server_respond(struct mtp_sock *ms, const struct mtp_response *resp,
		       __be32 caddr, __be16 cport, struct msghdr *msg,
		       size_t len)
{
	struct mtp_net *mn = mtp_net(sock_net(mtp_to_sk(ms)));
	struct mtp_pend pend[MTP_SREC_PEND];
	struct mtp_resp_plan plan = { 0 };
	unsigned int npend = 0;
	struct mtp_wire_msg req;
	struct sk_buff_head out;
	struct mtp_srec *r;
	u8 *buf = NULL;
	u32 copy, srv;
	__be32 laddr;
	bool multi;
	int err;

	err = mtp_resp_check(resp);
	if (err)
		return err;
	spin_lock_bh(&ms->lock);
	r = mtp_srec_find_open(ms, caddr, cport, resp->reqid);
	if (r) {
		req = r->req;
		npend = r->npend;
		memcpy(pend, r->pend, sizeof(pend));
	}
	srv = resp->limit ?: ms->srv_limit;
	spin_unlock_bh(&ms->lock);
	if (!r)
		return -ENOENT;

	multi = !resp->error && !(req.options & MTP_OPT_SINGLE);
	if (resp->error && len > MTP_WIRE_MAX_ERRTEXT)
		return -EMSGSIZE;
	if (!multi && len > MTP_MAX_SINGLE)
		return -EMSGSIZE;
	copy = len;
	if (multi) {
		mtp_resp_plan(resp, READ_ONCE(mn->cache_obj_bytes), &req,
			      pend, npend, srv, len, &plan);
		copy = plan.copy_end - plan.base;
		iov_iter_advance(&msg->msg_iter, plan.base - resp->address);
	}
	if (copy) {
		buf = kvmalloc(copy, GFP_KERNEL_ACCOUNT);
		if (!buf)
			return -ENOBUFS;
		if (copy_from_iter(buf, copy, &msg->msg_iter) != copy) {
			kvfree(buf);
			return -EFAULT;
		}
	}

	__skb_queue_head_init(&out);
	spin_lock_bh(&ms->lock);
	r = mtp_srec_find_open(ms, caddr, cport, resp->reqid);
	if (!r) {
		spin_unlock_bh(&ms->lock);
		kvfree(buf);
		return -ENOENT;
	}
	mtp_srec_answered(ms, r, resp);
	laddr = r->laddr;
	if (!multi) {
		err = mtp_server_respond_one(ms, r, &req, resp, buf, copy,
					     &out);
		mtp_xmit_from(&out, laddr);
		mtp_xmit_list(ms, &out);
		return err ?: len;
	}
	buf = mtp_server_respond_multi(ms, r, &req, &plan, buf, srv, &out);
	spin_unlock_bh(&ms->lock);
	kvfree(buf);
	mtp_xmit_from(&out, laddr);
	mtp_xmit_list(ms, &out);
	return len;
}

/**
 * mtp_server_close() - forget everything; the socket is closing
 * @ms: socket, locked
 */
void mtp_server_close(struct mtp_sock *ms)
{
	mtp_srec_expire(ms, &ms->srec_lru, true);
	mtp_srec_expire(ms, &ms->srec_app, true);
}
