// SPDX-License-Identifier: GPL-2.0
/*
 * xtpperf: request/response and bulk workloads over XTP, MTP, TCP and TCP
 * Fast Open, the way netperf's TCP_CRR, TCP_RR and TCP_STREAM measure TCP.
 *
 *   xtpperf -s -P PROTO [-p PORT] [-w WORKERS]
 *   xtpperf -c HOST -P PROTO -m crr|rr|stream [options]
 *
 * The client prints latency percentiles (µs, and round trips of the path
 * when -R gives its RTT), transactions per second, goodput and the CPU
 * time the whole machine spent per transaction and per MB, as text or as
 * one JSON object (-j).  CPU time comes from /proc/stat, so client and
 * server are both counted when they run on the same machine.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "toolutil.h"
#include "xtpperf.h"

#define XP_MAX_CLIENTS	65536	/* hold; the others want far fewer */
#define XP_MAX_SAMPLES	(4U << 20)	/* per client */

struct xp_opts {
	enum xp_proto proto;
	enum xp_mode mode;
	struct sockaddr_in dst;
	uint32_t reqsize;
	uint32_t respsize;
	int clients;
	double seconds;
	uint64_t count;		/* transactions per client; 0: by time */
	uint64_t bytes;		/* stream bytes per client; 0: by time */
	double rtt_ms;
	int warmup;
	int json;
	const char *label;	/* -L: carried into the JSON */
	const char *dump;	/* -D: latency samples, one per line */
	const char *series;	/* -I: stream bytes per client per second */
};

struct xp_client {
	pthread_t thread;
	const struct xp_opts *o;
	struct xp_conn conn;
	uint32_t *lat_us;	/* one sample per transaction */
	uint64_t done;
	uint64_t errors;
	int first_errno;
	uint64_t bytes;
	double elapsed;
	volatile int finished;
};

/* Busy CPU seconds of the whole machine so far (all CPUs). */
static double cpu_busy(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 7)
		return 0;
	/* user nice system [idle iowait] irq softirq steal */
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) /
	       sysconf(_SC_CLK_TCK);
}

static void note_error(struct xp_client *c)
{
	if (!c->errors++)
		c->first_errno = errno;
}

/* One transaction: the bytes it moved both ways, or -1. */
static int64_t one_txn(struct xp_client *c)
{
	const struct xp_opts *o = c->o;
	int err;

	switch (o->mode) {
	case XP_CRR:
		err = xp_crr(&c->conn, o->reqsize, o->respsize);
		break;
	case XP_MRR:
		return xp_mrr(&c->conn);
	default:
		err = xp_rr(&c->conn, o->reqsize, o->respsize);
		break;
	}
	return err ? -1 : (int64_t)o->reqsize + o->respsize;
}

static void run_stream(struct xp_client *c)
{
	double t0 = now();
	int64_t n = xp_stream(&c->conn, c->o->bytes, c->o->seconds);

	c->elapsed = now() - t0;
	if (n < 0) {
		note_error(c);
		return;
	}
	c->bytes = n;
	c->done = 1;
}

static void *client_main(void *arg)
{
	struct xp_client *c = arg;
	const struct xp_opts *o = c->o;
	double t0, end;
	int i;

	if (o->mode == XP_STREAM) {
		run_stream(c);
		goto out;
	}
	if (o->mode == XP_RR && xp_rr_open(&c->conn)) {
		note_error(c);
		goto out;
	}
	/* TFO: the first exchange fetches the cookie. */
	for (i = 0; i < o->warmup; i++)
		if (one_txn(c) < 0)
			note_error(c);
	c->conn.fallbacks = 0;	/* count the timed exchanges only */
	t0 = now();
	end = t0 + o->seconds;
	while (o->count ? c->done + c->errors < o->count : now() < end) {
		double t = now();
		int64_t moved = one_txn(c);

		if (moved < 0) {
			note_error(c);
			continue;
		}
		if (c->done < XP_MAX_SAMPLES)
			c->lat_us[c->done] = (now() - t) * 1e6;
		c->done++;
		c->bytes += moved;
	}
	c->elapsed = now() - t0;
out:
	xp_close(&c->conn);
	c->finished = 1;
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted @v. */
static uint32_t pct(const uint32_t *v, uint64_t n, double p)
{
	uint64_t k;

	if (!n)
		return 0;
	k = (uint64_t)(p / 100.0 * n + 0.999999);
	if (k < 1)
		k = 1;
	return v[(k > n ? n : k) - 1];
}

static void dump_samples(const char *path, const uint32_t *v, uint64_t n)
{
	FILE *f = fopen(path, "w");
	uint64_t i;

	if (!f)
		die(path);
	for (i = 0; i < n; i++)
		fprintf(f, "%u\n", v[i]);
	if (fclose(f))
		die(path);
}

/*
 * Wait for the clients; with -I, write each stream client's bytes every
 * second meanwhile: "seconds client bytes" lines.
 */
static void wait_clients(const struct xp_opts *o, struct xp_client *cl)
{
	FILE *f = NULL;
	double t0 = now(), next = t0 + 1;
	int k, busy;

	if (o->series) {
		f = fopen(o->series, "w");
		if (!f)
			die(o->series);
	}
	do {
		usleep(20000);
		for (busy = 0, k = 0; k < o->clients; k++)
			busy += !cl[k].finished;
		if (f && now() >= next) {
			for (k = 0; k < o->clients; k++)
				fprintf(f, "%.2f %d %llu\n", now() - t0, k,
					(unsigned long long)cl[k].conn.progress);
			next += 1;
		}
	} while (busy);
	for (k = 0; k < o->clients; k++)
		pthread_join(cl[k].thread, NULL);
	if (f && fclose(f))
		die(o->series);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	stop = sig;
}

/*
 * hold: open N associations, print "held N" and keep them for the time or
 * until SIGTERM; then abort them (SO_LINGER 0), so that no TIME_WAIT or
 * closing state outlives the run.
 */
static int run_hold(const struct xp_opts *o, struct xp_client *cl)
{
	struct sigaction sa = { .sa_handler = on_term };
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	double end = now() + o->seconds;
	int k;

	sigaction(SIGTERM, &sa, NULL);
	for (k = 0; k < o->clients; k++)
		if (xp_hold(&cl[k].conn))
			die("hold");
	printf("held %d\n", o->clients);
	fflush(stdout);
	while (!stop && now() < end)
		usleep(100000);
	for (k = 0; k < o->clients; k++) {
		setsockopt(cl[k].conn.fd, SOL_SOCKET, SO_LINGER, &lg,
			   sizeof(lg));
		xp_close(&cl[k].conn);
	}
	return 0;
}

static const char *mode_name(enum xp_mode m)
{
	static const char *const name[] = {
		[XP_CRR] = "crr", [XP_RR] = "rr", [XP_STREAM] = "stream",
		[XP_HOLD] = "hold", [XP_MRR] = "mrr",
	};

	return name[m];
}

static void report(const struct xp_opts *o, struct xp_client *cl,
		   double cpu_s)
{
	uint64_t done = 0, errors = 0, bytes = 0, n = 0, i, fallbacks = 0;
	double elapsed = 0, tps, mbps, p[4];
	static const double at[4] = { 50, 99, 99.9, 90 };
	uint32_t *all;
	int first_errno = 0, k;

	for (k = 0; k < o->clients; k++) {
		done += cl[k].done;
		errors += cl[k].errors;
		bytes += cl[k].bytes;
		fallbacks += cl[k].conn.fallbacks;
		if (cl[k].elapsed > elapsed)
			elapsed = cl[k].elapsed;
		if (!first_errno)
			first_errno = cl[k].first_errno;
	}
	all = calloc(done ? done : 1, sizeof(*all));
	if (!all)
		die("calloc");
	for (k = 0; k < o->clients && o->mode != XP_STREAM; k++)
		for (i = 0; i < cl[k].done && i < XP_MAX_SAMPLES; i++)
			all[n++] = cl[k].lat_us[i];
	qsort(all, n, sizeof(*all), cmp_u32);
	for (k = 0; k < 4; k++)
		p[k] = pct(all, n, at[k]);
	if (o->dump)
		dump_samples(o->dump, all, n);
	free(all);
	tps = elapsed > 0 ? done / elapsed : 0;
	mbps = elapsed > 0 ? bytes * 8 / elapsed / 1e6 : 0;

	if (o->json) {
		printf("{\"label\":\"%s\",\"proto\":\"%s\",\"mode\":\"%s\","
		       "\"reqsize\":%u,"
		       "\"respsize\":%u,\"clients\":%d,\"seconds\":%.3f,"
		       "\"transactions\":%llu,\"errors\":%llu,\"tps\":%.1f,"
		       "\"bytes\":%llu,\"goodput_mbps\":%.3f,",
		       o->label ? o->label : "", xp_proto_name(o->proto), mode_name(o->mode), o->reqsize,
		       o->respsize, o->clients, elapsed,
		       (unsigned long long)done, (unsigned long long)errors,
		       tps, (unsigned long long)bytes, mbps);
		printf("\"p50_us\":%.0f,\"p90_us\":%.0f,\"p99_us\":%.0f,"
		       "\"p999_us\":%.0f,", p[0], p[3], p[1], p[2]);
		if (o->rtt_ms > 0)
			printf("\"rtt_ms\":%.3f,\"p50_rtt\":%.3f,"
			       "\"p90_rtt\":%.3f,\"p99_rtt\":%.3f,"
			       "\"p999_rtt\":%.3f,",
			       o->rtt_ms, p[0] / 1e3 / o->rtt_ms,
			       p[3] / 1e3 / o->rtt_ms, p[1] / 1e3 / o->rtt_ms,
			       p[2] / 1e3 / o->rtt_ms);
		printf("\"cpu_s\":%.3f,\"cpu_us_per_txn\":%.1f,"
		       "\"cpu_ms_per_mb\":%.3f,\"tfo_fallbacks\":%llu,"
		       "\"first_error\":\"%s\"}\n",
		       cpu_s, done ? cpu_s * 1e6 / done : 0,
		       bytes ? cpu_s * 1e3 / (bytes / 1e6) : 0,
		       (unsigned long long)fallbacks,
		       errors ? strerror(first_errno) : "");
		return;
	}
	printf("%s %s: %d client(s), %.2f s: %llu done, %llu failed",
	       xp_proto_name(o->proto), mode_name(o->mode), o->clients, elapsed,
	       (unsigned long long)done, (unsigned long long)errors);
	if (errors)
		printf(" (first: %s)", strerror(first_errno));
	if (fallbacks)
		printf(", %llu without data in the SYN",
		       (unsigned long long)fallbacks);
	printf("\n");
	if (o->mode != XP_STREAM) {
		printf("  %.1f transactions/s; latency µs p50 %.0f p99 %.0f "
		       "p99.9 %.0f", tps, p[0], p[1], p[2]);
		if (o->rtt_ms > 0)
			printf(" (RTTs %.2f %.2f %.2f)", p[0] / 1e3 / o->rtt_ms,
			       p[1] / 1e3 / o->rtt_ms, p[2] / 1e3 / o->rtt_ms);
		printf("\n  CPU %.1f µs per transaction\n",
		       done ? cpu_s * 1e6 / done : 0);
	} else {
		printf("  goodput %.3f Mbit/s (%llu bytes); CPU %.3f ms per "
		       "MB\n", mbps, (unsigned long long)bytes,
		       bytes ? cpu_s * 1e3 / (bytes / 1e6) : 0);
	}
}

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: xtpperf -s -P PROTO [-p PORT] [-w WORKERS]\n"
		"       xtpperf -c HOST -P PROTO [-m crr|rr|stream] [options]\n"
		"  -P xtp|tcp|tfo|mtp  transport (tfo: TCP Fast Open)\n"
		"  -p PORT     port (5001)\n"
		"  -m MODE     crr: new association per request (default);\n"
		"              rr: one association; stream: one-way bulk;\n"
		"              mrr: an ftp-like session per association (the\n"
		"              thesis' MRR); hold: -n idle associations for -l s\n"
		"  -q BYTES    request size after the 16-byte header (64)\n"
		"  -r BYTES    answer size (100), at most %u\n"
		"  -n N        concurrent clients (1)\n"
		"  -l SECONDS  run time (5)\n"
		"  -k COUNT    transactions per client instead of a time\n"
		"  -b BYTES    stream: bytes per client instead of a time\n"
		"              (required for mtp)\n"
		"  -R MS       RTT of the path: latency also in round trips\n"
		"  -W COUNT    untimed warm-up transactions (tfo: 1)\n"
		"  -w N        server threads (64)\n"
		"  -j          one JSON object instead of text\n"
		"  -L LABEL    a label for the JSON object\n"
		"  -D FILE     every latency sample (µs), sorted, to FILE\n"
		"  -I FILE     stream: each client's bytes every second\n",
		XP_MAX_MSG);
	exit(status);
}

static uint64_t number(const char *s, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v > max) {
		fprintf(stderr, "xtpperf: bad number '%s' (0..%llu)\n", s,
			(unsigned long long)max);
		usage(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct xp_opts o = {
		.proto = XP_TCP, .mode = XP_CRR, .reqsize = 64,
		.respsize = 100, .clients = 1, .seconds = 5, .warmup = -1,
	};
	const char *host = NULL;
	int server = 0, workers = 64, port = 5001, opt, k, proto_set = 0;
	struct xp_client *cl;
	double cpu0;

	while ((opt = getopt(argc, argv,
			     "sc:P:p:m:q:r:n:l:k:b:R:W:w:jL:D:I:h")) != -1) {
		switch (opt) {
		case 's':
			server = 1;
			break;
		case 'c':
			host = optarg;
			break;
		case 'P':
			if (xp_parse_proto(optarg, &o.proto)) {
				fprintf(stderr, "xtpperf: unknown transport "
					"'%s'\n", optarg);
				usage(2);
			}
			proto_set = 1;
			break;
		case 'p':
			port = number(optarg, 65535);
			break;
		case 'm':
			if (!strcmp(optarg, "crr"))
				o.mode = XP_CRR;
			else if (!strcmp(optarg, "rr"))
				o.mode = XP_RR;
			else if (!strcmp(optarg, "stream"))
				o.mode = XP_STREAM;
			else if (!strcmp(optarg, "mrr"))
				o.mode = XP_MRR;
			else if (!strcmp(optarg, "hold"))
				o.mode = XP_HOLD;
			else
				usage(2);
			break;
		case 'q':
			o.reqsize = number(optarg, XP_MAX_MSG);
			break;
		case 'r':
			o.respsize = number(optarg, XP_MAX_MSG);
			break;
		case 'n':
			o.clients = number(optarg, XP_MAX_CLIENTS);
			break;
		case 'l':
			o.seconds = number(optarg, 86400);
			break;
		case 'k':
			o.count = number(optarg, 1ULL << 40);
			break;
		case 'b':
			o.bytes = number(optarg, UINT32_MAX);
			break;
		case 'R':
			o.rtt_ms = strtod(optarg, NULL);
			break;
		case 'W':
			o.warmup = number(optarg, 1000);
			break;
		case 'w':
			workers = number(optarg, 1024);
			break;
		case 'j':
			o.json = 1;
			break;
		case 'L':
			o.label = optarg;
			break;
		case 'D':
			o.dump = optarg;
			break;
		case 'I':
			o.series = optarg;
			break;
		case 'h':
			usage(0);
		default:
			usage(2);
		}
	}
	if (optind != argc || server == !!host || !proto_set || !o.clients ||
	    !workers)
		usage(2);
	o.dst.sin_family = AF_INET;
	o.dst.sin_port = htons(port);
	if (server)
		return xp_server(o.proto, &o.dst, workers) ? fail("server") : 0;
	if (inet_pton(AF_INET, host, &o.dst.sin_addr) != 1) {
		fprintf(stderr, "xtpperf: '%s' is not an IPv4 address\n", host);
		usage(2);
	}
	if (o.warmup < 0)
		o.warmup = o.proto == XP_TFO;
	cl = calloc(o.clients, sizeof(*cl));
	if (!cl)
		die("calloc");
	for (k = 0; k < o.clients; k++) {
		cl[k].o = &o;
		cl[k].conn.fd = -1;
		cl[k].conn.proto = o.proto;
		cl[k].conn.dst = o.dst;
	}
	if (o.mode == XP_HOLD)
		return run_hold(&o, cl);
	for (k = 0; k < o.clients; k++) {
		cl[k].conn.buf = malloc(XP_MAX_MSG);
		cl[k].lat_us = malloc(XP_MAX_SAMPLES * sizeof(uint32_t));
		if (!cl[k].conn.buf || !cl[k].lat_us)
			die("malloc");
	}
	cpu0 = cpu_busy();
	for (k = 0; k < o.clients; k++)
		if (pthread_create(&cl[k].thread, NULL, client_main, &cl[k]))
			die("pthread_create");
	wait_clients(&o, cl);
	report(&o, cl, cpu_busy() - cpu0);
	for (k = 0; k < o.clients; k++)
		if (cl[k].errors)
			return 1;
	return 0;
}
