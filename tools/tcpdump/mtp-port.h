/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UDP port tcpdump decodes as MTP without "-T mtp": the default port
 * of the project's MTP server and client (tools/mtpget/mtpd.c and
 * mtpget.c, -p), which the MTP selftests use too (selftests/net/
 * mtp_xfer.sh).  MTP itself has no registered port.
 */
#ifndef MTP_PORT_H
#define MTP_PORT_H

#define MTP_PORT	8080

#endif /* MTP_PORT_H */
