/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sendmsg()/recvmsg() with MTP control messages, for the MTP tools and
 * selftests.
 */
#ifndef _MTPAPI_H
#define _MTPAPI_H

#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <linux/mtp.h>

static inline ssize_t mtp_sendcm(int fd, const struct sockaddr_in *to,
				 int type, const void *cm, size_t cmlen,
				 const void *buf, size_t len)
{
	char cbuf[CMSG_SPACE(64)] = { 0 };
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg = {
		.msg_name = (void *)to, .msg_namelen = sizeof(*to),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(cmlen),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_MTP;
	c->cmsg_type = type;
	c->cmsg_len = CMSG_LEN(cmlen);
	memcpy(CMSG_DATA(c), cm, cmlen);
	return sendmsg(fd, &msg, 0);
}

static inline ssize_t mtp_recvinfo(int fd, void *buf, size_t len,
				   struct mtp_info *info,
				   struct sockaddr_in *from, int *flags,
				   int recv_flags)
{
	char cbuf[CMSG_SPACE(sizeof(*info))];
	struct sockaddr_in dummy;
	struct iovec iov = { buf, len };
	struct msghdr msg = {
		.msg_name = from ? from : &dummy,
		.msg_namelen = sizeof(dummy),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *c;
	ssize_t n;

	memset(info, 0, sizeof(*info));
	n = recvmsg(fd, &msg, recv_flags);
	if (n < 0)
		return n;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_MTP && c->cmsg_type == MTP_INFO)
			memcpy(info, CMSG_DATA(c), sizeof(*info));
	if (flags)
		*flags = msg.msg_flags;
	return n;
}

#endif /* _MTPAPI_H */
