/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Golden packets transcribed from the LinuxXTP thesis traces (seed
 * 001_8282df4054f7b6a0.txt), shared by the unit tests, the fuzzer's seed
 * corpus and the tshark oracle.
 */
#ifndef _XTP_SELFTEST_GOLDEN_H
#define _XTP_SELFTEST_GOLDEN_H

#include "wire.h"

/*
 * Constants every FIRST/TCNTL in the thesis prints: "al16 ad9216 af256" and
 * "tl8 sv4 tf0".  ad/af are 8-bit fields the LinuxXTP tcpdump printed through
 * ntohs(): 9216 = 36 << 8, 256 = 1 << 8.
 */
#define GOLDEN_ALEN		16
#define GOLDEN_ADOMAIN		36
#define GOLDEN_AFORMAT		1
#define GOLDEN_AD_PRINTED	9216
#define GOLDEN_AF_PRINTED	256
#define GOLDEN_TLEN		8
#define GOLDEN_SERVICE		4
#define GOLDEN_TFORMAT		0
/* dh:/sh: of the thesis: the server and the client. */
#define GOLDEN_SERVER		"192.200.200.200"
#define GOLDEN_CLIENT		"192.100.100.100"

/**
 * struct golden_pkt - one trace line, fields as printed
 * @fig: figure, e.g. "fig8"
 * @no: line number within the figure, from 1
 * @c2s: client to server
 * @pformat: packet letter F/T/C/D as PFORMAT
 * @key: "ky<N>": N
 * @rtn: "+RTN" printed: KEY bit 63 set
 * @dlen: "dl"
 * @sync: "sy"
 * @seq: "sq"
 * @options: option mnemonics as XTP_CMD_* masks
 * @rseq: CNTL/TCNTL "rq"
 * @alloc: CNTL/TCNTL "al"
 * @echo: CNTL/TCNTL "ec"
 * @xkey: TCNTL "xk"
 * @dport: FIRST "dp"
 * @sport: FIRST "sp"
 * @text: the printed line, normalized (OCR fixed, timestamps dropped)
 */
struct golden_pkt {
	const char *fig;
	unsigned int no;
	bool c2s;
	u8 pformat;
	u64 key;
	bool rtn;
	u32 dlen;
	u32 sync;
	u64 seq;
	u32 options;
	u64 rseq;
	u64 alloc;
	u32 echo;
	u64 xkey;
	u16 dport;
	u16 sport;
	const char *text;
};

extern const struct golden_pkt golden[];
extern const unsigned int golden_count;

/* Largest golden packet, header included. */
#define GOLDEN_MAX_LEN		(XTP_WIRE_HDR_LEN + 1448)

/**
 * golden_build() - turn a trace line into a packet description
 * @g: trace line
 * @pkt: result, zeroed first
 * @data: scratch for user data, at least GOLDEN_MAX_LEN bytes; the thesis
 *	does not print user data, so a fixed pattern fills it
 */
void golden_build(const struct golden_pkt *g, struct xtp_wire_pkt *pkt,
		  u8 *data);

#endif /* _XTP_SELFTEST_GOLDEN_H */
