// SPDX-License-Identifier: GPL-2.0
/*
 * mtpd: serve the files of a directory over MTP.  A request (ACT_DATA)
 * names a file relative to the directory in its payload; the answer is
 * the file from the requested address, up to CHUNK bytes at a time (the
 * kernel keeps it and answers the subrequests it covers).  The channel
 * returned is a slot in a small table of open files, so the client may
 * suppress the name in its subrequests.
 *
 *   mtpd [-p port] [-c chunk] [-l limit] [-q] dir
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "toolutil.h"
#include "mtpapi.h"

#define SLOTS	64

static struct {
	int fd;
	off_t size;
	char name[256];
} slot[SLOTS];

static int quiet;

static int open_slot(int dir, const char *name)
{
	static int next;
	struct stat st;
	int i, fd;

	for (i = 0; i < SLOTS; i++)
		if (slot[i].fd > 0 && !strcmp(slot[i].name, name))
			return i;
	if (strstr(name, "..") || name[0] == '/' || strlen(name) > 255)
		return -1;
	fd = openat(dir, name, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > UINT_MAX) {
		close(fd);
		return -1;
	}
	i = next++ % SLOTS;
	if (slot[i].fd > 0)
		close(slot[i].fd);
	slot[i].fd = fd;
	slot[i].size = st.st_size;
	snprintf(slot[i].name, sizeof(slot[i].name), "%s", name);
	return i;
}

int main(int argc, char **argv)
{
	struct sockaddr_in me = { .sin_family = AF_INET }, from;
	unsigned int chunk = 4 << 20, limit = 0;
	char req[MTP_SIZE_REQUEST + 1], *buf;
	int fd, dir, opt;

	me.sin_port = htons(8080);
	while ((opt = getopt(argc, argv, "p:c:l:q")) != -1) {
		switch (opt) {
		case 'p':
			me.sin_port = htons(atoi(optarg));
			break;
		case 'c':
			chunk = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			limit = strtoul(optarg, NULL, 0);
			break;
		case 'q':
			quiet = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	dir = open(argv[optind], O_RDONLY | O_DIRECTORY);
	buf = malloc(chunk);
	fd = socket(AF_INET, SOCK_MTP, 0);
	if (dir < 0)
		die(argv[optind]);
	if (!buf || fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me)))
		die("socket");
	if (limit)
		setsockopt(fd, SOL_MTP, MTP_SERVER_LIMIT, &limit,
			   sizeof(limit));
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (;;) {
		struct mtp_response a = { 0 };
		struct mtp_info ri;
		ssize_t n, got = 0;
		int s = -1;

		n = mtp_recvinfo(fd, req, sizeof(req) - 1, &ri, &from, NULL,
				 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail("recvmsg");
		}
		req[n] = 0;
		a.reqid = ri.reqid;
		a.action = ri.action;
		a.flag = ri.flag;
		if (ri.action != MTP_ACT_DATA) {
			a.error = MTP_ERR_APP;
			a.response = MTP_ERR_APP_ACTION;
		} else if (ri.flags & MTP_INFO_SUPPRESS) {
			s = ri.channel - 1;
			if (ri.channel < 1 || ri.channel > SLOTS ||
			    slot[s].fd <= 0) {
				a.error = MTP_ERR_APP;
				a.response = MTP_ERR_APP_CHANNEL;
				s = -1;
			}
		} else {
			s = open_slot(dir, req);
			if (s < 0) {
				a.error = MTP_ERR_APP;
				a.response = MTP_ERR_APP_UNAVAIL;
			}
		}
		if (s >= 0 && ri.address > slot[s].size) {
			a.error = MTP_ERR_APP;
			a.response = MTP_ERR_APP_ADDRESS;
			s = -1;
		}
		if (s >= 0) {
			size_t want = slot[s].size - ri.address;

			if (want > chunk)
				want = chunk;
			got = pread(slot[s].fd, buf, want, ri.address);
			if (got < 0)
				got = 0;
			a.response = MTP_RES_REPLY;
			a.channel = s + 1;
			a.flags = MTP_RESP_SUPPRESS;
			a.address = ri.address;
			a.rsize = slot[s].size - ri.address;
		}
		if (!quiet)
			printf("request %.8x %s address %u rsize %u%s: %s\n",
			       ri.reqid, s >= 0 ? slot[s].name : req,
			       ri.address, ri.rsize,
			       ri.flags & MTP_INFO_SUPPRESS ? " (suppressed)" :
			       "", a.error ? "error" : "ok");
		if (mtp_sendcm(fd, &from, MTP_RESPOND, &a, sizeof(a), buf,
			       got) < 0 && errno != ENOENT)
			fail("sendmsg");
	}
usage:
	fprintf(stderr, "usage: mtpd [-p port] [-c chunk] [-l limit] [-q] dir\n");
	return 2;
}
