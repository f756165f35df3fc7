/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the unit tests, the fuzzer and the tshark oracle.  They
 * deliberately do not use wire.c's own byte helpers or checksum, so the
 * tests check the codec against an independent reading of the bytes.
 */
#ifndef _XTP_SELFTEST_TESTLIB_H
#define _XTP_SELFTEST_TESTLIB_H

#include "wire.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Big-endian reads of raw packet bytes. */
u16 rd16(const u8 *p);
u32 rd32(const u8 *p);
u64 rd64(const u8 *p);

/*
 * Reference RFC 1071 sum: 16-bit big-endian words, odd byte padded with
 * zero, end-around carry.  Returns the folded sum (not complemented).
 */
u16 ref_sum16(const u8 *p, size_t len);

/* Repair the CHECK of a packet after a test edited its bytes. */
void fix_csum(u8 *p, size_t len);

/* Round-trip sample packets: one or more of every type and format. */
#define SAMPLE_MAX_LEN	2048
struct sample {
	const char *name;
	struct xtp_wire_pkt pkt;
	struct xtp_wire_span spans[8];
	u8 data[256];
};
enum sample_id {
	S_DATA, S_DATA_EMPTY, S_DATA_BTAG, S_DATA_NOCHECK, S_DATA_ALLOPTS,
	S_CNTL, S_FIRST4_T0, S_FIRST4_T1, S_FIRST6_T0, S_FIRST6_T1,
	S_ECNTL0, S_ECNTL1, S_ECNTL5, S_TCNTL_T0, S_TCNTL_T1,
	S_JCNTL4_T0, S_JCNTL6_T1, S_DIAG, S_DIAG_EMPTY, S_COUNT
};
unsigned int sample_count(void);
/* Build sample @i into @s; pkt.data and pkt.ctl.spans point into @s. */
void sample_build(unsigned int i, struct sample *s);

/*
 * Compare two packet descriptions on every field the packet type carries
 * (DLEN, CHECK, alen and tlen excluded: the encoder computes those).  User
 * data and spans are compared by content.  Returns 0 if equal, otherwise
 * nonzero with the first difference described in @why.
 */
int pkt_cmp(const struct xtp_wire_pkt *a, const struct xtp_wire_pkt *b,
	    char *why, size_t whylen);

#endif /* _XTP_SELFTEST_TESTLIB_H */
