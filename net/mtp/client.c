// SPDX-License-Identifier: GPL-2.0
/*
 * MTP client transactions.  All transaction state lives here, at the
 * client: the request is repeated until something answers, the object is
 * fetched with subrequests for the ranges still missing, the window
 * (flow.c) bounds the bytes requested and not yet received, and ranges
 * that do not arrive within the repeat interval are declared lost and
 * asked for again.  Data is delivered to the socket's receive queue in
 * object order as it becomes contiguous.
 *
 * Locking: everything under mtp_sock.lock; datagrams to send are
 * collected on a list and sent by the caller after unlocking.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>

#include "compat.h"
#include "mtp.h"
#include "transit.h"
#include "reorder.h"
#include <trace/events/mtp.h>

#define MTP_TAGS		64	/* send times remembered, by tag */
#define MTP_STOP_MS		1000	/* ABORT_STOP expires within this */
/*
 * Largest subrequest, in datagrams: a lost request then costs only a few
 * datagrams, and the answers to the next ones reveal the loss early.
 */
#define MTP_SUBREQ_DGRAMS	8
/* Objects are at most 2^32 bytes (the address field's range). */
#define MTP_OBJ_MAX		BIT_ULL(32)
/* A range the server reported pending is repeated no sooner than this. */
#define MTP_PENDING_MIN_MS	500
/* The repeat interval doubles up to this while nothing is answered. */
#define MTP_REPEAT_MAX_MS	60000

enum mtp_txn_state {
	MTP_TS_FIRST,		/* waiting for the first response */
	MTP_TS_FLOWING,		/* fetching the object */
	MTP_TS_CLOSING,		/* stream: close request sent */
	MTP_TS_DONE,
};

/**
 * struct mtp_ctxn - a client transaction
 * @hnode: in &mtp_sock.ctxn
 * @ref: references: the table, the armed timer, running code
 * @ms: socket, referenced
 * @timer: repeat, loss and expiry timer
 * @reqid: transaction id
 * @daddr: server address
 * @dport: server port
 * @state: &enum mtp_txn_state
 * @single: single-datagram transaction
 * @suppress: subrequests go without payload
 * @stream: the object is a stream
 * @stopping: MTP_ABORT_STOP: no more subrequests
 * @in_pump: guards against recursion from delivery
 * @paced: a subrequest waits for its turn at the pacing rate, until
 *	@pace_at
 * @clocked: an answer to a subrequest came back: from now on arriving
 *	answers clock the subrequests, and pacing no longer spreads them
 * @action: action
 * @flag: flag
 * @appversion: our application version; @peer_appver the server's
 * @peer_appver: server's application version
 * @channel: current channel
 * @address: requested address
 * @rsize: requested size, 0 for all
 * @user: application cookie
 * @end: object end, U64_MAX while unknown
 * @next: all bytes below were delivered
 * @hiwat: all bytes below were requested at least once
 * @srv_limit: server's bytes per request, 0 for none
 * @tr: the ranges requested, not yet received nor declared lost, and
 *	their bytes
 * @ooo: received skbs beyond @next, sorted, not overlapping
 * @flow: window and datagram size
 * @dest: the server host's RTT and congestion window, shared with the
 *	other transactions to it; NULL once the transaction ended
 * @rtt_avg_us: the host's average RTT at this transaction's last sample
 * @rtt_min_us: the host's least RTT then
 * @repeat_ms: repeat interval
 * @expire_ms: expiry
 * @init_limit: limit field of the initial request
 * @init_shift: dgram_shift of the initial request
 * @last_tx: when the initial request was last sent
 * @last_rx: when the last valid response arrived
 * @stop_at: MTP_ABORT_STOP deadline
 * @pace_at: when the subrequest pacing holds back is due (jiffies)
 * @start: start time
 * @seq: subrequests sent; its low 16 bits, never 0, are the latest tag
 * @reorder: early loss depth (net.mtp.reorder), raised by duplicates
 * @tag_sent: send time of each recent tag, 0 if ambiguous or already
 *	measured
 * @resp: error, response, action, flag of the latest response
 * @requests: request datagrams sent
 * @repeats: of those, repeats
 * @duplicates: responses that brought nothing new
 * @losses: ranges declared lost
 * @wmem: bytes charged to the socket's send buffer (sk_wmem_queued)
 * @final: preallocated completion message
 * @token: the server's address validation token, echoed in requests
 * @has_token: @token is set
 * @plen: request payload length
 * @payload: request payload, for repeats and subrequests
 */
struct mtp_ctxn {
	struct hlist_node hnode;
	refcount_t ref;
	struct mtp_sock *ms;
	struct timer_list timer;
	u32 reqid;
	__be32 daddr;
	__be16 dport;
	u8 state;
	bool single;
	bool suppress;
	bool stream;
	bool stopping;
	bool in_pump;
	bool paced;
	bool clocked;
	u8 action;
	u8 flag;
	u8 appversion;
	u8 peer_appver;
	u32 channel;
	u32 address;
	u32 rsize;
	u64 user;
	u64 end;
	u64 next;
	u64 hiwat;
	u32 srv_limit;
	struct mtp_transit tr;
	struct sk_buff_head ooo;
	struct mtp_flow flow;
	struct mtp_dest *dest;
	u32 rtt_avg_us;
	u32 rtt_min_us;
	u32 repeat_ms;
	u32 expire_ms;
	u16 init_limit;
	u8 init_shift;
	unsigned long last_tx;
	unsigned long last_rx;
	unsigned long stop_at;
	unsigned long pace_at;
	ktime_t start;
	u32 seq;
	struct mtp_reorder reorder;
	ktime_t tag_sent[MTP_TAGS];
	u8 resp[4];
	u32 requests;
	u32 repeats;
	u32 duplicates;
	u32 losses;
	u32 wmem;
	struct sk_buff *final;
	u64 token;
	bool has_token;
	u16 plen;
	u8 payload[MTP_SIZE_REQUEST];
};

static struct kmem_cache *mtp_range_cache;

static struct net *mtp_txn_net(const struct mtp_ctxn *t)
{
	return sock_net(mtp_to_sk(t->ms));
}

static void mtp_txn_put(struct mtp_ctxn *t)
{
	if (!refcount_dec_and_test(&t->ref))
		return;
	consume_skb(t->final);
	sock_put(mtp_to_sk(t->ms));
	kfree(t);
}

static struct mtp_ctxn *mtp_txn_find(struct mtp_sock *ms, u32 reqid)
{
	struct mtp_ctxn *t;

	hash_for_each_possible(ms->ctxn, t, hnode, reqid)
		if (t->reqid == reqid)
			return t;
	return NULL;
}

/* ---- sending ---------------------------------------------------------- */

/*
 * A new transaction to a host that sent us a token within the last
 * minute (this socket or, through hosts.c, another) shows it at once:
 * the first answer comes whole, not cut while the token travels.  A
 * token the host no longer takes (its key changed: a new boot) brings a
 * cut answer with a new one, as if we had none.
 */
static void mtp_txn_token_reuse(struct mtp_ctxn *t)
{
	struct mtp_dest *d = t->dest;

	if (!d->token_at || time_after(jiffies, d->token_at + MTP_TOKEN_KEEP))
		return;
	t->token = d->token;
	t->has_token = true;
}

/* Echo the server's address validation token, once it sent one. */
static void mtp_txn_token_put(const struct mtp_ctxn *t, struct mtp_wire_msg *m)
{
	if (t->has_token) {
		m->options |= MTP_OPT_TOKEN;
		m->token = t->token;
	}
}

static void mtp_txn_send(struct mtp_ctxn *t, u32 addr, u32 rsize, u16 limit,
			 u8 shift, u16 tag, bool repeat,
			 struct sk_buff_head *out)
{
	struct net *net = mtp_txn_net(t);
	struct mtp_wire_msg m = {
		.appversion = t->appversion,
		.action = t->action,
		.flag = t->flag,
		.dgram_shift = t->single ? 0 : shift,
		.reqid = t->reqid,
		.channel = t->channel,
		.address = addr,
		.rsize = rsize,
		.limit = limit,
		.tag = tag,
	};
	u32 plen = t->plen;
	struct sk_buff *skb;

	if (t->single)
		m.options |= MTP_OPT_SINGLE;
	if (t->suppress && t->state != MTP_TS_FIRST) {
		m.options |= MTP_OPT_NOPAYLOAD;
		plen = 0;
	}
	mtp_txn_token_put(t, &m);
	skb = mtp_alloc_msg(&m, t->payload, plen, t->daddr, t->dport,
			    GFP_ATOMIC);
	if (!skb) {
		MTP_INC_STATS(net, MTP_MIB_OUTERRORS);
		return;
	}
	__skb_queue_tail(out, skb);
	t->requests++;
	MTP_INC_STATS(net, MTP_MIB_OUTREQUESTS);
	if (repeat) {
		t->repeats++;
		MTP_INC_STATS(net, MTP_MIB_OUTREPEATS);
	}
}

static void mtp_txn_send_initial(struct mtp_ctxn *t, bool repeat,
				 struct sk_buff_head *out)
{
	/* A repeat is identical, so its answer cannot be timed. */
	t->tag_sent[0] = repeat ? 0 : ktime_get();
	t->last_tx = jiffies;
	mtp_txn_send(t, t->address, t->rsize, t->init_limit, t->init_shift, 0,
		     repeat, out);
}

/* ---- bytes in transit (transit.c), shared with the server host -------- */

/* @t's bytes in transit fell by @gone: so did its server host's. */
static void mtp_txn_untransit(struct mtp_ctxn *t, u32 gone)
{
	if (t->dest)
		t->dest->cc.inflight -= gone;
}

/* The initial request asks for @bytes: in transit, with no range yet. */
static void mtp_txn_transit_charge(struct mtp_ctxn *t, u32 bytes)
{
	mtp_transit_charge(&t->tr, bytes);
	if (t->dest)
		t->dest->cc.inflight += bytes;
}

static bool mtp_txn_transit_add(struct mtp_ctxn *t, u64 s, u64 e)
{
	if (!mtp_transit_add(&t->tr, s, e, t->seq, jiffies))
		return false;
	if (t->dest)
		t->dest->cc.inflight += (u32)(e - s);
	return true;
}

/*
 * A subrequest for @bytes from @s leaves: with the delivery-rate model,
 * stamp its range so that the answers to it are rate samples (rate.c).
 */
static void mtp_txn_rate_sent(struct mtp_ctxn *t, u64 s, u32 bytes,
			      bool repeat)
{
	struct mtp_dest *d = t->dest;
	struct mtp_range *r;

	if (!d || !d->bbr)
		return;
	r = mtp_transit_find(&t->tr, s);
	if (r)
		mtp_rate_sent(&d->rate, &r->st, d->cc.inflight == bytes, repeat,
			      ktime_get_ns());
}

/* Forget every range in transit: all of them are to be asked again. */
static void mtp_txn_transit_clear(struct mtp_ctxn *t)
{
	mtp_txn_untransit(t, mtp_transit_clear(&t->tr));
}

/* Cut every range in transit to @limit bytes: the rest will not come. */
static void mtp_txn_transit_cut(struct mtp_ctxn *t, u32 limit, u64 end)
{
	mtp_txn_untransit(t, mtp_transit_cut(&t->tr, limit, end));
	if (t->hiwat > end)
		t->hiwat = end;
}

/*
 * The lowest bytes at or above @next that are neither received nor in
 * transit, below min(hiwat, end); beyond hiwat everything is missing.
 */
static bool mtp_find_gap(struct mtp_ctxn *t, u64 *gs, u64 *ge)
{
	u64 lim = min(t->hiwat, t->end), pos = t->next;
	struct sk_buff *skb = skb_peek(&t->ooo);
	struct mtp_range *r;

	r = list_first_entry_or_null(&t->tr.ranges, struct mtp_range, node);
	while (pos < lim) {
		u64 next_start = lim;

		while (skb && (u64)MTP_SKB_CB(skb)->pos + MTP_SKB_CB(skb)->len
			      <= pos)
			skb = skb_queue_is_last(&t->ooo, skb) ? NULL :
			      skb->next;
		while (r && r->end <= pos)
			r = list_is_last(&r->node, &t->tr.ranges) ? NULL :
			    list_next_entry(r, node);
		if (skb && MTP_SKB_CB(skb)->pos <= pos) {
			pos = (u64)MTP_SKB_CB(skb)->pos + MTP_SKB_CB(skb)->len;
			continue;
		}
		if (r && r->start <= pos) {
			pos = r->end;
			continue;
		}
		if (skb)
			next_start = min_t(u64, next_start, MTP_SKB_CB(skb)->pos);
		if (r)
			next_start = min(next_start, r->start);
		*gs = pos;
		*ge = next_start;
		return true;
	}
	if (t->hiwat < t->end) {
		*gs = max(t->hiwat, pos);
		*ge = t->end;
		return *gs < *ge;
	}
	return false;
}

static bool mtp_rx_room(struct mtp_ctxn *t)
{
	struct sock *sk = mtp_to_sk(t->ms);

	return atomic_read(&sk->sk_rmem_alloc) < READ_ONCE(sk->sk_rcvbuf) / 2;
}

/*
 * Double the receive buffer of @t's socket, up to net.mtp.rmem_max, as
 * TCP grows its own; never one the application set with SO_RCVBUF.
 * Return: true if it grew.
 */
static bool mtp_rx_grow(struct mtp_ctxn *t)
{
	struct sock *sk = mtp_to_sk(t->ms);
	int max = READ_ONCE(mtp_net(mtp_txn_net(t))->rmem_max);
	int rcvbuf = READ_ONCE(sk->sk_rcvbuf);

	if ((sk->sk_userlocks & SOCK_RCVBUF_LOCK) || rcvbuf >= max)
		return false;
	rcvbuf = (int)min_t(s64, 2LL * rcvbuf, max);
	WRITE_ONCE(sk->sk_rcvbuf, rcvbuf);
	mtp_flow_rcvbuf_grown(&t->flow, rcvbuf);
	MTP_INC_STATS(mtp_txn_net(t), MTP_MIB_RCVBUFGROWS);
	return true;
}

/*
 * The receive queue of @t's socket is half full.  If more of it waits
 * behind @t's holes than for the application to read, the buffer is too
 * small for the path's losses, not for the reader: grow it.
 * Return: true if it grew.
 */
static bool mtp_rx_tune(struct mtp_ctxn *t)
{
	struct sock *sk = mtp_to_sk(t->ms);

	if (skb_queue_len(&t->ooo) <
	    skb_queue_len_lockless(&sk->sk_receive_queue))
		return false;
	return mtp_rx_grow(t);
}

/*
 * With the delivery-rate model the window is flow control alone, bounded
 * by the receive buffer (mtp_flow_grow_max()).  At that bound, with the
 * queue less than half full, the reader keeps up and the buffer, not the
 * path or the application, holds @t back: grow it, at most once a round
 * trip, which lets the window double per round as the model's does in
 * STARTUP (TCP grows its buffer with the reader, tcp_rcv_space_adjust()).
 * A slow reader fills the queue and stops the growth.
 */
static void mtp_rx_autotune(struct mtp_ctxn *t)
{
	struct mtp_sock *ms = t->ms;
	u32 rtt = mtp_rtt_avg(&t->dest->rtt);

	if (t->flow.window < mtp_flow_grow_max(&t->flow) || !mtp_rx_room(t) ||
	    time_before(jiffies, ms->rcvbuf_at))
		return;
	if (mtp_rx_grow(t))
		ms->rcvbuf_at = jiffies + max(usecs_to_jiffies(rtt), 1UL);
}

/*
 * Is the next subrequest to @t's destination due?  If not, note when it
 * is, for mtp_txn_arm().  The timer that waits is a jiffy timer, so what
 * is due within a jiffy goes now.
 */
static bool mtp_txn_pace_due(struct mtp_ctxn *t, u64 rate, u64 now)
{
	u64 wait;

	if (!rate)
		return true;
	wait = mtp_cc_pace_wait(&t->dest->cc, now, TICK_NSEC);
	if (!wait)
		return true;
	t->paced = true;
	t->pace_at = jiffies + nsecs_to_jiffies(wait) + 1;
	return false;
}

/* What @t may have in transit: its window and its host's, the least. */
static u64 mtp_txn_fill(const struct mtp_ctxn *t)
{
	return min(t->flow.window, t->dest->cc.cwnd);
}

/*
 * The largest subrequest @t asks for: %MTP_SUBREQ_DGRAMS datagrams; with
 * the delivery-rate model at most an eighth of what it may fill, at least
 * a datagram.  A range lost is found early only when the answers to
 * %net.mtp.reorder later subrequests overtake it (mtp_txn_early_loss()):
 * the initial window of ten datagrams asked in two subrequests had none
 * after the first, whose loss then waited two to four round trips for
 * the repeat interval.
 */
static u64 mtp_txn_piece_max(const struct mtp_ctxn *t)
{
	u32 dgram = t->flow.dgram;

	if (!t->dest->bbr)
		return MTP_SUBREQ_DGRAMS * dgram;
	return clamp_t(u64, mtp_txn_fill(t) / 8 / dgram * dgram, dgram,
		       MTP_SUBREQ_DGRAMS * dgram);
}

/*
 * The least subrequest @t asks for while it has others in transit, for a
 * gap of @gap bytes: a 128th of what it may fill, in whole datagrams
 * (never more than mtp_txn_piece_max(), the gap or the server's limit).
 * Arrivals free the window a datagram at a time; asking for each at once
 * would make one range per datagram, which fills the table of ranges in
 * transit (%MTP_TRANSIT_MAX) before the window the model allows, and
 * doubles the requests.
 */
static u64 mtp_txn_piece(const struct mtp_ctxn *t, u64 gap)
{
	u32 dgram = t->flow.dgram;
	u64 piece = mtp_txn_fill(t) / 128 / dgram * dgram;

	piece = clamp_t(u64, piece, dgram, mtp_txn_piece_max(t));
	if (t->srv_limit)
		piece = min_t(u64, piece, t->srv_limit);
	return min(piece, gap);
}

/*
 * Issue subrequests while the transaction's window and its destination's
 * congestion window have room.  A transaction the congestion window holds
 * back marks the destination starved, and mtp_dest_kick() resumes it when
 * another one's data frees room.
 *
 * Until the first answer to a subrequest comes back, nothing clocks the
 * subrequests but the window, which would go out at once: that first
 * round is paced (cc.c), and a transaction pacing holds back resumes from
 * its timer.  After it, each answer that arrives frees the room for the
 * next subrequest, as ACKs clock TCP.  Pacing that steady state too lost
 * to unpaced TCP CUBIC at a drop-tail bottleneck (bench row 6: 5.0 vs
 * 13.8 Mbit/s, against 8.5 vs 8.6 unpaced): paced datagrams meet the
 * queue that bursty flows keep full.  With the delivery-rate model
 * (net.mtp.cc = 2, rate.c) every subrequest is paced at the model's
 * rate, and a pump that stops for anything but the window or pacing
 * marks what it asks next as application-limited.
 */
static void mtp_txn_pump(struct mtp_ctxn *t, struct sk_buff_head *out)
{
	u32 dgram = t->flow.dgram;
	struct mtp_cc *cc;
	u64 gs, ge, rate, now;
	bool room = mtp_rx_room(t);
	bool held = false;

	t->paced = false;
	if (t->state != MTP_TS_FLOWING || t->stopping)
		return;
	cc = &t->dest->cc;
	rate = 0;
	if (t->dest->bbr)
		rate = mtp_rate_pace(&t->dest->rate, cc,
				     mtp_rtt_avg(&t->dest->rtt), dgram);
	else if (!t->clocked)
		rate = mtp_cc_pace_rate(cc, mtp_rtt_avg(&t->dest->rtt));
	now = rate ? ktime_get_ns() : 0;
	while (t->tr.bytes < t->flow.window && mtp_find_gap(t, &gs, &ge)) {
		u64 ext = min_t(u64, ge - gs, t->flow.window - t->tr.bytes);
		u64 least = min_t(u64, dgram, ge - gs);
		bool repeat = gs < t->hiwat;
		u32 croom = mtp_cc_room(cc), share;
		u16 tag;

		/*
		 * While another transaction to the host waits for room, each
		 * keeps to its share of the window, so that the one whose
		 * data just arrived does not take back all the room it freed;
		 * and with nothing in flight one subrequest always goes, as
		 * TCP may always send a segment.
		 */
		share = cc->cwnd / max(t->dest->users, 1U);
		if (t->dest->starved)
			croom = t->tr.bytes >= share ? 0 :
				min(croom, share - t->tr.bytes);
		if (!cc->inflight)
			croom = max_t(u32, croom, least);
		if (croom < least) {
			t->dest->starved = true;
			held = true;
			break;
		}
		ext = min_t(u64, ext, croom);

		/*
		 * With the receive queue half full, only fill holes: that
		 * is what lets the data behind them be delivered.
		 */
		if (!room && !repeat)
			break;

		if (t->srv_limit) {
			ext = min_t(u64, ext, t->srv_limit);
			/* A server limit below a datagram is all we may ask. */
			least = min_t(u64, least, t->srv_limit);
		}
		ext = min_t(u64, ext, MTP_WIRE_LIMIT_MAX);
		ext = min_t(u64, ext, mtp_txn_piece_max(t));
		/* No subrequests smaller than a datagram but at the tail. */
		if (ext < least)
			break;
		if (t->tr.bytes && ext < mtp_txn_piece(t, ge - gs)) {
			held = true;
			break;
		}
		if (!mtp_txn_pace_due(t, rate, now)) {
			held = true;
			break;
		}
		t->seq++;
		if (!(u16)t->seq)
			t->seq++;		/* tag 0 is the initial request */
		tag = (u16)t->seq;
		if (!mtp_txn_transit_add(t, gs, gs + ext))
			break;
		mtp_txn_rate_sent(t, gs, (u32)ext, repeat);
		mtp_cc_paced(cc, (u32)ext, rate, now);
		t->tag_sent[tag % MTP_TAGS] = ktime_get();
		mtp_txn_send(t, (u32)gs, (u32)ext, mtp_wire_limit_units(ext),
			     mtp_flow_shift(&t->flow), tag, repeat, out);
		if (gs + ext > t->hiwat)
			t->hiwat = gs + ext;
	}
	if (!held && t->dest->bbr)
		mtp_rate_app_limited(&t->dest->rate, cc->inflight);
}

/* ---- delivery and completion ------------------------------------------ */

static void mtp_txn_timer_stop(struct mtp_ctxn *t)
{
	if (timer_delete(&t->timer))
		refcount_dec(&t->ref);	/* never the last: the caller has one */
}

static void mtp_txn_fill_info(struct mtp_ctxn *t, struct mtp_info *info)
{
	info->reqid = t->reqid;
	info->flags = (t->single ? MTP_INFO_SINGLE : 0) |
		      (t->stream ? MTP_INFO_STREAM : 0) |
		      (t->suppress ? MTP_INFO_SUPPRESS : 0);
	info->error = t->resp[0];
	info->response = t->resp[1];
	info->action = t->resp[2];
	info->flag = t->resp[3];
	info->mtpversion = MTP_WIRE_VERSION;
	info->appversion = t->peer_appver;
	info->channel = t->channel;
	info->address = t->address;
	info->rsize = t->end != U64_MAX ? (u32)(t->end - t->address) : 0;
	info->limit = t->srv_limit;
	info->size = (u32)(t->next - t->address);
	info->user = t->user;
	info->requests = t->requests;
	info->repeats = t->repeats;
	info->duplicates = t->duplicates;
	info->losses = t->losses;
	info->rtt_avg_us = t->rtt_avg_us;
	info->rtt_min_us = t->rtt_min_us;
	info->window_min = t->flow.win_min;
	info->window_max = t->flow.win_max;
	info->etime_ms = ktime_ms_delta(ktime_get(), t->start);
	info->dgram = t->flow.dgram;
}

static void mtp_txn_unlink(struct mtp_ctxn *t)
{
	struct sock *sk = mtp_to_sk(t->ms);

	lockdep_assert_held(&t->ms->lock);
	t->state = MTP_TS_DONE;
	hash_del(&t->hnode);
	WRITE_ONCE(t->ms->nctxn, t->ms->nctxn - 1);
	sk_wmem_queued_add(sk, -(int)t->wmem);
	t->wmem = 0;
	mtp_txn_timer_stop(t);
	mtp_txn_transit_clear(t);
	mtp_dest_put(t->ms, t->dest);
	t->dest = NULL;
	__skb_queue_purge(&t->ooo);
	/* A slot and send space are free: wake blocked senders, poll. */
	sk->sk_write_space(sk);
}

/* Remove queued, unread pieces of a destroyed transaction. */
static void mtp_purge_pieces(struct sock *sk, u32 reqid)
{
	struct sk_buff *skb, *tmp;
	struct sk_buff_head gone;
	unsigned long flags;

	__skb_queue_head_init(&gone);
	spin_lock_irqsave(&sk->sk_receive_queue.lock, flags);
	skb_queue_walk_safe(&sk->sk_receive_queue, skb, tmp) {
		if (MTP_SKB_CB(skb)->reqid == reqid &&
		    MTP_SKB_CB(skb)->kind == MTP_SKB_PIECE) {
			__skb_unlink(skb, &sk->sk_receive_queue);
			__skb_queue_tail(&gone, skb);
		}
	}
	spin_unlock_irqrestore(&sk->sk_receive_queue.lock, flags);
	__skb_queue_purge(&gone);
}

/*
 * End the transaction.  @error 0 is success; otherwise the class and
 * @code go to the application with the final message, unless @silent.
 */
static void mtp_txn_complete(struct mtp_ctxn *t, u8 error, u8 code,
			     bool silent)
{
	struct net *net = mtp_txn_net(t);
	struct sk_buff *skb = t->final;
	struct mtp_info *info;

	if (t->state == MTP_TS_DONE)
		return;
	if (error) {
		t->resp[0] = error;
		t->resp[1] = code;
		MTP_INC_STATS(net, MTP_MIB_TXNFAILED);
		if (error == MTP_ERR_NET && code == MTP_ERR_NET_EXPIRE)
			MTP_INC_STATS(net, MTP_MIB_TXNEXPIRED);
	} else {
		MTP_INC_STATS(net, MTP_MIB_TXNDONE);
	}
	trace_mtp_txn_done(t->reqid, error, code, t->next, t->requests,
			   t->repeats, t->losses,
			   ktime_us_delta(ktime_get(), t->start));
	mtp_txn_unlink(t);
	if (silent) {
		mtp_purge_pieces(mtp_to_sk(t->ms), t->reqid);
	} else {
		t->final = NULL;
		info = (struct mtp_info *)skb->data;
		memset(info, 0, sizeof(*info));
		mtp_txn_fill_info(t, info);
		info->flags |= MTP_INFO_FINAL;
		MTP_SKB_CB(skb)->kind = MTP_SKB_INFO;
		MTP_SKB_CB(skb)->reqid = t->reqid;
		MTP_SKB_CB(skb)->addr = t->daddr;
		MTP_SKB_CB(skb)->port = t->dport;
		MTP_SKB_CB(skb)->off = sizeof(*info);
		MTP_SKB_CB(skb)->len = 0;
		mtp_queue_rcv(t->ms, skb);
	}
	mtp_txn_put(t);		/* the table's reference */
}

/* Hand contiguous data at @next to the application. */
static void mtp_txn_deliver(struct mtp_ctxn *t)
{
	struct sk_buff *skb;

	while ((skb = skb_peek(&t->ooo)) && MTP_SKB_CB(skb)->pos == t->next) {
		__skb_unlink(skb, &t->ooo);
		t->next += MTP_SKB_CB(skb)->len;
		MTP_SKB_CB(skb)->kind = MTP_SKB_PIECE;
		MTP_SKB_CB(skb)->addr = t->daddr;
		MTP_SKB_CB(skb)->port = t->dport;
		MTP_SKB_CB(skb)->req_addr = t->address;
		mtp_queue_rcv(t->ms, skb);
	}
}

/*
 * Keep the new part of a response's data [s, e), which is at @off in
 * @skb, among the out-of-order data.  Return: new bytes; 0 means the skb
 * was a duplicate and has been freed.
 */
static u32 mtp_txn_store(struct mtp_ctxn *t, struct sk_buff *skb, u64 s,
			 u64 e, u32 off)
{
	u64 a = s;
	struct sk_buff *x, *tmp, *before = NULL;

	if (s < t->next)
		s = t->next;
	skb_queue_walk_safe(&t->ooo, x, tmp) {
		u64 xs = MTP_SKB_CB(x)->pos, xe = xs + MTP_SKB_CB(x)->len;

		if (xe <= s)
			continue;
		if (xs >= e) {
			before = x;
			break;
		}
		if (xs <= s) {
			s = xe;
			if (s >= e)
				break;
			continue;
		}
		if (xe >= e) {
			e = xs;
			before = x;
			break;
		}
		/* x lies inside the new data: the new skb replaces it */
		__skb_unlink(x, &t->ooo);
		mtp_drop(t->ms, x, SKB_DROP_REASON_TCP_OLD_DATA);
	}
	if (s >= e) {
		mtp_drop(t->ms, skb, SKB_DROP_REASON_TCP_OLD_DATA);
		return 0;
	}
	MTP_SKB_CB(skb)->pos = (u32)s;
	MTP_SKB_CB(skb)->off = off + (u32)(s - a);
	MTP_SKB_CB(skb)->len = (u32)(e - s);
	MTP_SKB_CB(skb)->reqid = t->reqid;
	if (before)
		__skb_queue_before(&t->ooo, before, skb);
	else
		__skb_queue_tail(&t->ooo, skb);
	return (u32)(e - s);
}

/* For the tracepoint: the flow functions changed @t's window from @old. */
static void mtp_txn_window_moved(const struct mtp_ctxn *t, u32 old)
{
	if (t->flow.window != old)
		trace_mtp_txn_window(t->reqid, old, t->flow.window,
				     t->flow.dgram);
}

/* ---- loss ----------------------------------------------------------------- */

/* @r did not arrive: it no longer counts in transit and will be asked again. */
static void mtp_range_lost(struct mtp_ctxn *t, struct mtp_range *r, bool early)
{
	struct net *net = mtp_txn_net(t);
	u32 len = (u32)(r->end - r->start);
	u32 old = t->flow.window;
	enum mtp_cc_cut cut;

	mtp_txn_untransit(t, len);
	if (!r->nodata && !r->pending) {
		t->losses++;
		MTP_INC_STATS(net, MTP_MIB_LOSSES);
		if (early) {
			MTP_INC_STATS(net, MTP_MIB_EARLYLOSSES);
			mtp_reorder_early_loss(&t->reorder);
		}
		/* The model keeps the window to flow control. */
		if (!t->dest->bbr)
			mtp_flow_lost(&t->flow, len, &t->dest->rtt);
		cut = MTP_CC_NONE;
		if (t->dest->bbr)
			mtp_rate_lost(&t->dest->rate, len);
		else
			cut = mtp_cc_lost(&t->dest->cc, r->sent, jiffies,
					  t->flow.dgram, &t->dest->rtt);
		if (cut == MTP_CC_CONGESTION)
			MTP_INC_STATS(net, MTP_MIB_CONGCUTS);
		else if (cut == MTP_CC_RANDOM)
			MTP_INC_STATS(net, MTP_MIB_RANDOMLOSSES);
		trace_mtp_txn_loss(t->reqid, r->start, len, early,
				   t->flow.window);
		mtp_txn_window_moved(t, old);
	}
	mtp_transit_forget(&t->tr, r);
}

/**
 * mtp_txn_early_loss() - declare ranges lost that later answers overtook
 * @t: transaction
 * @tag: tag of the response that arrived
 *
 * The server answers requests in the order they come, so data still
 * missing when the answer to a subrequest sent net.mtp.reorder
 * subrequests later arrives is lost, long before the repeat interval says
 * so (the dissertation's Fig. 13: the answers that keep flowing reveal the
 * loss; Ch V, "Data Loss and Recovery": a long repeat interval delays
 * recovery).  Requests the server reported as waiting for its application
 * (%MTP_RES_PENDING) are answered later than the ones it serves from its
 * copy, so they are exempt; and each duplicate, the sign of a range taken
 * for lost too early, raises the transaction's depth (reorder.c).
 */
static void mtp_txn_early_loss(struct mtp_ctxn *t, u16 tag)
{
	u32 depth = t->reorder.depth;
	u16 back = (u16)t->seq - tag;
	struct mtp_range *r, *tmp;
	u32 seq;

	if (!depth || !tag || back >= 0x8000 || back > t->seq)
		return;
	seq = t->seq - back;
	if (seq < depth)
		return;
	list_for_each_entry_safe(r, tmp, &t->tr.ranges, node)
		if (!r->nodata && !r->pending && r->seq <= seq - depth)
			mtp_range_lost(t, r, true);
}

/* Data arrived twice: the path (or the server) reorders; be slower to judge. */
static void mtp_txn_dup(struct mtp_ctxn *t)
{
	t->duplicates++;
	MTP_INC_STATS(mtp_txn_net(t), MTP_MIB_INDUPLICATES);
	mtp_reorder_dup(&t->reorder, t->seq);
}

/*
 * The receive queue is more than half full (dissertation section 4.9):
 * narrow the widest window by one datagram even during its moratorium,
 * and restart every transaction's growth count; at most once per RTT.
 */
static void mtp_rx_guard(struct mtp_sock *ms)
{
	struct mtp_ctxn *t, *w = NULL;
	int bkt;
	u32 old;

	if (time_before(jiffies, ms->squeeze_at))
		return;
	hash_for_each(ms->ctxn, bkt, t, hnode) {
		if (t->state != MTP_TS_FLOWING)
			continue;
		if (!w || t->flow.window > w->flow.window)
			w = t;
		/* A moratorium (positive) stays: it guards decreases. */
		if (t->flow.flowtimeout < 0)
			t->flow.flowtimeout = 0;
	}
	if (!w)
		return;
	old = w->flow.window;
	mtp_flow_squeeze(&w->flow);
	mtp_txn_window_moved(w, old);
	ms->squeeze_at = jiffies +
		max(usecs_to_jiffies(mtp_rtt_avg(&w->dest->rtt)), 1UL);
	MTP_INC_STATS(mtp_txn_net(w), MTP_MIB_SQUEEZES);
}

/* ---- timer -------------------------------------------------------------- */

/*
 * When @r is declared lost: one repeat interval after its request; after
 * the server said the request waits for its application, whose answer
 * then comes in one burst, two intervals and at least
 * %MTP_PENDING_MIN_MS (Ch V: spurious repeats add to the load exactly
 * when it builds up; the server already has the request, so a repeat
 * only helps if its answer is lost).
 */
static unsigned long mtp_range_due(const struct mtp_range *r,
				   unsigned long rep)
{
	if (!r->pending)
		return r->sent + rep;
	return r->sent + max(2 * rep, msecs_to_jiffies(MTP_PENDING_MIN_MS));
}

/*
 * When @t expires: the expiry after its last valid response, and a jiffy
 * more, because @last_rx is the jiffy that response came in, up to a
 * jiffy before it came (more where the tick ran late: KUnit's
 * mtp_client_expire saw a 600 ms expiry end 595 ms after the request on
 * the debug kernel under TCG).
 */
static unsigned long mtp_txn_expiry(const struct mtp_ctxn *t)
{
	return t->last_rx + msecs_to_jiffies(t->expire_ms) + 1;
}

static void mtp_txn_arm(struct mtp_ctxn *t)
{
	unsigned long when = mtp_txn_expiry(t);
	unsigned long rep = msecs_to_jiffies(t->repeat_ms);
	struct mtp_range *r;

	if (t->state == MTP_TS_FIRST || t->state == MTP_TS_CLOSING) {
		if (time_before(t->last_tx + rep, when))
			when = t->last_tx + rep;
	}
	list_for_each_entry(r, &t->tr.ranges, node)
		if (time_before(mtp_range_due(r, rep), when))
			when = mtp_range_due(r, rep);
	if (t->paced && time_before(t->pace_at, when))
		when = t->pace_at;
	/* Held back by the congestion window: look again within a repeat. */
	if (t->state == MTP_TS_FLOWING && list_empty(&t->tr.ranges) &&
	    time_before(jiffies + rep, when))
		when = jiffies + rep;
	if (t->stopping && time_before(t->stop_at, when))
		when = t->stop_at;
	if (!mod_timer(&t->timer, when))
		refcount_inc(&t->ref);
}

/*
 * Room opened in @d's congestion window: resume the transactions to it
 * that the window held back (mtp_txn_pump()).
 */
static void mtp_dest_kick(struct mtp_sock *ms, struct mtp_dest *d,
			  struct sk_buff_head *out)
{
	struct mtp_ctxn *t;
	int bkt;

	if (!d->starved || !mtp_cc_room(&d->cc))
		return;
	/* Each pump that still finds no room says so again. */
	d->starved = false;
	hash_for_each(ms->ctxn, bkt, t, hnode) {
		if (t->dest != d || t->state != MTP_TS_FLOWING)
			continue;
		mtp_txn_pump(t, out);
		mtp_txn_arm(t);
		if (!mtp_cc_room(&d->cc))
			break;
	}
}

/*
 * The doubled repeat interval, at most a sixteenth of the expiry (and
 * %MTP_REPEAT_MAX_MS), never less than it was: through heavy loss the
 * last missing range must still be asked for many times before the
 * transaction expires (at 40% loss each way, seven lost repeats in a row
 * took the interval past a 60 s expiry).
 */
static u32 mtp_txn_backoff(const struct mtp_ctxn *t)
{
	u32 cap = min_t(u32, t->expire_ms / 16, MTP_REPEAT_MAX_MS);

	if (t->repeat_ms >= cap)
		return t->repeat_ms;
	return min_t(u64, 2ULL * t->repeat_ms, cap);
}

static void mtp_txn_timeout(struct mtp_ctxn *t, struct sk_buff_head *out)
{
	unsigned long now = jiffies, rep = msecs_to_jiffies(t->repeat_ms);
	bool backoff = false, lost = false;
	struct mtp_range *r, *tmp;

	if (!time_before(now, mtp_txn_expiry(t))) {
		mtp_txn_complete(t, MTP_ERR_NET, MTP_ERR_NET_EXPIRE, false);
		return;
	}
	if (t->stopping && (time_after_eq(now, t->stop_at) || !t->tr.bytes)) {
		mtp_txn_complete(t, MTP_ERR_NET, MTP_ERR_NET_EXPIRE, false);
		return;
	}
	if (t->state == MTP_TS_FIRST || t->state == MTP_TS_CLOSING) {
		if (time_after_eq(now, t->last_tx + rep)) {
			backoff = true;
			if (t->state == MTP_TS_FIRST) {
				mtp_txn_send_initial(t, true, out);
			} else {
				t->last_tx = now;
				mtp_txn_send(t, MTP_STREAM_CLOSE,
					     MTP_STREAM_CLOSE, 0,
					     mtp_flow_shift(&t->flow), 0, true,
					     out);
			}
		}
	}
	list_for_each_entry_safe(r, tmp, &t->tr.ranges, node)
		if (!time_before(now, mtp_range_due(r, rep))) {
			lost = lost || (!r->nodata && !r->pending);
			mtp_range_lost(t, r, false);
		}
	/*
	 * Nothing came back within the interval: wait twice as long for
	 * the repeats, as TCP backs off its retransmission timer, until an
	 * answer that can be timed brings a new sample (mtp_txn_rtt()).
	 * Ranges lost while answers still came within the last two
	 * intervals are a path that works and drops at random: there a
	 * repeat is lost as often as anything else (one in five at 10%
	 * each way), and doubling on it cost a 2 MB transfer 0.4 s at its
	 * tail, where only repeats are left to bring samples.
	 */
	if (lost && !time_before(now, t->last_rx + 2 * rep))
		backoff = true;
	if (backoff)
		t->repeat_ms = mtp_txn_backoff(t);
	mtp_txn_pump(t, out);
}

static void mtp_txn_timer(struct timer_list *tl)
{
	struct mtp_ctxn *t = timer_container_of(t, tl, timer);
	struct mtp_sock *ms = t->ms;
	struct sk_buff_head out;

	__skb_queue_head_init(&out);
	spin_lock_bh(&ms->lock);
	if (t->state != MTP_TS_DONE && !timer_pending(&t->timer)) {
		struct mtp_dest *d = t->dest;

		mtp_txn_timeout(t, &out);
		if (t->state != MTP_TS_DONE)
			mtp_txn_arm(t);
		mtp_dest_kick(ms, d, &out);
	}
	spin_unlock_bh(&ms->lock);
	mtp_xmit_list(ms, &out);
	mtp_txn_put(t);		/* the timer's reference */
}

/* ---- input ---------------------------------------------------------------- */

static void mtp_txn_rtt(struct mtp_ctxn *t, u16 tag)
{
	ktime_t sent = t->tag_sent[tag % MTP_TAGS];
	struct mtp_net *mn = mtp_net(mtp_txn_net(t));
	s64 us;

	if (!sent)
		return;
	/* Tags wrap: ignore a tag that is not among the recent ones. */
	if ((u16)((u16)t->seq - tag) >= MTP_TAGS)
		return;
	/*
	 * One sample per request: the first datagram of its answer.  The
	 * later ones also waited for the earlier ones to be sent, and a
	 * duplicate measures nothing.
	 */
	t->tag_sent[tag % MTP_TAGS] = 0;
	us = ktime_us_delta(ktime_get(), sent);
	if (us < 0)
		return;
	mtp_rtt_sample(&t->dest->rtt, (u32)min_t(s64, us, MTP_RTT_MAX_US));
	t->rtt_avg_us = mtp_rtt_avg(&t->dest->rtt);
	t->rtt_min_us = t->dest->rtt.min_us;
	/* A valid sample ends a backoff (Karn): 2 to 4 RTTs again. */
	t->repeat_ms = mtp_rtt_repeat_ms(&t->dest->rtt, t->repeat_ms,
					 READ_ONCE(mn->repeat_min_ms));
}

/* Everything is here: done, or for a stream, say goodbye first. */
static void mtp_txn_check_done(struct mtp_ctxn *t, struct sk_buff_head *out)
{
	if (t->next < t->end || t->state == MTP_TS_DONE)
		return;
	if (t->stream && t->state != MTP_TS_CLOSING) {
		t->state = MTP_TS_CLOSING;
		t->last_tx = jiffies;
		mtp_txn_send(t, MTP_STREAM_CLOSE, MTP_STREAM_CLOSE, 0,
			     mtp_flow_shift(&t->flow), 0, false, out);
		return;
	}
	if (!t->stream)
		mtp_txn_complete(t, 0, 0, false);
}

static void mtp_txn_error(struct mtp_ctxn *t, const struct mtp_wire_msg *m,
			  struct sk_buff_head *out)
{
	if (m->error == MTP_ERR_APP && m->response == MTP_ERR_APP_CHANNEL &&
	    t->suppress) {
		/* The server lost the channel: send the payload again. */
		t->suppress = false;
		mtp_txn_transit_clear(t);
		mtp_txn_pump(t, out);
		return;
	}
	if (t->stream && m->error == MTP_ERR_APP &&
	    m->response == MTP_ERR_APP_EOD) {
		t->end = max_t(u64, (u64)m->rsize, t->next);
		mtp_txn_transit_cut(t, 0, t->end);
		mtp_txn_check_done(t, out);
		return;
	}
	mtp_txn_complete(t, m->error, m->response, false);
}

/**
 * mtp_txn_pending() - the server holds requests for its application
 * @t: transaction
 * @m: the %MTP_RES_PENDING reply, echoing the request's address and rsize
 *
 * The server's application is still working on the object, as a stream
 * server says with "no data yet" (Ch VI): the ranges asked for there are
 * not lost, and their repeat waits longer (mtp_range_due()).
 */
static void mtp_txn_pending(struct mtp_ctxn *t, const struct mtp_wire_msg *m)
{
	u64 s = m->address, e = m->rsize ? s + m->rsize : U64_MAX;
	struct mtp_range *r;

	MTP_INC_STATS(mtp_txn_net(t), MTP_MIB_INPENDING);
	/* The data will measure the application's delay, not the path's. */
	t->tag_sent[m->tag % MTP_TAGS] = 0;
	list_for_each_entry(r, &t->tr.ranges, node)
		if (r->start >= s && r->start < e) {
			r->st.no_rtt = true;
			r->st.app_limited = true;
		}
	if (t->state == MTP_TS_FIRST) {
		t->last_tx = jiffies;	/* the initial request: wait again */
		return;
	}
	list_for_each_entry(r, &t->tr.ranges, node) {
		if (r->start >= e)
			break;
		if (r->start >= s && !r->pending) {
			r->pending = true;
			r->sent = jiffies;
		}
	}
}

/*
 * A response with the server's address validation token (mtp.rst,
 * "Address validation"): the request it answers did not carry a good
 * one, so the server sent at most this datagram of the answer, or none
 * (%MTP_RES_VALIDATE).  Requests echo the token from now on.  Return:
 * true if the token is new to @t: what @t asked for without it will not
 * come, and is to be asked for again now.
 */
static bool mtp_txn_token_take(struct mtp_ctxn *t,
			       const struct mtp_wire_msg *m)
{
	if (t->has_token && t->token == m->token)
		return false;
	t->token = m->token;
	t->has_token = true;
	/* For the host's next transactions, of this socket and others. */
	if (t->dest) {
		t->dest->token = m->token;
		t->dest->token_at = jiffies ?: 1;
	}
	return true;
}

/* Ask again, with the token, for what the server held back. */
static void mtp_txn_revalidate(struct mtp_ctxn *t, struct sk_buff_head *out)
{
	if (t->single || t->state == MTP_TS_FIRST) {
		mtp_txn_send_initial(t, true, out);
		return;
	}
	mtp_txn_transit_clear(t);
	mtp_txn_pump(t, out);
}

/*
 * Answers that are not data: a token that revalidates, a PENDING without
 * payload, an error.  Return: true if @skb was one of them (consumed).
 */
static bool mtp_txn_rcv_control(struct mtp_ctxn *t, struct sk_buff *skb,
				const struct mtp_wire_msg *m,
				struct sk_buff_head *out, bool *fresh)
{
	if (m->options & MTP_OPT_TOKEN) {
		*fresh = mtp_txn_token_take(t, m);
		if (!m->error && m->response == MTP_RES_VALIDATE) {
			/* Not a response either: the answer waits. */
			consume_skb(skb);
			if (*fresh)
				mtp_txn_revalidate(t, out);
			return true;
		}
	}
	if (!m->error && m->response == MTP_RES_PENDING && !m->payload_len &&
	    !(m->options & MTP_OPT_SINGLE)) {
		/*
		 * Not a response: an application that never answers still
		 * lets the transaction expire.
		 */
		consume_skb(skb);
		mtp_txn_pending(t, m);
		return true;
	}
	t->last_rx = jiffies;
	t->peer_appver = m->appversion;
	if (m->error) {
		consume_skb(skb);
		mtp_txn_error(t, m, out);
		return true;
	}
	return false;
}

/* A single-datagram transaction: the first valid response is all of it. */
static void mtp_txn_rcv_single(struct mtp_ctxn *t, struct sk_buff *skb,
			       const struct mtp_wire_msg *m)
{
	t->address = m->address;	/* opaque: reported as sent */
	t->next = m->address;
	t->end = (u64)m->address + m->rsize;
	MTP_SKB_CB(skb)->pos = m->address;
	MTP_SKB_CB(skb)->off = mtp_wire_hdr_len(m);
	MTP_SKB_CB(skb)->len = m->payload_len;
	MTP_SKB_CB(skb)->reqid = t->reqid;
	__skb_queue_tail(&t->ooo, skb);
	mtp_txn_deliver(t);
	mtp_txn_complete(t, 0, 0, false);
}

/* A stream with no data yet: ask again later, do not expire. */
static void mtp_txn_rcv_nodata(struct mtp_ctxn *t, const struct mtp_wire_msg *m)
{
	struct mtp_range *r;

	if (t->state == MTP_TS_FIRST) {
		t->state = MTP_TS_FLOWING;
		mtp_txn_transit_clear(t);
		t->hiwat = (u64)t->address +
			   mtp_wire_limit_bytes(t->init_limit);
		mtp_txn_transit_add(t, t->address, t->hiwat);
	}
	list_for_each_entry(r, &t->tr.ranges, node)
		if (r->start == m->address)
			r->nodata = true;
}

/*
 * The first data: the object's end becomes known, and what the initial
 * request asked for becomes the first range in transit.
 */
static void mtp_txn_rcv_first(struct mtp_ctxn *t, const struct mtp_wire_msg *m)
{
	u64 want = (u64)t->address + mtp_wire_limit_bytes(t->init_limit);

	t->state = MTP_TS_FLOWING;
	if (!t->stream) {
		t->end = (u64)m->address + m->rsize;
		if (t->rsize)
			t->end = min_t(u64, t->end, (u64)t->address + t->rsize);
		/* The addresses cannot reach beyond 2^32. */
		t->end = min_t(u64, t->end, MTP_OBJ_MAX);
		if (t->end < t->address)
			t->end = t->address;
	}
	t->hiwat = max_t(u64, want, (u64)m->address + m->payload_len);
	t->hiwat = min(t->hiwat, t->end);
	mtp_txn_transit_clear(t);
	if (t->hiwat > t->address &&
	    mtp_txn_transit_add(t, t->address, t->hiwat))
		list_first_entry(&t->tr.ranges, struct mtp_range, node)->sent =
			t->last_tx;
}

/* What the server's answer says of the path: its limit, its datagrams. */
static void mtp_txn_rcv_limits(struct mtp_ctxn *t, const struct mtp_wire_msg *m)
{
	t->suppress = t->suppress || (m->options & MTP_OPT_SUPPRESS);
	if (m->limit) {
		u32 lim = mtp_wire_limit_bytes(m->limit);

		if (!t->srv_limit || lim < t->srv_limit) {
			t->srv_limit = lim;
			mtp_txn_transit_cut(t, lim, t->end);
		}
	}
	if (m->dgram_shift >= MTP_WIRE_SHIFT_MIN &&
	    m->dgram_shift <= MTP_WIRE_SHIFT_MAX)
		mtp_flow_path_cut(&t->flow, 1U << m->dgram_shift);
}

/* Object bytes [@m->address, +payload_len): out of transit, stored. */
static void mtp_txn_rcv_data(struct mtp_ctxn *t, struct sk_buff *skb,
			     const struct mtp_wire_msg *m)
{
	u64 s = m->address, e = s + m->payload_len;
	struct mtp_rate_stamp st = {};
	struct mtp_range *r;
	u32 got, old;

	if (t->dest->bbr) {
		r = mtp_transit_find(&t->tr, s);
		if (r) {
			st = r->st;
			/* The burst's later datagrams queued behind it. */
			r->st.no_rtt = true;
		}
	}
	mtp_txn_untransit(t, mtp_transit_remove(&t->tr, s, e));
	mtp_txn_early_loss(t, m->tag);
	if (m->tag)
		t->clocked = true;
	if (e > t->end)
		e = t->end;
	if (s >= e || e <= t->next) {
		mtp_txn_dup(t);
		mtp_drop(t->ms, skb, SKB_DROP_REASON_TCP_OLD_DATA);
		return;
	}
	got = mtp_txn_store(t, skb, s, e, mtp_wire_hdr_len(m));
	if (!got) {
		mtp_txn_dup(t);
		return;
	}
	old = t->flow.window;
	if (t->dest->bbr) {
		if (mtp_rx_room(t))
			mtp_flow_grow(&t->flow, got);
		mtp_rx_autotune(t);
		mtp_rate_delivered(&t->dest->rate, &t->dest->cc, &st, got,
				   t->flow.dgram, ktime_get_ns());
	} else {
		mtp_flow_received(&t->flow, got, &t->dest->rtt);
		mtp_cc_acked(&t->dest->cc, got, t->flow.dgram);
	}
	mtp_txn_window_moved(t, old);
	mtp_txn_deliver(t);
	if (!mtp_rx_room(t) && !mtp_rx_tune(t))
		mtp_rx_guard(t->ms);
}

/*
 * A response for @t, which is live and was sent by its server.  Every
 * path either completes @t or leaves it to be re-armed by the caller.
 */
static void mtp_txn_rcv(struct mtp_ctxn *t, struct sk_buff *skb,
			const struct mtp_wire_msg *m, struct sk_buff_head *out)
{
	struct mtp_sock *ms = t->ms;
	struct sock *sk = mtp_to_sk(ms);
	struct net *net = sock_net(sk);
	bool fresh = false;

	MTP_INC_STATS(net, MTP_MIB_INRESPONSES);
	mtp_txn_rtt(t, m->tag);
	if (mtp_txn_rcv_control(t, skb, m, out, &fresh))
		return;
	t->resp[0] = 0;
	t->resp[1] = m->response;
	t->resp[2] = m->action;
	t->resp[3] = m->flag;
	t->channel = m->channel;

	if (t->state == MTP_TS_CLOSING) {
		consume_skb(skb);
		if (m->address == MTP_STREAM_CLOSE || !m->payload_len)
			mtp_txn_complete(t, 0, 0, false);
		return;
	}
	if (atomic_read(&sk->sk_rmem_alloc) > 2 * READ_ONCE(sk->sk_rcvbuf)) {
		MTP_INC_STATS(net, MTP_MIB_INRCVBUFERRORS);
		mtp_drop(ms, skb, SKB_DROP_REASON_SOCKET_RCVBUFF);
		return;
	}
	skb_set_owner_r(skb, sk);
	if (t->single) {
		mtp_txn_rcv_single(t, skb, m);
		return;
	}
	if (m->options & MTP_OPT_STREAM) {
		t->stream = true;
		if (!m->payload_len) {
			consume_skb(skb);
			mtp_txn_rcv_nodata(t, m);
			return;
		}
	}
	if (t->state == MTP_TS_FIRST)
		mtp_txn_rcv_first(t, m);
	mtp_txn_rcv_limits(t, m);
	mtp_txn_rcv_data(t, skb, m);
	mtp_txn_check_done(t, out);
	if (t->state == MTP_TS_DONE)
		return;
	if (t->stopping && !t->tr.bytes) {
		mtp_txn_complete(t, MTP_ERR_NET, MTP_ERR_NET_EXPIRE, false);
		return;
	}
	if (fresh)
		mtp_txn_revalidate(t, out);
	else
		mtp_txn_pump(t, out);
}

/**
 * mtp_client_rcv() - a response datagram for this socket
 * @ms: socket, locked
 * @skb: the datagram, data at the MTP header; consumed
 * @m: its decoded header
 * @saddr: sender
 * @sport: sender's port
 * @out: datagrams to send after unlocking
 *
 * The transaction may complete here, which drops the table's and the
 * timer's references: this function holds its own until it is done.
 */
void mtp_client_rcv(struct mtp_sock *ms, struct sk_buff *skb,
		    const struct mtp_wire_msg *m, __be32 saddr, __be16 sport,
		    struct sk_buff_head *out)
{
	struct mtp_dest *d;
	struct mtp_ctxn *t;

	lockdep_assert_held(&ms->lock);
	t = mtp_txn_find(ms, m->reqid);
	if (!t || t->daddr != saddr || t->dport != sport ||
	    t->state == MTP_TS_DONE) {
		MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_INNOTXN);
		mtp_drop(ms, skb, SKB_DROP_REASON_NO_SOCKET);
		return;
	}
	refcount_inc(&t->ref);
	d = t->dest;
	mtp_txn_rcv(t, skb, m, out);
	if (t->state != MTP_TS_DONE)
		mtp_txn_arm(t);
	mtp_dest_kick(ms, d, out);
	mtp_txn_put(t);
}

/* ---- application interface ---------------------------------------------- */

/*
 * What a transaction costs the send buffer: its request as sent, header
 * and payload, kept for repeats until the transaction ends.
 */
static u32 mtp_txn_wmem(const struct mtp_ctxn *t)
{
	return MTP_WIRE_HDR_LEN + t->plen;
}

/**
 * mtp_client_writable() - may the socket start a transaction now?
 * @ms: socket; no lock needed, the answer is a snapshot
 *
 * Like a UDP socket's send buffer, SO_SNDBUF may be overshot by the last
 * request that found it not yet full; net.mtp.max_txns is exact.
 *
 * Return: true if mtp_client_request() would not wait.
 */
bool mtp_client_writable(struct mtp_sock *ms)
{
	struct sock *sk = mtp_to_sk(ms);
	struct mtp_net *mn = mtp_net(sock_net(sk));

	return READ_ONCE(ms->nctxn) < READ_ONCE(mn->max_txns) &&
	       READ_ONCE(sk->sk_wmem_queued) < READ_ONCE(sk->sk_sndbuf);
}

/*
 * Wait, without ms->lock, until a transaction may start (woken by
 * mtp_txn_unlink() through sk_write_space, by a larger SO_SNDBUF, and by
 * shutdown()).  Return: 0, -EAGAIN when *@timeo runs out (SO_SNDTIMEO, or
 * non-blocking), -EPIPE after shutdown(SHUT_WR), or the signal's errno.
 */
static int mtp_client_wait_room(struct mtp_sock *ms, long *timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	struct sock *sk = mtp_to_sk(ms);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	for (;;) {
		if (READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) {
			err = -EPIPE;
			break;
		}
		if (mtp_client_writable(ms))
			break;
		if (!*timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(*timeo);
			break;
		}
		sk_set_bit(SOCKWQ_ASYNC_NOSPACE, sk);
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		*timeo = wait_woken(&wait, TASK_INTERRUPTIBLE, *timeo);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/*
 * What the destination taught earlier transactions: repeat after two of
 * its round trips (or the application's @app_ms, within 2 to 4) rather
 * than after the configured interval, and ask for no more at first than
 * its congestion window has room for (at least one datagram), which then
 * counts as in transit.
 */
static void mtp_txn_path_init(struct mtp_ctxn *t, u32 app_ms, u32 floor_ms)
{
	struct mtp_dest *d = t->dest;
	u32 want;

	if (d->rtt.n)
		t->repeat_ms = mtp_rtt_repeat_ms(&d->rtt, app_ms, floor_ms);
	t->rtt_avg_us = mtp_rtt_avg(&d->rtt);
	t->rtt_min_us = d->rtt.min_us;
	if (t->single) {
		t->init_limit = 0;
		return;
	}
	want = t->rsize ? min(t->rsize, t->flow.window) : t->flow.window;
	want = min(want, max(mtp_cc_room(&d->cc), t->flow.dgram));
	/* The limit counts 512-byte units: round down, not past the window. */
	if (want > 512)
		want &= ~511U;
	t->init_limit = mtp_wire_limit_units(want);
	mtp_txn_transit_charge(t, mtp_wire_limit_bytes(t->init_limit));
}

/* A transaction for @req with its payload from @msg, not yet started. */
static struct mtp_ctxn *mtp_txn_alloc(struct mtp_sock *ms,
				      const struct mtp_request *req,
				      __be32 daddr, __be16 dport,
				      struct msghdr *msg, size_t len)
{
	struct sock *sk = mtp_to_sk(ms);
	struct mtp_net *mn = mtp_net(sock_net(sk));
	struct mtp_ctxn *t;
	u32 dcap;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return ERR_PTR(-ENOBUFS);
	t->final = alloc_skb(sizeof(struct mtp_info), GFP_KERNEL);
	if (!t->final) {
		kfree(t);
		return ERR_PTR(-ENOBUFS);
	}
	skb_put(t->final, sizeof(struct mtp_info));
	if (copy_from_iter(t->payload, len, &msg->msg_iter) != len) {
		consume_skb(t->final);
		kfree(t);
		return ERR_PTR(-EFAULT);
	}
	refcount_set(&t->ref, 1);
	sock_hold(sk);
	t->ms = ms;
	timer_setup(&t->timer, mtp_txn_timer, 0);
	t->daddr = daddr;
	t->dport = dport;
	t->single = req->flags & MTP_REQ_SINGLE;
	t->action = req->action;
	t->flag = req->flag;
	t->appversion = req->appversion;
	t->channel = req->channel;
	t->address = req->address;
	t->rsize = req->rsize;
	t->user = req->user;
	t->plen = len;
	t->end = U64_MAX;
	t->next = req->address;
	t->hiwat = req->address;
	mtp_transit_init(&t->tr, mtp_range_cache);
	__skb_queue_head_init(&t->ooo);
	dcap = mtp_flow_dgram_cap(mtp_path_payload(ms, daddr, dport),
				  READ_ONCE(sk->sk_rcvbuf));
	mtp_flow_init(&t->flow, READ_ONCE(sk->sk_rcvbuf), dcap);
	t->repeat_ms = req->repeat ?: READ_ONCE(mn->repeat_ms);
	t->repeat_ms = max_t(u32, t->repeat_ms, READ_ONCE(mn->repeat_min_ms));
	t->expire_ms = req->expire ?: READ_ONCE(mn->expire_ms);
	mtp_reorder_init(&t->reorder, READ_ONCE(mn->reorder));
	t->init_shift = mtp_flow_shift(&t->flow);
	t->start = ktime_get();
	t->last_rx = jiffies;
	return t;
}

/*
 * Wait for room on the socket and find @t's server host, allocating in
 * *@spare a host not known yet.  Return: 0 with the socket's lock held,
 * or a negative errno without it.
 */
static int mtp_txn_wait_dest(struct mtp_sock *ms, struct mtp_ctxn *t,
			     long *timeo, struct mtp_dest **spare)
{
	int err;

	spin_lock_bh(&ms->lock);
	for (;;) {
		if (!mtp_client_writable(ms)) {
			spin_unlock_bh(&ms->lock);
			err = mtp_client_wait_room(ms, timeo);
			if (err)
				return err;
		} else {
			t->dest = mtp_dest_get(ms, t->daddr, t->flow.dgram,
					       spare);
			if (t->dest)
				return 0;
			/* A host we know nothing of yet. */
			spin_unlock_bh(&ms->lock);
			*spare = kmalloc(sizeof(**spare), GFP_KERNEL_ACCOUNT);
			if (!*spare)
				return -ENOBUFS;
		}
		spin_lock_bh(&ms->lock);
	}
}

/*
 * MTP_REQ_FORGET: the request goes once and nothing waits for an answer.
 * Called locked; unlocks.  Return: 0, or -ENOBUFS.
 */
static int mtp_txn_send_forget(struct mtp_ctxn *t)
	__releases(&t->ms->lock)
{
	struct mtp_wire_msg m = {
		.appversion = t->appversion,
		.options = MTP_OPT_NORESP | (t->single ? MTP_OPT_SINGLE : 0),
		.action = t->action, .flag = t->flag,
		.dgram_shift = t->single ? 0 : t->init_shift,
		.reqid = t->reqid, .channel = t->channel,
		.address = t->address, .rsize = t->rsize,
		.limit = t->init_limit,
	};
	struct mtp_sock *ms = t->ms;
	struct net *net = mtp_txn_net(t);
	struct sk_buff_head out;
	struct sk_buff *skb;

	mtp_txn_transit_clear(t);
	mtp_dest_put(ms, t->dest);
	t->dest = NULL;
	spin_unlock_bh(&ms->lock);
	skb = mtp_alloc_msg(&m, t->payload, t->plen, t->daddr, t->dport,
			    GFP_KERNEL);
	if (!skb)
		return -ENOBUFS;
	MTP_INC_STATS(net, MTP_MIB_OUTREQUESTS);
	MTP_INC_STATS(net, MTP_MIB_TXNDONE);
	trace_mtp_txn_done(t->reqid, 0, 0, 0, 1, 0, 0, 0);
	__skb_queue_head_init(&out);
	__skb_queue_tail(&out, skb);
	mtp_xmit_list(ms, &out);
	return 0;
}

/**
 * mtp_client_request() - start a transaction (sendmsg with MTP_REQUEST)
 * @ms: socket, with its UDP socket
 * @req: the application's description
 * @daddr: server
 * @dport: server port
 * @msg: the request payload
 * @len: its length
 *
 * Waits (SO_SNDTIMEO, interruptibly; not with MSG_DONTWAIT) while the
 * socket has net.mtp.max_txns transactions or SO_SNDBUF bytes of requests
 * (mtp_client_writable()).
 *
 * Return: @len, or a negative errno: -EAGAIN if it could not wait long
 * enough, -EPIPE if the socket was shut down for writing meanwhile.
 */
int mtp_client_request(struct mtp_sock *ms, const struct mtp_request *req,
		       __be32 daddr, __be16 dport, struct msghdr *msg,
		       size_t len)
{
	struct sock *sk = mtp_to_sk(ms);
	struct net *net = sock_net(sk);
	struct mtp_dest *spare = NULL;
	struct sk_buff_head out;
	struct mtp_ctxn *t;
	long timeo;
	int err;

	if (len > MTP_SIZE_REQUEST)
		return -EMSGSIZE;
	if (req->flags & ~(MTP_REQ_SINGLE | MTP_REQ_FORGET) || req->reserved ||
	    req->pad)
		return -EINVAL;
	t = mtp_txn_alloc(ms, req, daddr, dport, msg, len);
	if (IS_ERR(t))
		return PTR_ERR(t);
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	err = mtp_txn_wait_dest(ms, t, &timeo, &spare);
	if (err)
		goto fail;
	mtp_txn_path_init(t, req->repeat,
			  READ_ONCE(mtp_net(net)->repeat_min_ms));
	mtp_txn_token_reuse(t);
	t->reqid = mtp_reqid_next(ms);
	ms->last_reqid = t->reqid;
	MTP_INC_STATS(net, MTP_MIB_TXNSTARTED);
	trace_mtp_txn_start(t->reqid, daddr, dport, t->address, t->rsize,
			    t->single);
	if (req->flags & MTP_REQ_FORGET) {
		/* Nothing to keep. */
		err = mtp_txn_send_forget(t) ?: len;
		goto fail;
	}
	hash_add(ms->ctxn, &t->hnode, t->reqid);
	WRITE_ONCE(ms->nctxn, ms->nctxn + 1);
	t->wmem = mtp_txn_wmem(t);
	sk_wmem_queued_add(sk, t->wmem);
	__skb_queue_head_init(&out);
	mtp_txn_send_initial(t, false, &out);
	mtp_txn_arm(t);
	spin_unlock_bh(&ms->lock);
	mtp_xmit_list(ms, &out);
	kfree(spare);
	return len;

fail:
	kfree(spare);
	mtp_txn_put(t);
	return err;
}

/**
 * mtp_client_abort() - MTP_ABORT
 * @ms: socket, owned (lock_sock())
 * @reqid: transaction
 * @level: MTP_ABORT_*
 *
 * Return: 0, -ENOENT for no such transaction, -EINVAL for a bad level.
 */
int mtp_client_abort(struct mtp_sock *ms, u32 reqid, u32 level)
{
	struct net *net = sock_net(mtp_to_sk(ms));
	struct sk_buff_head out;
	struct mtp_dest *d;
	struct mtp_ctxn *t;
	int err = 0;

	/* DESTROY unlinks queued pieces under recvmsg()'s feet otherwise. */
	sock_owned_by_me(mtp_to_sk(ms));
	if (level > MTP_ABORT_DESTROY)
		return -EINVAL;
	__skb_queue_head_init(&out);
	spin_lock_bh(&ms->lock);
	t = mtp_txn_find(ms, reqid);
	if (!t) {
		err = -ENOENT;
		goto out;
	}
	MTP_INC_STATS(net, MTP_MIB_TXNABORTED);
	refcount_inc(&t->ref);	/* completion drops the table's */
	d = t->dest;
	switch (level) {
	case MTP_ABORT_FINISH: {
		/* Do not extend the object: fill the holes below the top. */
		u64 top = t->next;
		struct sk_buff *last = skb_peek_tail(&t->ooo);

		if (last)
			top = (u64)MTP_SKB_CB(last)->pos + MTP_SKB_CB(last)->len;
		if (t->state == MTP_TS_FIRST)
			t->state = MTP_TS_FLOWING;
		t->stream = false;
		t->end = top;
		mtp_txn_transit_cut(t, 0, top);
		mtp_txn_check_done(t, &out);
		break;
	}
	case MTP_ABORT_STOP:
		t->stopping = true;
		t->stop_at = jiffies +
			msecs_to_jiffies(min_t(u32, t->repeat_ms, MTP_STOP_MS));
		/* Before the first answer nothing counts as received. */
		if (t->state == MTP_TS_FIRST || !t->tr.bytes)
			mtp_txn_complete(t, MTP_ERR_NET, MTP_ERR_NET_EXPIRE,
					 false);
		break;
	case MTP_ABORT_EXPIRE:
		mtp_txn_complete(t, MTP_ERR_NET, MTP_ERR_NET_EXPIRE, false);
		break;
	case MTP_ABORT_DESTROY:
		mtp_txn_complete(t, MTP_ERR_CLIENT, MTP_ERR_DMN_SYS, true);
		break;
	}
	if (t->state != MTP_TS_DONE)
		mtp_txn_arm(t);
	mtp_dest_kick(ms, d, &out);
	mtp_txn_put(t);
out:
	spin_unlock_bh(&ms->lock);
	mtp_xmit_list(ms, &out);
	return err;
}

/**
 * mtp_client_unreach() - the destination of a request refuses it for good
 * @ms: socket
 * @daddr: where the request went, as the ICMP error quotes it
 * @dport: its port
 * @reqid: its id
 *
 * Called from the ICMP error path (softirq).  The transaction ends now
 * with MTP_ERR_NET/MTP_ERR_NET_SERVER instead of repeating until it
 * expires.  Only a live transaction to that very destination: whoever
 * forges the error must know the request id, as for a forged response.
 */
void mtp_client_unreach(struct mtp_sock *ms, __be32 daddr, __be16 dport,
			u32 reqid)
{
	struct mtp_ctxn *t;

	spin_lock_bh(&ms->lock);
	t = ms->closing ? NULL : mtp_txn_find(ms, reqid);
	if (t && t->daddr == daddr && t->dport == dport) {
		MTP_INC_STATS(sock_net(mtp_to_sk(ms)), MTP_MIB_INUNREACH);
		refcount_inc(&t->ref);	/* completion drops the table's */
		mtp_txn_complete(t, MTP_ERR_NET, MTP_ERR_NET_SERVER, false);
		mtp_txn_put(t);
	}
	spin_unlock_bh(&ms->lock);
}

/**
 * mtp_client_seq_show() - one line per client transaction of @ms
 * @seq: /proc/net/mtp/transactions
 * @ms: socket; the caller holds &mtp_net.socks_lock with BHs off
 */
void mtp_client_seq_show(struct seq_file *seq, struct mtp_sock *ms)
{
	static const char *const state[] = {
		[MTP_TS_FIRST] = "FIRST", [MTP_TS_FLOWING] = "FLOWING",
		[MTP_TS_CLOSING] = "CLOSING", [MTP_TS_DONE] = "DONE",
	};
	struct mtp_ctxn *t;
	int bkt;

	spin_lock(&ms->lock);
	hash_for_each(ms->ctxn, bkt, t, hnode)
		seq_printf(seq, "%pI4:%u %pI4:%u %08x %s %llu %u %u %u %u %u %u\n",
			   &ms->inet.inet_rcv_saddr, ntohs(ms->inet.inet_sport),
			   &t->daddr, ntohs(t->dport), t->reqid,
			   state[t->state], t->next - t->address,
			   t->flow.window, t->flow.dgram, t->rtt_avg_us,
			   t->rtt_min_us, t->requests, t->repeats);
	spin_unlock(&ms->lock);
}

/**
 * mtp_client_info() - the current state of a transaction, for MTP_INFO
 * @ms: socket
 * @reqid: transaction
 * @info: filled in if the transaction still exists
 */
void mtp_client_info(struct mtp_sock *ms, u32 reqid, struct mtp_info *info)
{
	struct mtp_ctxn *t;

	spin_lock_bh(&ms->lock);
	t = mtp_txn_find(ms, reqid);
	if (t)
		mtp_txn_fill_info(t, info);
	spin_unlock_bh(&ms->lock);
}

/**
 * mtp_client_kick() - the application read data: resume transactions
 * @ms: socket
 *
 * Transactions stop asking for data while the receive queue is half
 * full; this restarts them once it has drained.
 */
void mtp_client_kick(struct mtp_sock *ms)
{
	struct sk_buff_head out;
	struct mtp_ctxn *t;
	int bkt;

	if (!READ_ONCE(ms->nctxn))	/* a hint; the walk is locked */
		return;
	__skb_queue_head_init(&out);
	spin_lock_bh(&ms->lock);
	hash_for_each(ms->ctxn, bkt, t, hnode) {
		if (t->tr.bytes < t->flow.window) {
			mtp_txn_pump(t, &out);
			mtp_txn_arm(t);
		}
	}
	spin_unlock_bh(&ms->lock);
	mtp_xmit_list(ms, &out);
}

/**
 * mtp_client_close() - end every transaction of a closing socket
 * @ms: socket, &mtp_sock.lock held, no longer receiving
 */
void mtp_client_close(struct mtp_sock *ms)
{
	struct hlist_node *tmp;
	struct mtp_ctxn *t;
	int bkt;

	lockdep_assert_held(&ms->lock);
	hash_for_each_safe(ms->ctxn, bkt, tmp, t, hnode)
		mtp_txn_complete(t, MTP_ERR_CLIENT, MTP_ERR_DMN_SYS, true);
	mtp_dest_flush(ms);
}

int __init mtp_client_init(void)
{
	mtp_range_cache = KMEM_CACHE(mtp_range, 0);
	return mtp_range_cache ? 0 : -ENOMEM;
}

void mtp_client_exit(void)
{
	kmem_cache_destroy(mtp_range_cache);
}
