/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP tracepoints: packets in and out, the congestion probe on every
 * acknowledgment (the successor of tcp_probe), losses and retransmissions,
 * synchronizing handshakes and the Address Translation Map.  State changes
 * are sock:inet_sock_set_state's, which every XTP context goes through.
 *
 * The events are defined in net/xtp/trace.c; the structures they read are
 * those of net/xtp/xtp.h and net/xtp/wire.h, included there first.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xtp

#if !defined(_TRACE_XTP_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_XTP_H

#include <linux/tracepoint.h>

struct sock;
struct xtp_wire_pkt;

#define xtp_show_pformat(pf)				\
	__print_symbolic(pf,				\
			 { 0, "DATA" },			\
			 { 1, "CNTL" },			\
			 { 2, "FIRST" },		\
			 { 3, "ECNTL" },		\
			 { 5, "TCNTL" },		\
			 { 8, "DIAG" })

DECLARE_EVENT_CLASS(xtp_pkt_class,
		    TP_PROTO(__be32 saddr, __be32 daddr, const struct xtp_wire_pkt *pkt),
		    TP_ARGS(saddr, daddr, pkt),
		    TP_STRUCT__entry(__field(__be32, saddr)
				     __field(__be32, daddr)
				     __field(u64, key)
				     __field(u64, seq)
				     __field(u32, options)
				     __field(u32, dlen)
				     __field(u32, sync)
				     __field(u8, pformat)),
		    TP_fast_assign(__entry->saddr = saddr;
				   __entry->daddr = daddr;
				   __entry->key = pkt->hdr.key;
				   __entry->seq = pkt->hdr.seq;
				   __entry->options = pkt->hdr.options;
				   __entry->dlen = pkt->data_len;
				   __entry->sync = pkt->hdr.sync;
				   __entry->pformat = pkt->hdr.pformat;),
		    TP_printk("%pI4 > %pI4 %s key=%016llx options=%#x seq=%llu dlen=%u sync=%u",
			      &__entry->saddr, &__entry->daddr,
			      xtp_show_pformat(__entry->pformat), __entry->key,
			      __entry->options, __entry->seq, __entry->dlen, __entry->sync)
);

/* Every packet a context sends, retransmissions included. */
DEFINE_EVENT(xtp_pkt_class, xtp_send_pkt,
	     TP_PROTO(__be32 saddr, __be32 daddr, const struct xtp_wire_pkt *pkt),
	     TP_ARGS(saddr, daddr, pkt)
);

/* Every packet that decoded with a good checksum, before any lookup. */
DEFINE_EVENT(xtp_pkt_class, xtp_recv_pkt,
	     TP_PROTO(__be32 saddr, __be32 daddr, const struct xtp_wire_pkt *pkt),
	     TP_ARGS(saddr, daddr, pkt)
);

/* After each CNTL, ECNTL or TCNTL a sender took in. */
TRACE_EVENT(xtp_probe,
	    TP_PROTO(const struct sock *sk),
	    TP_ARGS(sk),
	    TP_STRUCT__entry(__field(u64, key)
			     __field(u64, snd_una)
			     __field(u64, snd_nxt)
			     __field(u64, snd_alloc)
			     __field(u32, cwnd)
			     __field(u32, ssthresh)
			     __field(u32, srtt_us)
			     __field(u32, rttvar_us)
			     __field(u32, in_flight)
			     __field(u32, lost_out)
			     __field(u32, sacked_out)
			     __field(u32, unheard_out)),
	    TP_fast_assign(const struct xtp_sock *xs = xtp_sk(sk);
			   __entry->key = xs->lkey;
			   __entry->snd_una = xs->snd.una;
			   __entry->snd_nxt = xs->snd.nxt;
			   __entry->snd_alloc = xs->snd.alloc;
			   __entry->cwnd = xs->cc.cwnd;
			   __entry->ssthresh = xs->cc.ssthresh;
			   __entry->srtt_us = xs->rtt.srtt_us;
			   __entry->rttvar_us = xs->rtt.rttvar_us;
			   __entry->in_flight = xtp_in_flight(xs);
			   __entry->lost_out = xs->rec.lost_out;
			   __entry->sacked_out = xs->rec.sacked_out;
			   __entry->unheard_out = xs->rec.unheard_out;),
	    TP_printk("key=%016llx trainsize=%u threshold=%u srtt=%u rttvar=%u alloc=%llu inflight=%u una=%llu nxt=%llu lost=%u sacked=%u unheard=%u",
		      __entry->key, __entry->cwnd, __entry->ssthresh,
		      __entry->srtt_us, __entry->rttvar_us,
		      __entry->snd_alloc, __entry->in_flight,
		      __entry->snd_una, __entry->snd_nxt,
		      __entry->lost_out, __entry->sacked_out,
		      __entry->unheard_out)
);

/* Packets found lost (ECNTL spans or their deadline), the window after. */
TRACE_EVENT(xtp_loss,
	    TP_PROTO(const struct sock *sk, u32 packets),
	    TP_ARGS(sk, packets),
	    TP_STRUCT__entry(__field(u64, key)
			     __field(u32, packets)
			     __field(u32, cwnd)
			     __field(u32, ssthresh)
			     __field(u8, in_handshake)),
	    TP_fast_assign(const struct xtp_sock *xs = xtp_sk(sk);
			   __entry->key = xs->lkey;
			   __entry->packets = packets;
			   __entry->cwnd = xs->cc.cwnd;
			   __entry->ssthresh = xs->cc.ssthresh;
			   __entry->in_handshake = xs->in_handshake;),
	    TP_printk("key=%016llx lost=%u trainsize=%u threshold=%u%s",
		      __entry->key, __entry->packets, __entry->cwnd,
		      __entry->ssthresh,
		      __entry->in_handshake ? " handshake" : "")
);

TRACE_EVENT(xtp_retransmit,
	    TP_PROTO(const struct sock *sk, u64 seq, u32 len),
	    TP_ARGS(sk, seq, len),
	    TP_STRUCT__entry(__field(u64, key)
			     __field(u64, seq)
			     __field(u32, len)),
	    TP_fast_assign(__entry->key = xtp_sk(sk)->lkey;
			   __entry->seq = seq;
			   __entry->len = len;),
	    TP_printk("key=%016llx seq=%llu len=%u",
		      __entry->key, __entry->seq, __entry->len)
);

#define XTP_TRACE_HS_START	0
#define XTP_TRACE_HS_DONE	1
#define XTP_TRACE_HS_FAIL	2

/* The synchronizing handshake: started, answered, given up. */
TRACE_EVENT(xtp_handshake,
	    TP_PROTO(const struct sock *sk, int event),
	    TP_ARGS(sk, event),
	    TP_STRUCT__entry(__field(u64, key)
			     __field(u32, retries)
			     __field(u32, cwnd)
			     __field(int, event)),
	    TP_fast_assign(const struct xtp_sock *xs = xtp_sk(sk);
			   __entry->key = xs->lkey;
			   __entry->retries = xs->wtimer_retries;
			   __entry->cwnd = xs->cc.cwnd;
			   __entry->event = event;),
	    TP_printk("key=%016llx %s retries=%u trainsize=%u", __entry->key,
		      __print_symbolic(__entry->event,
				       { XTP_TRACE_HS_START, "start" },
				       { XTP_TRACE_HS_DONE, "done" },
				       { XTP_TRACE_HS_FAIL, "fail" }),
		      __entry->retries, __entry->cwnd)
);

#define XTP_TRACE_ATM_ADD	0
#define XTP_TRACE_ATM_EXPIRE	1
#define XTP_TRACE_ATM_REPLAY	2
#define XTP_TRACE_ATM_RECYCLE	3

/* An initiator's (address, key) entered, left, was recycled or replayed. */
TRACE_EVENT(xtp_atm,
	    TP_PROTO(__be32 addr, u64 key, int event),
	    TP_ARGS(addr, key, event),
	    TP_STRUCT__entry(__field(u64, key)
			     __field(__be32, addr)
			     __field(int, event)),
	    TP_fast_assign(__entry->key = key;
			   __entry->addr = addr;
			   __entry->event = event;),
	    TP_printk("%s %pI4 key=%016llx",
		      __print_symbolic(__entry->event,
				       { XTP_TRACE_ATM_ADD, "add" },
				       { XTP_TRACE_ATM_EXPIRE, "expire" },
				       { XTP_TRACE_ATM_REPLAY, "replay" },
				       { XTP_TRACE_ATM_RECYCLE, "recycle" }),
		      &__entry->addr, __entry->key)
);

#endif /* _TRACE_XTP_H */

#include <trace/define_trace.h>
