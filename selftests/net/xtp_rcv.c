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
#include <time.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "wire.h"
#include "kselftest_harness.h"

static long xtp_snmp(const char *name)
{
	char key[64];
	long val, ret = -1;
	FILE *f;

	f = fopen("/proc/net/xtp/snmp", "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

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
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	long after;
	unsigned int i;

	for (i = 0; i < NCOUNTERS; i++)
		self->before[i] = xtp_snmp(counters[i]);
	dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ASSERT_EQ((ssize_t)len, sendto(self->raw, buf, len, 0,
				       (struct sockaddr *)&dst, sizeof(dst)));
	/* Loopback delivery may finish in softirq after sendto returns. */
	for (i = 0; i < 500 && xtp_snmp("InPkts") == self->before[0]; i++)
		nanosleep(&ts, NULL);
	for (i = 0; i < NCOUNTERS; i++) {
		long expect = self->before[i];

		if (i == 0 || !strcmp(counters[i], want))
			expect++;
		after = xtp_snmp(counters[i]);
		EXPECT_EQ(expect, after) TH_LOG("%s", counters[i]);
	}
}

static int build(struct xtp_wire_pkt *p, u8 *buf, size_t cap)
{
	return xtp_wire_encode(p, buf, cap);
}

static void cntl(struct xtp_wire_pkt *p)
{
	memset(p, 0, sizeof(*p));
	p->hdr.key = 0x123456789abcdefULL | XTP_KEY_RETURN;
	p->hdr.pformat = XTP_PF_CNTL;
	p->hdr.options = XTP_CMD_SREQ;
	p->hdr.sync = 1;
	p->ctl.rseq = 24;
	p->ctl.alloc = 90024;
}

TEST_F(rcv, wellformed_unknown_key)
{
	struct xtp_wire_pkt p;
	u8 buf[256];
	int n;

	cntl(&p);
	n = build(&p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	send_and_expect(_metadata, self, buf, n, "InNoContext");
}

TEST_F(rcv, truncated)
{
	u8 buf[31] = { 0 };

	send_and_expect(_metadata, self, buf, sizeof(buf), "InTruncated");
}

TEST_F(rcv, bad_version)
{
	struct xtp_wire_pkt p;
	u8 buf[256];
	int n;

	cntl(&p);
	n = build(&p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	buf[11] = (buf[11] & 0x1f) | (2 << 5);	/* VER 010 */
	xtp_wire_csum_set(buf, n);
	send_and_expect(_metadata, self, buf, n, "InBadVersion");
}

TEST_F(rcv, bad_type)
{
	struct xtp_wire_pkt p;
	u8 buf[256];
	int n;

	cntl(&p);
	n = build(&p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	buf[11] = (buf[11] & 0xe0) | 4;	/* PFORMAT 4 is unassigned */
	xtp_wire_csum_set(buf, n);
	send_and_expect(_metadata, self, buf, n, "InBadType");
}

TEST_F(rcv, dlen_past_packet)
{
	struct xtp_wire_pkt p;
	u8 buf[256];
	int n;

	cntl(&p);
	n = build(&p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	buf[15] += 1;			/* DLEN 21, 20 bytes present */
	xtp_wire_csum_set(buf, n);
	send_and_expect(_metadata, self, buf, n, "InBadLen");
}

TEST_F(rcv, bad_checksum)
{
	struct xtp_wire_pkt p;
	u8 buf[256];
	int n;

	cntl(&p);
	n = build(&p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	buf[n - 1] ^= 0x40;		/* a bit of ECHO, covered by CHECK */
	send_and_expect(_metadata, self, buf, n, "InCsumErrors");
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
	n = build(&p, buf, sizeof(buf));
	ASSERT_LT(0, n);
	buf[32 + 3] = 3;		/* aformat XNS */
	xtp_wire_csum_set(buf, n);
	send_and_expect(_metadata, self, buf, n, "InBadFormat");
}

TEST_HARNESS_MAIN
