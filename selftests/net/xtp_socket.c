// SPDX-License-Identifier: GPL-2.0
/*
 * Socket creation and the socket-layer basics of XTP and MTP: the errno
 * values TCP and UDP give for unsupported combinations, socket options
 * that describe the socket, the per-namespace counters, and the IP
 * protocol handler's drop counters.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/mtp.h>
#include <linux/xtp.h>

#include "kselftest_harness.h"
#include "xtp_selftest.h"

static int sockopt_int(int fd, int level, int name)
{
	int v = -1;
	socklen_t len = sizeof(v);

	if (getsockopt(fd, level, name, &v, &len))
		return -errno;
	return v;
}

TEST(xtp_socket_protocol_0_and_36)
{
	int protos[] = { 0, IPPROTO_XTP };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		int fd = socket(AF_INET, SOCK_XTP, protos[i]);

		ASSERT_LE(0, fd) TH_LOG("protocol %d: %s", protos[i],
					strerror(errno));
		EXPECT_EQ(SOCK_XTP, sockopt_int(fd, SOL_SOCKET, SO_TYPE));
		EXPECT_EQ(IPPROTO_XTP,
			  sockopt_int(fd, SOL_SOCKET, SO_PROTOCOL));
		EXPECT_EQ(AF_INET, sockopt_int(fd, SOL_SOCKET, SO_DOMAIN));
		close(fd);
	}
}

TEST(xtp_socket_flags)
{
	int fd = socket(AF_INET, SOCK_XTP | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	ASSERT_LE(0, fd);
	EXPECT_TRUE(fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST(xtp_socket_errnos_like_tcp)
{
	/* Same errno TCP gives for socket(AF_INET, SOCK_STREAM, 17). */
	EXPECT_EQ(-1, socket(AF_INET, SOCK_XTP, IPPROTO_TCP));
	EXPECT_EQ(EPROTONOSUPPORT, errno);
	EXPECT_EQ(-1, socket(AF_INET, SOCK_XTP, IPPROTO_UDP));
	EXPECT_EQ(EPROTONOSUPPORT, errno);
	/* Socket type 9 is registered by nobody. */
	EXPECT_EQ(-1, socket(AF_INET, 9, 0));
	EXPECT_EQ(ESOCKTNOSUPPORT, errno);
	/* IPv6 contexts do not exist (yet): like an unknown type there. */
	EXPECT_EQ(-1, socket(AF_INET6, SOCK_XTP, 0));
	EXPECT_EQ(ESOCKTNOSUPPORT, errno);
	/* Out of range types are rejected by the socket layer itself. */
	EXPECT_EQ(-1, socket(AF_INET, 12, IPPROTO_XTP));
	EXPECT_EQ(EINVAL, errno);
}

TEST(xtp_socket_name_and_options)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd, tos = 0x10;

	fd = socket(AF_INET, SOCK_XTP, 0);
	ASSERT_LE(0, fd);
	memset(&sin, 0xff, sizeof(sin));
	ASSERT_EQ(0, getsockname(fd, (struct sockaddr *)&sin, &len));
	EXPECT_EQ(sizeof(sin), len);
	EXPECT_EQ(AF_INET, sin.sin_family);
	EXPECT_EQ(0, sin.sin_port);
	EXPECT_EQ(htonl(INADDR_ANY), sin.sin_addr.s_addr);

	/* IP-level options reach IP, unknown XTP-level ones are refused. */
	ASSERT_EQ(0, setsockopt(fd, SOL_IP, IP_TOS, &tos, sizeof(tos)));
	EXPECT_EQ(0x10, sockopt_int(fd, SOL_IP, IP_TOS));
	EXPECT_EQ(-1, setsockopt(fd, SOL_XTP, 0x7fff, &tos, sizeof(tos)));
	EXPECT_EQ(ENOPROTOOPT, errno);
	EXPECT_EQ(-ENOPROTOOPT, sockopt_int(fd, SOL_XTP, 0x7fff));
	close(fd);
}

TEST(xtp_snmp_counts_sockets)
{
	int fds[5], i;
	long base;

	fds[0] = socket(AF_INET, SOCK_XTP, 0);
	ASSERT_LE(0, fds[0]);
	base = xtp_snmp("CurrSockets");
	ASSERT_LE(1, base);
	for (i = 1; i < 5; i++)
		ASSERT_LE(0, fds[i] = socket(AF_INET, SOCK_XTP, 0));
	EXPECT_EQ(base + 4, xtp_snmp("CurrSockets"));
	for (i = 0; i < 5; i++)
		close(fds[i]);
	EXPECT_EQ(base - 1, xtp_snmp("CurrSockets"));
}

TEST(xtp_rcv_counts_truncated)
{
	struct sockaddr_in dst = { .sin_family = AF_INET };
	char pkt[12] = "short";
	long in0, tr0;
	int raw, fd;

	/* The module must be loaded for its handler to see the packet. */
	fd = socket(AF_INET, SOCK_XTP, 0);
	ASSERT_LE(0, fd);
	raw = socket(AF_INET, SOCK_RAW, IPPROTO_XTP);
	ASSERT_LE(0, raw);
	dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	in0 = xtp_snmp("InPkts");
	tr0 = xtp_snmp("InTruncated");
	ASSERT_EQ(sizeof(pkt), sendto(raw, pkt, sizeof(pkt), 0,
				      (struct sockaddr *)&dst, sizeof(dst)));
	EXPECT_EQ(tr0 + 1, xtp_snmp_wait_change("InTruncated", tr0));
	EXPECT_EQ(in0 + 1, xtp_snmp("InPkts"));
	close(raw);
	close(fd);
}

TEST(mtp_socket)
{
	int fd;

	fd = socket(AF_INET, SOCK_MTP, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(SOCK_MTP, sockopt_int(fd, SOL_SOCKET, SO_TYPE));
	EXPECT_EQ(IPPROTO_UDP, sockopt_int(fd, SOL_SOCKET, SO_PROTOCOL));
	close(fd);

	fd = socket(AF_INET, SOCK_MTP, IPPROTO_UDP);
	ASSERT_LE(0, fd);
	close(fd);

	EXPECT_EQ(-1, socket(AF_INET, SOCK_MTP, IPPROTO_XTP));
	EXPECT_EQ(EPROTONOSUPPORT, errno);
	EXPECT_EQ(-1, socket(AF_INET, SOCK_MTP, IPPROTO_TCP));
	EXPECT_EQ(EPROTONOSUPPORT, errno);
}

TEST_HARNESS_MAIN
