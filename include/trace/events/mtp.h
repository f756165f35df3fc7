/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MTP tracepoints: a client transaction's start, each range it finds
 * lost, each change of its window, and its end.  The events take plain
 * values: struct mtp_ctxn is private to net/mtp/client.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mtp

#if !defined(_TRACE_MTP_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MTP_H

#include <linux/tracepoint.h>

TRACE_EVENT(mtp_txn_start,
	    TP_PROTO(u32 reqid, __be32 daddr, __be16 dport, u32 address,
		     u32 rsize, bool single),
	    TP_ARGS(reqid, daddr, dport, address, rsize, single),
	    TP_STRUCT__entry(__field(u32, reqid)
			     __field(__be32, daddr)
			     __field(u32, address)
			     __field(u32, rsize)
			     __field(__be16, dport)
			     __field(bool, single)),
	    TP_fast_assign(__entry->reqid = reqid;
			   __entry->daddr = daddr;
			   __entry->dport = dport;
			   __entry->address = address;
			   __entry->rsize = rsize;
			   __entry->single = single;),
	    TP_printk("reqid=%08x %pI4:%u address=%u rsize=%u%s",
		      __entry->reqid, &__entry->daddr, ntohs(__entry->dport),
		      __entry->address, __entry->rsize,
		      __entry->single ? " single" : "")
);

/* A range in transit did not come back (early: overtaken by answers). */
TRACE_EVENT(mtp_txn_loss,
	    TP_PROTO(u32 reqid, u64 start, u32 len, bool early, u32 window),
	    TP_ARGS(reqid, start, len, early, window),
	    TP_STRUCT__entry(__field(u64, start)
			     __field(u32, reqid)
			     __field(u32, len)
			     __field(u32, window)
			     __field(bool, early)),
	    TP_fast_assign(__entry->start = start;
			   __entry->reqid = reqid;
			   __entry->len = len;
			   __entry->window = window;
			   __entry->early = early;),
	    TP_printk("reqid=%08x start=%llu len=%u window=%u%s",
		      __entry->reqid, __entry->start, __entry->len,
		      __entry->window, __entry->early ? " early" : "")
);

TRACE_EVENT(mtp_txn_window,
	    TP_PROTO(u32 reqid, u32 old, u32 window, u32 dgram),
	    TP_ARGS(reqid, old, window, dgram),
	    TP_STRUCT__entry(__field(u32, reqid)
			     __field(u32, old)
			     __field(u32, window)
			     __field(u32, dgram)),
	    TP_fast_assign(__entry->reqid = reqid;
			   __entry->old = old;
			   __entry->window = window;
			   __entry->dgram = dgram;),
	    TP_printk("reqid=%08x window=%u old=%u dgram=%u", __entry->reqid,
		      __entry->window, __entry->old, __entry->dgram)
);

/* The end: error 0 for success, else the MTP error and code. */
TRACE_EVENT(mtp_txn_done,
	    TP_PROTO(u32 reqid, u8 error, u8 code, u64 bytes, u32 requests,
		     u32 repeats, u32 losses, s64 usecs),
	    TP_ARGS(reqid, error, code, bytes, requests, repeats, losses, usecs),
	    TP_STRUCT__entry(__field(u64, bytes)
			     __field(s64, usecs)
			     __field(u32, reqid)
			     __field(u32, requests)
			     __field(u32, repeats)
			     __field(u32, losses)
			     __field(u8, error)
			     __field(u8, code)),
	    TP_fast_assign(__entry->bytes = bytes;
			   __entry->usecs = usecs;
			   __entry->reqid = reqid;
			   __entry->requests = requests;
			   __entry->repeats = repeats;
			   __entry->losses = losses;
			   __entry->error = error;
			   __entry->code = code;),
	    TP_printk("reqid=%08x error=%u code=%u bytes=%llu requests=%u repeats=%u losses=%u usecs=%lld",
		      __entry->reqid, __entry->error, __entry->code,
		      __entry->bytes, __entry->requests, __entry->repeats,
		      __entry->losses, __entry->usecs)
);

#endif /* _TRACE_MTP_H */

#include <trace/define_trace.h>
