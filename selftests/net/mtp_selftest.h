/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the MTP C selftests: the sendmsg()/recvmsg() calls
 * with their control messages, and /proc/net/mtp/snmp.
 */
#ifndef _MTP_SELFTEST_H
#define _MTP_SELFTEST_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <linux/mtp.h>

#include "mtpapi.h"
#include "snmp.h"

#define MTP_SNMP "/proc/net/mtp/snmp"

static inline long mtp_snmp(const char *name)
{
	return proc_snmp(MTP_SNMP, "Mtp", name);
}

static inline long mtp_snmp_wait_change(const char *name, long old)
{
	return proc_snmp_wait_change(MTP_SNMP, "Mtp", name, old);
}

static inline struct sockaddr_in mtp_addr(const char *ip, unsigned short port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };

	a.sin_port = htons(port);
	inet_pton(AF_INET, ip, &a.sin_addr);
	return a;
}

static inline ssize_t mtp_request(int fd, const struct sockaddr_in *to,
				  const struct mtp_request *r,
				  const void *buf, size_t len)
{
	return mtp_sendcm(fd, to, MTP_REQUEST, r, sizeof(*r), buf, len);
}

static inline ssize_t mtp_respond(int fd, const struct sockaddr_in *to,
				  const struct mtp_response *r,
				  const void *buf, size_t len)
{
	return mtp_sendcm(fd, to, MTP_RESPOND, r, sizeof(*r), buf, len);
}

static inline void mtp_rcvtimeo(int fd, int sec)
{
	struct timeval tv = { sec, 0 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

static inline double mtp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* _MTP_SELFTEST_H */
