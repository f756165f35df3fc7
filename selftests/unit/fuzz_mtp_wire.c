// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the MTP header codec (net/mtp/wire.c).  Whatever
 * decodes must satisfy the invariants the module relies on (sizes and
 * addresses within the 2^32-byte object, payload within its kind's
 * limit) and re-encode to the same 28 header bytes.
 *
 * Build: clang -fsanitize=fuzzer,address,undefined (Makefile, "mtp-fuzz").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

static void die(const char *why)
{
	fprintf(stderr, "fuzz_mtp_wire: %s\n", why);
	abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 hdr[MTP_WIRE_HDR_MAX];
	struct mtp_wire_msg m, again;
	int err;

	err = mtp_wire_decode(data, size, &m);
	if (err) {
		if (err > 0 || -err >= MTP_WIRE_NERR || err == -MTP_WIRE_ENOSPC)
			die("impossible error");
		return 0;
	}
	if (size < mtp_wire_hdr_len(&m) ||
	    m.payload != data + mtp_wire_hdr_len(&m) ||
	    m.payload_len != size - mtp_wire_hdr_len(&m))
		die("payload does not follow the header and token");
	if (mtp_wire_is_request(&m)) {
		if (m.payload_len > MTP_WIRE_MAX_REQUEST)
			die("request payload too large");
		if (!(m.options & MTP_OPT_SINGLE) &&
		    (m.dgram_shift < MTP_WIRE_SHIFT_MIN ||
		     m.dgram_shift > MTP_WIRE_SHIFT_MAX))
			die("bad datagram size accepted");
		if (!(m.options & MTP_OPT_SINGLE) &&
		    !(m.address == 0xffffffffU && m.rsize == 0xffffffffU) &&
		    (u64)m.address + m.rsize > 1ULL << 32)
			die("request range beyond 2^32");
	} else if (!m.error && !(m.options & MTP_OPT_SINGLE)) {
		if (m.payload_len > MTP_WIRE_MAX_MULTI ||
		    m.payload_len > m.rsize ||
		    (u64)m.address + m.payload_len > 1ULL << 32)
			die("response data out of range");
	} else if (m.error && m.payload_len > MTP_WIRE_MAX_ERRTEXT) {
		die("error text too long");
	}
	if (mtp_wire_encode_hdr(&m, hdr, sizeof(hdr)) !=
	    (int)mtp_wire_hdr_len(&m))
		die("encode failed");
	if (memcmp(hdr, data, mtp_wire_hdr_len(&m)))
		die("header does not re-encode to the same bytes");
	if (mtp_wire_decode(data, size, &again) ||
	    memcmp(&m, &again, sizeof(m)))
		die("second decode differs");
	return 0;
}
