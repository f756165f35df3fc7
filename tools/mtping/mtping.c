// SPDX-License-Identifier: GPL-2.0
/*
 * mtping: ping an MTP server with an ACT_IDSTR single-datagram
 * transaction, or be such a server (-s), printing the lines of the
 * dissertation's Appendix B mtping.
 *
 *   mtping [-d level] host port
 *   mtping -s [-d level] port
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/mtp.h>

#include "toolutil.h"
#include "mtpapi.h"

static const char idstr[] = "mtping - Linux MTP";
static int debug;

static const char *mtp_error_text(int error, int response)
{
	static char buf[64];

	switch (error) {
	case MTP_ERR_NONE:
		return "No error";
	case MTP_ERR_NET:
		if (response == MTP_ERR_NET_EXPIRE)
			return "Request expired without valid response";
		if (response == MTP_ERR_NET_SERVER)
			return "Server address is not valid";
		break;
	case MTP_ERR_APP:
		if (response == MTP_ERR_APP_ACTION)
			return "Unknown action code";
		if (response == MTP_ERR_APP_ADDRESS)
			return "Invalid address";
		break;
	}
	snprintf(buf, sizeof(buf), "Error class %d code %d", error, response);
	return buf;
}


/* The server logic of Appendix B, identical to the default handler. */
static int server(unsigned short port)
{
	struct sockaddr_in me = { .sin_family = AF_INET }, from;
	char buf[MTP_SIZE_REQUEST];
	struct mtp_info ri;
	int fd, off = 0;
	ssize_t n;

	me.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_MTP, 0);
	/*
	 * The kernel's answer off before the port is bound: a request that
	 * came in between would get the kernel's IDSTR, not ours.
	 */
	if (fd < 0 ||
	    setsockopt(fd, SOL_MTP, MTP_KERNEL_PING, &off, sizeof(off)) ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		return fail("server");
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		struct mtp_response a = { 0 };
		const char *data = NULL;
		size_t len = 0;
		unsigned char *ip;

		n = mtp_recvinfo(fd, buf, sizeof(buf), &ri, &from, NULL, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail("recvmsg");
		}
		ip = (unsigned char *)&from.sin_addr;
		printf("Received Message %.8x from %u.%u.%u.%u.%u\n", ri.reqid,
		       ip[0], ip[1], ip[2], ip[3], ntohs(from.sin_port));
		printf("\tAction: %u\tFlag: %u\tChannel: %.8x\n", ri.action,
		       ri.flag, ri.channel);
		printf("\tAddress: %u\tRsize: %u\n", ri.address, ri.rsize);
		printf("\tPayload %zd bytes\n", n);
		a.reqid = ri.reqid;
		a.action = ri.action;
		a.flag = ri.flag;
		a.channel = ri.channel;
		a.address = ri.address;
		a.rsize = ri.rsize;
		a.response = MTP_RES_REPLY;
		if (ri.action == MTP_ACT_PING) {
			/* empty reply */
		} else if (ri.action == MTP_ACT_IDSTR) {
			size_t idlen = strlen(idstr);

			if (ri.address > idlen) {
				a.error = MTP_ERR_APP;
				a.response = MTP_ERR_APP_ADDRESS;
			} else {
				if (!ri.rsize || idlen - ri.address < ri.rsize)
					a.rsize = idlen - ri.address;
				data = idstr + ri.address;
				len = a.rsize;
			}
		} else {
			a.error = MTP_ERR_APP;
			a.response = MTP_ERR_APP_ACTION;
		}
		if (mtp_sendcm(fd, &from, MTP_RESPOND, &a, sizeof(a), data,
			    len) < 0 && debug)
			fail("respond");
	}
}

static int client(const char *host, unsigned short port)
{
	struct mtp_request r = {
		.action = MTP_ACT_IDSTR, .flags = MTP_REQ_SINGLE,
		.repeat = 500, .expire = 2100,
	};
	struct sockaddr_in to = { .sin_family = AF_INET }, from;
	char buf[MTP_SIZE_RESPONSE + 1];
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	struct mtp_info info;
	ssize_t n;
	int fd;

	if (getaddrinfo(host, NULL, &hints, &ai)) {
		fprintf(stderr, "Invalid server %s\n", host);
		return 1;
	}
	to.sin_addr = ((struct sockaddr_in *)ai->ai_addr)->sin_addr;
	to.sin_port = htons(port);
	freeaddrinfo(ai);
	fd = socket(AF_INET, SOCK_MTP, 0);
	if (fd < 0) {
		return fail("socket");
	}
	printf("Sending ACT_IDSTR to %s\n", host);
	if (mtp_sendcm(fd, &to, MTP_REQUEST, &r, sizeof(r), NULL, 0) < 0) {
		return fail("sendmsg");
	}
	n = mtp_recvinfo(fd, buf, sizeof(buf) - 1, &info, &from, NULL, 0);
	if (n < 0) {
		return fail("recvmsg");
	}
	if (info.error) {
		printf("Ping failed: %s\n", mtp_error_text(info.error,
							   info.response));
		printf("\tafter %u repeats\n", info.repeats);
		return 1;
	}
	buf[n] = 0;
	printf("Response after %u repeats (Version %u/%u)", info.repeats,
	       info.mtpversion, info.appversion);
	if (n > 0)
		printf(": %s", buf);
	printf("\n");
	if (debug)
		printf("\trtt %u us\n", info.rtt_avg_us);
	return 0;
}

int main(int argc, char **argv)
{
	int opt, srv = 0;

	while ((opt = getopt(argc, argv, "sd:")) != -1) {
		switch (opt) {
		case 's':
			srv = 1;
			break;
		case 'd':
			debug = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (srv && optind == argc - 1)
		return server(atoi(argv[optind]));
	if (!srv && optind == argc - 2)
		return client(argv[optind], atoi(argv[optind + 1]));
usage:
	fprintf(stderr, "usage: mtping [-s] [-d debug_level] host port\n");
	return 2;
}
