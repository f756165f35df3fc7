// SPDX-License-Identifier: GPL-2.0
/*
 * User-space unit tests of net/xtp/close.c, the steps of the teardown
 * methods: each step alone, and two contexts closing an association
 * through a lossless, in-order path, whose packet sequence is checked
 * against the rules of the thesis (AbbrevClose: END rides on the last
 * RCLOSE; GracefulClose: END after both streams closed; ForcedClose: END
 * as soon as our WCLOSE is answered).
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "close.h"
#include <uapi/linux/xtp.h>

TEST(wclose_waits_for_queue_and_separate_ack)
{
	struct xtp_close c = { .method = XTP_TEARDOWN_ABBREV };

	EXPECT_FALSE(xtp_close_wclose_due(&c, false, true, true));
	c.wclose_req = 1;
	/* Data left: WCLOSE rides on it. */
	EXPECT_FALSE(xtp_close_wclose_due(&c, false, false, true));
	/* S_D_T, SD_T: only once everything sent is acknowledged. */
	EXPECT_FALSE(xtp_close_wclose_due(&c, true, true, false));
	EXPECT_EQ(0, (int)c.wclose_sent);
	EXPECT_TRUE(xtp_close_wclose_due(&c, true, true, true));
	EXPECT_EQ(1, (int)c.wclose_sent);
	/* Once. */
	EXPECT_FALSE(xtp_close_wclose_due(&c, false, true, true));
}

TEST(answer_once)
{
	struct xtp_close c = { .method = XTP_TEARDOWN_ABBREV };

	EXPECT_EQ(0, xtp_close_answer(&c));
	c.wclose_rcvd = 1;
	EXPECT_EQ(XTP_CLOSE_CNTL, xtp_close_answer(&c));
	EXPECT_EQ(1, (int)c.rclose_sent);
	EXPECT_EQ(1, (int)c.wclose_answered);
	EXPECT_EQ(0, xtp_close_answer(&c));
}

/* A FILETRANSFER initiator said RCLOSE on its FIRST: no CNTL to say it. */
TEST(answer_declared_rclose)
{
	struct xtp_close c = { .method = XTP_TEARDOWN_GRACEFUL,
			       .rclose_sent = 1, .wclose_rcvd = 1 };

	EXPECT_EQ(0, xtp_close_answer(&c));
	EXPECT_EQ(1, (int)c.wclose_answered);
}

/* Our stream already closed: how each method ends on the answer. */
TEST(answer_when_outbound_done)
{
	static const struct {
		u8 method;
		unsigned int act;
	} t[] = {
		{ XTP_TEARDOWN_ABBREV, XTP_CLOSE_END },
		{ XTP_TEARDOWN_GRACEFUL, XTP_CLOSE_CNTL | XTP_CLOSE_END },
		{ XTP_TEARDOWN_FORCED, XTP_CLOSE_CNTL },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xtp_close c = {
			.method = t[i].method, .wclose_req = 1,
			.wclose_sent = 1, .rclose_rcvd = 1, .wclose_rcvd = 1,
		};

		EXPECT_EQ(t[i].act, xtp_close_answer(&c)) {
			TH_LOG("method %u", t[i].method);
		}
	}
}

TEST(finish_by_method)
{
	struct xtp_close c = { .method = XTP_TEARDOWN_FORCED,
			       .wclose_sent = 1 };

	EXPECT_EQ(0, xtp_close_finish(&c));
	c.rclose_rcvd = 1;
	EXPECT_EQ(XTP_CLOSE_END, xtp_close_finish(&c));
	c.method = XTP_TEARDOWN_ABBREV;
	EXPECT_EQ(0, xtp_close_finish(&c));	/* peer's stream still open */
	c.rclose_sent = 1;
	EXPECT_EQ(XTP_CLOSE_END, xtp_close_finish(&c));
	c.method = XTP_TEARDOWN_GRACEFUL;
	EXPECT_EQ(XTP_CLOSE_END_LATER, xtp_close_finish(&c));
	EXPECT_EQ(1, (int)c.end_delay);
	EXPECT_EQ(0, xtp_close_finish(&c));	/* armed once */
	/* Closed by the peer's FIRST: the END is the peer's to send. */
	c = (struct xtp_close){ .method = XTP_TEARDOWN_FORCED,
				.wclose_sent = 1, .rclose_rcvd = 1,
				.wclose_implied = 1 };
	EXPECT_EQ(0, xtp_close_finish(&c));
}

/*
 * Two contexts over a lossless path.  A packet carries the sender's
 * WCLOSE and RCLOSE bits as they are when it leaves, SREQ for a WCLOSE
 * CNTL, and END; the log reads "A:CNTL WCL SREQ" and so on.
 */
struct side {
	const char *name;	/* "A", "B" */
	struct xtp_close c;
	bool zombie, ended;
};

struct pkt {
	struct side *from;
	bool wcl, rcl, end;
};

struct sim {
	struct side a, b;
	struct pkt q[32];
	unsigned int head, tail;
	char log[512];
};

static void sim_send(struct sim *s, struct side *from, bool sreq, bool end)
{
	struct pkt *p = &s->q[s->tail++ % 32];
	size_t n = strlen(s->log);

	p->from = from;
	p->wcl = from->c.wclose_sent;
	p->rcl = from->c.rclose_sent;
	p->end = end;
	snprintf(s->log + n, sizeof(s->log) - n, "%s%s:%s%s%s%s", n ? "; " : "",
		 from->name, end ? "END" : "CNTL", p->wcl ? " WCL" : "",
		 p->rcl ? " RCL" : "", sreq ? " SREQ" : "");
}

/* teardown.c's xtp_teardown_step(), on the model. */
static void sim_step(struct sim *s, struct side *x)
{
	unsigned int act;

	if (x->zombie || x->ended)
		return;
	if (xtp_close_wclose_due(&x->c, false, true, true))
		sim_send(s, x, true, false);
	act = xtp_close_answer(&x->c);
	if (act & XTP_CLOSE_CNTL)
		sim_send(s, x, false, false);
	if (!(act & XTP_CLOSE_END))
		act = xtp_close_finish(&x->c);
	if (act & XTP_CLOSE_END) {
		x->c.end_sent = 1;
		sim_send(s, x, false, true);
		x->zombie = true;
	}
	/* XTP_CLOSE_END_LATER: c.end_delay is set; sim_run() fires it. */
}

static void sim_deliver(struct sim *s, unsigned int *guard)
{
	while (s->head != s->tail && (*guard)++ < 64) {
		struct pkt p = s->q[s->head++ % 32];
		struct side *to = p.from == &s->a ? &s->b : &s->a;

		if (to->ended)
			continue;
		if (p.end) {
			to->c.end_rcvd = 1;
			to->ended = true;
			continue;
		}
		if (p.wcl) {
			to->c.wclose_seen = 1;
			to->c.wclose_rcvd = 1;	/* all data is in */
		}
		if (p.rcl && to->c.wclose_sent)
			to->c.rclose_rcvd = 1;
		sim_step(s, to);
	}
}

/* GracefulClose's delay ran out with no END from the peer: send ours. */
static void sim_ctimeout(struct sim *s, struct side *x)
{
	if (!x->c.end_delay || x->zombie || x->ended)
		return;
	x->c.end_sent = 1;
	sim_send(s, x, false, true);
	x->zombie = true;
}

/*
 * Deliver everything queued, stepping the receiver after each; then
 * the END delays that are still armed run out.
 */
static void sim_run(struct sim *s)
{
	unsigned int guard = 0;

	sim_deliver(s, &guard);
	sim_ctimeout(s, &s->a);
	sim_ctimeout(s, &s->b);
	sim_deliver(s, &guard);
}

static void sim_init(struct sim *s, u8 method)
{
	memset(s, 0, sizeof(*s));
	s->a.name = "A";
	s->b.name = "B";
	s->a.c.method = method;
	s->b.c.method = method;
}

static void sim_close(struct sim *s, struct side *x)
{
	x->c.wclose_req = 1;
	sim_step(s, x);
}

/* A closes, B answers, then B closes when it sees A's WCLOSE handled. */
static const char *one_then_other(u8 method)
{
	static struct sim s;

	sim_init(&s, method);
	sim_close(&s, &s.a);
	sim_run(&s);
	sim_close(&s, &s.b);
	sim_run(&s);
	if (!s.a.ended && !s.a.zombie)
		return "A not closed";
	if (!s.b.ended && !s.b.zombie)
		return "B not closed";
	return s.log;
}

TEST(abbrev_end_rides_on_last_rclose)
{
	EXPECT_STREQ("A:CNTL WCL SREQ; B:CNTL RCL; B:CNTL WCL RCL SREQ; "
		     "A:END WCL RCL", one_then_other(XTP_TEARDOWN_ABBREV));
}

TEST(graceful_end_after_both_closed)
{
	EXPECT_STREQ("A:CNTL WCL SREQ; B:CNTL RCL; B:CNTL WCL RCL SREQ; "
		     "A:CNTL WCL RCL; A:END WCL RCL",
		     one_then_other(XTP_TEARDOWN_GRACEFUL));
}

TEST(forced_end_once_wclose_answered)
{
	EXPECT_STREQ("A:CNTL WCL SREQ; B:CNTL RCL; A:END WCL",
		     one_then_other(XTP_TEARDOWN_FORCED));
}

/* Both close at once: each answers, and each ends on the other's RCLOSE. */
TEST(abbrev_simultaneous)
{
	static struct sim s;

	sim_init(&s, XTP_TEARDOWN_ABBREV);
	sim_close(&s, &s.a);
	sim_close(&s, &s.b);
	sim_run(&s);
	EXPECT_STREQ("A:CNTL WCL SREQ; B:CNTL WCL SREQ; B:CNTL WCL RCL; "
		     "A:CNTL WCL RCL; A:END WCL RCL; B:END WCL RCL", s.log);
}

/* GracefulClose, both at once: each waits for the other's END in vain. */
TEST(graceful_simultaneous_delay_runs_out)
{
	static struct sim s;

	sim_init(&s, XTP_TEARDOWN_GRACEFUL);
	sim_close(&s, &s.a);
	sim_close(&s, &s.b);
	sim_run(&s);
	EXPECT_STREQ("A:CNTL WCL SREQ; B:CNTL WCL SREQ; B:CNTL WCL RCL; "
		     "A:CNTL WCL RCL; A:END WCL RCL; B:END WCL RCL", s.log);
	EXPECT_EQ(1, (int)s.a.c.end_delay);
	EXPECT_EQ(1, (int)s.b.c.end_delay);
}

TEST_HARNESS_MAIN
