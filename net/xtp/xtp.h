/* SPDX-License-Identifier: GPL-2.0 */
/*
 * XTP: internal declarations shared by the files of the module.
 */
#ifndef _NET_XTP_XTP_H
#define _NET_XTP_XTP_H

#include <linux/types.h>
#include <net/inet_sock.h>
#include <net/netns/generic.h>
#include <net/snmp.h>
#include <uapi/linux/xtp.h>

/**
 * enum xtp_mib_field - per-namespace XTP counters (/proc/net/xtp/snmp)
 * @XTP_MIB_INPKTS: packets handed to XTP by IP
 * @XTP_MIB_INTRUNCATED: dropped, shorter than the XTP header
 * @XTP_MIB_INBADVERSION: dropped, VER is not 4.0
 * @XTP_MIB_INBADTYPE: dropped, unknown PFORMAT
 * @XTP_MIB_INBADLEN: dropped, DLEN or a segment length is inconsistent
 * @XTP_MIB_INBADFORMAT: dropped, unsupported address or traffic format
 * @XTP_MIB_INCSUMERRORS: dropped, bad checksum
 * @XTP_MIB_INNOCONTEXT: dropped, no context or listener for the key
 * @XTP_MIB_INNOMEM: dropped, no memory to process the packet
 * @XTP_MIB_INICMPERRORS: ICMP errors reported for XTP packets
 * @XTP_MIB_CURRSOCKETS: XTP sockets that exist in the namespace (gauge)
 * @__XTP_MIB_MAX: number of counters
 */
enum xtp_mib_field {
	XTP_MIB_INPKTS,
	XTP_MIB_INTRUNCATED,
	XTP_MIB_INBADVERSION,
	XTP_MIB_INBADTYPE,
	XTP_MIB_INBADLEN,
	XTP_MIB_INBADFORMAT,
	XTP_MIB_INCSUMERRORS,
	XTP_MIB_INNOCONTEXT,
	XTP_MIB_INNOMEM,
	XTP_MIB_INICMPERRORS,
	XTP_MIB_CURRSOCKETS,
	__XTP_MIB_MAX
};

struct xtp_mib {
	unsigned long mibs[__XTP_MIB_MAX];
};

/**
 * struct xtp_net - XTP state of one network namespace
 * @mib: per-CPU counters, folded when read
 */
struct xtp_net {
	struct xtp_mib __percpu *mib;
};

/**
 * struct xtp_sock - an XTP context as seen by the socket layer
 * @inet: the inet socket, first so that inet_sk() works
 */
struct xtp_sock {
	struct inet_sock inet;
};

extern unsigned int xtp_net_id;
extern struct proto xtp_prot;
extern const struct proto_ops xtp_stream_ops;
extern const struct net_protocol xtp_net_protocol;

static inline struct xtp_net *xtp_net(const struct net *net)
{
	return net_generic(net, xtp_net_id);
}

#define XTP_INC_STATS(net, field) \
	this_cpu_inc(xtp_net(net)->mib->mibs[field])
#define XTP_DEC_STATS(net, field) \
	this_cpu_dec(xtp_net(net)->mib->mibs[field])

int xtp_proc_init_net(struct net *net);
void xtp_proc_exit_net(struct net *net);

#endif /* _NET_XTP_XTP_H */
