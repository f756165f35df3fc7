/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * MTP (Multipurpose Transaction Protocol) socket interface.
 *
 * socket(AF_INET, SOCK_MTP, 0) opens an MTP transaction endpoint.  MTP
 * datagrams travel over UDP, so the protocol argument may also be
 * IPPROTO_UDP.  Documentation/networking/mtp.rst describes the calls.
 */
#ifndef _UAPI_LINUX_MTP_H
#define _UAPI_LINUX_MTP_H

#include <linux/types.h>

#ifndef SOCK_MTP
#define SOCK_MTP	8
#endif

/*
 * Socket option level.  MTP has no IP protocol number of its own, so the
 * level is 0x4d54 ("MT"): above every IP protocol number and far from the
 * kernel's sequentially allocated SOL_* values (SOL_VSOCK is 287).
 */
#define SOL_MTP		0x4d54

/* Sizes. */
#define MTP_HDR_LEN		28	/* header of every MTP datagram */
#define MTP_SIZE_REQUEST	1024	/* largest request payload */
#define MTP_SIZE_RESPONSE	16384	/* largest payload per response datagram */
#define MTP_SIZE_DEFAULT	1024	/* initial payload per response datagram */
#define MTP_SIZE_MINIMUM	512	/* smallest payload per response datagram */

/* Standard actions (request header "action"). */
#define MTP_ACT_PING		0	/* reply if up */
#define MTP_ACT_IDSTR		1	/* reply with the id string */
#define MTP_ACT_REGISTER	2
#define MTP_ACT_TERMINATE	3
#define MTP_ACT_DATA		4	/* addressed data */
#define MTP_ACT_GRANT		6	/* allow proxy use of a device */
#define MTP_ACT_REVOKE		7
#define MTP_ACT_HOLD		8
#define MTP_ACT_RESUME		9
#define MTP_ACT_NOTIFY		10
#define MTP_ACT_REQKEY		11
#define MTP_ACT_STAT		12
#define MTP_ACT_APP		64	/* first application action */

/* Error classes (header "error"): where an error originated. */
#define MTP_ERR_NONE		0
#define MTP_ERR_CLIENT		1	/* client MTP */
#define MTP_ERR_NET		2	/* network */
#define MTP_ERR_SERVER		3	/* server MTP */
#define MTP_ERR_APP		4	/* server application */
#define MTP_ERR_ROUTE		5	/* delivered to the wrong system */

/* Response codes (header "response") when error is MTP_ERR_NONE. */
#define MTP_RES_REQUEST		0	/* the message is a request */
#define MTP_RES_REPLY		1
/*
 * Server MTP to client MTP, never from or to an application: the request
 * (address, rsize echoed) waits for the server application's answer.
 */
#define MTP_RES_PENDING		2
/*
 * Server MTP to client MTP, never from or to an application: the server
 * holds its answer until the client proves it receives at its address;
 * repeat the request with the token this reply carries.
 */
#define MTP_RES_VALIDATE	3
#define MTP_RES_APP		64

/* Codes of MTP_ERR_CLIENT and MTP_ERR_SERVER. */
#define MTP_ERR_DMN_SYS		2
#define MTP_ERR_DMN_ACTION	3
#define MTP_ERR_DMN_DEL		4
#define MTP_ERR_DMN_RSPSZ	5	/* response too large to deliver */
#define MTP_ERR_DMN_VERSION	6
#define MTP_ERR_DMN_NORSRC	7
#define MTP_ERR_DMN_REQSZ	8
#define MTP_ERR_DMN_PROTO	9
#define MTP_ERR_DMN_CHECK	10

/* Codes of MTP_ERR_NET. */
#define MTP_ERR_NET_CLIENT	2
#define MTP_ERR_NET_SERVER	3
#define MTP_ERR_NET_UNAVAIL	4
#define MTP_ERR_NET_DOWN	5
#define MTP_ERR_NET_TRANS	6
#define MTP_ERR_NET_EXPIRE	7	/* expired without a valid response */

/* Codes of MTP_ERR_APP. */
#define MTP_ERR_APP_ACTION	2
#define MTP_ERR_APP_CHANNEL	3	/* unknown channel: resend with payload */
#define MTP_ERR_APP_FLAG	4
#define MTP_ERR_APP_ADDRESS	5
#define MTP_ERR_APP_DATA	6
#define MTP_ERR_APP_EOD		7	/* stream end of data; rsize = total */
#define MTP_ERR_APP_SIZE	8
#define MTP_ERR_APP_UNAVAIL	9
#define MTP_ERR_APP_AUTH	10
#define MTP_ERR_APP_BUSY	11
#define MTP_ERR_APP_HOLD	12
#define MTP_ERR_APP_TIMEOUT	13
#define MTP_ERR_APP_PROXY	14
#define MTP_ERR_APP_VERSION	15
#define MTP_ERR_APP_APP		64

/* Stream close request: address and rsize both all ones. */
#define MTP_STREAM_CLOSE	0xffffffffU

/* Control message types at level SOL_MTP. */
#define MTP_REQUEST	1	/* sendmsg: start a transaction */
#define MTP_RESPOND	2	/* sendmsg: answer a request */
#define MTP_INFO	3	/* recvmsg: what the data is */

/**
 * struct mtp_request - MTP_REQUEST control message of a client's sendmsg()
 * @action: requested action, MTP_ACT_*
 * @flag: action modifier, opaque to MTP
 * @appversion: application protocol version
 * @reserved: must be 0
 * @flags: MTP_REQ_*
 * @channel: initial channel (session or object identifier)
 * @address: first byte of the object wanted
 * @rsize: bytes wanted from @address; 0 for everything to the end
 * @repeat: initial repeat interval in ms; 0 for net.mtp.repeat_ms
 * @expire: ms without any valid response before the transaction expires;
 *	0 for net.mtp.expire_ms
 * @pad: must be 0
 * @user: returned unchanged in every MTP_INFO of the transaction
 *
 * The destination is the msg_name of the sendmsg(); the payload (at most
 * MTP_SIZE_REQUEST bytes) is the request's payload.  A multi-datagram
 * response is delivered progressively: each recvmsg() returns the next
 * contiguous piece, the last one with MSG_EOR.
 */
struct mtp_request {
	__u8	action;
	__u8	flag;
	__u8	appversion;
	__u8	reserved;
	__u32	flags;
	__u32	channel;
	__u32	address;
	__u32	rsize;
	__u32	repeat;
	__u32	expire;
	__u32	pad;
	__u64	user;
};

#define MTP_REQ_SINGLE	0x1	/* the response fits in one datagram */
#define MTP_REQ_FORGET	0x2	/* fire and forget: send once, no response */

/**
 * struct mtp_response - MTP_RESPOND control message of a server's sendmsg()
 * @reqid: transaction id, from the request's MTP_INFO
 * @error: 0 for success, otherwise an error class MTP_ERR_*
 * @response: MTP_RES_REPLY (0 is taken as MTP_RES_REPLY) or an
 *	application reply code; with @error, the class's error code
 * @action: action, normally echoed from the request
 * @flag: flag, normally echoed from the request
 * @appversion: the server application's protocol version
 * @reserved: must be 0
 * @flags: MTP_RESP_*
 * @channel: channel the client is to use from now on
 * @address: object address of the first payload byte (multi-datagram)
 * @rsize: extent of the object from @address, not the payload length
 *	(multi-datagram); stream objects: the server's buffer size, 0 when
 *	no data is available yet; MTP_ERR_APP_EOD: the total object size
 * @limit: most bytes the server sends per request; 0 for no limit
 *
 * The destination (msg_name) is the client, as recvmsg() reported it.
 */
struct mtp_response {
	__u32	reqid;
	__u8	error;
	__u8	response;
	__u8	action;
	__u8	flag;
	__u8	appversion;
	__u8	reserved[3];
	__u32	flags;
	__u32	channel;
	__u32	address;
	__u32	rsize;
	__u32	limit;
};

#define MTP_RESP_STREAM		0x1	/* dynamic object */
#define MTP_RESP_SUPPRESS	0x2	/* channel alone identifies the object */
#define MTP_RESP_NOCACHE	0x4	/* do not keep the payload in the kernel */

/**
 * struct mtp_info - MTP_INFO control message of recvmsg()
 * @reqid: transaction id
 * @flags: MTP_INFO_*
 * @error: error class, MTP_ERR_*; 0 for success or a request
 * @response: response code or error code
 * @action: action
 * @flag: action modifier
 * @mtpversion: peer's MTP version
 * @appversion: peer's application version
 * @reserved: 0
 * @channel: channel (a response: the server's current channel)
 * @address: request: first byte asked for; response: object address of
 *	the first byte returned by this recvmsg()
 * @rsize: request: bytes asked for (0 = all); response: extent of the
 *	object from the requested address, when known
 * @limit: request: the client's limit on bytes sent in answer
 * @size: response: contiguous bytes delivered so far, from the requested
 *	address, including this recvmsg()'s
 * @user: the client's &mtp_request.user
 * @requests: request datagrams sent
 * @repeats: request datagrams repeating an earlier request or range
 * @duplicates: response datagrams that carried nothing new
 * @losses: ranges declared lost
 * @rtt_avg_us: average round-trip time of the last 8 responses
 * @rtt_min_us: smallest round-trip time of the transaction
 * @window_min: smallest window in bytes
 * @window_max: largest window in bytes
 * @etime_ms: time since the transaction started
 * @dgram: payload bytes per response datagram at the end
 */
struct mtp_info {
	__u32	reqid;
	__u32	flags;
	__u8	error;
	__u8	response;
	__u8	action;
	__u8	flag;
	__u8	mtpversion;
	__u8	appversion;
	__u8	reserved[2];
	__u32	channel;
	__u32	address;
	__u32	rsize;
	__u32	limit;
	__u32	size;
	__u64	user;
	__u32	requests;
	__u32	repeats;
	__u32	duplicates;
	__u32	losses;
	__u32	rtt_avg_us;
	__u32	rtt_min_us;
	__u32	window_min;
	__u32	window_max;
	__u32	etime_ms;
	__u32	dgram;
};

#define MTP_INFO_REQUEST	0x01	/* a request to answer (server side) */
#define MTP_INFO_FINAL		0x02	/* last data of the transaction */
#define MTP_INFO_SINGLE		0x04	/* single-datagram transaction */
#define MTP_INFO_STREAM		0x08	/* stream object */
#define MTP_INFO_SUPPRESS	0x10	/* request without its payload, or
					 * server allows suppression
					 */
#define MTP_INFO_CLOSE		0x20	/* stream close request */
#define MTP_INFO_FORGET		0x40	/* no response wanted */

/* Socket options at level SOL_MTP. */
#define MTP_ABORT		1	/* set: struct mtp_abort */
#define MTP_LAST_REQID		2	/* get: __u32, last request started */
#define MTP_IDSTR		3	/* set/get: id string, at most 255 B */
#define MTP_KERNEL_PING		4	/* int: kernel answers PING/IDSTR (1) */
#define MTP_SERVER_LIMIT	5	/* __u32: server bytes per request */

/**
 * struct mtp_abort - MTP_ABORT option
 * @reqid: transaction id
 * @level: MTP_ABORT_*
 */
struct mtp_abort {
	__u32	reqid;
	__u32	level;
};

#define MTP_ABORT_FINISH	0	/* fill holes, do not extend, succeed */
#define MTP_ABORT_STOP		1	/* no more subrequests; expire soon */
#define MTP_ABORT_EXPIRE	2	/* expire now */
#define MTP_ABORT_DESTROY	3	/* drop it silently */

#endif /* _UAPI_LINUX_MTP_H */
