/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the XTP C selftests.
 */
#ifndef _XTP_SELFTEST_H
#define _XTP_SELFTEST_H

#include <errno.h>
#include <sys/socket.h>

#include "snmp.h"

#define XTP_SNMP "/proc/net/xtp/snmp"

static inline long xtp_snmp(const char *name)
{
	return proc_snmp(XTP_SNMP, name);
}

static inline long xtp_snmp_wait_change(const char *name, long old)
{
	return proc_snmp_wait_change(XTP_SNMP, name, old);
}

/* Read until EOF or @len bytes; returns bytes or -errno. */
static inline ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, 0);

		if (n < 0)
			return -errno;
		if (!n)
			break;
		got += n;
	}
	return got;
}

#endif /* _XTP_SELFTEST_H */
