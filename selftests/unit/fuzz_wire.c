// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for xtp_wire_decode().  Random input rarely carries a
 * valid CHECK, so every input is decoded twice: as is, and with
 * XTP_WIRE_F_NOCSUM to reach the segment parsers.  Whatever decodes must
 * re-encode to the same bytes (CHECK aside when it was not verified) and
 * decode again to the same packet.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined (see Makefile, "fuzz").
 */
#include <stdio.h>
#include <stdlib.h>

#include "testlib.h"
#include "wire.h"

#define MAX_OUT	(64 * 1024)

static void die(const char *what, const char *why)
{
	fprintf(stderr, "fuzz_wire: %s%s%s\n", what, why ? ": " : "",
		why ? why : "");
	abort();
}

static void touch_spans(const struct xtp_wire_pkt *p)
{
	u64 l, r, acc = 0;
	u32 i;

	for (i = 0; i < p->ctl.nspan; i++) {
		if (xtp_wire_span(p, i, &l, &r))
			die("span accessor failed", NULL);
		acc += l ^ r;
	}
	if (p->ctl.nspan && !xtp_wire_span(p, p->ctl.nspan, &l, &r))
		die("span accessor accepted an index past nspan", NULL);
	/* Keep the loads. */
	if (acc == 0x123456789abcdef0ULL)
		fprintf(stderr, "\n");
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 out[MAX_OUT];
	struct xtp_wire_pkt a, b, c;
	char why[128];
	int rca, rcb, n;
	size_t plen;

	rca = xtp_wire_decode(data, size, 0, &a);
	rcb = xtp_wire_decode(data, size, XTP_WIRE_F_NOCSUM, &b);
	if (rca > 0 || rcb > 0 || rca <= -XTP_WIRE_NERR || rcb <= -XTP_WIRE_NERR)
		die("return code out of range", xtp_wire_strerror(rca));
	/* Skipping CHECK can only turn ECSUM into something else. */
	if (rca != rcb && rca != -XTP_WIRE_ECSUM)
		die("NOCSUM changed a non-checksum verdict",
		    xtp_wire_strerror(rca));
	if (rcb)
		return 0;

	touch_spans(&b);
	plen = XTP_WIRE_HDR_LEN + (size_t)b.hdr.dlen;
	if (plen > size)
		die("DLEN beyond input accepted", NULL);
	if (b.data_len && (b.data < data || b.data + b.data_len > data + plen))
		die("data outside the packet", NULL);

	n = xtp_wire_encode(&b, out, sizeof(out));
	if (n == -XTP_WIRE_ENOSPC && plen > sizeof(out))
		return 0;
	if (n < 0)
		die("re-encode failed", xtp_wire_strerror(n));
	if ((size_t)n != plen)
		die("re-encoded length differs", NULL);
	/*
	 * Byte-identical, CHECK included when it was verified; there a
	 * received 0xffff may come back as 0x0000, the other ones' complement
	 * zero, which verifies just as well.
	 */
	if (memcmp(out, data, 16) ||
	    memcmp(out + 18, data + 18, plen - 18))
		die("re-encoded bytes differ", NULL);
	if (!rca && memcmp(out + 16, data + 16, 2) &&
	    !(rd16(out + 16) == 0 && rd16(data + 16) == 0xffff))
		die("re-encoded CHECK differs", NULL);

	if (xtp_wire_decode(out, n, 0, &c))
		die("re-encoded packet does not decode", NULL);
	if (pkt_cmp(&b, &c, why, sizeof(why)))
		die("decode(encode(p)) != p", why);
	if (c.hdr.dlen != b.hdr.dlen)
		die("DLEN changed", NULL);
	return 0;
}
