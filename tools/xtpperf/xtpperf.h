/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xtpperf: one workload generator for XTP, MTP, TCP and TCP Fast Open.
 * The declarations shared by the generator (xtpperf.c) and the transports
 * (proto.c).
 */
#ifndef _XTPPERF_H
#define _XTPPERF_H

#include <netinet/in.h>
#include <stdint.h>
#include <sys/types.h>

#define XP_MAGIC	0x58505246U	/* "XPRF" */
#define XP_MAX_MSG	(1U << 20)	/* largest request or answer */

enum xp_proto { XP_XTP, XP_TCP, XP_TFO, XP_MTP };
/* Wire modes; XP_MRR is a client-side sequence of XP_RR exchanges. */
enum xp_mode { XP_CRR = 1, XP_RR, XP_STREAM, XP_HOLD, XP_MRR };

/*
 * What a client asks for, at the start of every association (crr: with
 * the request; rr, stream and hold: once).  Network byte order.  MTP sends
 * it as the request payload; @respsize is then the object's size.  In rr,
 * each request starts with two more words, its own length (these 8 bytes
 * included) and the answer's.
 */
struct xp_hdr {
	uint32_t magic;
	uint32_t mode;
	uint32_t reqsize;	/* request bytes after this header */
	uint32_t respsize;	/* answer bytes per request */
};

/**
 * struct xp_conn - one client's transport state
 * @fd: its socket; -1 between crr transactions
 * @proto: transport
 * @dst: server address
 * @buf: scratch buffer of XP_MAX_MSG bytes
 * @fallbacks: timed TFO exchanges whose data did not ride in the SYN
 * @progress: stream bytes the server has confirmed or the socket took so
 *	far, sampled by the main thread for the per-second series
 */
struct xp_conn {
	int fd;
	enum xp_proto proto;
	struct sockaddr_in dst;
	char *buf;
	uint64_t fallbacks;
	volatile uint64_t progress;
};

int xp_server(enum xp_proto proto, const struct sockaddr_in *me,
	      int workers);
int xp_crr(struct xp_conn *c, uint32_t reqsize, uint32_t respsize);
int xp_rr_open(struct xp_conn *c);
int xp_rr(struct xp_conn *c, uint32_t reqsize, uint32_t respsize);
int64_t xp_mrr(struct xp_conn *c);
int xp_hold(struct xp_conn *c);
int64_t xp_stream(struct xp_conn *c, uint64_t bytes, double seconds);
void xp_close(struct xp_conn *c);
int xp_parse_proto(const char *s, enum xp_proto *p);
const char *xp_proto_name(enum xp_proto p);

#endif /* _XTPPERF_H */
