// SPDX-License-Identifier: GPL-2.0
/*
 * MTP wire codec.  Pure code: no allocation, no locking, nothing beyond
 * memcpy(), so the same file builds into the module and into user-space
 * tests and tools.  See wire.h for the header layout.
 */

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <net/kcompat_unaligned.h>

#include "wire.h"

static_assert(MTP_WIRE_OFF_TAG + 2 == MTP_WIRE_HDR_LEN);
static_assert(1 << MTP_WIRE_SHIFT_MAX == MTP_WIRE_MAX_MULTI);
static_assert((MTP_OPT_ALL & (MTP_OPT_ALL + 1)) == 0);

/**
 * mtp_wire_check() - validate a message's fields against each other
 * @m: decoded message, @m->payload_len set
 *
 * Return: 0, or a negated &enum mtp_wire_err naming the first problem.
 */
int mtp_wire_check(const struct mtp_wire_msg *m)
{
	u64 end;

	if (m->options & ~MTP_OPT_ALL)
		return -MTP_WIRE_EOPTIONS;
	if (m->error > MTP_WIRE_MAX_CLASS)
		return -MTP_WIRE_EERROR;
	if (m->response == 0) {
		/* A request. */
		if (m->error)
			return -MTP_WIRE_EERROR;
		if (m->payload_len > MTP_WIRE_MAX_REQUEST)
			return -MTP_WIRE_ESIZE;
		if ((m->options & MTP_OPT_NOPAYLOAD) && m->payload_len)
			return -MTP_WIRE_ESIZE;
		if (m->options & MTP_OPT_SINGLE)
			return 0;
		if (m->dgram_shift < MTP_WIRE_SHIFT_MIN ||
		    m->dgram_shift > MTP_WIRE_SHIFT_MAX)
			return -MTP_WIRE_ESHIFT;
		if (m->address == 0xffffffffU && m->rsize == 0xffffffffU)
			return 0;	/* stream close */
		end = (u64)m->address + m->rsize;
		if (end > 0xffffffffULL + 1)
			return -MTP_WIRE_ERANGE;
		return 0;
	}
	if (m->error)
		return m->payload_len > MTP_WIRE_MAX_ERRTEXT ?
			-MTP_WIRE_ESIZE : 0;
	if (m->options & MTP_OPT_SINGLE)
		return 0;
	if (m->payload_len > MTP_WIRE_MAX_MULTI)
		return -MTP_WIRE_ESIZE;
	if (m->payload_len > m->rsize)
		return -MTP_WIRE_ERANGE;
	end = (u64)m->address + m->payload_len;
	if (end > 0xffffffffULL + 1)
		return -MTP_WIRE_ERANGE;
	return 0;
}

/**
 * mtp_wire_decode_hdr() - read the header of a message
 * @buf: at least the first min(@len, MTP_WIRE_HDR_MAX) bytes of the message
 * @len: length of the whole message (header, token and payload)
 * @m: filled in; @m->payload points just past the header (and token) in
 *	@buf
 *
 * The fields are not checked against each other: see mtp_wire_check().
 * A message whose options announce a token must be long enough to hold
 * it.
 *
 * Return: 0, -MTP_WIRE_ETRUNC or -MTP_WIRE_EVERSION.
 */
int mtp_wire_decode_hdr(const void *buf, size_t len, struct mtp_wire_msg *m)
{
	const u8 *p = buf;
	u32 hlen;

	memset(m, 0, sizeof(*m));
	if (len < MTP_WIRE_HDR_LEN)
		return -MTP_WIRE_ETRUNC;
	if (p[MTP_WIRE_OFF_VERSION] != MTP_WIRE_VERSION)
		return -MTP_WIRE_EVERSION;
	m->appversion = p[MTP_WIRE_OFF_APPVER];
	m->options = p[MTP_WIRE_OFF_OPTIONS];
	m->error = p[MTP_WIRE_OFF_ERROR];
	m->response = p[MTP_WIRE_OFF_RESPONSE];
	m->action = p[MTP_WIRE_OFF_ACTION];
	m->flag = p[MTP_WIRE_OFF_FLAG];
	m->dgram_shift = p[MTP_WIRE_OFF_SHIFT];
	m->reqid = get_unaligned_be32(p + MTP_WIRE_OFF_REQID);
	m->channel = get_unaligned_be32(p + MTP_WIRE_OFF_CHANNEL);
	m->address = get_unaligned_be32(p + MTP_WIRE_OFF_ADDRESS);
	m->rsize = get_unaligned_be32(p + MTP_WIRE_OFF_RSIZE);
	m->limit = get_unaligned_be16(p + MTP_WIRE_OFF_LIMIT);
	m->tag = get_unaligned_be16(p + MTP_WIRE_OFF_TAG);
	hlen = mtp_wire_hdr_len(m);
	if (len < hlen)
		return -MTP_WIRE_ETRUNC;
	if (m->options & MTP_OPT_TOKEN)
		m->token = get_unaligned_be64(p + MTP_WIRE_HDR_LEN);
	m->payload = p + hlen;
	m->payload_len = len - hlen > 0xffffffffU ?
			 0xffffffffU : (u32)(len - hlen);
	return 0;
}

/**
 * mtp_wire_decode() - decode and validate a whole message
 * @buf: the message
 * @len: its length
 * @m: filled in; @m->payload points into @buf
 *
 * Return: 0 or a negated &enum mtp_wire_err.
 */
int mtp_wire_decode(const void *buf, size_t len, struct mtp_wire_msg *m)
{
	int err = mtp_wire_decode_hdr(buf, len, m);

	return err ? err : mtp_wire_check(m);
}

/**
 * mtp_wire_encode_hdr() - write the header of a message
 * @m: message; @m->payload is not read
 * @buf: output
 * @cap: room in @buf
 *
 * With %MTP_OPT_TOKEN in @m->options, @m->token follows the header.
 *
 * Return: mtp_wire_hdr_len(@m) or -MTP_WIRE_ENOSPC.
 */
int mtp_wire_encode_hdr(const struct mtp_wire_msg *m, void *buf, size_t cap)
{
	u8 *p = buf;

	if (cap < mtp_wire_hdr_len(m))
		return -MTP_WIRE_ENOSPC;
	p[MTP_WIRE_OFF_VERSION] = MTP_WIRE_VERSION;
	p[MTP_WIRE_OFF_APPVER] = m->appversion;
	p[MTP_WIRE_OFF_OPTIONS] = m->options;
	p[MTP_WIRE_OFF_ERROR] = m->error;
	p[MTP_WIRE_OFF_RESPONSE] = m->response;
	p[MTP_WIRE_OFF_ACTION] = m->action;
	p[MTP_WIRE_OFF_FLAG] = m->flag;
	p[MTP_WIRE_OFF_SHIFT] = m->dgram_shift;
	put_unaligned_be32(m->reqid, p + MTP_WIRE_OFF_REQID);
	put_unaligned_be32(m->channel, p + MTP_WIRE_OFF_CHANNEL);
	put_unaligned_be32(m->address, p + MTP_WIRE_OFF_ADDRESS);
	put_unaligned_be32(m->rsize, p + MTP_WIRE_OFF_RSIZE);
	put_unaligned_be16(m->limit, p + MTP_WIRE_OFF_LIMIT);
	put_unaligned_be16(m->tag, p + MTP_WIRE_OFF_TAG);
	if (m->options & MTP_OPT_TOKEN)
		put_unaligned_be64(m->token, p + MTP_WIRE_HDR_LEN);
	return mtp_wire_hdr_len(m);
}

/**
 * mtp_wire_limit_units() - a byte limit as the header's 512-byte units
 * @bytes: limit in bytes, 0 for none
 *
 * Rounds up, so the limit never falls below @bytes; saturates.
 *
 * Return: units for the limit field.
 */
u16 mtp_wire_limit_units(u32 bytes)
{
	u32 u = bytes / MTP_WIRE_LIMIT_UNIT +
		!!(bytes % MTP_WIRE_LIMIT_UNIT);

	return u > 0xffff ? 0xffff : (u16)u;
}

/**
 * mtp_wire_limit_bytes() - the header's limit field in bytes
 * @units: limit field
 *
 * Return: bytes, 0 for no limit.
 */
u32 mtp_wire_limit_bytes(u16 units)
{
	return (u32)units * MTP_WIRE_LIMIT_UNIT;
}

const char *mtp_wire_strerror(int err)
{
	static const char *const names[MTP_WIRE_NERR] = {
		[MTP_WIRE_OK]		= "ok",
		[MTP_WIRE_ETRUNC]	= "truncated",
		[MTP_WIRE_EVERSION]	= "bad version",
		[MTP_WIRE_EOPTIONS]	= "reserved options",
		[MTP_WIRE_EERROR]	= "bad error class",
		[MTP_WIRE_ESHIFT]	= "bad datagram size",
		[MTP_WIRE_ESIZE]	= "payload too large",
		[MTP_WIRE_ERANGE]	= "bad address range",
		[MTP_WIRE_ENOSPC]	= "no space",
	};

	if (err < 0)
		err = -err;
	return err < MTP_WIRE_NERR ? names[err] : "unknown";
}
