// SPDX-License-Identifier: GPL-2.0
/*
 * xtpperf transports: the same exchanges over XTP, TCP, TCP Fast Open and
 * MTP, each written the way a program would naturally use that transport.
 *
 * crr  XTP: sendto() on an unconnected socket with MSG_XTP_WCLOSE (the data
 *      rides in the FIRST), read to EOF.  TCP: connect, send,
 *      shutdown(SHUT_WR), read to EOF.  TFO: sendto(MSG_FASTOPEN) instead
 *      of connect and send.  MTP: one transaction.
 * rr   one association (MTP: one socket), a request and its answer each.
 * stream  one-way bulk; the server answers the byte count it received.
 */
#include <errno.h>
#include <stdio.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "mtpapi.h"
#include "toolutil.h"
#include "xtpperf.h"

#define XP_CHUNK	(64U << 10)	/* stream write size */
#define XP_MTP_CHUNK	(4U << 20)	/* MTP answer per request */
#define XP_MTP_OBJECT	(1U << 20)	/* MTP stream by time: object size */

static const char *const names[] = {
	[XP_XTP] = "xtp", [XP_TCP] = "tcp", [XP_TFO] = "tfo", [XP_MTP] = "mtp",
};

const char *xp_proto_name(enum xp_proto p)
{
	return names[p];
}

int xp_parse_proto(const char *s, enum xp_proto *p)
{
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*p = i;
			return 0;
		}
	}
	return -1;
}

static ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		got += n;
	}
	return got;
}

static int write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = send(fd, (const char *)buf + done, len - done,
				 MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		done += n;
	}
	return 0;
}

/* Read to EOF; the byte count, or -1. */
static ssize_t drain(int fd, char *buf, size_t cap)
{
	ssize_t total = 0, n;

	do {
		n = read_full(fd, buf, cap);
		if (n < 0)
			return -1;
		total += n;
	} while (n == (ssize_t)cap);
	return total;
}

static int stream_socket(enum xp_proto p)
{
	int fd, one = 1;

	if (p == XP_XTP)
		return socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	/* Request/response: no Nagle wait on either side. */
	if (fd >= 0)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

/* Did this TFO connection carry its data in the SYN? */
static int tfo_used(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len))
		return 0;
	return !!(ti.tcpi_options & TCPI_OPT_SYN_DATA);
}

static void put_hdr(char *buf, enum xp_mode mode, uint32_t reqsize,
		    uint32_t respsize)
{
	struct xp_hdr h = {
		.magic = htonl(XP_MAGIC), .mode = htonl(mode),
		.reqsize = htonl(reqsize), .respsize = htonl(respsize),
	};

	memcpy(buf, &h, sizeof(h));
}

static int get_hdr(const char *buf, struct xp_hdr *h)
{
	memcpy(h, buf, sizeof(*h));
	h->magic = ntohl(h->magic);
	h->mode = ntohl(h->mode);
	h->reqsize = ntohl(h->reqsize);
	h->respsize = ntohl(h->respsize);
	if (h->magic != XP_MAGIC || h->mode < XP_CRR || h->mode > XP_HOLD)
		return -1;
	if (h->mode == XP_CRR &&
	    (h->reqsize > XP_MAX_MSG || h->respsize > XP_MAX_MSG))
		return -1;
	return 0;
}

/* ---- server ------------------------------------------------------------ */

struct xp_srv {
	int fd;
	enum xp_proto proto;
};

/* rr: requests that say their own and their answer's length. */
static void serve_rr(int fd, char *buf)
{
	uint32_t w[2];

	while (read_full(fd, w, sizeof(w)) == sizeof(w)) {
		uint32_t q = ntohl(w[0]), r = ntohl(w[1]);

		if (q < sizeof(w) || q > XP_MAX_MSG || r > XP_MAX_MSG ||
		    read_full(fd, buf, q - sizeof(w)) !=
		    (ssize_t)(q - sizeof(w)) ||
		    write_full(fd, buf, r))
			break;
	}
}

/* Sockets of hold runs, kept open until the server ends. */
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static int *held;
static size_t nheld, held_cap;

static int hold(int fd)
{
	int *n;

	pthread_mutex_lock(&held_lock);
	if (nheld == held_cap) {
		n = realloc(held, (held_cap * 2 + 64) * sizeof(*held));
		if (!n) {
			pthread_mutex_unlock(&held_lock);
			return 0;
		}
		held = n;
		held_cap = held_cap * 2 + 64;
	}
	held[nheld++] = fd;
	pthread_mutex_unlock(&held_lock);
	return 1;
}

/* Serve one association; 1 when the socket is to stay open. */
static int serve_stream(int fd, char *buf, const struct xp_hdr *h)
{
	uint64_t total = 0;
	ssize_t n;

	switch (h->mode) {
	case XP_CRR:
		if (read_full(fd, buf, h->reqsize) == (ssize_t)h->reqsize)
			write_full(fd, buf, h->respsize);
		break;
	case XP_RR:
		serve_rr(fd, buf);
		break;
	case XP_HOLD:
		return hold(fd);
	case XP_STREAM:
		while ((n = read(fd, buf, XP_MAX_MSG)) > 0 ||
		       (n < 0 && errno == EINTR))
			total += n > 0 ? n : 0;
		if (!n) {
			total = htobe64(total);
			write_full(fd, &total, sizeof(total));
		}
		break;
	}
	return 0;
}

static void *stream_worker(void *arg)
{
	struct xp_srv *s = arg;
	char *buf = calloc(1, XP_MAX_MSG);

	if (!buf)
		return NULL;
	for (;;) {
		struct xp_hdr h;
		int fd = accept(s->fd, NULL, NULL);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			break;
		}
		if (read_full(fd, buf, sizeof(h)) == sizeof(h) &&
		    !get_hdr(buf, &h) && serve_stream(fd, buf, &h))
			continue;
		close(fd);
	}
	free(buf);
	return NULL;
}

/* One MTP request: the answer's piece from the requested address. */
static void mtp_answer(int fd, char *buf, const char *data, size_t cap)
{
	struct mtp_response a = { .response = MTP_RES_REPLY };
	struct sockaddr_in from;
	struct mtp_info ri;
	uint64_t size = 0;
	struct xp_hdr h;
	size_t len = 0;
	ssize_t n;

	n = mtp_recvinfo(fd, buf, MTP_SIZE_REQUEST, &ri, &from, NULL, 0);
	if (n < 0)
		return;
	a.reqid = ri.reqid;
	a.action = ri.action;
	if (n < (ssize_t)sizeof(h) || get_hdr(buf, &h)) {
		a.error = MTP_ERR_APP;
		a.response = MTP_ERR_APP_DATA;
	} else {
		size = h.respsize;
		if (ri.address > size) {
			a.error = MTP_ERR_APP;
			a.response = MTP_ERR_APP_ADDRESS;
		} else {
			len = size - ri.address;
			if (len > cap)
				len = cap;
			a.address = ri.address;
			a.rsize = size - ri.address;
		}
	}
	mtp_sendcm(fd, &from, MTP_RESPOND, &a, sizeof(a), data, len);
}

static void *mtp_worker(void *arg)
{
	struct xp_srv *s = arg;
	char req[MTP_SIZE_REQUEST];
	char *data = malloc(XP_MTP_CHUNK);

	if (!data)
		return NULL;
	/* Filled once: answers cost the server a send, not a memset. */
	memset(data, 'x', XP_MTP_CHUNK);
	for (;;)
		mtp_answer(s->fd, req, data, XP_MTP_CHUNK);
	return NULL;
}

/**
 * xp_server() - serve @proto on @me with @workers threads, forever
 * @proto: transport
 * @me: address to bind
 * @workers: threads; each serves one association at a time
 *
 * Return: -1 with errno set when the socket cannot be set up.
 */
int xp_server(enum xp_proto proto, const struct sockaddr_in *me, int workers)
{
	static struct xp_srv s;
	int one = 1, qlen = 1024, i;
	pthread_t t;

	s.proto = proto;
	if (proto == XP_MTP)
		s.fd = socket(AF_INET, SOCK_MTP, 0);
	else
		s.fd = stream_socket(proto);
	if (s.fd < 0)
		return -1;
	setsockopt(s.fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (proto == XP_TFO &&
	    setsockopt(s.fd, IPPROTO_TCP, TCP_FASTOPEN, &qlen, sizeof(qlen)))
		return -1;
	if (bind(s.fd, (const struct sockaddr *)me, sizeof(*me)))
		return -1;
	if (proto != XP_MTP && listen(s.fd, 1024))
		return -1;
	for (i = 0; i < workers; i++)
		if (pthread_create(&t, NULL, proto == XP_MTP ? mtp_worker :
				   stream_worker, &s))
			return -1;
	/* Scripts wait for this line before they start clients. */
	fprintf(stderr, "xtpperf: %s listening on port %u\n",
		xp_proto_name(proto), ntohs(me->sin_port));
	for (;;)
		pause();
	return 0;
}

/* ---- client ------------------------------------------------------------ */

/* 0 when an answer of @got bytes (-1: failed) is the @want expected. */
static int expect_len(ssize_t got, uint32_t want)
{
	if (got < 0)
		return -1;
	if (got != want) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* One MTP transaction: the answer's length, or -1. */
static ssize_t mtp_txn(struct xp_conn *c, enum xp_mode mode, uint32_t reqsize,
		       uint32_t size)
{
	struct mtp_request r = { .action = MTP_ACT_APP };
	struct mtp_info info;
	ssize_t total = 0, n;
	int flags;

	if (c->fd < 0) {
		c->fd = socket(AF_INET, SOCK_MTP, 0);
		if (c->fd < 0)
			return -1;
	}
	if (size <= MTP_SIZE_DEFAULT)
		r.flags = MTP_REQ_SINGLE;
	put_hdr(c->buf, mode, reqsize, size);
	n = sizeof(struct xp_hdr) + reqsize;
	if (n > MTP_SIZE_REQUEST) {
		errno = EMSGSIZE;
		return -1;
	}
	if (mtp_sendcm(c->fd, &c->dst, MTP_REQUEST, &r, sizeof(r), c->buf,
		       n) < 0)
		return -1;
	do {
		n = mtp_recvinfo(c->fd, c->buf, XP_MAX_MSG, &info, NULL,
				 &flags, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (info.error) {
			errno = EPROTO;
			return -1;
		}
		total += n;
	} while (!(info.flags & MTP_INFO_FINAL));
	return total;
}

/**
 * xp_crr() - one request/response on a new association
 * @c: client; its buffer holds XP_MAX_MSG bytes
 * @reqsize: request bytes after the header
 * @respsize: answer bytes expected
 *
 * Return: 0, or -1 with errno set (EPROTO: the answer's size was wrong).
 */
int xp_crr(struct xp_conn *c, uint32_t reqsize, uint32_t respsize)
{
	size_t len = sizeof(struct xp_hdr) + reqsize;
	int fd, err = 0;
	ssize_t got;

	if (c->proto == XP_MTP) {
		got = mtp_txn(c, XP_CRR, reqsize, respsize);
		goto check;
	}
	if (len > XP_MAX_MSG) {
		errno = EMSGSIZE;
		return -1;
	}
	fd = stream_socket(c->proto);
	if (fd < 0)
		return -1;
	put_hdr(c->buf, XP_CRR, reqsize, respsize);
	switch (c->proto) {
	case XP_XTP:
		if (sendto(fd, c->buf, len, MSG_XTP_WCLOSE | MSG_NOSIGNAL,
			   (struct sockaddr *)&c->dst, sizeof(c->dst)) !=
		    (ssize_t)len)
			err = -1;
		break;
	case XP_TFO:
		if (sendto(fd, c->buf, len, MSG_FASTOPEN | MSG_NOSIGNAL,
			   (struct sockaddr *)&c->dst, sizeof(c->dst)) !=
		    (ssize_t)len || shutdown(fd, SHUT_WR))
			err = -1;
		break;
	default:
		if (connect(fd, (struct sockaddr *)&c->dst, sizeof(c->dst)) ||
		    write_full(fd, c->buf, len) || shutdown(fd, SHUT_WR))
			err = -1;
		break;
	}
	got = err ? -1 : drain(fd, c->buf, XP_MAX_MSG);
	err = errno;
	if (c->proto == XP_TFO && got >= 0 && !tfo_used(fd))
		c->fallbacks++;
	close(fd);
	errno = err;
check:
	return expect_len(got, respsize);
}

/* Connect and send the association's header for @mode. */
static int open_assoc(struct xp_conn *c, enum xp_mode mode)
{
	char hdr[sizeof(struct xp_hdr)];

	c->fd = stream_socket(c->proto);
	if (c->fd < 0)
		return -1;
	put_hdr(hdr, mode, 0, 0);
	if (connect(c->fd, (struct sockaddr *)&c->dst, sizeof(c->dst)) ||
	    write_full(c->fd, hdr, sizeof(hdr)))
		return -1;
	return 0;
}

/**
 * xp_rr_open() - open the association an rr run uses
 * @c: client
 *
 * Return: 0, or -1 with errno set.
 */
int xp_rr_open(struct xp_conn *c)
{
	if (c->proto == XP_MTP)
		return 0;
	return open_assoc(c, XP_RR);
}

/**
 * xp_rr() - one request and its answer on the open association
 * @c: client, after xp_rr_open()
 * @reqsize: request bytes (XTP and TCP: at least the 8 that give the
 *	sizes; a smaller value sends 8)
 * @respsize: answer bytes expected
 *
 * Return: 0, or -1 with errno set.
 */
int xp_rr(struct xp_conn *c, uint32_t reqsize, uint32_t respsize)
{
	uint32_t w[2];

	if (c->proto == XP_MTP)
		return expect_len(mtp_txn(c, XP_RR, reqsize, respsize),
				  respsize);
	if (reqsize < sizeof(w))
		reqsize = sizeof(w);
	w[0] = htonl(reqsize);
	w[1] = htonl(respsize);
	memcpy(c->buf, w, sizeof(w));
	if (write_full(c->fd, c->buf, reqsize))
		return -1;
	return expect_len(read_full(c->fd, c->buf, respsize), respsize);
}

/**
 * xp_mrr() - the thesis' MRR pattern (its Table 13, an ftp session)
 * @c: client
 *
 * One new association: three directory listings (16-byte command,
 * 600-byte answer), a put of 5000 bytes and a get of 5000 bytes.  Not for
 * MTP, whose requests hold at most MTP_SIZE_REQUEST bytes.
 *
 * Return: the bytes moved both ways, or -1 with errno set.
 */
int64_t xp_mrr(struct xp_conn *c)
{
	static const uint32_t ex[][2] = {
		{ 16, 600 }, { 16, 600 }, { 16, 600 }, { 5000, 16 },
		{ 16, 5000 },
	};
	int64_t bytes = 0;
	unsigned int i;
	int err = 0;

	if (c->proto == XP_MTP) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (open_assoc(c, XP_RR))
		err = -1;
	for (i = 0; !err && i < sizeof(ex) / sizeof(ex[0]); i++) {
		err = xp_rr(c, ex[i][0], ex[i][1]);
		bytes += ex[i][0] + ex[i][1];
	}
	xp_close(c);
	return err ? -1 : bytes;
}

/**
 * xp_hold() - open an association the server keeps, idle, until it ends
 * @c: client
 *
 * Return: 0, or -1 with errno set.
 */
int xp_hold(struct xp_conn *c)
{
	if (c->proto == XP_MTP) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return open_assoc(c, XP_HOLD);
}

/*
 * MTP bulk: one object of @bytes, or objects of XP_MTP_OBJECT bytes one
 * after the other for @seconds.
 */
static int64_t mtp_stream(struct xp_conn *c, uint64_t bytes, double seconds)
{
	uint64_t size = bytes ? bytes : XP_MTP_OBJECT, total = 0;
	double t0 = now();
	ssize_t got;

	if (size > UINT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	do {
		got = mtp_txn(c, XP_STREAM, 0, size);
		if (expect_len(got, size))
			return -1;
		total += got;
		c->progress = total;
	} while (!bytes && now() - t0 < seconds);
	return total;
}

/**
 * xp_stream() - one-way bulk transfer
 * @c: client
 * @bytes: bytes to send; 0 to send for @seconds instead (MTP: 1 MB
 *	objects one after the other)
 * @seconds: duration when @bytes is 0
 *
 * Returns when the server has confirmed what it received.
 *
 * Return: the bytes the server received, or -1 with errno set (EPROTO: it
 * received another count than was sent).
 */
int64_t xp_stream(struct xp_conn *c, uint64_t bytes, double seconds)
{
	uint64_t sent = 0, rcvd;
	double t0 = now();

	if (c->proto == XP_MTP)
		return mtp_stream(c, bytes, seconds);
	if (open_assoc(c, XP_STREAM))
		return -1;
	memset(c->buf, 'x', XP_CHUNK);
	for (;;) {
		size_t n = XP_CHUNK;

		if (bytes) {
			if (sent >= bytes)
				break;
			if (bytes - sent < n)
				n = bytes - sent;
		} else if (now() - t0 >= seconds) {
			break;
		}
		if (write_full(c->fd, c->buf, n))
			return -1;
		sent += n;
		c->progress = sent;
	}
	if (shutdown(c->fd, SHUT_WR) ||
	    read_full(c->fd, &rcvd, sizeof(rcvd)) != sizeof(rcvd))
		return -1;
	if (be64toh(rcvd) != sent) {
		errno = EPROTO;
		return -1;
	}
	return sent;
}

void xp_close(struct xp_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}
