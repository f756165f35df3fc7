// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: the steps of closing an association, by teardown method.
 *
 * teardown.c calls the three steps in order after every event that can
 * make one due, and sends what each asks for before calling the next:
 * the packets carry the close bits as they are at that moment, so the
 * order is what the thesis' traces show (WCLOSE in its own CNTL before
 * the RCLOSE that answers the peer, for one).
 *
 *  1. xtp_close_wclose_due(): our WCLOSE, when it could not ride on data;
 *  2. xtp_close_answer(): the answer to the peer's WCLOSE (once);
 *  3. xtp_close_finish(): END once both streams are closed.
 *
 * Pure code: selftests/unit/test_close.c runs every method through the
 * orders in which the two sides can close.
 */
#include <uapi/linux/xtp.h>

#include "close.h"

/**
 * xtp_close_wclose_due() - step 1: must our WCLOSE go in a CNTL now?
 * @c: the close state; @c->wclose_sent is set if so
 * @separate: the teardown is its own phase (S_D_T, SD_T): WCLOSE waits
 *	until every byte sent is acknowledged
 * @queue_empty: nothing is left to send (else WCLOSE rides on the last
 *	packet, or waits for it)
 * @acked: every byte sent is acknowledged
 *
 * Return: true if a CNTL with SREQ is to carry our WCLOSE.
 */
bool xtp_close_wclose_due(struct xtp_close *c, bool separate,
			  bool queue_empty, bool acked)
{
	if (!c->wclose_req || c->wclose_sent || !queue_empty ||
	    (separate && !acked))
		return false;
	c->wclose_sent = 1;
	return true;
}

static bool xtp_close_outbound_done(const struct xtp_close *c)
{
	return c->wclose_sent && c->rclose_rcvd;
}

/**
 * xtp_close_answer() - step 2: answer the peer's WCLOSE, once
 * @c: the close state
 *
 * AbbrevClose ends at once when our stream is already closed (END rides
 * on the answer); GracefulClose sends END after the answer then.
 *
 * Return: %XTP_CLOSE_CNTL and/or %XTP_CLOSE_END, or 0.
 */
unsigned int xtp_close_answer(struct xtp_close *c)
{
	bool done = xtp_close_outbound_done(c);
	/* A FILETRANSFER initiator declared RCLOSE on its FIRST. */
	bool declared = c->rclose_sent;
	unsigned int act = 0;

	if (!c->wclose_rcvd || c->wclose_answered)
		return 0;
	c->wclose_answered = 1;
	c->rclose_sent = 1;
	if (done && c->method == XTP_TEARDOWN_ABBREV && !c->wclose_implied)
		return XTP_CLOSE_END;
	if (!declared)
		act |= XTP_CLOSE_CNTL;
	if (done && c->method == XTP_TEARDOWN_GRACEFUL)
		act |= XTP_CLOSE_END;
	return act;
}

/**
 * xtp_close_finish() - step 3: both streams closed, is END due?
 * @c: the close state; @c->end_delay is set for %XTP_CLOSE_END_LATER
 *
 * ForcedClose ends as soon as our WCLOSE is answered; AbbrevClose once
 * we answered the peer's too.  GracefulClose, when our stream closed
 * last, waits a moment for the peer's END, which should be right behind
 * its RCLOSE.  A stream closed by the peer's FIRST (FILETRANSFER) leaves
 * the END to the peer.
 *
 * Return: %XTP_CLOSE_END, %XTP_CLOSE_END_LATER, or 0.
 */
unsigned int xtp_close_finish(struct xtp_close *c)
{
	if (!xtp_close_outbound_done(c) || c->wclose_implied)
		return 0;
	if (c->method == XTP_TEARDOWN_FORCED ||
	    (c->method == XTP_TEARDOWN_ABBREV && c->rclose_sent))
		return XTP_CLOSE_END;
	if (c->rclose_sent && !c->end_delay) {
		c->end_delay = 1;
		return XTP_CLOSE_END_LATER;
	}
	return 0;
}
