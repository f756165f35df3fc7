/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the XTP C selftests.
 */
#ifndef _XTP_SELFTEST_H
#define _XTP_SELFTEST_H

#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "snmp.h"

#define XTP_SNMP "/proc/net/xtp/snmp"

static inline long xtp_snmp(const char *name)
{
	return proc_snmp(XTP_SNMP, "Xtp", name);
}

static inline long xtp_snmp_wait_change(const char *name, long old)
{
	return proc_snmp_wait_change(XTP_SNMP, "Xtp", name, old);
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

static inline struct sockaddr_in loopback(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons(port);
	return sin;
}

static inline int xtp_socket(void)
{
	return socket(AF_INET, SOCK_XTP, IPPROTO_XTP);
}

/* A listener on 127.0.0.1:@port. */
static inline int listener(int port)
{
	struct sockaddr_in sin = loopback(port);
	int fd = xtp_socket();

	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(fd, 16))
		return -1;
	return fd;
}

static inline int connect_to(int fd, int port)
{
	struct sockaddr_in sin = loopback(port);

	return connect(fd, (struct sockaddr *)&sin, sizeof(sin));
}

/* Enter a network namespace of its own, with loopback up. */
static inline int own_netns(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd, err;

	if (unshare(CLONE_NEWNET))
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	err = ioctl(fd, SIOCGIFFLAGS, &ifr);
	ifr.ifr_flags |= IFF_UP;
	if (!err)
		err = ioctl(fd, SIOCSIFFLAGS, &ifr);
	close(fd);
	return err;
}

#endif /* _XTP_SELFTEST_H */
