// SPDX-License-Identifier: GPL-2.0
/*
 * Every XTP socket option, send flag and sysctl that
 * Documentation/networking/xtp.rst names, changed and observed: on the
 * wire (a raw IPPROTO_XTP socket sees every XTP packet that crosses the
 * loopback), through getsockopt and XTPSOCK_MIBSTAT, the namespace's
 * /proc/net/xtp/snmp counters, or behaviour that does not depend on
 * timing (only lower bounds of timers, which never fire early, are
 * tight; upper bounds are generous for a loaded TCG guest).
 *
 * Each test runs in a network namespace of its own (so the capture and
 * the counters see only its traffic): client 127.0.0.2, server 127.0.0.1.
 * The header layout is decoded here from xtp.rst's table, independently
 * of the module's codec.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/sockios.h>
#include <linux/xtp.h>

#include "kselftest_harness.h"
#include "xtp_selftest.h"

#define CLIENT_IP	"127.0.0.2"
#define SERVER_IP	"127.0.0.1"
#define PORT		7100

/* From the "Wire format" section of xtp.rst. */
#define HDR_LEN		32
#define PF_DATA		0
#define PF_CNTL		1
#define PF_FIRST	2
#define OPT_NOCHECK	0x40000000u
#define OPT_EDGE	0x20000000u
#define OPT_SREQ	0x00400000u
#define OPT_WCLOSE	0x00080000u
#define OPT_EOM		0x00040000u
#define OPT_END		0x00020000u

struct pkt {
	int c2s;		/* from the client */
	int ihl;		/* IP header bytes */
	uint8_t pformat;
	uint32_t opts;
	uint32_t dlen;
	uint16_t check;
	uint32_t sync;
	uint64_t seq;
	int len;		/* XTP bytes in raw */
	int wire;		/* XTP bytes in the packet */
	uint8_t raw[1600];
};

#define MAXPKTS 400

struct capture {
	int fd;
	int n;
	struct pkt p[MAXPKTS];
};

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* RFC 1071: 0xffff over a buffer whose CHECK is right. */
static uint16_t sum16(const uint8_t *p, size_t len)
{
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		s += p[i] << 8 | p[i + 1];
	if (len & 1)
		s += p[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static struct sockaddr_in addr(const char *ip, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	inet_pton(AF_INET, ip, &sin.sin_addr);
	sin.sin_port = htons(port);
	return sin;
}

static int set_opt(int fd, int opt, int val)
{
	return setsockopt(fd, SOL_XTP, opt, &val, sizeof(val));
}

static int get_opt(int fd, int opt)
{
	socklen_t len = sizeof(int);
	int val;

	if (getsockopt(fd, SOL_XTP, opt, &val, &len))
		return -1;
	return val;
}

static int get_mib(int fd, struct xtp_mibstat *m)
{
	socklen_t len = sizeof(*m);

	return getsockopt(fd, SOL_XTP, XTPSOCK_MIBSTAT, m, &len);
}

static int listener_type(int type, int port, int backlog)
{
	struct sockaddr_in sin = addr(SERVER_IP, port);
	int fd = socket(AF_INET, type, IPPROTO_XTP);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd, backlog))
		return -1;
	return fd;
}

/* An unconnected client socket bound to CLIENT_IP. */
static int client_socket(void)
{
	struct sockaddr_in sin = addr(CLIENT_IP, 0);
	int fd = socket(AF_INET, SOCK_XTP, IPPROTO_XTP);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		return -1;
	return fd;
}

static int connect_port(int fd, int port)
{
	struct sockaddr_in sin = addr(SERVER_IP, port);

	return connect(fd, (struct sockaddr *)&sin, sizeof(sin));
}

static int cap_open(struct capture *cap)
{
	int sz = 8 << 20;

	cap->n = 0;
	cap->fd = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_XTP);
	if (cap->fd < 0)
		return -1;
	setsockopt(cap->fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	return 0;
}

/*
 * Take what the capture socket holds.  Loopback delivers to raw sockets
 * before XTP sees the packet, so once the peer's application has what it
 * waited for, the packets that carried it are here.
 */
static void cap_drain(struct capture *cap)
{
	static uint8_t buf[65536];
	struct in_addr client;
	ssize_t n;

	inet_pton(AF_INET, CLIENT_IP, &client);
	while ((n = recv(cap->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		int ihl = (buf[0] & 15) * 4;
		struct pkt *p;
		uint32_t cmd;

		if (n < ihl + HDR_LEN || cap->n == MAXPKTS)
			continue;
		p = &cap->p[cap->n++];
		p->c2s = !memcmp(buf + 12, &client, 4);
		p->ihl = ihl;
		p->wire = n - ihl;
		/*
		 * On loopback the module leaves CHECK to the device, which
		 * sums nothing there: the packet arrives taken as summed,
		 * CHECK zero.  Fill it in as a device would, over the whole
		 * packet, so that a replay of it is the packet the wire
		 * would carry.
		 */
		if (!buf[ihl + 16] && !buf[ihl + 17] &&
		    sum16(buf + ihl, p->wire) != 0xffff) {
			uint16_t c = ~sum16(buf + ihl, p->wire);

			buf[ihl + 16] = c >> 8;
			buf[ihl + 17] = c & 0xff;
		}
		p->len = p->wire;
		if (p->len > (int)sizeof(p->raw))
			p->len = sizeof(p->raw);
		memcpy(p->raw, buf + ihl, p->len);
		cmd = get32(p->raw + 8);
		p->pformat = cmd & 0x1f;
		p->opts = cmd & 0xffff0000u;
		p->dlen = get32(p->raw + 12);
		p->check = p->raw[16] << 8 | p->raw[17];
		p->sync = get32(p->raw + 20);
		p->seq = get64(p->raw + 24);
	}
}

/* The @i-th (from 0) client packet of type @pformat, or NULL. */
static struct pkt *cap_find(struct capture *cap, int c2s, int pformat, int i)
{
	for (int k = 0; k < cap->n; k++)
		if (cap->p[k].c2s == c2s && cap->p[k].pformat == pformat &&
		    !i--)
			return &cap->p[k];
	return NULL;
}

/* Send @p's XTP bytes again from the client's address. */
static int inject(const uint8_t *buf, int len)
{
	struct sockaddr_in src = addr(CLIENT_IP, 0);
	struct sockaddr_in dst = addr(SERVER_IP, 0);
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_XTP);
	ssize_t n;

	if (fd < 0 || bind(fd, (struct sockaddr *)&src, sizeof(src)))
		return -1;
	n = sendto(fd, buf, len, 0, (struct sockaddr *)&dst, sizeof(dst));
	close(fd);
	return n == len ? 0 : -1;
}

/* A connected pair: @opts are set on the client before connect(). */
struct optval {
	int opt, val;
};

FIXTURE(xo) {
	struct capture cap;
	int ls, c, s;
};

FIXTURE_SETUP(xo)
{
	self->ls = self->c = self->s = -1;
	ASSERT_EQ(0, own_netns());
	ASSERT_EQ(0, cap_open(&self->cap));
	self->ls = listener_type(SOCK_XTP, PORT, 16);
	ASSERT_LE(0, self->ls);
}

FIXTURE_TEARDOWN(xo)
{
	close(self->c);
	close(self->s);
	close(self->ls);
	close(self->cap.fd);
}

static int open_pair(FIXTURE_DATA(xo) *self, const struct optval *o, int n)
{
	self->c = client_socket();
	if (self->c < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (set_opt(self->c, o[i].opt, o[i].val))
			return -1;
	if (connect_port(self->c, PORT))
		return -1;
	self->s = accept(self->ls, NULL, NULL);
	return self->s < 0 ? -1 : 0;
}

static char payload[200000];

static void fill_payload(void)
{
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = i * 13 + 1;
}

/* Send @len bytes from the client, read them at the server, compare. */
static int transfer(FIXTURE_DATA(xo) *self, size_t len)
{
	static char got[sizeof(payload)];

	fill_payload();
	if (send(self->c, payload, len, 0) != (ssize_t)len)
		return -1;
	if (read_full(self->s, got, len) != (ssize_t)len)
		return -1;
	return memcmp(payload, got, len) ? -1 : 0;
}

/*
 * XTPSOCK_MAXDATA: no DATA payload beyond it; 25..65483 accepted.  Read
 * before there is a route it gives Ethernet's 1448, whatever larger value
 * was set.
 */
TEST_F(xo, maxdata_bounds_data_packets)
{
	struct optval o[] = { { XTPSOCK_MAXDATA, 100 } };
	int n = 0, max = 0, over = 0;

	self->c = client_socket();
	ASSERT_LE(0, self->c);
	EXPECT_EQ(-1, set_opt(self->c, XTPSOCK_MAXDATA, 24));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_opt(self->c, XTPSOCK_MAXDATA, 65484));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1448, get_opt(self->c, XTPSOCK_MAXDATA));
	EXPECT_EQ(0, set_opt(self->c, XTPSOCK_MAXDATA, 65483));
	EXPECT_EQ(1448, get_opt(self->c, XTPSOCK_MAXDATA));
	close(self->c);
	ASSERT_EQ(0, open_pair(self, o, 1));
	EXPECT_EQ(100, get_opt(self->c, XTPSOCK_MAXDATA));
	ASSERT_EQ(0, transfer(self, 1000));
	cap_drain(&self->cap);
	for (struct pkt *p; (p = cap_find(&self->cap, 1, PF_DATA, n)); n++) {
		if ((int)p->dlen > max)
			max = p->dlen;
		if (p->dlen > 100)
			over++;
	}
	TH_LOG("%d DATA packets, largest %d bytes", n, max);
	EXPECT_EQ(0, over);
	EXPECT_EQ(100, max);
	EXPECT_LE(10, n);
}

/*
 * Loopback's 64 KB MTU takes DATA packets as large as one queued skb
 * holds (an order-2 allocation, less its overhead): both ends read that
 * size, and 100 KB go in full packets of it but for the last.
 */
TEST_F(xo, maxdata_follows_the_route)
{
	int n = 0, full = 0, bytes = 0, bad = 0, seg;
	struct pkt *p;

	ASSERT_EQ(0, open_pair(self, NULL, 0));
	seg = get_opt(self->c, XTPSOCK_MAXDATA);
	TH_LOG("MAXDATA over loopback %d", seg);
	EXPECT_LT(1448, seg);
	EXPECT_GT(16384 - HDR_LEN, seg);
	EXPECT_EQ(seg, get_opt(self->s, XTPSOCK_MAXDATA));
	ASSERT_EQ(0, transfer(self, 100000));
	cap_drain(&self->cap);
	for (; (p = cap_find(&self->cap, 1, PF_DATA, n)); n++) {
		full += (int)p->dlen == seg;
		bytes += p->dlen;
		bad += p->wire != HDR_LEN + (int)p->dlen || (int)p->dlen > seg;
	}
	TH_LOG("%d DATA packets, %d of %d bytes, %d bytes", n, full, seg,
	       bytes);
	EXPECT_EQ(100000 / seg, full);
	EXPECT_EQ(100000 / seg + 1, n);
	EXPECT_EQ(100000, bytes);
	EXPECT_EQ(0, bad);
}

/*
 * IP_OPTIONS: the most IPv4 carries (40 bytes: NOPs, then EOL) on every
 * packet of the client, none on the server's, and 100 KB arrive whole.
 * The packets need room for them in front of the XTP header.
 */
TEST_F(xo, ip_options_on_every_packet)
{
	int with = 0, without = 0, other = 0;
	uint8_t opts[40];

	memset(opts, 1, sizeof(opts));
	opts[sizeof(opts) - 1] = 0;
	self->c = client_socket();
	ASSERT_LE(0, self->c);
	ASSERT_EQ(0, setsockopt(self->c, IPPROTO_IP, IP_OPTIONS, opts,
				sizeof(opts)));
	ASSERT_EQ(0, connect_port(self->c, PORT));
	self->s = accept(self->ls, NULL, NULL);
	ASSERT_LE(0, self->s);
	ASSERT_EQ(0, transfer(self, 100000));
	cap_drain(&self->cap);
	for (int k = 0; k < self->cap.n; k++) {
		const struct pkt *p = &self->cap.p[k];

		if (p->c2s && p->ihl == 60)
			with++;
		else if (!p->c2s && p->ihl == 20)
			without++;
		else
			other++;
	}
	TH_LOG("client packets with options %d, server's without %d, other %d",
	       with, without, other);
	/* the FIRST and the DATA */
	EXPECT_LE(100000 / get_opt(self->c, XTPSOCK_MAXDATA) + 1, with);
	EXPECT_LE(1, without);
	EXPECT_EQ(0, other);
}

/*
 * XTPSOCK_NOCHECK: the NOCHECK option on our packets, a CHECK over the
 * 32-byte header only, and the peer accepts a packet whose payload was
 * changed; without it the same change is an InCsumErrors drop.
 */
static void corrupt_and_replay(struct __test_metadata *_metadata,
			       FIXTURE_DATA(xo) *self, bool nocheck)
{
	struct optval o[] = { { XTPSOCK_NOCHECK, 1 } };
	long csum0, dup0, v;
	struct pkt *p;

	ASSERT_EQ(0, open_pair(self, o, nocheck ? 1 : 0));
	EXPECT_EQ(nocheck, get_opt(self->c, XTPSOCK_NOCHECK));
	ASSERT_EQ(0, transfer(self, 500));
	cap_drain(&self->cap);
	p = cap_find(&self->cap, 1, PF_DATA, 0);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(500, p->dlen);
	ASSERT_EQ(HDR_LEN + 500, p->len);
	EXPECT_EQ(nocheck, !!(p->opts & OPT_NOCHECK));
	/*
	 * Without NOCHECK loopback leaves CHECK to the device (cap_drain()
	 * fills it in); what shows the payload is covered is the receiver
	 * below, which counts the changed payload as a checksum error.
	 */
	if (nocheck) {
		EXPECT_EQ(0xffff, sum16(p->raw, HDR_LEN));
	} else {
		EXPECT_EQ(0xffff, sum16(p->raw, p->len));
	}
	/* Change two payload bytes so that the sum changes. */
	p->raw[HDR_LEN + 10] ^= 0x5a;
	p->raw[HDR_LEN + 11] ^= 0xa5;
	csum0 = xtp_snmp("InCsumErrors");
	dup0 = xtp_snmp("InDupData");
	ASSERT_EQ(0, inject(p->raw, p->len));
	if (nocheck) {
		v = xtp_snmp_wait_change("InDupData", dup0);
		EXPECT_EQ(dup0 + 1, v);
		EXPECT_EQ(csum0, xtp_snmp("InCsumErrors"));
	} else {
		v = xtp_snmp_wait_change("InCsumErrors", csum0);
		EXPECT_EQ(csum0 + 1, v);
		EXPECT_EQ(dup0, xtp_snmp("InDupData"));
	}
}

TEST_F(xo, nocheck_checksums_header_only)
{
	corrupt_and_replay(_metadata, self, true);
}

TEST_F(xo, checksum_covers_payload_by_default)
{
	corrupt_and_replay(_metadata, self, false);
}

/*
 * XTPSOCK_SREQFREQ: SREQ on every N-th DATA packet (and on the last of a
 * burst).  Decoupling is off so that no SREQ becomes an EDGE toggle.
 */
TEST_F(xo, sreqfreq_spaces_sreqs)
{
	/* Ethernet's packets, as the thesis counts them, on loopback too. */
	struct optval o[] = { { XTPSOCK_RTT_NODECOUPLE, 1 },
			      { XTPSOCK_SREQFREQ, 4 },
			      { XTPSOCK_MAXDATA, 1448 } };
	int n = 0, reqs = 0, gap = 0, maxgap = 0, full = 0;
	uint32_t last_edge = 0;
	struct pkt *p;

	self->c = client_socket();
	ASSERT_LE(0, self->c);
	EXPECT_EQ(2, get_opt(self->c, XTPSOCK_SREQFREQ));
	EXPECT_EQ(-1, set_opt(self->c, XTPSOCK_SREQFREQ, 0));
	EXPECT_EQ(EINVAL, errno);
	close(self->c);
	ASSERT_EQ(0, open_pair(self, o, 3));
	EXPECT_EQ(4, get_opt(self->c, XTPSOCK_SREQFREQ));
	ASSERT_EQ(0, transfer(self, 100000));
	cap_drain(&self->cap);
	/* An EDGE toggle would be an ack request too: count both. */
	for (; (p = cap_find(&self->cap, 1, PF_DATA, n)); n++) {
		bool toggled = (p->opts & OPT_EDGE) != last_edge;

		last_edge = p->opts & OPT_EDGE;
		gap++;
		if (!(p->opts & OPT_SREQ) && !toggled)
			continue;
		reqs++;
		if (gap > maxgap)
			maxgap = gap;
		full += gap == 4;
		gap = 0;
	}
	TH_LOG("%d DATA packets, %d ack requests, %d of them 4 apart",
	       n, reqs, full);
	EXPECT_LE(60, n);
	EXPECT_EQ(4, maxgap);
	EXPECT_LE(n / 8, full);
}

/*
 * XTPSOCK_RTT_NODECOUPLE: with one RTT cache slot and an ack request on
 * every packet, the decoupled default toggles EDGE while the slot waits;
 * without decoupling every ack request is an SREQ and EDGE never moves.
 */
static void edge_run(struct __test_metadata *_metadata,
		     FIXTURE_DATA(xo) *self, bool nodecouple, int *edges,
		     int *sreqs, int *n)
{
	struct optval o[] = { { XTPSOCK_MAXDATA, 1448 },
			      { XTPSOCK_RTT_CACHE_SIZE, 1 },
			      { XTPSOCK_SREQFREQ, 1 },
			      { XTPSOCK_RTT_NODECOUPLE, 1 } };
	struct xtp_mibstat m;
	uint32_t last_edge = 0;
	struct pkt *p;

	*edges = *sreqs = *n = 0;
	ASSERT_EQ(0, open_pair(self, o, nodecouple ? 4 : 3));
	EXPECT_EQ(nodecouple, get_opt(self->c, XTPSOCK_RTT_NODECOUPLE));
	ASSERT_EQ(0, transfer(self, 60000));
	cap_drain(&self->cap);
	for (; (p = cap_find(&self->cap, 1, PF_DATA, *n)); (*n)++) {
		*sreqs += !!(p->opts & OPT_SREQ);
		*edges += (p->opts & OPT_EDGE) != last_edge;
		last_edge = p->opts & OPT_EDGE;
	}
	ASSERT_EQ(0, get_mib(self->c, &m));
	TH_LOG("%s: %d DATA, %d SREQ, %d EDGE toggles (edgebit_set %llu)",
	       nodecouple ? "RTT_NODECOUPLE" : "decoupled", *n, *sreqs,
	       *edges, (unsigned long long)m.edgebit_set);
}

TEST_F(xo, rtt_nodecouple_no_edge_toggles)
{
	int edges, sreqs, n;

	edge_run(_metadata, self, true, &edges, &sreqs, &n);
	EXPECT_LE(30, n);
	EXPECT_EQ(0, edges);
	EXPECT_EQ(n, sreqs);
}

TEST_F(xo, rtt_decoupled_toggles_edge)
{
	int edges, sreqs, n;

	edge_run(_metadata, self, false, &edges, &sreqs, &n);
	EXPECT_LE(30, n);
	EXPECT_LE(5, edges);
	EXPECT_EQ(n, sreqs + edges);
}

/*
 * XTPSOCK_INIT_TRAINSIZE: the first burst.  SCC (unpaced), one SREQ per
 * burst only (SREQFREQ beyond the burst): the packets the client sends
 * before the server answers anything are its initial window.  Loopback
 * delivers each packet while the sender still holds its socket, so the
 * answer cannot grow the window within the burst.
 */
static int first_burst(struct __test_metadata *_metadata,
		       FIXTURE_DATA(xo) *self, int trainsize)
{
	struct optval o[] = { { XTPSOCK_CONGESTION, XTP_CC_SCC },
			      { XTPSOCK_MAXDATA, 1000 },
			      { XTPSOCK_SREQFREQ, 99 },
			      { XTPSOCK_INIT_TRAINSIZE, trainsize } };
	int k, burst = 0;

	if (open_pair(self, o, trainsize ? 4 : 3))
		return -1;
	if (trainsize && get_opt(self->c, XTPSOCK_INIT_TRAINSIZE) != trainsize)
		return -1;
	cap_drain(&self->cap);
	self->cap.n = 0;	/* the setup */
	if (transfer(self, 30000))
		return -1;
	cap_drain(&self->cap);
	for (k = 0; k < self->cap.n && self->cap.p[k].c2s; k++)
		burst += self->cap.p[k].pformat == PF_DATA;
	return burst;
}

TEST_F(xo, init_trainsize_sets_first_burst)
{
	int burst = first_burst(_metadata, self, 5000);

	TH_LOG("first burst %d packets", burst);
	EXPECT_EQ(5, burst);
}

TEST_F(xo, scc_first_burst_default)
{
	EXPECT_EQ(1, first_burst(_metadata, self, 0));
}

/*
 * XTPSOCK_LN_THRESH: where SCC stops doubling.  100000 bytes without loss
 * with a threshold of two packets grow the window linearly almost at once:
 * fewer exponential steps and a smaller final window than with the
 * default 32000.
 */
static int scc_run(struct __test_metadata *_metadata, FIXTURE_DATA(xo) *self,
		   int thresh, struct xtp_mibstat *m)
{
	/*
	 * A fixed WTIMER: one from the RTT fires on a slow (debug) kernel,
	 * and the handshake it starts halves the threshold under test.
	 */
	struct optval o[] = { { XTPSOCK_CONGESTION, XTP_CC_SCC },
			      { XTPSOCK_SREQFREQ, 99 },
			      { XTPSOCK_WTIMER_TMO, 2000 },
			      { XTPSOCK_MAXDATA, 1448 },
			      { XTPSOCK_LN_THRESH, thresh } };

	if (open_pair(self, o, thresh ? 5 : 4) || transfer(self, 100000) ||
	    get_mib(self->c, m))
		return -1;
	TH_LOG("LN_THRESH %d: threshold %u, exp %llu, lin %llu, window %u, handshakes %llu",
	       get_opt(self->c, XTPSOCK_LN_THRESH), m->linear_thresh,
	       (unsigned long long)m->xp_inc, (unsigned long long)m->lin_inc,
	       m->trainsize, (unsigned long long)m->handshakes);
	close(self->c);
	close(self->s);
	self->c = self->s = -1;
	return 0;
}

TEST_F(xo, ln_thresh_ends_exponential_growth)
{
	struct xtp_mibstat dflt, low;

	ASSERT_EQ(0, scc_run(_metadata, self, 0, &dflt));
	ASSERT_EQ(0, scc_run(_metadata, self, 2896, &low));
	EXPECT_EQ(32000, dflt.linear_thresh);
	EXPECT_EQ(2896, low.linear_thresh);
	EXPECT_LE(1, low.lin_inc);
	EXPECT_GT(dflt.xp_inc, low.xp_inc);
	EXPECT_GT(dflt.trainsize, low.trainsize);
	/* Never more exponential steps than from 1 to 2 packets and one. */
	EXPECT_GE(2, low.xp_inc);
}

/*
 * The growth counts come from the controller's own state: NewReno counts
 * its slow start as SCC's exponential mode; BBR grows no window.
 */
static int cc_counts(struct __test_metadata *_metadata,
		     FIXTURE_DATA(xo) *self, int cc, struct xtp_mibstat *m)
{
	struct optval o[] = { { XTPSOCK_CONGESTION, cc } };

	if (open_pair(self, o, 1) || transfer(self, 100000) ||
	    get_mib(self->c, m))
		return -1;
	TH_LOG("cc %d: exp %llu/%llu, lin %llu/%llu (inc/dec)", cc,
	       (unsigned long long)m->xp_inc, (unsigned long long)m->xp_dec,
	       (unsigned long long)m->lin_inc, (unsigned long long)m->lin_dec);
	close(self->c);
	close(self->s);
	self->c = self->s = -1;
	return 0;
}

TEST_F(xo, growth_counts_follow_the_controller)
{
	struct xtp_mibstat reno, bbr;

	ASSERT_EQ(0, cc_counts(_metadata, self, XTP_CC_NEWRENO, &reno));
	ASSERT_EQ(0, cc_counts(_metadata, self, XTP_CC_BBR, &bbr));
	EXPECT_EQ(XTP_CC_NEWRENO, reno.cc);
	EXPECT_LE(1, reno.xp_inc);
	EXPECT_EQ(XTP_CC_BBR, bbr.cc);
	EXPECT_EQ(0, bbr.xp_inc + bbr.lin_inc + bbr.xp_dec + bbr.lin_dec);
}

/*
 * XTPSOCK_WTIMER_TMO: a fixed WTIMER.  A FIRST into a veth whose peer is
 * down (the neighbour entry is static: no ARP) gets no answer and goes
 * again each WTIMER: after 100 ms with 100, not within 1.5 s with 5000
 * (the default would be 1 s).  veth, not dummy: the debug kernel has no
 * dummy driver.
 */
TEST(wtimer_tmo_paces_first_retries)
{
	long t0, t_fast = -1;
	struct sockaddr_in dst = { .sin_family = AF_INET };
	struct xtp_mibstat m;
	int fast, slow;

	ASSERT_EQ(0, own_netns());
	ASSERT_EQ(0, system("ip link add xo0 type veth peer name xo1 && "
			    "ip addr add 198.18.0.1/24 dev xo0 && "
			    "ip link set xo0 up && "
			    "ip neigh add 198.18.0.2 lladdr 02:00:00:00:00:02 "
			    "dev xo0 nud permanent"));
	dst.sin_port = htons(9);
	inet_pton(AF_INET, "198.18.0.2", &dst.sin_addr);
	fast = socket(AF_INET, SOCK_XTP | SOCK_NONBLOCK, 0);
	slow = socket(AF_INET, SOCK_XTP | SOCK_NONBLOCK, 0);
	ASSERT_LE(0, fast);
	ASSERT_LE(0, slow);
	EXPECT_EQ(-1, set_opt(fast, XTPSOCK_WTIMER_TMO, 60001));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, set_opt(fast, XTPSOCK_WTIMER_TMO, 100));
	ASSERT_EQ(0, set_opt(slow, XTPSOCK_WTIMER_TMO, 5000));
	EXPECT_EQ(100, get_opt(fast, XTPSOCK_WTIMER_TMO));
	t0 = now_ms();
	EXPECT_EQ(-1, connect(fast, (struct sockaddr *)&dst, sizeof(dst)));
	EXPECT_EQ(EINPROGRESS, errno);
	EXPECT_EQ(-1, connect(slow, (struct sockaddr *)&dst, sizeof(dst)));
	EXPECT_EQ(EINPROGRESS, errno);
	while (now_ms() - t0 < 1500) {
		ASSERT_EQ(0, get_mib(fast, &m));
		if (t_fast < 0 && m.fpk_out >= 2)
			t_fast = now_ms() - t0;
		ASSERT_EQ(0, get_mib(slow, &m));
		EXPECT_EQ(1, m.fpk_out);
		if (m.fpk_out != 1)
			break;
		sleep_ms(20);
	}
	TH_LOG("second FIRST after %ld ms with WTIMER_TMO 100", t_fast);
	EXPECT_LE(100, t_fast);
	EXPECT_GT(900, t_fast);
	close(fast);
	close(slow);
}

/* XTPSOCK_NB_CONNECT: a blocking socket's connect() returns EINPROGRESS. */
TEST_F(xo, nb_connect_returns_einprogress)
{
	struct pollfd pfd = { .events = POLLOUT };
	socklen_t len = sizeof(int);
	int fd, err = -1;

	/* Without it the refusal comes back from connect() itself. */
	fd = client_socket();
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, get_opt(fd, XTPSOCK_NB_CONNECT));
	EXPECT_EQ(-1, connect_port(fd, PORT + 1));
	EXPECT_EQ(ECONNREFUSED, errno);
	close(fd);

	fd = client_socket();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_opt(fd, XTPSOCK_NB_CONNECT, 1));
	EXPECT_EQ(1, get_opt(fd, XTPSOCK_NB_CONNECT));
	EXPECT_EQ(-1, connect_port(fd, PORT + 1));
	EXPECT_EQ(EINPROGRESS, errno);
	pfd.fd = fd;
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ(0, getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(ECONNREFUSED, err);
	close(fd);

	self->c = client_socket();
	ASSERT_LE(0, self->c);
	ASSERT_EQ(0, set_opt(self->c, XTPSOCK_NB_CONNECT, 1));
	EXPECT_EQ(-1, connect_port(self->c, PORT));
	EXPECT_EQ(EINPROGRESS, errno);
	pfd.fd = self->c;
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ(0, getsockopt(self->c, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(0, err);
	self->s = accept(self->ls, NULL, NULL);
	ASSERT_LE(0, self->s);
	ASSERT_EQ(0, transfer(self, 100));
}

/* The FIRST's traffic segment: service, tformat and tlen. */
static struct pkt *first_tspec(struct capture *cap, int *tlen, int *service,
			       int *tformat)
{
	struct pkt *p;
	const uint8_t *t;

	cap_drain(cap);
	p = cap_find(cap, 1, PF_FIRST, 0);
	if (!p || p->len < HDR_LEN + 24)
		return NULL;
	/* The IPv4 address segment is 16 bytes; the traffic one follows. */
	t = p->raw + HDR_LEN + 16;
	*tlen = t[0] << 8 | t[1];
	*service = t[2];
	*tformat = t[3];
	return p;
}

/* XTPSOCK_SERVICEPROFILE: the traffic segment's service type (4). */
TEST_F(xo, serviceprofile_sets_traffic_service)
{
	struct optval o[] = { { XTPSOCK_SERVICEPROFILE, 9 } };
	int tlen, service, tformat;
	struct xtp_mibstat m;

	self->c = client_socket();
	ASSERT_LE(0, self->c);
	EXPECT_EQ(4, get_opt(self->c, XTPSOCK_SERVICEPROFILE));
	EXPECT_EQ(-1, set_opt(self->c, XTPSOCK_SERVICEPROFILE, 256));
	EXPECT_EQ(EINVAL, errno);
	close(self->c);
	ASSERT_EQ(0, open_pair(self, o, 1));
	EXPECT_EQ(9, get_opt(self->c, XTPSOCK_SERVICEPROFILE));
	ASSERT_EQ(0, get_mib(self->c, &m));
	EXPECT_EQ(9, m.profile_type);
	ASSERT_NE(NULL, first_tspec(&self->cap, &tlen, &service, &tformat));
	EXPECT_EQ(9, service);
	EXPECT_EQ(8, tlen);
}

/*
 * XTPSOCK_RATECONTROL: "accepted, no effect (rate control not explored)":
 * it reads back, and the FIRST still carries the NULL traffic format,
 * no rate segment.
 */
TEST_F(xo, ratecontrol_accepted_without_rate_segment)
{
	struct optval o[] = { { XTPSOCK_RATECONTROL, 1 } };
	int tlen, service, tformat;
	struct pkt *p;

	ASSERT_EQ(0, open_pair(self, o, 1));
	EXPECT_EQ(1, get_opt(self->c, XTPSOCK_RATECONTROL));
	ASSERT_EQ(0, transfer(self, 3000));
	p = first_tspec(&self->cap, &tlen, &service, &tformat);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(0, tformat);
	EXPECT_EQ(8, tlen);
	EXPECT_EQ(24, p->dlen);
}

/*
 * MSG_MORE: the write does not end with EOM; the next one does.  A
 * SOCK_SEQPACKET reader gets both writes as one record.  (Nothing is
 * coalesced: each write still leaves in its own DATA packet.)
 */
TEST(msg_more_omits_eom)
{
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct capture cap;
	struct pkt *a, *b;
	char buf[64];
	int ls, c, s;

	ASSERT_EQ(0, own_netns());
	ASSERT_EQ(0, cap_open(&cap));
	ls = listener_type(SOCK_SEQPACKET, PORT, 4);
	ASSERT_LE(0, ls);
	c = client_socket();
	ASSERT_LE(0, c);
	ASSERT_EQ(0, connect_port(c, PORT));
	s = accept(ls, NULL, NULL);
	ASSERT_LE(0, s);
	ASSERT_EQ(3, send(c, "abc", 3, MSG_MORE));
	ASSERT_EQ(3, send(c, "def", 3, 0));
	ASSERT_EQ(3, send(c, "ghi", 3, 0));
	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	EXPECT_EQ(6, recvmsg(s, &mh, 0));
	EXPECT_TRUE(mh.msg_flags & MSG_EOR);
	EXPECT_EQ(0, memcmp(buf, "abcdef", 6));
	EXPECT_EQ(3, recvmsg(s, &mh, 0));
	cap_drain(&cap);
	a = cap_find(&cap, 1, PF_DATA, 0);
	b = cap_find(&cap, 1, PF_DATA, 1);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(3, a->dlen);
	EXPECT_FALSE(a->opts & OPT_EOM);
	EXPECT_TRUE(b->opts & OPT_EOM);
	close(s);
	close(c);
	close(ls);
	close(cap.fd);
}

/*
 * MSG_FIN is MSG_XTP_WCLOSE ("Linux's MSG_FIN"): the data's last packet
 * carries WCLOSE, the reader gets the data then EOF, a later send EPIPE.
 */
TEST_F(xo, msg_fin_closes_with_the_data)
{
	char buf[8];
	struct pkt *p;

	EXPECT_EQ(MSG_XTP_WCLOSE, MSG_FIN);
	ASSERT_EQ(0, open_pair(self, NULL, 0));
	ASSERT_EQ(3, send(self->c, "bye", 3, MSG_FIN));
	EXPECT_EQ(3, read_full(self->s, buf, sizeof(buf)));
	EXPECT_EQ(0, recv(self->s, buf, sizeof(buf), 0));
	EXPECT_EQ(-1, send(self->c, "x", 1, MSG_NOSIGNAL));
	EXPECT_EQ(EPIPE, errno);
	cap_drain(&self->cap);
	p = cap_find(&self->cap, 1, PF_DATA, 0);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(3, p->dlen);
	EXPECT_EQ(OPT_WCLOSE | OPT_EOM, p->opts & (OPT_WCLOSE | OPT_EOM));
}

/*
 * SIOCOUTQ: bytes written and not yet acknowledged.  The server's window
 * is small and it does not read: the rest waits at the client.
 */
TEST_F(xo, siocoutq_counts_unacknowledged)
{
	int rcvbuf = 4608, outq = -1, sent = 0;
	static char got[50000];
	ssize_t r;

	ASSERT_EQ(0, setsockopt(self->ls, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, open_pair(self, NULL, 0));
	fill_payload();
	r = send(self->c, payload, 50000, MSG_DONTWAIT);
	ASSERT_LT(0, r);
	sent = r;
	ASSERT_EQ(0, ioctl(self->c, SIOCOUTQ, &outq));
	TH_LOG("sent %d, SIOCOUTQ %d", sent, outq);
	EXPECT_LT(sent / 2, outq);
	EXPECT_GE(sent, outq);
	/* Once the server has read it all, nothing is outstanding. */
	EXPECT_EQ(sent, read_full(self->s, got, sent));
	for (int i = 0; i < 500 && outq; i++) {
		ASSERT_EQ(0, ioctl(self->c, SIOCOUTQ, &outq));
		if (outq)
			sleep_ms(20);
	}
	EXPECT_EQ(0, outq);
}

/*
 * SO_SNDBUF: a non-blocking writer whose peer does not read gets EAGAIN
 * once the send buffer is full, and how much it got rid of follows the
 * buffer: a 4 KB one takes much less than a 1 MB one (capped by
 * net.core.wmem_max, 208 KB by default).
 */
static int fill_until_eagain(FIXTURE_DATA(xo) *self, int sndbuf)
{
	struct pollfd pfd = { .events = POLLOUT };
	int total = 0;

	if (setsockopt(self->c, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)))
		return -1;
	fill_payload();
	pfd.fd = self->c;
	/* Until the buffer stays full for 300 ms (acks stop freeing it). */
	for (int i = 0; i < 1000; i++) {
		ssize_t r = send(self->c, payload, 65536, MSG_DONTWAIT);

		if (r > 0) {
			total += r;
			continue;
		}
		if (errno != EAGAIN)
			return -1;
		if (poll(&pfd, 1, 300) == 0)
			return total;
	}
	return -1;
}

TEST_F(xo, so_sndbuf_bounds_queued_data)
{
	int rcvbuf = 4608, small, big;

	ASSERT_EQ(0, setsockopt(self->ls, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, open_pair(self, NULL, 0));
	small = fill_until_eagain(self, 4096);
	close(self->c);
	close(self->s);
	ASSERT_EQ(0, open_pair(self, NULL, 0));
	big = fill_until_eagain(self, 1 << 20);
	TH_LOG("taken before EAGAIN: %d with SO_SNDBUF 4096, %d with 1 MB",
	       small, big);
	EXPECT_LT(0, small);
	EXPECT_GT(40000, small);
	/* net.core.wmem_max caps the 1 MB; it still takes much more. */
	EXPECT_LT(100000, big);
}

/*
 * XTPSOCK_TTS REQRESP (3): S_D_T with AbbrevClose, whatever was set
 * before; connect() sends an empty FIRST (address and traffic segments
 * only).  The service cannot change once connected.
 */
TEST_F(xo, tts_reqresp_is_s_d_t_abbrev)
{
	struct pkt *p;
	int v = XTP_SERVICE_DEFAULT;

	self->c = client_socket();
	ASSERT_LE(0, self->c);
	ASSERT_EQ(0, set_opt(self->c, XTPSOCK_ASSOCTYPE, XTP_ASSOC_SDT));
	ASSERT_EQ(0, set_opt(self->c, XTPSOCK_TEARDOWNMETHOD,
			     XTP_TEARDOWN_FORCED));
	ASSERT_EQ(0, set_opt(self->c, XTPSOCK_TTS, XTP_SERVICE_REQRESP));
	EXPECT_EQ(XTP_SERVICE_REQRESP, get_opt(self->c, XTPSOCK_TTS));
	EXPECT_EQ(XTP_ASSOC_S_D_T, get_opt(self->c, XTPSOCK_ASSOCTYPE));
	EXPECT_EQ(XTP_TEARDOWN_ABBREV, get_opt(self->c, XTPSOCK_TEARDOWNMETHOD));
	ASSERT_EQ(0, connect_port(self->c, PORT));
	self->s = accept(self->ls, NULL, NULL);
	ASSERT_LE(0, self->s);
	EXPECT_EQ(-1, setsockopt(self->c, SOL_XTP, XTPSOCK_TTS, &v, sizeof(v)));
	EXPECT_EQ(EISCONN, errno);
	cap_drain(&self->cap);
	p = cap_find(&self->cap, 1, PF_FIRST, 0);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(24, p->dlen);
	EXPECT_EQ(NULL, cap_find(&self->cap, 1, PF_DATA, 0));
}

/* Did the client send END, and WCLOSE before it? */
static void client_end(struct capture *cap, int *end, int *wclose)
{
	*end = *wclose = 0;
	cap_drain(cap);
	for (int k = 0; k < cap->n; k++) {
		if (!cap->p[k].c2s)
			continue;
		if (cap->p[k].opts & OPT_END) {
			*end = 1;
			break;
		}
		*wclose |= !!(cap->p[k].opts & OPT_WCLOSE);
	}
}

/* The client closes: an abort, END without WCLOSE, ECONNRESET for the server. */
static void client_aborts(struct __test_metadata *_metadata,
			  FIXTURE_DATA(xo) *self)
{
	int end, wclose;
	char buf[8];

	close(self->c);
	self->c = -1;
	EXPECT_EQ(-ECONNRESET, read_full(self->s, buf, sizeof(buf)));
	client_end(&self->cap, &end, &wclose);
	EXPECT_EQ(1, end);
	EXPECT_EQ(0, wclose);
}

/*
 * XTPSOCK_TEARDOWNMETHOD=4 (AbortClose): close() sends END and no
 * WCLOSE; the reader gets the data, then ECONNRESET.
 */
TEST_F(xo, teardown_abort_ends_at_close)
{
	struct optval o[] = { { XTPSOCK_TEARDOWNMETHOD, XTP_TEARDOWN_ABORT } };
	char buf[8];

	ASSERT_EQ(0, open_pair(self, o, 1));
	ASSERT_EQ(4, send(self->c, "data", 4, 0));
	EXPECT_EQ(4, recv(self->s, buf, 4, MSG_WAITALL));
	client_aborts(_metadata, self);
}

/* Closing with unread data aborts: END, and ECONNRESET for the peer. */
TEST_F(xo, close_with_unread_data_aborts)
{

	ASSERT_EQ(0, open_pair(self, NULL, 0));
	/* The server sends the data: the client closes without reading. */
	ASSERT_EQ(4, send(self->s, "data", 4, 0));
	for (int i = 0, n = 0; i < 500 && n < 4; i++) {
		ASSERT_EQ(0, ioctl(self->c, SIOCINQ, &n));
		if (n < 4)
			sleep_ms(20);
	}
	client_aborts(_metadata, self);
}

/*
 * XTPSOCK_ZOMBIE_TMO: the END sender lingers that long.  The client
 * closes first, so with AbbrevClose its END answers the server's WCLOSE;
 * with 3000 ms the namespace keeps a context for at least that long after
 * the server's close (the default 1000 would be gone well before).
 */
TEST_F(xo, zombie_tmo_keeps_the_end_sender)
{
	struct optval o[] = { { XTPSOCK_ZOMBIE_TMO, 3000 } };
	long t0, left = -1;
	char buf[4];

	ASSERT_EQ(0, open_pair(self, o, 1));
	EXPECT_EQ(3000, get_opt(self->c, XTPSOCK_ZOMBIE_TMO));
	close(self->ls);
	self->ls = -1;
	close(self->c);
	self->c = -1;
	EXPECT_EQ(0, recv(self->s, buf, sizeof(buf), 0));
	t0 = now_ms();
	close(self->s);
	self->s = -1;
	for (int i = 0; i < 1000; i++) {
		if (xtp_snmp("CurrSockets") == 0) {
			left = now_ms() - t0;
			break;
		}
		sleep_ms(20);
	}
	TH_LOG("last context gone %ld ms after the server's close", left);
	EXPECT_LE(3000, left);
	EXPECT_GT(15000, left);
}

/*
 * listen()'s backlog bounds the contexts waiting for accept(): as TCP's,
 * a backlog of N holds N + 1, so with 1 four connects make two
 * associations and ListenOverflow drops the other FIRSTs.
 */
TEST(backlog_bounds_accept_queue)
{
	long over0, open0, v;
	int ls, c[4];

	ASSERT_EQ(0, own_netns());
	ls = listener_type(SOCK_XTP, PORT, 1);
	ASSERT_LE(0, ls);
	over0 = xtp_snmp("ListenOverflow");
	open0 = xtp_snmp("PassiveOpens");
	for (int i = 0; i < 4; i++) {
		c[i] = client_socket();
		ASSERT_LE(0, c[i]);
		ASSERT_EQ(0, set_opt(c[i], XTPSOCK_NB_CONNECT, 1));
		EXPECT_EQ(-1, connect_port(c[i], PORT));
		EXPECT_EQ(EINPROGRESS, errno);
	}
	v = over0;
	for (int i = 0; i < 500 && v < over0 + 2; i++) {
		v = xtp_snmp("ListenOverflow");
		if (v < over0 + 2)
			sleep_ms(20);
	}
	EXPECT_LE(over0 + 2, v);
	EXPECT_EQ(open0 + 2, xtp_snmp("PassiveOpens"));
	for (int i = 0; i < 4; i++)
		close(c[i]);
	close(ls);
}

/*
 * net.xtp.msl_ms: an ATM entry outlives its association by 2 x MSL.  With
 * 500 ms a replayed FIRST is refused (InReplayFirst) at once, and after
 * the entry expired it opens a new association instead.
 */
TEST_F(xo, msl_ms_bounds_replay_protection)
{
	struct optval o[] = { { XTPSOCK_ZOMBIE_TMO, 100 } };
	long t0, replay0, open0, gone = -1;
	struct pkt first;
	char buf[4];
	FILE *f;

	f = fopen("/proc/sys/net/xtp/msl_ms", "w");
	ASSERT_NE(NULL, f);
	ASSERT_LT(0, fprintf(f, "500\n"));
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, open_pair(self, o, 1));
	ASSERT_EQ(0, set_opt(self->s, XTPSOCK_ZOMBIE_TMO, 100));
	t0 = now_ms();
	close(self->c);
	self->c = -1;
	EXPECT_EQ(0, recv(self->s, buf, sizeof(buf), 0));
	close(self->s);
	self->s = -1;
	cap_drain(&self->cap);
	ASSERT_NE(NULL, cap_find(&self->cap, 1, PF_FIRST, 0));
	first = *cap_find(&self->cap, 1, PF_FIRST, 0);
	/* Both contexts gone, the listener stays. */
	for (int i = 0; i < 500 && xtp_snmp("CurrSockets") != 1; i++)
		sleep_ms(20);
	ASSERT_EQ(1, xtp_snmp("CurrSockets"));
	ASSERT_LE(1, xtp_snmp("AtmEntries"));
	replay0 = xtp_snmp("InReplayFirst");
	open0 = xtp_snmp("PassiveOpens");
	ASSERT_EQ(0, inject(first.raw, first.len));
	EXPECT_EQ(replay0 + 1, xtp_snmp_wait_change("InReplayFirst", replay0));
	EXPECT_EQ(open0, xtp_snmp("PassiveOpens"));
	for (int i = 0; i < 750; i++) {
		if (xtp_snmp("AtmEntries") == 0) {
			gone = now_ms() - t0;
			break;
		}
		sleep_ms(20);
	}
	TH_LOG("ATM empty %ld ms after the close", gone);
	EXPECT_LE(1000, gone);
	EXPECT_GT(12000, gone);
	ASSERT_EQ(0, inject(first.raw, first.len));
	EXPECT_EQ(open0 + 1, xtp_snmp_wait_change("PassiveOpens", open0));
	EXPECT_EQ(replay0 + 1, xtp_snmp("InReplayFirst"));
}

TEST_HARNESS_MAIN
