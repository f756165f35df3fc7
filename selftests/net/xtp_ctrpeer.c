// SPDX-License-Identifier: GPL-2.0
/*
 * xtp_ctrpeer: the ends xtp_counters.sh needs to move the XTP counters.
 *
 *   xtp_ctrpeer listen PORT BACKLOG
 *	listen with BACKLOG and never accept; "listening" on stderr, then
 *	wait to be killed
 *   xtp_ctrpeer send [-g] [-m MAXDATA] [-C MS] ADDR PORT NBYTES
 *	connect (CTIMEOUT MS), "connected" on stderr; with -g wait for a
 *	line on stdin; write NBYTES, "sent" on stderr; then read until the
 *	association ends and print "end: <errno name>" (or "end: EOF")
 *   xtp_ctrpeer spurious [-d MS] IFACE
 *	a scripted receiver on IFACE (the kernel's own XTP input there must
 *	be dropped, e.g. by nftables: packets are read from a packet socket,
 *	ahead of netfilter, and sent through a raw IP socket).  It answers
 *	the first FIRST after MS (default 500) milliseconds, so that the
 *	initiator's SRTT is about MS; waits for two DATA packets d1, d2;
 *	sends an ECNTL that holds d2 only; and when d1 comes again, at
 *	once acknowledges both with a CNTL: d1's retransmission is
 *	acknowledged far sooner than SRTT / 2 after it left, as if the first
 *	copy had only been late.  Prints each step on stderr and "acked" on
 *	success; exits 1 after 20 s without.
 *
 * Errors print "error: <call>: <errno name>" and exit 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "wire.h"

static void die(const char *what)
{
	fprintf(stderr, "error: %s: %s\n", what, strerrorname_np(errno) ?: "?");
	exit(1);
}

static void __attribute__((noreturn)) do_listen(int port, int backlog)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_XTP, 0);

	a.sin_port = htons(port);
	if (fd < 0)
		die("socket");
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)))
		die("bind");
	if (listen(fd, backlog))
		die("listen");
	fprintf(stderr, "listening\n");
	for (;;)
		pause();
}

static int do_send(int argc, char **argv)
{
	int opt, fd, gate = 0, maxdata = 0, ctimeout = 0, nbytes;
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 60 };
	char buf[4096], *data;
	ssize_t n;

	optind = 2;
	while ((opt = getopt(argc, argv, "gm:C:")) != -1) {
		switch (opt) {
		case 'g': gate = 1; break;
		case 'm': maxdata = atoi(optarg); break;
		case 'C': ctimeout = atoi(optarg); break;
		default: return 2;
		}
	}
	if (optind != argc - 3 ||
	    inet_pton(AF_INET, argv[optind], &a.sin_addr) != 1)
		return 2;
	a.sin_port = htons(atoi(argv[optind + 1]));
	nbytes = atoi(argv[optind + 2]);
	fd = socket(AF_INET, SOCK_XTP, 0);
	if (fd < 0)
		die("socket");
	if (maxdata && setsockopt(fd, SOL_XTP, XTPSOCK_MAXDATA, &maxdata,
				  sizeof(maxdata)))
		die("XTPSOCK_MAXDATA");
	if (ctimeout && setsockopt(fd, SOL_XTP, XTPSOCK_CTIMEOUT_TMO,
				   &ctimeout, sizeof(ctimeout)))
		die("XTPSOCK_CTIMEOUT_TMO");
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	fprintf(stderr, "connected\n");
	if (gate && !fgets(buf, sizeof(buf), stdin))
		return 1;
	data = calloc(1, nbytes + 1);
	if (!data)
		die("calloc");
	if (write(fd, data, nbytes) != nbytes)
		die("write");
	fprintf(stderr, "sent\n");
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0)
			continue;
		printf("end: %s\n", n ? strerrorname_np(errno) : "EOF");
		fflush(stdout);
		return 0;
	}
}

/* The scripted receiver of "spurious". */
struct peer {
	int pkt;		/* packet socket: what arrives */
	int raw;		/* raw IP socket: what we send */
	struct sockaddr_in to;	/* the initiator */
	u64 ikey;		/* the initiator's key */
	u32 echo;		/* the newest SYNC seen */
	u8 buf[2048];
};

#define PEER_KEY	0x5eed0c0ffeeULL
#define PEER_ALLOC	(1 << 20)

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * The next XTP packet from the initiator, decoded into @p; 0 at timeout.
 * A packet whose CHECK its sender left to a checksumming device is seen
 * here before any device filled it in (PACKET_AUXDATA says so): it is
 * taken without verifying CHECK, as the kernel's input takes it.
 */
static int peer_recv(struct peer *pr, struct xtp_wire_pkt *p, int ms)
{
	struct pollfd pfd = { .fd = pr->pkt, .events = POLLIN };
	char ctl[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	struct iovec iov = { pr->buf, sizeof(pr->buf) };
	struct sockaddr_ll ll;
	struct msghdr mh = {
		.msg_name = &ll, .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl,
	};
	struct tpacket_auxdata aux;
	struct cmsghdr *c;
	unsigned int flags;
	struct iphdr *ip;
	ssize_t n;

	for (;;) {
		if (poll(&pfd, 1, ms) <= 0)
			return 0;
		mh.msg_namelen = sizeof(ll);
		mh.msg_controllen = sizeof(ctl);
		n = recvmsg(pr->pkt, &mh, 0);
		if (n < (ssize_t)sizeof(*ip) || ll.sll_pkttype == PACKET_OUTGOING)
			continue;
		flags = 0;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			if (c->cmsg_level != SOL_PACKET ||
			    c->cmsg_type != PACKET_AUXDATA)
				continue;
			memcpy(&aux, CMSG_DATA(c), sizeof(aux));
			if (aux.tp_status & TP_STATUS_CSUMNOTREADY)
				flags = XTP_WIRE_F_NOCSUM;
		}
		ip = (struct iphdr *)pr->buf;
		if (ip->protocol != IPPROTO_XTP || ip->ihl * 4 > n)
			continue;
		if (xtp_wire_decode(pr->buf + ip->ihl * 4, n - ip->ihl * 4,
				    flags, p))
			continue;
		pr->to.sin_addr.s_addr = ip->saddr;
		if ((s32)(p->hdr.sync - pr->echo) > 0)
			pr->echo = p->hdr.sync;
		return 1;
	}
}

static void peer_send(struct peer *pr, struct xtp_wire_pkt *p)
{
	u8 out[512];
	int n;

	p->hdr.key = pr->ikey | XTP_KEY_RETURN;
	p->ctl.alloc = PEER_ALLOC;
	p->ctl.echo = pr->echo;
	n = xtp_wire_encode(p, out, sizeof(out));
	if (n < 0) {
		fprintf(stderr, "error: encode: %s\n", xtp_wire_strerror(n));
		exit(1);
	}
	if (sendto(pr->raw, out, n, 0, (struct sockaddr *)&pr->to,
		   sizeof(pr->to)) != n)
		die("sendto");
}

static int do_spurious(int argc, char **argv)
{
	struct sockaddr_ll ll = { .sll_family = AF_PACKET };
	struct peer pr = { .to = { .sin_family = AF_INET } };
	struct xtp_wire_span span;
	struct xtp_wire_pkt p, d[2];
	int opt, delay = 500, nd = 0, one = 1;
	struct timespec t0, ts;

	optind = 2;
	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt != 'd')
			return 2;
		delay = atoi(optarg);
	}
	if (optind != argc - 1)
		return 2;
	ll.sll_protocol = htons(ETH_P_IP);
	ll.sll_ifindex = if_nametoindex(argv[optind]);
	if (!ll.sll_ifindex)
		die("if_nametoindex");
	pr.pkt = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_IP));
	if (pr.pkt < 0 || bind(pr.pkt, (struct sockaddr *)&ll, sizeof(ll)) ||
	    setsockopt(pr.pkt, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one)))
		die("packet socket");
	pr.raw = socket(AF_INET, SOCK_RAW, IPPROTO_XTP);
	if (pr.raw < 0)
		die("raw socket");
	fprintf(stderr, "listening\n");
	clock_gettime(CLOCK_MONOTONIC, &t0);

	do {
		if (!peer_recv(&pr, &p, 20000 - ms_since(&t0)))
			goto timeout;
	} while (p.hdr.pformat != XTP_PF_FIRST);
	pr.ikey = p.hdr.key;
	ts.tv_sec = delay / 1000;
	ts.tv_nsec = delay % 1000 * 1000000L;
	nanosleep(&ts, NULL);
	memset(&p, 0, sizeof(p));
	p.hdr.pformat = XTP_PF_TCNTL;
	p.ctl.rseq = XTP_WIRE_ADDR4_LEN + XTP_WIRE_TSPEC0_LEN;
	p.ctl.xkey = PEER_KEY;
	p.traffic.service = XTP_SVC_STREAM;
	p.traffic.tformat = XTP_TFORMAT_NULL;
	peer_send(&pr, &p);
	fprintf(stderr, "tcntl after %d ms\n", delay);

	/* d1 and d2: the first two DATA packets (FIRSTs sent again skipped). */
	while (nd < 2) {
		if (!peer_recv(&pr, &d[nd], 20000 - ms_since(&t0)))
			goto timeout;
		if (d[nd].hdr.pformat == XTP_PF_DATA && d[nd].data_len &&
		    (!nd || d[nd].hdr.seq > d[0].hdr.seq))
			nd++;
	}
	fprintf(stderr, "data %llu+%u %llu+%u\n",
		(unsigned long long)d[0].hdr.seq, d[0].data_len,
		(unsigned long long)d[1].hdr.seq, d[1].data_len);

	/* An ECNTL: nothing acknowledged beyond d1's start, d2 held. */
	span.left = d[1].hdr.seq;
	span.right = d[1].hdr.seq + d[1].data_len;
	memset(&p, 0, sizeof(p));
	p.hdr.pformat = XTP_PF_ECNTL;
	p.ctl.rseq = d[0].hdr.seq;
	p.ctl.nspan = 1;
	p.ctl.spans = &span;
	peer_send(&pr, &p);
	fprintf(stderr, "ecntl\n");

	/* d1 again: acknowledge everything at once. */
	do {
		if (!peer_recv(&pr, &p, 20000 - ms_since(&t0)))
			goto timeout;
	} while (p.hdr.pformat != XTP_PF_DATA || p.hdr.seq != d[0].hdr.seq);
	memset(&p, 0, sizeof(p));
	p.hdr.pformat = XTP_PF_CNTL;
	p.ctl.rseq = span.right;
	peer_send(&pr, &p);
	fprintf(stderr, "acked\n");
	return 0;
timeout:
	fprintf(stderr, "error: timeout\n");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "listen"))
		do_listen(atoi(argv[2]), atoi(argv[3]));
	if (argc >= 2 && !strcmp(argv[1], "send"))
		return do_send(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "spurious"))
		return do_spurious(argc, argv);
	fprintf(stderr, "usage: xtp_ctrpeer listen PORT BACKLOG\n"
		"       xtp_ctrpeer send [-g] [-m MAXDATA] [-C MS] ADDR PORT NBYTES\n"
		"       xtp_ctrpeer spurious [-d MS] IFACE\n");
	return 2;
}
