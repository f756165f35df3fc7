/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: internal declarations shared by the files of the module.
 *
 * Locking
 * =======
 *
 * The socket lock protects a context's whole protocol state (struct
 * xtp_sock below &xtp_sock.inet, its queues and timers).  Process context
 * takes it with lock_sock(); softirq (input, ICMP errors, timers) with
 * bh_lock_sock(), and when the user owns the socket it leaves the work:
 * a packet goes to the backlog (sk_add_backlog()), a timer or an ICMP
 * error sets its bit in &xtp_timers.deferred, holding a reference, and
 * xtp_release_cb() does it at release_sock().  Functions that read or
 * change that state assert the lock with sock_owned_by_me().
 *
 * Order: a listener before its children, never the other way round.
 * xtp_deliver() takes every socket's spinlock with the nested subclass;
 * sk_clone_lock() then takes the new child's with the plain one, and
 * xtp_listen_drop() takes a queued child's while the listener is held.
 * Where that happens in process context (the listener's backlog, close,
 * shutdown) softirqs are kept off for as long as the child's spinlock is
 * held: a transmit re-enables them and could run input for that child
 * on the same CPU.  No code of a child takes its listener's lock; the
 * accept queue (&xtp_sock.accept_queue) belongs to the listener's lock.
 *
 * Per namespace: &xtp_net.keys, &xtp_net.peers and &xtp_net.atm are
 * rhashtables, read under RCU (a lookup takes a reference with
 * refcount_inc_not_zero()) and changed with the context's lock held (ATM
 * replay timers without it); ATM entries are freed after a grace period.
 * &xtp_net.port_lock and &xtp_net.socks_lock are BH-safe spinlocks taken
 * under the socket lock and nothing under them, except that the /proc
 * readers take each socket's sk_callback_lock under socks_lock.
 *
 * Timers (&enum xtp_timer) each hold a socket reference while queued and
 * run their work under the socket spinlock or defer it to release_cb;
 * xtp_timers_stop() stops them under the lock without waiting, and drops
 * the references of work deferred to release_cb.
 * Transmission happens under the socket lock (ip_queue_xmit()); input
 * that the transmit triggers on loopback or veth finds the lock held and
 * goes to the backlog or waits for the spinlock on another CPU.
 */
#ifndef _NET_XTP_XTP_H
#define _NET_XTP_XTP_H

#include <linux/hrtimer.h>
#include <linux/rhashtable-types.h>
#include <linux/sizes.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <net/inet_sock.h>
#include <net/netns/generic.h>
#include <net/snmp.h>
#include <net/tcp_states.h>
#include <uapi/linux/xtp.h>

#include "close.h"
#include "compat.h"
#include "bbr.h"
#include "drs.h"
#include "sack.h"
#include "scc.h"
#include "wire.h"

/**
 * enum xtp_state - a context's state, in &sock.sk_state
 * @XTP_SS_ACTIVE: associated: data flows, and the close sequence runs in
 *	the WCLOSE/RCLOSE bits of &struct xtp_sock (teardown.c)
 * @XTP_SS_FIRST_SENT: our FIRST is out and unanswered (or deferred until
 *	the first data: &xtp_sock.first_pending)
 * @XTP_SS_ZOMBIE: we sent END; CTIMEOUT, re-armed with the zombie
 *	timeout, keeps the context to answer late packets with END
 * @XTP_SS_CLOSED: no association: not yet connected, or released
 * @XTP_SS_LISTEN: First Packet Matching gives it the FIRSTs for accept()
 *
 * The values are TCP's states of the same meaning, so inet_release(),
 * inet_diag's state filter and ss treat a context as they treat a TCP
 * socket.  The legal transitions, and where they happen:
 *
 * ============= =============== ===========================================
 * from          to              on
 * ============= =============== ===========================================
 * CLOSED        LISTEN          listen() (context.c)
 * CLOSED        FIRST_SENT      connect() (socket.c)
 * (none)        ACTIVE          a FIRST accepted by a listener (input.c)
 * FIRST_SENT    ACTIVE          the answer to our FIRST (input.c)
 * ACTIVE        ZOMBIE          END sent (teardown.c xtp_send_end())
 * any           CLOSED          xtp_ctx_done(): END received, teardown
 *                               complete, ZOMBIE over, CTIMEOUT, abort
 * LISTEN        CLOSED          close(), or shutdown(SHUT_RD), of a listener
 * ============= =============== ===========================================
 *
 * xtp_state_name() gives the names /proc/net/xtp/sockets prints.
 */
enum xtp_state {
	XTP_SS_ACTIVE		= TCP_ESTABLISHED,
	XTP_SS_FIRST_SENT	= TCP_SYN_SENT,
	XTP_SS_ZOMBIE		= TCP_TIME_WAIT,
	XTP_SS_CLOSED		= TCP_CLOSE,
	XTP_SS_LISTEN		= TCP_LISTEN,
};

const char *xtp_state_name(int state);

/**
 * enum xtp_mib_field - per-namespace XTP counters (/proc/net/xtp/snmp)
 * @XTP_MIB_INPKTS: packets handed to XTP by IP
 * @XTP_MIB_INTRUNCATED: dropped, shorter than the XTP header
 * @XTP_MIB_INBADVERSION: dropped, VER is not 4.0
 * @XTP_MIB_INBADTYPE: dropped, unknown PFORMAT
 * @XTP_MIB_INBADLEN: dropped, DLEN or a segment length is inconsistent
 * @XTP_MIB_INBADFORMAT: dropped, unsupported address or traffic format
 * @XTP_MIB_INCSUMERRORS: dropped, bad checksum
 * @XTP_MIB_INNOCONTEXT: dropped, no context or listener for the key
 * @XTP_MIB_INNOMEM: dropped, no memory to process the packet
 * @XTP_MIB_INICMPERRORS: ICMP errors reported for XTP packets
 * @XTP_MIB_INBADPEER: dropped, RETURN key from an address not the peer's
 * @XTP_MIB_INFILTERED: dropped by the socket's filter, cgroup-BPF ingress
 *	program, LSM or IPsec policy
 * @XTP_MIB_INBADSTATE: dropped, packet type not valid in the context state
 * @XTP_MIB_INDUPFIRST: FIRST of a live association, its SREQ answered
 * @XTP_MIB_INREPLAYFIRST: FIRST of a released association, dropped
 * @XTP_MIB_LISTENOVERFLOW: FIRST dropped, accept queue full
 * @XTP_MIB_ATMFULL: FIRST dropped, the ATM is at its cap
 * @XTP_MIB_RCVBUFERRORS: DATA dropped, receive buffer full
 * @XTP_MIB_OUTPKTS: packets sent
 * @XTP_MIB_OUTDIAGS: DIAG packets sent
 * @XTP_MIB_ACTIVEOPENS: associations initiated (FIRST sent)
 * @XTP_MIB_PASSIVEOPENS: associations accepted (TCNTL sent)
 * @XTP_MIB_CURRSOCKETS: XTP sockets that exist in the namespace (gauge)
 * @XTP_MIB_ATMENTRIES: entries in the ATM (gauge)
 * @XTP_MIB_OUTECNTLS: ECNTL packets sent (the receiver saw a gap)
 * @XTP_MIB_RETRANSSEGS: DATA packets sent again
 * @XTP_MIB_ECNTLLOSSES: DATA packets an ECNTL showed missing
 * @XTP_MIB_HANDSHAKES: synchronizing handshakes started
 * @XTP_MIB_HANDSHAKEFAILS: handshakes that ended the association
 * @XTP_MIB_INDUPDATA: DATA received that had arrived already
 * @XTP_MIB_SPURIOUSRTX: retransmissions acknowledged too soon to have
 *	been needed
 * @XTP_MIB_PMTUREDUCED: ICMP fragmentation-needed made packets smaller
 * @XTP_MIB_PMTUBLACKHOLE: packets made smaller for a suspected PMTU
 *	black hole
 * @XTP_MIB_AVLIMITED: sends held back for an unvalidated peer
 * @XTP_MIB_AVEVICTED: unvalidated children dropped from a full accept
 *	queue to make room
 * @XTP_MIB_AVEXPIRED: contexts reset because their peer never validated
 * @XTP_MIB_INBEYONDALLOC: DATA dropped, beyond the ALLOC we advertised
 * @XTP_MIB_ATMRECYCLED: ATM entries in their replay time removed early to
 *	make room at net.xtp.atm_max
 * @XTP_MIB_MEMPRESSURES: times the protocol's memory entered pressure
 * @XTP_MIB_RCVQDROP: DATA dropped, no protocol or cgroup memory for it
 * @XTP_MIB_INEARLY: packets of the peer that overtook its TCNTL, held
 *	for it
 * @XTP_MIB_HANDSHAKELOSSES: DATA packets the answer to a handshake showed
 *	missing that ECNTLs and deadlines had not
 * @XTP_MIB_OUTTRAINS: trains of DATA packets handed to IP as one GSO skb
 *	(offload.c)
 * @XTP_MIB_INTRAINS: trains that arrived whole and were split here
 * @XTP_MIB_SPURIOUSLOSSES: DATA packets called lost whose first copy was
 *	then shown delivered before they were sent again (reordering)
 * @XTP_MIB_CWNDUNDOS: window cuts undone: their episode needed no
 *	retransmission
 * @XTP_MIB_SENDTIMERLATE: send timer not moved earlier, its callback
 *	running on another CPU (xtp_send_timer_at())
 * @__XTP_MIB_MAX: number of counters
 */
enum xtp_mib_field {
	XTP_MIB_INPKTS,
	XTP_MIB_INTRUNCATED,
	XTP_MIB_INBADVERSION,
	XTP_MIB_INBADTYPE,
	XTP_MIB_INBADLEN,
	XTP_MIB_INBADFORMAT,
	XTP_MIB_INCSUMERRORS,
	XTP_MIB_INNOCONTEXT,
	XTP_MIB_INNOMEM,
	XTP_MIB_INICMPERRORS,
	XTP_MIB_INBADPEER,
	XTP_MIB_INBADSTATE,
	XTP_MIB_INDUPFIRST,
	XTP_MIB_INREPLAYFIRST,
	XTP_MIB_LISTENOVERFLOW,
	XTP_MIB_ATMFULL,
	XTP_MIB_RCVBUFERRORS,
	XTP_MIB_OUTPKTS,
	XTP_MIB_OUTDIAGS,
	XTP_MIB_ACTIVEOPENS,
	XTP_MIB_PASSIVEOPENS,
	XTP_MIB_CURRSOCKETS,
	XTP_MIB_ATMENTRIES,
	XTP_MIB_OUTECNTLS,
	XTP_MIB_RETRANSSEGS,
	XTP_MIB_ECNTLLOSSES,
	XTP_MIB_HANDSHAKES,
	XTP_MIB_HANDSHAKEFAILS,
	XTP_MIB_INDUPDATA,
	XTP_MIB_SPURIOUSRTX,
	XTP_MIB_INFILTERED,
	XTP_MIB_PMTUREDUCED,
	XTP_MIB_PMTUBLACKHOLE,
	XTP_MIB_AVLIMITED,
	XTP_MIB_AVEVICTED,
	XTP_MIB_AVEXPIRED,
	XTP_MIB_INBEYONDALLOC,
	XTP_MIB_ATMRECYCLED,
	XTP_MIB_MEMPRESSURES,
	XTP_MIB_RCVQDROP,
	XTP_MIB_INEARLY,
	XTP_MIB_HANDSHAKELOSSES,
	XTP_MIB_OUTTRAINS,
	XTP_MIB_INTRAINS,
	XTP_MIB_SPURIOUSLOSSES,
	XTP_MIB_CWNDUNDOS,
	XTP_MIB_SENDTIMERLATE,
	__XTP_MIB_MAX
};

struct xtp_mib {
	unsigned long mibs[__XTP_MIB_MAX];
};

#define XTP_PORT_HASH_SIZE	256
/*
 * Buckets of every socket of a namespace: a dump resumes at a bucket and
 * an offset in it, so listing n contexts costs O(n), not O(n^2).
 */
#define XTP_SOCKS_HASH_SIZE	256

/**
 * struct xtp_net - XTP state of one network namespace
 * @mib: per-CPU counters, folded when read
 * @keys: contexts by local key (the RETURN fast path)
 * @atm: the Address Translation Map, (peer address, peer key) -> context
 * @atm_count: entries in @atm, live and waiting out their replay timer
 * @atm_lock: protects @atm_replay
 * @atm_replay: entries waiting out their replay timer, oldest first
 * @port_lock: protects @ports
 * @ports: bound sockets by local port
 * @socks: every XTP socket of the namespace, for /proc/net/xtp/contexts
 * @socks_lock: protects @socks; no other lock is taken under it but the
 *	sockets' sk_callback_lock (sock_i_uid(), sock_i_ino())
 * @peers: contexts by peer key and peer address, for ICMP errors
 * @msl_ms: maximum segment lifetime, sysctl net.xtp.msl_ms
 * @atm_max: cap on ATM entries, sysctl net.xtp.atm_max
 * @cc: default congestion controller (&enum xtp_cc), sysctl net.xtp.cc
 * @first_data: sysctl net.xtp.first_data: 0 holds the data of a FIRST
 *	from the application until its peer is validated
 * @trains: sysctl net.xtp.trains: 1 lets DATA leave in trains (offload.c)
 * @sysctl: the net.xtp sysctl table of this namespace
 */
struct xtp_net {
	struct xtp_mib __percpu *mib;
	struct rhashtable keys;
	struct rhashtable atm;
	atomic_t atm_count;
	spinlock_t atm_lock;	/* protects atm_replay */
	struct list_head atm_replay;
	spinlock_t port_lock;	/* protects ports */
	struct hlist_head ports[XTP_PORT_HASH_SIZE];
	struct hlist_head socks[XTP_SOCKS_HASH_SIZE];
	spinlock_t socks_lock;	/* protects socks */
	struct rhashtable peers;
	int msl_ms;
	int atm_max;
	int cc;
	int first_data;
	int trains;
	struct ctl_table_header *sysctl;
};

struct xtp_atm_entry;

/**
 * struct xtp_walk - a position in a namespace's table of sockets
 * @bucket: the bucket of xtp_net.socks the walk resumes in
 * @offset: entries of @bucket already passed
 */
struct xtp_walk {
	unsigned long bucket;
	unsigned long offset;
};

/* Per-packet state of queued data, in skb->cb. */
struct xtp_skb_cb {
	u64 seq;		/* sequence number of the first byte */
	u64 xmit_ns;		/* send: time of the latest transmission */
	u32 tx_delivered;	/* send: &xtp_cc_state.delivered then (low bits) */
	u32 tx_delivered_age;	/* send: ns since &xtp_cc_state.delivered_ns */
	u32 tx_flight_age;	/* send: ns since &xtp_cc_state.first_tx_ns */
	u32 offset;		/* receive: bytes already read */
	u32 options;		/* EOM (and on send WCLOSE) of this packet */
	__wsum csum;		/* send: the payload's sum, if csum_ok */
	u16 sent:1,		/* send: transmitted at least once */
	   sacked:1,		/* send: an ECNTL span covers it */
	   lost:1,		/* send: missing, waits for retransmission */
	   rtx:1,		/* send: transmitted more than once */
	   tx_app_limited:1,	/* send: the sender ran out of data then */
	   tx_idle:1,		/* send: nothing else was in flight */
	   unheard:1,		/* send: beyond a handshake's cut answer */
	   undo_rtx:1,		/* send: counted in xtp_recovery.undo_rtx */
	   csum_ok:1,		/* send: csum is the payload's, as queued */
	   more:1;		/* receive: more of its train follows */
};

#define XTP_SKB_CB(skb) ((struct xtp_skb_cb *)(skb)->cb)

/**
 * enum xtp_timer - a context's timers, all run by timer.c
 * @XTP_TIMER_W: WTIMER: guards the oldest unanswered SREQ; its expiry
 *	starts the synchronizing handshake
 * @XTP_TIMER_CTIMEOUT: CTIMEOUT: bounds setup and the handshake; also the
 *	ZOMBIE timer, GracefulClose's END delay and an orphan's last chance
 * @XTP_TIMER_VALIDATE: the deadline for the peer of a context opened by
 *	a FIRST to prove its address (validate.c)
 * @XTP_TIMER_CTIMER: CTIMER: with SO_KEEPALIVE, a handshake after a
 *	period in which nothing came from the peer
 * @XTP_TIMER_SEND: the send timer, an hrtimer: the next paced departure
 *	or loss-detection deadline, whichever is first; runs xtp_push()
 * @XTP_NTIMERS: number of timers
 *
 * The ATM's replay timers belong to ATM entries, not contexts (atm.c).
 * Each value is also the bit of &xtp_timers.deferred that hands the
 * timer's work to xtp_release_cb() when it found the user owning the
 * socket.  The timers before the CTIMER are &xtp_timers.list; the CTIMER,
 * XTP's keep-alive, is the socket's own sk_timer, as TCP's keep-alive is
 * (xtp_timer_list()); the send timer is last.
 */
enum xtp_timer {
	XTP_TIMER_W,
	XTP_TIMER_CTIMEOUT,
	XTP_TIMER_VALIDATE,
	XTP_TIMER_CTIMER,
	XTP_TIMER_SEND,
	XTP_NTIMERS
};

/* The timers in &xtp_timers.list: those before the CTIMER. */
#define XTP_LIST_TIMERS	XTP_TIMER_CTIMER

/* Bits of &xtp_timers.deferred after the timers': ICMP work found owned. */
enum {
	XTP_DEFER_UNREACH = XTP_NTIMERS,	/* the handshake refused */
	XTP_DEFER_MTU,				/* fragmentation needed */
};

/* A context as the packets it sends name it: its peer's key and address. */
struct xtp_peer_id {
	u64 key;
	__be32 addr;
	u32 pad;
};

struct xtp_cc_ops;

/* Most RTT cache slots (XTPSOCK_RTT_CACHE_SIZE). */
#define XTP_RTT_CACHE_MAX	10

/* One RTT cache slot: an SREQ still waiting for its ECHO. */
struct xtp_rtt_slot {
	u32 sync;		/* 0: free (SYNC values start at 1) */
	u32 sent_us;		/* xtp_rtt_now_us() when sent */
};

/**
 * struct xtp_snd - the sending side's sequence space (output.c)
 * @una: lowest sequence number not acknowledged (the peer's RSEQ)
 * @nxt: next sequence number to send
 * @alloc: the peer's ALLOC: we must not send this sequence number
 * @max_wnd: the largest window the peer offered (@alloc - @una), 0 before
 *	its first ALLOC
 * @write_seq: sequence number of the next byte the application writes
 * @close_una: @una when the closed context's CTIMEOUT was last armed: an
 *	orphan that still makes progress is not given up
 * @queued: bytes in the write queue
 * @rtx: sent DATA not yet acknowledged
 */
struct xtp_snd {
	u64 una;
	u64 nxt;
	u64 alloc;
	u64 write_seq;
	u64 close_una;
	u32 queued;
	u32 max_wnd;
	struct sk_buff_head rtx;
};

/**
 * struct xtp_recovery - what ECNTL spans showed, and what is lost
 *	(recovery.c, sack.c)
 * @sack_newest_ns: latest send time of a packet an ECNTL showed seen
 * @sacked_out: bytes in &xtp_snd.rtx covered by ECNTL spans
 * @lost_out: bytes in &xtp_snd.rtx marked lost, not yet sent again
 * @unheard_out: bytes in &xtp_snd.rtx beyond where a handshake's answer,
 *	cut short, stopped: the peer may hold them; neither lost nor in
 *	flight until a later answer reaches them
 * @reo_mult: reordering tolerance in quarters of SRTT (1..4); grows with
 *	each retransmission found spurious
 * @reo_pending: a packet may be declared lost when the send timer fires
 * @reo_due_ns: with @reo_pending, when the first such packet is due: no
 *	walk of &xtp_snd.rtx before then
 * @heard_cut: where the spans of the last control packet stopped, if it
 *	held so many (%XTP_ECNTL_CUT_SPANS) that it may have left more
 *	out; 0 when it told all the peer holds
 * @undo_rtx: packets sent again since the controller last cut its window
 *	(&xtp_skb_cb.undo_rtx) and not shown needless
 * @undo: that cut may still be undone (xtp_cc_loss(), xtp_cc_undo_check())
 */
struct xtp_recovery {
	u64 sack_newest_ns;
	u64 reo_due_ns;
	u64 heard_cut;
	u32 sacked_out;
	u32 lost_out;
	u32 unheard_out;
	u16 undo_rtx;
	u8 reo_mult;
	u8 reo_pending:1,
	   undo:1;
};

/**
 * struct xtp_rcv - the receiving side (input.c, tune.c)
 * @nxt: next in-order sequence number expected (our RSEQ)
 * @high: end of the highest data received
 * @dreq: DREQ: confirm once the application has read up to here
 * @alloc: ALLOC last advertised
 * @answered: RSEQ of the last control packet we sent
 * @queued: bytes in the receive queue not yet read
 * @wnd: receive window (bytes beyond RSEQ we advertise at most)
 * @ooo: received DATA above @nxt
 * @early: initiator: packets of the peer that came before its TCNTL
 * @drs: receive-buffer autotuning's measurements (tune.c)
 * @probes: control packets with SREQ in a row, no DATA between: from the
 *	second on, the peer's handshake did not hear our answer
 * @last_nspan: spans in the last control packet we sent
 * @long_lost: handshakes in a row that went on after a long answer: at
 *	%XTP_ECNTL_STUCK_ANSWERS our long lists stay short (xtp_ecntl_note())
 * @unwoken: data came that the reader was not woken for (a train's
 *	packets wake it at the last, xtp_established_rcv())
 */
struct xtp_rcv {
	u64 nxt;
	u64 high;
	u64 dreq;
	u64 alloc;
	u64 answered;
	u32 queued;
	u32 wnd;
	u8 probes;
	u8 last_nspan;
	u8 long_lost;
	u8 unwoken:1;
	struct sk_buff_head ooo;
	struct sk_buff_head early;
	struct xtp_drs drs;
};

/**
 * struct xtp_rtt - round-trip times (rtt.c)
 * @srtt_us: smoothed RTT
 * @rttvar_us: RTT variation
 * @min_rtt_us: least RTT sample of the association
 * @cache: the RTT cache, indexed by SYNC modulo @cache_sz
 * @cache_sz: XTPSOCK_RTT_CACHE_SIZE
 * @nodecouple: XTPSOCK_RTT_NODECOUPLE
 */
struct xtp_rtt {
	u32 srtt_us;
	u32 rttvar_us;
	u32 min_rtt_us;
	struct xtp_rtt_slot cache[XTP_RTT_CACHE_MAX];
	u8 cache_sz;
	u8 nodecouple:1;
};

/**
 * struct xtp_rate_acc - what one acknowledgment delivered (cc.c)
 * @prior_delivered: &xtp_skb_cb.tx_delivered of the newest packet it
 *	delivered
 * @prior_ns: when the delivered count that packet saw was reached
 * @first_ns: when the flight of that packet began to be sent
 * @xmit_ns: when that packet was sent
 * @any: it delivered something
 * @rtx: that packet was sent more than once (no RTT from it)
 * @sacked: an ECNTL span reported that packet, beyond a hole
 * @app_limited: that packet left while the sender ran out of data
 * @idle: that packet left with nothing else in flight
 */
struct xtp_rate_acc {
	u64 prior_delivered;
	u64 prior_ns;
	u64 first_ns;
	u64 xmit_ns;
	bool any;
	bool rtx;
	bool sacked;
	bool app_limited;
	bool idle;
};

/* Veno judges the queue by the least of this many recent RTT samples. */
#define XTP_VENO_RECENT		4

/**
 * struct xtp_reno - NewReno's and Veno's own state (cc_newreno.c)
 * @prior_cwnd: the window before the last cut, should it be undone
 * @prior_ssthresh: the threshold then
 * @base_rtt_us: Veno: the least RTT of any delivery-rate sample but a
 *	lucky packet's (xtp_rtt_lucky()), 0 for none yet
 * @recent_us: Veno: the last %XTP_VENO_RECENT RTT samples, 0 for none
 * @recent_idx: Veno: the slot of @recent_us the next sample takes
 * @n: growth and cuts, counted in SCC's terms: slow start is its
 *	exponential mode, congestion avoidance its linear one
 */
struct xtp_reno {
	struct xtp_cc_counts n;
	u32 prior_cwnd;
	u32 prior_ssthresh;
	u32 base_rtt_us;
	u32 recent_us[XTP_VENO_RECENT];
	u8 recent_idx;
};

/**
 * struct xtp_cc_state - congestion control (cc.c and the controllers)
 * @ops: congestion controller
 * @scc: SCC's own state, mirrored into @cwnd, @ssthresh, @cwnd_count
 * @recover: NewReno: &xtp_snd.nxt when the recovery began
 * @pace_next_ns: earliest departure of the next paced packet
 * @pacing_rate: bytes per second, 0 when not pacing
 * @cwnd: congestion window in bytes (SCC: BIFW, "trainsize")
 * @ssthresh: slow-start threshold (SCC: LGT, "linear_thresh")
 * @cwnd_count: bytes acknowledged towards the next linear step
 * @ln_thresh: SCC linear threshold (bytes), as set by the application
 * @init_trainsize: SCC initial window (bytes), as set by the application
 * @id: &enum xtp_cc chosen for this context
 * @in_recovery: NewReno: in fast recovery until &xtp_snd.una passes
 *	@recover
 * @app_limited: the last push ran out of data or ALLOC, not of window
 * @delivered: bytes RSEQ or ECNTL spans showed delivered, ever
 * @delivered_ns: when @delivered last grew (or the sender went from idle)
 * @first_tx_ns: when the newest packet delivered was sent (or the sender
 *	went from idle): the start of the current flight's send interval
 * @rate_lost: bytes marked lost since the last rate sample
 * @start_cwnd: the window xtp_cc_start() began with
 * @rate: the acknowledgment being applied: what it delivered (cc.c)
 * @bbr: the BBR model (cc_bbr.c), instead of @scc
 * @reno: NewReno and Veno (cc_newreno.c), instead of @scc
 */
struct xtp_cc_state {
	const struct xtp_cc_ops *ops;
	union {
		struct xtp_scc scc;
		struct xtp_bbr bbr;
		struct xtp_reno reno;
	};
	u64 delivered;
	u64 delivered_ns;
	u64 first_tx_ns;
	u32 rate_lost;
	u32 start_cwnd;
	struct xtp_rate_acc rate;
	u64 recover;
	u64 pace_next_ns;
	u64 pacing_rate;
	u32 cwnd;
	u32 ssthresh;
	u32 cwnd_count;
	u32 ln_thresh;
	u32 init_trainsize;
	u8 id;
	u8 in_recovery:1,
	   app_limited:1;
};

/**
 * struct xtp_av - address validation of the peer (validate.c)
 * @in: bytes (IP) received from the peer before it was validated
 * @out: bytes (IP) sent to the peer before it was validated
 * @valid: the peer showed it receives at its address (it sent our key
 *	back), or we chose the address (initiator).  Not a bitfield:
 *	xtp_av_evict() reads it under the listener's lock.
 * @asked: our TCNTL asked the peer to answer (SREQ): a flood may be on
 * @probed: the validation deadline passed once; a CNTL+SREQ asked
 * @blocked: data waits for validation (counted once per wait)
 * @hold: what the peer sent is not readable until it is validated
 *	(net.xtp.first_data 0)
 * @renewed: the deadline was put off by a FIRST again this many times
 */
struct xtp_av {
	u32 in;
	u32 out;
	bool valid;
	u8 asked:1,
	   probed:1,
	   blocked:1,
	   hold:1,
	   renewed:3;
};

/**
 * struct xtp_timers - a context's timers (timer.c)
 * @list: WTIMER, CTIMEOUT and the validation deadline, by &enum xtp_timer
 * @send: %XTP_TIMER_SEND, an hrtimer
 * @deferred: bits by &enum xtp_timer and %XTP_DEFER_*: work that found
 *	the socket owned, for xtp_release_cb()
 * @send_firing: the lock is held by @send's own callback, running its work
 *	(xtp_send_timer_at())
 */
struct xtp_timers {
	struct timer_list list[XTP_LIST_TIMERS];
	struct hrtimer send;
	unsigned long deferred;
	u8 send_firing;
};

/*
 * A context's XTPSOCK_MIBSTAT counters.  Only what the data path counts
 * lives in the socket; the settings and estimates that struct
 * xtp_mibstat also reports are read where they are kept, when it is
 * filled (xtp_fill_mibstat()).  Field meanings are those of the UAPI
 * struct.
 */
struct xtp_counters {
	u64 fpk_out, dpk_out, cpk_out, tpk_out, epk_out, dgpk_out;
	u64 fpk_in, dpk_in, cpk_in, tpk_in, epk_in, dgpk_in;
	u64 data_retransmits;
	u64 fc_wait;
	u64 rc_wait;
	u64 sync;
	u64 datasreq_sent;
	u64 edgebit_set;
	u64 rtt_updates;
	u64 handshakes;
	u64 bytes_sent;
	u64 bytes_received;
	u64 ecntl_losses;
	u64 dup_data_in;
	u64 random_losses;
};

/**
 * struct xtp_sock - an XTP context
 * @inet: the inet socket, first so that inet_sk() works
 * @lkey: our key, without the RETURN bit
 * @pkey: the peer's key, without the RETURN bit; 0 until known
 * @key_node: entry in xtp_net.keys
 * @port_node: entry in xtp_net.ports while bound
 * @atm: our ATM entry (responder side), released with the context
 * @accept_queue: listener: accepted contexts not yet taken by accept()
 * @accept_node: child: entry in the listener's @accept_queue
 * @listener: child: the listener while queued (no reference)
 * @net_node: entry in &xtp_net.socks
 * @peer_id: @pkey and the peer's address, while @peer_hashed
 * @peer_node: entry in &xtp_net.peers, which ICMP errors are matched in
 * @assoc_type: &enum xtp_assoc_type
 * @service: &enum xtp_tts
 * @profile: traffic segment service type sent in FIRST and TCNTL
 * @nocheck: send with NOCHECK (header-only checksum)
 * @no_atm_timer: release ATM entries at once (thesis' hazard reproduced)
 * @nb_connect: connect() does not wait for the TCNTL
 * @ratecontrol: XTPSOCK_RATECONTROL (accepted, no effect)
 * @assoc_set: the application chose @assoc_type (a listener's children
 *	keep it; otherwise they follow the initiator's FIRST)
 * @peer_hashed: @peer_node is in &xtp_net.peers
 * @maxdata: largest DATA payload the application allows (XTPSOCK_MAXDATA);
 *	the path and %XTP_SEG_ALLOC_MAX may allow less (xtp_seg_limit())
 * @mtu_data: largest payload the route's MTU takes, 0 before a route
 * @probe_data: largest payload since a PMTU black hole was suspected,
 *	0 for none
 * @pmtu_cookie: the route MTU @mtu_data was computed from
 * @mtu_info: MTU an ICMP error reported while the user owned the socket
 * @stuck_una: &xtp_snd.una when the last handshake ended
 * @stuck_ns: when the last handshake ended
 * @full_delivered: packets of the full payload size the peer has reported
 * @stuck_full: @full_delivered when the last handshake ended
 * @stuck_count: handshakes in a row that ended with full-size data lost
 *	and &xtp_snd.una where it was
 * @sreq_freq: SREQ on every @sreq_freq-th DATA packet
 * @wtimer_cfg: XTPSOCK_WTIMER_TMO in ms, 0 = from the RTT
 * @ctimer_tmo: CTIMER in ms
 * @ctimeout_tmo: CTIMEOUT in ms
 * @zombie_tmo: ZOMBIE in ms
 * @zombie_set: @zombie_tmo came from XTPSOCK_ZOMBIE_TMO: taken as it is
 * @first_pending: connect() deferred: the FIRST goes with the first data
 * @first_sent: the FIRST is out (initiator)
 * @close: the close sequence and the teardown method (teardown.c)
 * @snd: the sending side's sequence space and retransmission queue
 * @rec: ECNTL spans seen and losses (recovery.c)
 * @rcv: the receiving side, its queues and autotuning
 * @rtt: round-trip times and the RTT cache
 * @cc: congestion control and pacing
 * @av: address validation of the peer
 * @tm: the timers, and work they deferred to release_cb (timer.c)
 * @released: the context left the protocol (no more packets, timers)
 * @ctl_sent: a CNTL or ECNTL left since the input path cleared it (an
 *	SREQ is then answered)
 * @fc_blocked: the sender waits for ALLOC or the congestion window
 *	(counted once per wait)
 * @last_edge: EDGE bit of the peer's last packet; a change asks for a
 *	control packet
 * @sync: our SYNC, incremented for each SREQ
 * @echo: SYNC of the peer's latest SREQ, echoed in our control packets
 * @sreq_count: DATA packets since the last SREQ
 * @wsync: SYNC guarded by the WTIMER (oldest unanswered SREQ)
 * @wtimer_retries: synchronizing handshake probes sent
 * @in_handshake: the WTIMER fired; data waits for the answer
 * @ctimer_seen: packets received when the CTIMER last looked, mod 2^32
 * @snd_edge: the EDGE bit we send; toggled to ask for an ack
 * @fastnak: XTPSOCK_FASTNAK: our packets ask for FASTNAK
 * @rd_shut: shutdown(SHUT_RD) by the application
 * @rcv_trunc: SEQPACKET: the rest of a truncated record is to be dropped
 * @owe_cntl: an SREQ or EDGE left to the end of its train for its answer
 * @sndbuf_want: SO_SNDBUF before memory pressure moderated it
 * @mib: XTPSOCK_MIBSTAT counters
 */
struct xtp_sock {
	struct inet_sock inet;
	u64 lkey;
	u64 pkey;
	struct rhash_head key_node;
	struct hlist_node port_node;
	struct xtp_atm_entry *atm;
	struct list_head accept_queue;
	struct list_head accept_node;
	struct sock *listener;
	struct hlist_node net_node;
	struct xtp_peer_id peer_id;
	struct rhash_head peer_node;

	u8 assoc_type;
	u8 service;
	u8 profile;
	u8 nocheck:1,
	   no_atm_timer:1,
	   nb_connect:1,
	   ratecontrol:1,
	   assoc_set:1,
	   peer_hashed:1,
	   zombie_set:1;
	u16 maxdata;
	u16 mtu_data;
	u16 probe_data;
	u8 stuck_count;
	u32 pmtu_cookie;
	u32 mtu_info;
	u32 sreq_freq;
	u32 wtimer_cfg;
	u32 ctimer_tmo;
	u32 ctimeout_tmo;
	u32 zombie_tmo;
	u64 stuck_una;
	u64 stuck_ns;
	u32 full_delivered;
	u32 stuck_full;

	struct xtp_close close;
	u32 fastnak:1,
	    first_pending:1,
	    first_sent:1,
	    released:1,
	    in_handshake:1,
	    fc_blocked:1,
	    last_edge:1,
	    snd_edge:1,
	    ctl_sent:1,
	    rd_shut:1,
	    rcv_trunc:1,
	    owe_cntl:1;
	int sndbuf_want;

	struct xtp_snd snd;
	struct xtp_recovery rec;
	struct xtp_rcv rcv;
	struct xtp_rtt rtt;
	struct xtp_cc_state cc;
	struct xtp_av av;

	u32 sync;
	u32 echo;
	u32 sreq_count;
	u32 wsync;
	u32 wtimer_retries;
	u32 ctimer_seen;

	struct xtp_timers tm;

	struct xtp_counters mib;
};

static inline struct xtp_sock *xtp_sk(const struct sock *sk)
{
	return (struct xtp_sock *)sk;
}

extern unsigned int xtp_net_id;
extern struct proto xtp_prot;
extern const struct proto_ops xtp_stream_ops;
extern const struct net_protocol xtp_net_protocol;

static inline struct xtp_net *xtp_net(const struct net *net)
{
	return net_generic(net, xtp_net_id);
}

/**
 * xtp_drop() - free a packet that was not taken, saying why
 * @sk: the socket it was for, or NULL before any lookup
 * @skb: the packet
 * @reason: the nearest SKB_DROP_REASON_* (the table in xtp.rst)
 *
 * What a socket drops counts in its sk_drops; the skb:kfree_skb
 * tracepoint and drop monitors see the reason and the dropping function
 * (this is inlined).
 */
static inline void xtp_drop(struct sock *sk, struct sk_buff *skb,
			    enum skb_drop_reason reason)
{
	if (sk)
		atomic_inc(&sk->sk_drops);
	kfree_skb_reason(skb, reason);
}

#define XTP_INC_STATS(net, field) \
	this_cpu_inc(xtp_net(net)->mib->mibs[field])
#define XTP_ADD_STATS(net, field, n) \
	this_cpu_add(xtp_net(net)->mib->mibs[field], n)
#define XTP_DEC_STATS(net, field) \
	this_cpu_dec(xtp_net(net)->mib->mibs[field])

/*
 * Room in front of the XTP header for what ip_queue_xmit() pushes: the IP
 * header with up to 40 bytes of IP_OPTIONS, then the link layer.  Kernels
 * built without tunnels or wireless have a MAX_HEADER of 32, too little
 * for the options alone.
 */
#define XTP_HEADROOM	(MAX_HEADER + sizeof(struct iphdr) + MAX_IPOPTLEN)

/* IP and XTP headers of a DATA packet. */
#define XTP_DATA_OVERHEAD	(sizeof(struct iphdr) + XTP_WIRE_HDR_LEN)

/* Protocol defaults (thesis values; times in ms). */
#define XTP_DEFAULT_WINDOW	90000
/* DATA payload until a route tells the path's: Ethernet's. */
#define XTP_DEFAULT_MAXDATA	1448
/* Largest XTPSOCK_MAXDATA: the payload one IPv4 datagram carries. */
#define XTP_MAX_MAXDATA		(U16_MAX - XTP_DATA_OVERHEAD)
/*
 * Largest payload of one queued skb, its linear buffer an order-2
 * allocation: paths with a large MTU (loopback, jumbo frames) carry
 * fewer, larger packets, without the costly orders that fail under
 * fragmentation.
 */
#define XTP_SEG_ALLOC_MAX	\
	(SKB_WITH_OVERHEAD(SZ_16K) - XTP_HEADROOM - XTP_WIRE_HDR_LEN)
#define XTP_FIRST_SEGS_LEN	(XTP_WIRE_ADDR4_LEN + XTP_WIRE_TSPEC0_LEN)
#define XTP_DEFAULT_CTIMER	60000
#define XTP_DEFAULT_CTIMEOUT	42000
#define XTP_DEFAULT_ZOMBIE	1000
/*
 * The longest a default ZOMBIE waits for the peer's probe (teardown.c):
 * 2 x WTIMER for RTTs up to about a second.  Past that (a queue of
 * seconds) a ZOMBIE would hold its context, and its namespace, for up to
 * CTIMEOUT after every close, to spare the peer that wait only when an
 * END is lost.
 */
#define XTP_ZOMBIE_MAX_MS	10000
#define XTP_DEFAULT_SREQFREQ	2
#define XTP_DEFAULT_LN_THRESH	32000
#define XTP_WTIMER_MIN_MS	50
#define XTP_WTIMER_MAX_MS	60000
#define XTP_WTIMER_INIT_MS	1000
/* Packets an initiator holds that overtook the TCNTL (xtp_early_hold()). */
#define XTP_EARLY_MAX		8
/*
 * Handshake probes: at 20% loss each way a probe or its answer is lost
 * 36% of the time, and 10 MB take a thousand handshakes.  Doubling
 * without bound from the 50 ms floor fit only nine probes into the
 * default CTIMEOUT (42 s), and one transfer in ten died of nine failures
 * in a row.  Doubling stops at 64 times the base, and up to 15 probes
 * (TCP's tcp_retries2) fit before CTIMEOUT.
 */
#define XTP_HANDSHAKE_RETRIES	15
#define XTP_WTIMER_MAX_SHIFT	6
/*
 * An ECNTL lists at most XTP_ECNTL_MAX_SPANS spans, fewer where a packet
 * the path takes would not hold them (xtp_ecntl_spans_max()): at 5% loss
 * a megabyte in flight leaves some 35 gaps, and data above those a list
 * leaves out goes again when a handshake ends.  The most fit in the first
 * size a PMTU black hole makes DATA try, XTP_BASE_PROBE_DATA; the fewest,
 * XTP_ECNTL_CUT_SPANS, in the last, XTP_MIN_PROBE_DATA.  No list that
 * leaves gaps out is shorter.
 */
#define XTP_BASE_PROBE_DATA	1024
#define XTP_MIN_PROBE_DATA	256
#define XTP_ECNTL_SPANS_IN(seg)	\
	(((seg) - XTP_WIRE_ECNTL_LEN) / XTP_WIRE_SPAN_LEN)
#define XTP_ECNTL_MAX_SPANS	XTP_ECNTL_SPANS_IN(XTP_BASE_PROBE_DATA)
#define XTP_ECNTL_CUT_SPANS	XTP_ECNTL_SPANS_IN(XTP_MIN_PROBE_DATA)
#define XTP_DEFAULT_CC		XTP_CC_BBR

/**
 * struct xtp_cc_ops - a congestion controller
 * @id: &enum xtp_cc
 * @name: for messages
 * @paced: the sender spaces packets at xtp_cc_pacing_rate()
 * @init: the association starts: set @cwnd and @ssthresh
 * @acked: optional: RSEQ moved @bytes forward (never called during a
 *	handshake: the window does not grow while the peer's state is
 *	unknown)
 * @loss: optional: an ECNTL showed DATA missing
 * @handshake_end: a synchronizing handshake ended after @k packets, the
 *	answered probe included (2 means no probe was lost); @lost tells
 *	whether its answer showed data missing
 * @sample: optional: an acknowledgment's delivery-rate sample (none
 *	during a handshake)
 * @pacing_rate: optional: the rate to pace at (bytes/s), instead of
 *	the window per SRTT
 * @undo: optional: the last cut of the window proved needless (its
 *	episode needed no retransmission): go back to the window before
 *	it.  A controller with it sets &xtp_cc_state.recover to
 *	&xtp_snd.nxt when it cuts: the episode ends when RSEQ gets there.
 * @counts: optional: the window's growth and decrease counts, which the
 *	controllers that grow a window keep in their own state (the
 *	lin_inc, lin_dec, xp_inc and xp_dec metrics; 0 without)
 */
struct xtp_cc_ops {
	u8 id;
	const char *name;
	bool paced;
	void (*init)(struct sock *sk);
	void (*acked)(struct sock *sk, u32 bytes);
	void (*loss)(struct sock *sk);
	void (*handshake_end)(struct sock *sk, u32 k, bool lost);
	void (*sample)(struct sock *sk, const struct xtp_rate_sample *rs);
	u64 (*pacing_rate)(struct sock *sk);
	void (*undo)(struct sock *sk);
	const struct xtp_cc_counts *(*counts)(const struct sock *sk);
};

extern const struct xtp_cc_ops xtp_cc_scc;
extern const struct xtp_cc_ops xtp_cc_newreno;
extern const struct xtp_cc_ops xtp_cc_veno;
extern const struct xtp_cc_ops xtp_cc_bbr;

/* cc.c */
const struct xtp_cc_ops *xtp_cc_find(int id);
void xtp_cc_start(struct sock *sk);
u32 xtp_cc_init_window(const struct xtp_sock *xs);
u32 xtp_cc_init_thresh(const struct xtp_sock *xs);
u32 xtp_in_flight(const struct xtp_sock *xs);
void xtp_cc_loss(struct sock *sk, u32 lost);
void xtp_cc_undo_check(struct sock *sk);
bool xtp_pacing_wait(struct sock *sk);
void xtp_pacing_sent(struct sock *sk, u32 len);
void xtp_rate_sent(struct sock *sk, struct sk_buff *skb);
void xtp_rate_delivered(struct sock *sk, const struct sk_buff *skb);
void xtp_rate_lost(struct sock *sk, u32 bytes);
void xtp_rate_sample(struct sock *sk);

/* rtt.c */
void xtp_rtt_sent(struct xtp_sock *xs, u32 sync);
void xtp_rtt_echo(struct xtp_sock *xs, u32 echo);
bool xtp_rtt_cache_busy(const struct xtp_sock *xs);

/* recovery.c */
void xtp_rtx_unlink(struct sock *sk, struct sk_buff *skb);
void xtp_rtx_undo_arm(struct sock *sk);
void xtp_rtx_undo_count(struct xtp_sock *xs, struct sk_buff *skb);
void xtp_rtx_ecntl(struct sock *sk, const struct xtp_wire_pkt *pkt);
void xtp_rtx_detect(struct sock *sk);
u32 xtp_rtx_all_lost(struct sock *sk);
void xtp_rtx_unheard_clear(struct xtp_sock *xs, struct sk_buff *skb);
void xtp_rtx_whole(struct sock *sk);
void xtp_rtx_deadline(struct sock *sk);
u32 xtp_rcv_spans(const struct xtp_sock *xs, struct xtp_wire_span *spans,
		  u32 max);

/* proc.c */
int xtp_proc_init_net(struct net *net);
void xtp_proc_exit_net(struct net *net);

/* mem.c */
extern atomic_long_t xtp_memory_allocated;
DECLARE_PER_CPU(int, xtp_memory_per_cpu_fw_alloc);
extern struct percpu_counter xtp_sockets_allocated;
extern unsigned long xtp_memory_pressure;
extern long sysctl_xtp_mem[3];
void xtp_enter_memory_pressure(struct sock *sk);
bool xtp_wmem_charge(struct sock *sk, struct sk_buff *skb);
bool xtp_rmem_schedule(struct sock *sk, struct sk_buff *skb, u64 seq);
void xtp_wmem_force(struct sock *sk, struct sk_buff *skb);
void xtp_wmem_uncharge(struct sock *sk, struct sk_buff *skb);
void xtp_wmem_purge(struct sock *sk);
void xtp_sndbuf_restore(struct sock *sk);
void xtp_mem_clone(struct sock *child, const struct sock *parent);
void xtp_mem_init(void);

/* csum.c */
bool xtp_csum_ok(struct sk_buff *skb, unsigned int cover);
void xtp_csum_set(struct sk_buff *skb, bool nocheck);
bool xtp_csum_local(struct sock *sk);
bool xtp_csum_copy_user(struct sock *sk, struct sk_buff *skb, u32 len,
			struct iov_iter *from);
void xtp_csum_out(struct sock *sk, struct sk_buff *skb, bool nocheck,
		  const struct sk_buff *data);

/* offload.c */
/* A train's packets beyond this gain nothing: 64 KB is 44 Ethernet ones. */
#define XTP_TRAIN_MAX_SEGS	64

/**
 * struct xtp_train - DATA packets gathered to leave as one GSO skb
 * @head: the first packet, the others on its frag_list; NULL while empty
 * @tail: the last packet on @head's frag_list
 * @segs: packets in the train
 * @seg_max: the longest packet, XTP header included
 */
struct xtp_train {
	struct sk_buff *head, *tail;
	u32 segs;
	u32 seg_max;
};

bool xtp_train_ok(struct sock *sk);
int xtp_train_add(struct sock *sk, struct xtp_train *t, struct sk_buff *skb);
int xtp_ip_xmit(struct sock *sk, struct sk_buff *skb);
int xtp_train_send(struct sock *sk, struct xtp_train *t);
struct sk_buff *xtp_train_split(struct sk_buff *skb);
int xtp_offload_init(void);
void xtp_offload_exit(void);

/* tune.c */
extern int sysctl_xtp_rmem[3];
extern int sysctl_xtp_wmem[3];
void xtp_tune_offer(struct sock *sk, u64 old_alloc, u64 new_alloc);
void xtp_tune_arrival(struct sock *sk);
bool xtp_tune_rcvbuf(struct sock *sk);
void xtp_tune_sndbuf(struct sock *sk);

/* sysctl.c */
int xtp_sysctl_init_net(struct net *net);
void xtp_sysctl_exit_net(struct net *net);
int xtp_sysctl_init(void);
void xtp_sysctl_exit(void);

/* context.c */
int xtp_ctx_init_net(struct net *net);
void xtp_ctx_exit_net(struct net *net);
void xtp_ctx_init(struct sock *sk);
void xtp_ctx_track(struct sock *sk);
void xtp_ctx_untrack(struct sock *sk);
int xtp_ctx_walk(struct net *net, struct xtp_walk *pos,
		 bool (*match)(struct sock *sk, void *arg), void *arg,
		 struct sock **socks, struct xtp_walk *ends, int max);
void xtp_get_info(struct sock *sk, struct xtp_info *info);
int xtp_key_insert(struct sock *sk);
void xtp_key_remove(struct sock *sk);
struct sock *xtp_key_lookup(struct net *net, u64 key);
void xtp_peer_insert(struct sock *sk);
void xtp_peer_remove(struct sock *sk);
struct sock *xtp_peer_lookup(struct net *net, u64 key, __be32 addr);
int xtp_port_bind(struct sock *sk, __be32 addr, u16 port);
int xtp_port_listen(struct sock *sk);
void xtp_port_unbind(struct sock *sk);
struct sock *xtp_listener_lookup(struct net *net, __be32 daddr, u16 port,
				 int dif, int sdif);
void xtp_ctx_release(struct sock *sk);
void xtp_ctx_done(struct sock *sk, int err);

/* atm.c */
int xtp_atm_init_net(struct net *net);
void xtp_atm_exit_net(struct net *net);
/* Result of an ATM lookup for a FIRST. */
enum xtp_atm_state {
	XTP_ATM_NONE,		/* unknown: a new association */
	XTP_ATM_LIVE,		/* duplicate FIRST of a live association */
	XTP_ATM_REPLAY,		/* FIRST of a released association */
};

void xtp_atm_seq_show(struct seq_file *seq, struct net *net);
enum xtp_atm_state xtp_atm_lookup(struct net *net, __be32 addr, u64 key,
				  struct sock **skp);
int xtp_atm_add(struct sock *sk, __be32 addr, u64 key);
void xtp_atm_release(struct sock *sk);

/* output.c */
struct sk_buff *xtp_data_alloc(u32 len, gfp_t gfp);
int xtp_send_first(struct sock *sk);
int xtp_send_tcntl(struct sock *sk, u32 options);
int xtp_send_probe(struct sock *sk);
int xtp_send_cntl(struct sock *sk, u32 options);
void xtp_send_diag_reply(struct net *net, struct sk_buff *skb, u64 key,
			 u32 code, u32 value, const char *msg);
void xtp_push(struct sock *sk);
void xtp_read_done(struct sock *sk);

/* timer.c */
void xtp_timers_init(struct sock *sk);
void xtp_timers_stop(struct sock *sk);
void xtp_wtimer_arm(struct sock *sk, u32 sync);
void xtp_wtimer_answered(struct sock *sk, u32 echo);
void xtp_wtimer_guard_data(struct sock *sk);
void xtp_ctimeout_arm(struct sock *sk, u32 ms);
void xtp_keepalive(struct sock *sk, int on);
void xtp_release_cb(struct sock *sk);
u32 xtp_wtimer_ms(const struct xtp_sock *xs);

void xtp_send_timer_at(struct sock *sk, u64 ns);
void xtp_send_timer_stop(struct sock *sk);
void xtp_timer_reset(struct sock *sk, enum xtp_timer id, u32 ms);
void xtp_timer_stop(struct sock *sk, enum xtp_timer id);

/* Timer @id, not %XTP_TIMER_SEND: the CTIMER is the socket's sk_timer. */
static inline struct timer_list *xtp_timer_list(struct xtp_sock *xs,
						enum xtp_timer id)
{
	if (id == XTP_TIMER_CTIMER)
		return &xs->inet.sk.sk_timer;
	return &xs->tm.list[id];
}

/* Is timer @id (not %XTP_TIMER_SEND) queued? */
static inline bool xtp_timer_pending(const struct xtp_sock *xs,
				     enum xtp_timer id)
{
	if (id == XTP_TIMER_CTIMER)
		return timer_pending(&xs->inet.sk.sk_timer);
	return timer_pending(&xs->tm.list[id]);
}

/* pmtu.c */
u32 xtp_seg_limit(const struct xtp_sock *xs);
void xtp_snd_alloc(struct xtp_sock *xs, u64 alloc);
u32 xtp_ecntl_spans_max(const struct xtp_sock *xs);
void xtp_ecntl_note(struct xtp_sock *xs, const struct xtp_wire_pkt *pkt);
u32 xtp_seg_max(struct sock *sk);
int xtp_seg_fit(struct sock *sk, struct sk_buff_head *q, struct sk_buff *skb,
		u32 len);
void xtp_mtu_icmp(struct sock *sk, u32 mtu);
void xtp_mtu_reduced(struct sock *sk);
void xtp_mtu_handshake_end(struct sock *sk);
void xtp_mtu_delivered(struct xtp_sock *xs, const struct sk_buff *skb);

/* socket.c */
void xtp_listen_drop(struct sock *sk, struct xtp_sock *xs, bool forget);

/* validate.c */
void xtp_av_child(struct sock *child, const struct sk_buff *skb);
void xtp_av_rcvd(struct sock *sk, const struct sk_buff *skb, u64 key);
void xtp_av_first_again(struct sock *sk);
u32 xtp_av_data_room(struct sock *sk);
bool xtp_av_charge(struct sock *sk, u32 len);
void xtp_av_timeout(struct sock *sk);
bool xtp_av_ask(struct sock *listener, struct sock *child);
bool xtp_av_evict(struct sock *listener);
bool xtp_av_held(const struct sock *sk);

/* input.c */
int xtp_backlog_rcv(struct sock *sk, struct sk_buff *skb);

#if IS_ENABLED(CONFIG_KUNIT)
/* Internals xtp_kunit.ko reaches (VISIBLE_IF_KUNIT: context.c, input.c). */
extern atomic64_t xtp_key_counter;
bool xtp_queue_data(struct sock *sk, struct sk_buff *skb,
		    const struct xtp_wire_pkt *pkt, u64 seq);
#endif

/* teardown.c */
void xtp_teardown_step(struct sock *sk);
void xtp_close_outbound(struct sock *sk);
void xtp_abort(struct sock *sk, int err);
void xtp_send_end(struct sock *sk);

#endif /* _NET_XTP_XTP_H */
