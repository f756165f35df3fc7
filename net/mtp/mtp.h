/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP: internal declarations shared by the files of the module.
 *
 * Locking
 * =======
 *
 * Three locks, always taken in this order:
 *
 * 1. lock_sock() (the socket lock; process context only).  Serialises the
 *    calls that change what the socket is: bind() and autobind create
 *    &mtp_sock.udp (mtp_udp_open()), close() releases it, and
 *    SO_BINDTODEVICE moves it to a device (mtp_rehash(), called by
 *    sk_setsockopt() with the lock held).  recvmsg() holds it while it
 *    walks the receive queue, and MTP_ABORT takes it because
 *    MTP_ABORT_DESTROY unlinks queued skbs: while recvmsg() owns the
 *    socket, only it removes skbs from the receive queue, and it may
 *    sleep copying to user space between two skbs.  sendmsg() does not
 *    take it; it sleeps for room (mtp_client_wait_room()) holding no lock.
 *
 * 2. &mtp_sock.lock (spinlock, BH-safe).  Protects the transaction state:
 *    the client transactions (&mtp_sock.ctxn, nctxn and every struct
 *    mtp_ctxn, its ranges and out-of-order data), the destinations they
 *    share (&mtp_sock.dests, dest_idle, ndest_idle and every struct
 *    mtp_dest: RTT, congestion window, pacing), the server records and
 *    their answer cache (&mtp_sock.srec, srec_lru, srec_app, nsrec,
 *    cached) and the settings below them (idstr, kping, srv_limit).
 *    Input takes it from softirq with spin_lock() (mtp_input(), via the
 *    UDP socket's encap_rcv); process context and timers take
 *    spin_lock_bh().  Code
 *    under it never sleeps, allocates with GFP_ATOMIC, and never
 *    transmits: datagrams are collected on a private sk_buff_head and
 *    sent by mtp_xmit_list() after the unlock, because output on loopback
 *    (or an ICMP error) can re-enter our input in the same context.
 *    &mtp_sock.closing, set under it by close(), stops input that finds
 *    the socket after the UDP socket was released.
 *
 * &mtp_net.socks_lock (BH-safe) guards the namespace's list of sockets:
 * init and destroy take it alone; the /proc readers hold it while they
 * take each socket's &mtp_sock.lock, so it comes before that lock.
 * &mtp_net.hosts_lock (BH-safe) guards the namespace's RTT table
 * (hosts.c): taken under &mtp_sock.lock, nothing is taken under it.
 *
 * 3. sk_receive_queue.lock (irq-safe, taken by skb_queue_tail() and
 *    friends).  Innermost: mtp_queue_rcv() appends under &mtp_sock.lock.
 *    Wake-ups (sk_data_ready, sk_write_space) are called under
 *    &mtp_sock.lock too and take only the wait queue's lock.
 *
 * Fields some paths read without a lock (nctxn, kping, srv_limit, and
 * sk_wmem_queued for poll() and the send-space test) are
 * written with WRITE_ONCE() under the lock that protects them and read
 * with READ_ONCE(): a stale answer only makes poll() or a waiter look
 * again after the next wake-up.
 *
 * RCU: input finds the MTP socket from the UDP socket's sk_user_data
 * under rcu_read_lock() without taking a reference, so MTP sockets are
 * SOCK_RCU_FREE; mtp_xmit_list() reads &mtp_sock.udp under RCU as well.
 *
 * Timers: a transaction's timer and the server's gc_timer run in softirq
 * and take &mtp_sock.lock with spin_lock_bh().  Each armed timer holds a
 * reference (the transaction's, or the socket's for gc_timer); under the
 * lock timers are only stopped with timer_delete(), never waited for,
 * since the handler may be spinning on that very lock.  close() waits for
 * gc_timer with sk_stop_timer_sync() after dropping the lock; a
 * transaction timer that fires after its transaction ended sees
 * MTP_TS_DONE, does nothing and drops its reference.
 */
#ifndef _NET_MTP_MTP_H
#define _NET_MTP_MTP_H

#include <linux/hashtable.h>
#include <linux/ktime.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <net/inet_sock.h>
#include <net/netns/generic.h>
#include <net/snmp.h>
#include <uapi/linux/mtp.h>

#include "cc.h"

#include "flow.h"
#include "rate.h"
#include "rtt.h"
#include "wire.h"

/**
 * enum mtp_mib_field - per-namespace MTP counters (/proc/net/mtp/snmp)
 * @MTP_MIB_CURRSOCKETS: MTP sockets that exist in the namespace (gauge)
 * @MTP_MIB_INDATAGRAMS: datagrams received on MTP ports
 * @MTP_MIB_INTRUNCATED: dropped: shorter than the header
 * @MTP_MIB_INBADVERSION: dropped: unknown MTP version
 * @MTP_MIB_INBADOPTIONS: dropped: reserved option bits
 * @MTP_MIB_INBADERROR: dropped: impossible error class
 * @MTP_MIB_INBADSHIFT: dropped: datagram size out of range
 * @MTP_MIB_INBADSIZE: dropped: payload too large for its kind
 * @MTP_MIB_INBADRANGE: dropped: address, rsize, payload inconsistent
 * @MTP_MIB_INNOTXN: dropped: response for no transaction of ours
 * @MTP_MIB_INRCVBUFERRORS: dropped: receive buffer full
 * @MTP_MIB_INNOMEM: dropped: no memory
 * @MTP_MIB_INREQUESTS: requests received
 * @MTP_MIB_INRESPONSES: responses received for live transactions
 * @MTP_MIB_INDUPLICATES: responses that carried no new data
 * @MTP_MIB_OUTREQUESTS: request datagrams sent
 * @MTP_MIB_OUTREPEATS: of those, repeats of earlier requests or ranges
 * @MTP_MIB_OUTRESPONSES: response datagrams sent
 * @MTP_MIB_OUTERRORS: datagrams that could not be sent
 * @MTP_MIB_LOSSES: ranges declared lost
 * @MTP_MIB_TXNSTARTED: client transactions started
 * @MTP_MIB_TXNDONE: client transactions completed successfully
 * @MTP_MIB_TXNFAILED: client transactions ended with an error
 * @MTP_MIB_TXNEXPIRED: of those, expired
 * @MTP_MIB_TXNABORTED: client transactions aborted by the application
 * @MTP_MIB_SRVDROPS: requests dropped: too many pending, or no buffer
 * @MTP_MIB_CACHEHITS: requests answered from the kernel's copy
 * @MTP_MIB_CACHEMISSES: requests of answered transactions passed on
 * @MTP_MIB_KERNELREPLIES: PING and IDSTR requests answered by the kernel
 * @MTP_MIB_SRVRECORDS: transactions server sockets remember (gauge)
 * @MTP_MIB_SRVCACHEDBYTES: bytes of answers server sockets keep (gauge)
 * @MTP_MIB_SRVEVICTIONS: records forgotten early to make room for new ones
 * @MTP_MIB_SRVPENDDROPS: subrequests dropped while the application was asked
 * @MTP_MIB_EARLYLOSSES: of the losses, declared before the repeat interval
 * @MTP_MIB_SQUEEZES: windows narrowed because the receive queue filled
 * @MTP_MIB_OUTPENDING: "pending" replies to requests waiting for the
 *	application's answer
 * @MTP_MIB_INPENDING: "pending" replies received by transactions
 * @MTP_MIB_INNOTUNICAST: dropped: not unicast to us, or from a source
 *	that is not a unicast address
 * @MTP_MIB_KERNELRATEDROPS: PING and IDSTR requests left unanswered,
 *	over net.mtp.kping_rate
 * @MTP_MIB_SRVAMPLIMITED: answers cut, or held, for a client whose
 *	address is not validated (3x what it sent)
 * @MTP_MIB_OUTVALIDATE: "validate" replies sent (answer held)
 * @MTP_MIB_SRVVALIDATED: transactions whose client echoed our token
 * @MTP_MIB_INBADTOKEN: requests with a token that is not ours or too old
 * @MTP_MIB_INFILTERED: dropped by the MTP socket's filter, cgroup-BPF
 *	ingress program, LSM or IPsec policy
 * @MTP_MIB_INUNREACH: transactions ended by an ICMP error that their
 *	destination refuses them for good
 * @MTP_MIB_CONGCUTS: losses that halved a destination's congestion window
 * @MTP_MIB_RANDOMLOSSES: losses taken as random, the path not queueing:
 *	the congestion window kept its size
 * @MTP_MIB_RCVBUFGROWS: receive buffers doubled (net.mtp.rmem_max): data
 *	behind holes filled them, or the model's window reached them while
 *	the reader kept up
 * @__MTP_MIB_MAX: number of counters
 */
enum mtp_mib_field {
	MTP_MIB_CURRSOCKETS,
	MTP_MIB_INDATAGRAMS,
	MTP_MIB_INTRUNCATED,
	MTP_MIB_INBADVERSION,
	MTP_MIB_INBADOPTIONS,
	MTP_MIB_INBADERROR,
	MTP_MIB_INBADSHIFT,
	MTP_MIB_INBADSIZE,
	MTP_MIB_INBADRANGE,
	MTP_MIB_INNOTXN,
	MTP_MIB_INRCVBUFERRORS,
	MTP_MIB_INNOMEM,
	MTP_MIB_INREQUESTS,
	MTP_MIB_INRESPONSES,
	MTP_MIB_INDUPLICATES,
	MTP_MIB_OUTREQUESTS,
	MTP_MIB_OUTREPEATS,
	MTP_MIB_OUTRESPONSES,
	MTP_MIB_OUTERRORS,
	MTP_MIB_LOSSES,
	MTP_MIB_TXNSTARTED,
	MTP_MIB_TXNDONE,
	MTP_MIB_TXNFAILED,
	MTP_MIB_TXNEXPIRED,
	MTP_MIB_TXNABORTED,
	MTP_MIB_SRVDROPS,
	MTP_MIB_CACHEHITS,
	MTP_MIB_CACHEMISSES,
	MTP_MIB_KERNELREPLIES,
	MTP_MIB_SRVRECORDS,
	MTP_MIB_SRVCACHEDBYTES,
	MTP_MIB_SRVEVICTIONS,
	MTP_MIB_SRVPENDDROPS,
	MTP_MIB_EARLYLOSSES,
	MTP_MIB_SQUEEZES,
	MTP_MIB_OUTPENDING,
	MTP_MIB_INPENDING,
	MTP_MIB_INNOTUNICAST,
	MTP_MIB_KERNELRATEDROPS,
	MTP_MIB_SRVAMPLIMITED,
	MTP_MIB_OUTVALIDATE,
	MTP_MIB_SRVVALIDATED,
	MTP_MIB_INBADTOKEN,
	MTP_MIB_INFILTERED,
	MTP_MIB_INUNREACH,
	MTP_MIB_CONGCUTS,
	MTP_MIB_RANDOMLOSSES,
	MTP_MIB_RCVBUFGROWS,
	__MTP_MIB_MAX
};

struct mtp_mib {
	unsigned long mibs[__MTP_MIB_MAX];
};

/**
 * struct mtp_net - MTP state of one network namespace
 * @mib: per-CPU counters, folded when read
 * @sysctl: the net.mtp table
 * @socks: the namespace's MTP sockets, for /proc/net/mtp
 * @socks_lock: protects @socks; taken before any &mtp_sock.lock
 * @repeat_ms: default initial repeat interval
 * @repeat_min_ms: floor of the repeat interval
 * @expire_ms: default expiry
 * @cache_ms: how long a server keeps an answer
 * @cache_obj_bytes: most bytes kept of one answer
 * @cache_sock_bytes: most bytes kept by one socket
 * @srv_max_pending: most transactions a server socket remembers
 * @max_txns: most client transactions per socket
 * @reorder: declare a range lost once the answer to a subrequest sent
 *	this many subrequests later arrives; 0: only the repeat interval
 * @kping_rate: PING and IDSTR answers the kernel sends per second
 * @kping_rs: their rate limit
 * @rmem_max: most a client socket's receive buffer grows to by itself
 * @hosts: RTTs learnt of server hosts, for new sockets (hosts.c)
 * @hosts_lock: protects @hosts
 * @hosts_key: hashes addresses to slots of @hosts
 */
struct mtp_net {
	struct mtp_mib __percpu *mib;
	struct ctl_table_header *sysctl;
	struct hlist_head socks;
	spinlock_t socks_lock;	/* protects @socks */
	int repeat_ms;
	int repeat_min_ms;
	int expire_ms;
	int cache_ms;
	int cache_obj_bytes;
	int cache_sock_bytes;
	int srv_max_pending;
	int max_txns;
	int reorder;
	int kping_rate;
	int cc;
	struct ratelimit_state kping_rs;
	int rmem_max;
	struct mtp_host *hosts;
	spinlock_t hosts_lock;	/* protects @hosts */
	u32 hosts_key;
};

#define MTP_CTXN_BITS	6
#define MTP_SREC_BITS	8
#define MTP_DEST_BITS	4

/**
 * struct mtp_dest - what a client socket knows of one server host
 * @node: in &mtp_sock.dests
 * @idle: in &mtp_sock.dest_idle while no transaction uses it
 * @daddr: the host
 * @users: transactions to it now
 * @used: when the last of them ended (jiffies)
 * @starved: a transaction waits for room in @cc
 * @rtt: round-trip times, from every transaction to it
 * @cc: the congestion window its transactions share
 * @rate: its delivery rate and model (rate.c), used if @bbr
 * @bbr: net.mtp.cc chose the model when the entry was made
 * @token: the host's latest address validation token for us
 * @token_at: when it came (jiffies); 0 for none
 *
 * Kept after its last transaction ends, so the next one starts with the
 * RTT and window learnt (MTP_DEST_IDLE of them per socket); protected by
 * &mtp_sock.lock.
 */
struct mtp_dest {
	struct hlist_node node;
	struct list_head idle;
	__be32 daddr;
	unsigned int users;
	unsigned long used;
	bool starved;
	struct mtp_rtt rtt;
	struct mtp_cc cc;
	struct mtp_rate rate;
	bool bbr;
	u64 token;
	unsigned long token_at;
};

/*
 * A client reuses a server's token for this long: tokens are good for 64
 * to 128 s (token.c).
 */
#define MTP_TOKEN_KEEP		(60 * HZ)

/**
 * struct mtp_sock - an MTP transaction endpoint
 * @inet: the inet socket, first so that inet_sk() works
 * @lock: protects everything below but @udp (see "Locking" above)
 * @udp: the kernel UDP socket on our port, set and cleared under
 *	lock_sock(), read under RCU
 * @closing: the socket is being closed; no new work
 * @net_node: entry in &mtp_net.socks
 * @reqid_ctr: counts client transactions; mtp_reqid_next() turns it
 *	into their ids
 * @reqid_key: secret of that permutation
 * @srec_key: secret of the server records' hash
 * @last_reqid: id of the last one started (MTP_LAST_REQID)
 * @ctxn: client transactions by id
 * @nctxn: their number
 * @srec: server records by (client, id)
 * @srec_lru: the records the application does not hold, least recently
 *	used first: eviction takes the first
 * @srec_app: the records whose request the application was given and has
 *	not answered, least recently used first: never evicted
 * @nsrec: their number
 * @cached: bytes of answers kept by the server side
 * @gc_timer: expires server records
 * @squeeze_at: the receive-queue guard may narrow a window again then
 * @rcvbuf_at: the receive buffer may grow again then (client.c,
 *	mtp_rx_autotune())
 * @srv_lat: the server application's usual answer time, jiffies (EWMA)
 * @srv_limit: bytes the server sends per request, 0 for no limit
 * @dests: the destinations of client transactions (&struct mtp_dest)
 * @dest_idle: those no transaction uses, least recently used first
 * @ndest_idle: their number
 * @kping: the kernel answers PING and IDSTR
 * @idlen: length of @idstr
 * @idstr: the IDSTR answer
 */
struct mtp_sock {
	struct inet_sock inet;
	spinlock_t lock;	/* see above */
	struct socket *udp;
	bool closing;
	struct hlist_node net_node;
	u32 reqid_ctr;
	u32 last_reqid;
	siphash_key_t reqid_key;
	siphash_key_t srec_key;
	DECLARE_HASHTABLE(ctxn, MTP_CTXN_BITS);
	unsigned int nctxn;
	DECLARE_HASHTABLE(srec, MTP_SREC_BITS);
	struct list_head srec_lru;
	struct list_head srec_app;
	unsigned int nsrec;
	size_t cached;
	struct timer_list gc_timer;
	unsigned long squeeze_at;
	unsigned long rcvbuf_at;
	u32 srv_lat;
	u32 srv_limit;
	DECLARE_HASHTABLE(dests, MTP_DEST_BITS);
	struct list_head dest_idle;
	unsigned int ndest_idle;
	bool kping;
	u8 idlen;
	char idstr[255];
};

static inline struct mtp_sock *mtp_sk(const struct sock *sk)
{
	return (struct mtp_sock *)sk;
}

static inline struct sock *mtp_to_sk(struct mtp_sock *ms)
{
	return &ms->inet.sk;
}

/**
 * mtp_drop() - free a datagram that was not taken, saying why
 * @ms: the MTP socket it reached, or NULL
 * @skb: the datagram
 * @reason: the nearest SKB_DROP_REASON_* (the table in mtp.rst)
 *
 * What a socket drops counts in its sk_drops; skb:kfree_skb and drop
 * monitors see the reason and the dropping function (this is inlined).
 */
static inline void mtp_drop(struct mtp_sock *ms, struct sk_buff *skb,
			    enum skb_drop_reason reason)
{
	if (ms)
		atomic_inc(&mtp_to_sk(ms)->sk_drops);
	kfree_skb_reason(skb, reason);
}

/* Kinds of skbs on the socket's receive queue. */
enum mtp_skb_kind {
	MTP_SKB_PIECE,	/* response data; the transaction supplies the info */
	MTP_SKB_INFO,	/* data = struct mtp_info, then a payload */
};

/**
 * struct mtp_skb_cb - skb->cb of received MTP data
 * @addr: peer address
 * @port: peer port
 * @kind: &enum mtp_skb_kind
 * @df: to be sent: DF whatever its size (mtp_xmit_list())
 * @reqid: transaction id
 * @pos: object address of the first unread byte (pieces)
 * @req_addr: the transaction's request address (pieces)
 * @off: offset of the first unread byte in the skb's data
 * @len: unread bytes
 * @saddr: to be sent: the source address, 0 for the route's choice
 *
 * Also used for skbs waiting to be sent: @addr and @port are the
 * destination.
 */
struct mtp_skb_cb {
	__be32 addr;
	__be32 saddr;
	__be16 port;
	u8 kind;
	bool df;
	u32 reqid;
	u32 pos;
	u32 req_addr;
	u32 off;
	u32 len;
};

#define MTP_SKB_CB(skb)	((struct mtp_skb_cb *)((skb)->cb))

extern unsigned int mtp_net_id;
extern struct proto mtp_prot;
extern const struct proto_ops mtp_dgram_ops;

static inline struct mtp_net *mtp_net(const struct net *net)
{
	return net_generic(net, mtp_net_id);
}

#define MTP_INC_STATS(net, field) \
	this_cpu_inc(mtp_net(net)->mib->mibs[field])
#define MTP_DEC_STATS(net, field) \
	this_cpu_dec(mtp_net(net)->mib->mibs[field])
#define MTP_ADD_STATS(net, field, n) \
	this_cpu_add(mtp_net(net)->mib->mibs[field], n)

/* proc.c */
int mtp_proc_init_net(struct net *net);
void mtp_proc_exit_net(struct net *net);

/* sysctl.c */
void mtp_sysctl_defaults(struct mtp_net *mn);
int mtp_sysctl_init_net(struct net *net);
void mtp_sysctl_exit_net(struct net *net);

/* udp.c: the kernel UDP socket, input demultiplexing and output */
int mtp_udp_open(struct mtp_sock *ms, __be32 addr, __be16 port);
void mtp_udp_close(struct mtp_sock *ms);
struct sk_buff *mtp_alloc_msg(const struct mtp_wire_msg *m, const void *data,
			      u32 len, __be32 daddr, __be16 dport, gfp_t gfp);
void mtp_xmit_list(struct mtp_sock *ms, struct sk_buff_head *q);
void mtp_xmit_from(struct sk_buff_head *q, __be32 saddr);
u32 mtp_path_payload(struct mtp_sock *ms, __be32 daddr, __be16 dport);

/* mem.c: charging what servers keep */
bool mtp_mem_cache_charge(size_t n);
void mtp_mem_cache_uncharge(size_t n);
void mtp_mem_init(void);

/* hosts.c: RTTs a namespace's client sockets learnt, for the next one */
struct mtp_host;
int mtp_hosts_init_net(struct mtp_net *mn);
void mtp_hosts_exit_net(struct mtp_net *mn);
void mtp_hosts_save(struct mtp_net *mn, const struct mtp_dest *d);
void mtp_hosts_load(struct mtp_net *mn, struct mtp_dest *d);

/* dest.c: per-destination state of client transactions */
struct mtp_dest *mtp_dest_get(struct mtp_sock *ms, __be32 daddr, u32 dgram,
			      struct mtp_dest **spare);
void mtp_dest_put(struct mtp_sock *ms, struct mtp_dest *d);
void mtp_dest_flush(struct mtp_sock *ms);

/* client.c: transactions this socket started */
int mtp_client_request(struct mtp_sock *ms, const struct mtp_request *req,
		       __be32 daddr, __be16 dport, struct msghdr *msg,
		       size_t len);
void mtp_client_rcv(struct mtp_sock *ms, struct sk_buff *skb,
		    const struct mtp_wire_msg *m, __be32 saddr, __be16 sport,
		    struct sk_buff_head *out);
bool mtp_client_writable(struct mtp_sock *ms);
int mtp_client_abort(struct mtp_sock *ms, u32 reqid, u32 level);
void mtp_client_info(struct mtp_sock *ms, u32 reqid, struct mtp_info *info);
void mtp_client_kick(struct mtp_sock *ms);
void mtp_client_close(struct mtp_sock *ms);
void mtp_client_seq_show(struct seq_file *seq, struct mtp_sock *ms);
void mtp_client_unreach(struct mtp_sock *ms, __be32 daddr, __be16 dport,
			u32 reqid);
int mtp_client_init(void);
void mtp_client_exit(void);

/* server.c: requests this socket answers */
void mtp_server_rcv(struct mtp_sock *ms, struct sk_buff *skb,
		    const struct mtp_wire_msg *m, __be32 saddr, __be16 sport,
		    struct sk_buff_head *out);
int mtp_server_respond(struct mtp_sock *ms, const struct mtp_response *resp,
		       __be32 daddr, __be16 dport, struct msghdr *msg,
		       size_t len);
void mtp_server_gc(struct timer_list *t);
void mtp_server_taken(struct mtp_sock *ms, __be32 caddr, __be16 cport,
		      u32 reqid);
void mtp_server_close(struct mtp_sock *ms);

/* token.c: address validation tokens, the kernel's answer rate */
/* A server sends an unvalidated client at most this times what it got. */
#define MTP_AMP_FACTOR	3
u64 mtp_token_make(const struct net *net, __be32 caddr);
bool mtp_token_check(const struct net *net, __be32 caddr, u64 token);
void mtp_kping_init_net(struct mtp_net *mn);
bool mtp_kping_allow(struct net *net);

/* reqid.c: request ids and record hashing under the socket's secrets */
void mtp_secrets_init(struct mtp_sock *ms);
u32 mtp_reqid_next(struct mtp_sock *ms);
u32 mtp_srec_hash(const struct mtp_sock *ms, __be32 caddr, __be16 cport,
		  u32 reqid);

/* socket.c */
void mtp_queue_rcv(struct mtp_sock *ms, struct sk_buff *skb);

#endif /* _NET_MTP_MTP_H */
