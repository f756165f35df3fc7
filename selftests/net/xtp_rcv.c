// SPDX-License-Identifier: GPL-2.0
/*
 * The XTP protocol handler against crafted packets: each malformed packet
 * is dropped and counted under its own reason in /proc/net/xtp/snmp, and
 * a well-formed packet for an unknown key is counted as such.  Packets
 * are built with the module's own codec (net/xtp/wire.c) and sent over
 * loopback through a raw IP socket.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "wire.h"
#include "kselftest_harness.h"
#include "xtp_selftest.h"

static const char *const counters[] = {
	"InPkts", "InTruncated", "InBadVersion", "InBadType", "InBadLen",
	"InBadFormat", "InCsumErrors", "InNoContext",
};

#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

FIXTURE(rcv) {
	int xtp;	/* keeps the module loaded */
	int raw;
	long before[NCOUNTERS];
};

FIXTURE_SETUP(rcv)
{
	self->xtp = socket(AF_INET, SOCK_XTP, 0);
	ASSERT_LE(0, self->xtp);
	self->raw = socket(AF_INET, SOCK_RAW, IPPROTO_XTP);
	ASSERT_LE(0, self->raw);
}

FIXTURE_TEARDOWN(rcv)
{
	close(self->raw);
	close(self->xtp);
}

/*
 * Send @len bytes of @buf to 127.0.0.1 and check that InPkts and exactly
 * the counter @want went up by one, and no other drop counter moved.
 */
static void send_and_expect(struct __test_metadata *_metadata,
			    FIXTURE_DATA(rcv) *self, const void *buf,
			    size_t len, const char *want)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	unsigned int i;

	for (i = 0; i < NCOUNTERS; i++)
		self->before[i] = xtp_snmp(counters[i]);
	dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ASSERT_EQ((ssize_t)len, sendto(self->raw, buf, len, 0,
				       (struct sockaddr *)&dst, sizeof(dst)));
	xtp_snmp_wait_change("InPkts", self->before[0]);
	for (i = 0; i < NCOUNTERS; i++) {
		long expect = self->before[i];

		if (i == 0 || !strcmp(counters[i], want))
			expect++;
		EXPECT_EQ(expect, xtp_snmp(counters[i])) TH_LOG("%s", counters[i]);
	}
}

/* A well-formed CNTL for a context that does not exist; returns its size. */
static int cntl_packet(u8 *buf, size_t cap)
{
	struct xtp_wire_pkt p = {
		.hdr.key = 0x123456789abcdefULL | XTP_KEY_RETURN,
		.hdr.pformat = XTP_PF_CNTL,
		.hdr.options = XTP_CMD_SREQ,
		.hdr.sync = 1,
		.ctl.rseq = 24,
		.ctl.alloc = 90024,
	};

	return xtp_wire_encode(&p, buf, cap);
}

/*
 * Send the CNTL with byte @off replaced by @val (checksum recomputed when
 * @resum) and expect it to be counted under @want.
 */
static void send_mangled(struct __test_metadata *_metadata,
			 FIXTURE_DATA(rcv) *self, int off, u8 val,
			 bool resum, const char *want)
{
	u8 buf[256];
	int n = cntl_packet(buf, sizeof(buf));

	ASSERT_EQ(52, n);
	if (off >= 0)
		buf[off] = val;
	if (resum)
		xtp_wire_csum_set(buf, n);
	send_and_expect(_metadata, self, buf, n, want);
}

TEST_F(rcv, wellformed_unknown_key)
{
	send_mangled(_metadata, self, -1, 0, false, "InNoContext");
}

TEST_F(rcv, truncated)
{
	u8 buf[31] = { 0 };

	send_and_expect(_metadata, self, buf, sizeof(buf), "InTruncated");
}

TEST_F(rcv, bad_version)
{
	/* PTYPE byte: VER 010, PFORMAT CNTL */
	send_mangled(_metadata, self, 11, (2 << 5) | XTP_PF_CNTL, true,
		     "InBadVersion");
}

TEST_F(rcv, bad_type)
{
	/* PFORMAT 4 is unassigned */
	send_mangled(_metadata, self, 11, (1 << 5) | 4, true, "InBadType");
}

TEST_F(rcv, dlen_past_packet)
{
	/* DLEN 21 with 20 bytes present */
	send_mangled(_metadata, self, 15, 21, true, "InBadLen");
}

TEST_F(rcv, bad_checksum)
{
	/* ECHO's last byte, covered by CHECK, changed after checksumming */
	send_mangled(_metadata, self, 51, 0x40, false, "InCsumErrors");
}

TEST_F(rcv, bad_address_format)
{
	struct xtp_wire_pkt p;
	u8 buf[256];
	int n;

	memset(&p, 0, sizeof(p));
	p.hdr.key = 77;
	p.hdr.pformat = XTP_PF_FIRST;
	p.hdr.options = XTP_CMD_SREQ;
	p.hdr.sync = 1;
	p.hdr.seq = 90000;
	p.addr.adomain = XTP_ADOMAIN_IP;
	p.addr.aformat = XTP_AFORMAT_IPV4;
	p.addr.dsthost.v4 = htonl(INADDR_LOOPBACK);
	p.addr.srchost.v4 = htonl(INADDR_LOOPBACK);
	p.addr.dstport = 9999;
	p.addr.srcport = 40000;
	p.traffic.service = XTP_SVC_STREAM;
	n = xtp_wire_encode(&p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	buf[32 + 3] = 3;		/* aformat XNS */
	xtp_wire_csum_set(buf, n);
	send_and_expect(_metadata, self, buf, n, "InBadFormat");
}

TEST_HARNESS_MAIN
