/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: where a context is in closing its association, and the steps of
 * the four teardown methods (close.c).  Pure code, so the unit tests
 * build it in user space (selftests/unit/test_close.c).
 */
#ifndef _NET_XTP_CLOSE_H
#define _NET_XTP_CLOSE_H

#include <linux/types.h>

/**
 * struct xtp_close - a context's close sequence, in XTP's words
 * @rcv_wclose: end of the peer's stream, valid with @wclose_seen
 * @method: &enum xtp_teardown
 * @wclose_req: the application closed its outbound stream
 * @wclose_sent: WCLOSE is out: our outbound stream is closed
 * @rclose_rcvd: the peer answered our WCLOSE: outbound fully closed
 * @wclose_seen: the peer's WCLOSE arrived; its stream ends at
 *	@rcv_wclose (@wclose_rcvd once all of it is here)
 * @wclose_rcvd: the peer closed its outbound stream: inbound EOF
 * @wclose_answered: the teardown step sent its answer to the peer's
 *	WCLOSE (it runs once); @rclose_sent says only that our packets
 *	carry RCLOSE, which a FILETRANSFER initiator says from the start
 * @rclose_sent: our packets carry RCLOSE: we will receive no more
 * @wclose_implied: our outbound closed because the peer's FIRST said it
 *	will not receive (FILETRANSFER); it does not make us the closer
 * @end_delay: GracefulClose: END is due when CTIMEOUT fires
 * @end_sent: we sent END (ZOMBIE)
 * @end_rcvd: the peer sent END
 *
 * Each stream closes with WCLOSE from its writer, answered by RCLOSE
 * from its reader once all data is in; END ends the association.  Once
 * set, a bit stays set for the association's life, except @end_delay,
 * which CTIMEOUT clears when it sends the END.
 */
struct xtp_close {
	u64 rcv_wclose;
	u8 method;
	u16 wclose_req:1,
	    wclose_sent:1,
	    rclose_rcvd:1,
	    wclose_seen:1,
	    wclose_rcvd:1,
	    wclose_answered:1,
	    rclose_sent:1,
	    wclose_implied:1,
	    end_delay:1,
	    end_sent:1,
	    end_rcvd:1;
};

/* What a step asks the context to send, in this order. */
#define XTP_CLOSE_CNTL		0x1	/* a CNTL (with the bits set now) */
#define XTP_CLOSE_END		0x2	/* END, and become a ZOMBIE */
#define XTP_CLOSE_END_LATER	0x4	/* END when CTIMEOUT fires */

bool xtp_close_wclose_due(struct xtp_close *c, bool separate,
			  bool queue_empty, bool acked);
unsigned int xtp_close_answer(struct xtp_close *c);
unsigned int xtp_close_finish(struct xtp_close *c);

#endif /* _NET_XTP_CLOSE_H */
