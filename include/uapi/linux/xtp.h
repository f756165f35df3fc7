/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * XTP 4.0 (Xpress Transport Protocol) socket interface.
 *
 * socket(AF_INET, SOCK_XTP, IPPROTO_XTP) opens an XTP context.  The
 * protocol argument may also be 0.
 */
#ifndef _UAPI_LINUX_XTP_H
#define _UAPI_LINUX_XTP_H

#include <linux/types.h>

/* IANA protocol number of XTP. */
#ifndef IPPROTO_XTP
#define IPPROTO_XTP	36
#endif

/*
 * Socket type of an XTP context.  Types 7, 8 and 9 are the free values
 * below SOCK_MAX; DCCP's SOCK_DCCP (6) is the precedent.
 */
#ifndef SOCK_XTP
#define SOCK_XTP	7
#endif

/* Socket option level, as SOL_SCTP is IPPROTO_SCTP. */
#define SOL_XTP		IPPROTO_XTP

/*
 * sendmsg() flag: close the outbound stream after this data (WCLOSE rides
 * on its last packet).  On an unconnected socket with a destination, the
 * data, EOM and WCLOSE all travel in the FIRST: a one-request exchange is
 * then the thesis' 4 packets.  The value is Linux's MSG_FIN.
 */
#define MSG_XTP_WCLOSE	0x200

/*
 * sendmsg() flag: set DREQ on the last packet of this data: the peer
 * confirms with a control packet once its application has read it.  The
 * value is Linux's MSG_SYN, which no IPv4 transport uses.
 */
#define MSG_XTP_DREQ	0x400

/*
 * Socket options at level SOL_XTP: the LinuxXTP thesis' Appendix A.  All
 * take an int unless noted; times are in milliseconds.
 */
#define XTPSOCK_ASSOCTYPE	1	/* enum xtp_assoc_type */
#define XTPSOCK_RATECONTROL	2	/* bool; rate control is not implemented */
#define XTPSOCK_TTS		3	/* enum xtp_tts: traffic service */
#define XTPSOCK_MAXDATA		4	/* largest DATA payload, bytes */
#define XTPSOCK_LN_THRESH	5	/* SCC linear growth threshold, bytes */
#define XTPSOCK_INIT_TRAINSIZE	6	/* SCC initial window, bytes */
#define XTPSOCK_TEARDOWNMETHOD	7	/* enum xtp_teardown */
#define XTPSOCK_SERVICEPROFILE	8	/* traffic segment service type (4) */
#define XTPSOCK_SREQFREQ	9	/* SREQ every N DATA packets */
#define XTPSOCK_NB_CONNECT	10	/* bool: connect() returns EINPROGRESS */
#define XTPSOCK_RTT_NODECOUPLE	11	/* bool: no SREQ/EDGE decoupling */
#define XTPSOCK_RTT_CACHE_SIZE	12	/* 1..10 */
#define XTPSOCK_WTIMER_TMO	13	/* WTIMER; 0 = derived from the RTT */
#define XTPSOCK_CTIMER_TMO	14	/* CTIMER keep-alive */
#define XTPSOCK_ZOMBIE_TMO	15	/* ZOMBIE lifetime */
#define XTPSOCK_CTIMEOUT_TMO	16	/* CTIMEOUT: handshake and setup limit */
#define XTPSOCK_NO_ATMAP_TIMER	17	/* bool: no ATM replay timer */
#define XTPSOCK_NOCHECK		18	/* bool: checksum covers the header only */
#define XTPSOCK_MIBSTAT		19	/* getsockopt: struct xtp_mibstat */
/* Beyond Appendix A: */
#define XTPSOCK_CONGESTION	20	/* enum xtp_cc; default sysctl net.xtp.cc */
#define XTPSOCK_FASTNAK		21	/* bool: ask the peer for FASTNAK ECNTLs */

/* XTPSOCK_CONGESTION: congestion controllers */
enum xtp_cc {
	XTP_CC_SCC	= 1,	/* the thesis' Simple Congestion Control */
	XTP_CC_NEWRENO	= 2,	/* AIMD, fast recovery from ECNTL, paced */
	XTP_CC_VENO	= 3,	/* NewReno, random losses cut to 4/5 only */
	XTP_CC_BBR	= 4,	/* delivery-rate model, paced (bbr.c) */
};

/* XTPSOCK_ASSOCTYPE: which phases share packets (S setup, D data, T teardown) */
enum xtp_assoc_type {
	XTP_ASSOC_S_D_T	= 1,	/* all separate (DEFAULT, REQRESP) */
	XTP_ASSOC_SDT	= 2,	/* one FIRST with data and WCLOSE */
	XTP_ASSOC_SD_T	= 3,	/* data in the FIRST, separate WCLOSE */
	XTP_ASSOC_S_DT	= 4,	/* empty FIRST, WCLOSE on the last DATA */
};

/* XTPSOCK_TEARDOWNMETHOD */
enum xtp_teardown {
	XTP_TEARDOWN_GRACEFUL	= 1,	/* both close, then END */
	XTP_TEARDOWN_ABBREV	= 2,	/* END rides on the last RCLOSE */
	XTP_TEARDOWN_FORCED	= 3,	/* WCLOSE, RCLOSE, then END at once */
	XTP_TEARDOWN_ABORT	= 4,	/* END only */
};

/* XTPSOCK_TTS: the packaged Transport Traffic Services */
enum xtp_tts {
	XTP_SERVICE_DEFAULT	 = 1,	/* S_D_T, AbbrevClose */
	XTP_SERVICE_FILETRANSFER = 2,	/* SDT, RCLOSE on the FIRST */
	XTP_SERVICE_REQRESP	 = 3,	/* as DEFAULT */
};

/**
 * struct xtp_mibstat - XTPSOCK_MIBSTAT: the thesis' Appendix B metrics
 *
 * Counters are per association.  Grows only at the end: getsockopt copies
 * min(optlen, sizeof) bytes.
 */
struct xtp_mibstat {
	__u32 assoc_type;
	__u32 teardown_type;
	__u32 profile_type;
	__u32 sreq_freq;
	__u64 fpk_out, dpk_out, cpk_out, tpk_out, epk_out, dgpk_out;
	__u64 fpk_in, dpk_in, cpk_in, tpk_in, epk_in, dgpk_in;
	__u64 data_retransmits;
	__u64 fc_wait;
	__u64 rc_wait;
	__u64 sync;
	__u64 datasreq_sent;
	__u64 edgebit_set;
	__u64 rtt_updates;
	__u64 lin_inc, lin_dec, xp_inc, xp_dec;
	__u64 handshakes;
	__u32 init_trainsize;
	__u32 trainsize;
	__u32 cong_trainsize;
	__u32 linear_thresh;
	__u32 linear_count;
	__u32 rtt_cache_sz;
	__u32 wtimer_tmo;
	__u32 ctimer_tmo;
	__u32 ctimeout_tmo;
	__u32 zombie_tmo;
	__u32 srtt_us;
	__u32 rttvar_us;
	__u64 bytes_sent;
	__u64 bytes_received;
	__u32 cc;		/* enum xtp_cc */
	__u32 min_rtt_us;	/* least RTT sample */
	__u64 ecntl_losses;	/* DATA packets an ECNTL reported missing */
	__u64 dup_data_in;	/* DATA received that was already here */
	__u64 pacing_rate;	/* bytes per second, 0 = not paced */
	__u64 random_losses;	/* Veno: window cuts taken for random loss */
};

/**
 * struct xtp_info - one context, as sock_diag's INET_DIAG_INFO carries it
 * @key: the key of our context (its RETURN-less form)
 * @peer_key: the key the peer chose for its side, 0 before it is known
 * @snd_una: oldest byte not yet acknowledged
 * @snd_nxt: next byte to send
 * @snd_alloc: the peer's ALLOC: sending stops before this byte
 * @rcv_nxt: next byte expected in order
 * @rcv_alloc: the ALLOC we last granted
 * @bytes_in_flight: sent, not acknowledged, not known lost
 * @sacked_out: bytes beyond @snd_una that ECNTL spans showed received
 * @lost_out: bytes marked lost, waiting to be sent again
 * @maxdata: largest DATA payload on the path now
 * @wtimer_retries: synchronizing handshakes left unanswered in a row
 * @peer_valid: 1 once the peer proved it receives at its address
 * @reserved: zero
 * @mib: the XTPSOCK_MIBSTAT counters, with the trainsize (@mib.trainsize),
 *	threshold (@mib.linear_thresh) and RTT estimates (@mib.srtt_us,
 *	@mib.rttvar_us, @mib.min_rtt_us)
 *
 * Grows only inside @mib (which is last): a reader sizes it by the
 * attribute's length, as with getsockopt(XTPSOCK_MIBSTAT).
 */
struct xtp_info {
	__u64 key;
	__u64 peer_key;
	__u64 snd_una;
	__u64 snd_nxt;
	__u64 snd_alloc;
	__u64 rcv_nxt;
	__u64 rcv_alloc;
	__u64 bytes_in_flight;
	__u32 sacked_out;
	__u32 lost_out;
	__u32 maxdata;
	__u32 wtimer_retries;
	__u32 peer_valid;
	__u32 reserved;
	struct xtp_mibstat mib;
};

#endif /* _UAPI_LINUX_XTP_H */
