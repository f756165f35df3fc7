// SPDX-License-Identifier: GPL-2.0
/*
 * Many associations at once on one listener: 1000 clients each open an
 * association with a request in the FIRST (SDT: sendto with
 * MSG_XTP_WCLOSE), the server accepts them all, reads each request to
 * EOF, answers and closes; every client must get its answer and EOF.
 * One process, non-blocking sockets and epoll, over loopback.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "kselftest_harness.h"

#define NCLIENTS	1000
#define PORT		7100
#define REQ_LEN		100

enum role { LISTENER, SERVER, CLIENT };

struct conn {
	enum role role;
	int fd;
	int id;
	size_t got;
	char buf[REQ_LEN + 16];
};

static int add(int ep, struct conn *c)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };

	return epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
}

/*
 * The harness's 30 s are not enough on the debug kernel (KASAN and
 * lockdep under TCG): the test's own deadline is 240 s.
 */
FIXTURE(storm) {};
FIXTURE_SETUP(storm) {}
FIXTURE_TEARDOWN(storm) {}

TEST_F_TIMEOUT(storm, thousand_associations, 270)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct rlimit rl = { 4 * NCLIENTS, 4 * NCLIENTS };
	int ep, i, served = 0, answered = 0, bad = 0;
	struct epoll_event evs[64];
	struct conn *lc, *clients;
	time_t deadline;

	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons(PORT);
	ep = epoll_create1(0);
	ASSERT_LE(0, ep);

	lc = calloc(1, sizeof(*lc));
	lc->role = LISTENER;
	lc->fd = socket(AF_INET, SOCK_XTP | SOCK_NONBLOCK, 0);
	ASSERT_LE(0, lc->fd);
	ASSERT_EQ(0, bind(lc->fd, (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_EQ(0, listen(lc->fd, NCLIENTS));
	ASSERT_EQ(0, add(ep, lc));

	clients = calloc(NCLIENTS, sizeof(*clients));
	for (i = 0; i < NCLIENTS; i++) {
		struct conn *c = &clients[i];
		char req[REQ_LEN];

		c->role = CLIENT;
		c->id = i;
		c->fd = socket(AF_INET, SOCK_XTP | SOCK_NONBLOCK, 0);
		ASSERT_LE(0, c->fd);
		memset(req, 'a' + i % 26, sizeof(req));
		snprintf(req, sizeof(req), "%d", i);
		ASSERT_EQ(REQ_LEN, sendto(c->fd, req, REQ_LEN, MSG_XTP_WCLOSE,
					  (struct sockaddr *)&sin,
					  sizeof(sin))) TH_LOG("client %d: %s", i,
							       strerror(errno));
		ASSERT_EQ(0, add(ep, c));
	}

	deadline = time(NULL) + 240;
	while (answered < NCLIENTS && time(NULL) < deadline) {
		int n = epoll_wait(ep, evs, 64, 1000);

		for (i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;
			ssize_t r;

			if (c->role == LISTENER) {
				struct conn *s;
				int fd;

				while ((fd = accept4(lc->fd, NULL, NULL,
						     SOCK_NONBLOCK)) >= 0) {
					s = calloc(1, sizeof(*s));
					s->role = SERVER;
					s->fd = fd;
					ASSERT_EQ(0, add(ep, s));
				}
				continue;
			}
			r = recv(c->fd, c->buf + c->got,
				 sizeof(c->buf) - c->got, 0);
			if (r < 0 && errno == EAGAIN)
				continue;
			if (r > 0) {
				c->got += r;
				continue;
			}
			/* EOF (or error): the exchange of this socket is over. */
			if (c->role == SERVER) {
				if (r < 0 || c->got != REQ_LEN)
					bad++;
				/* Answer with the request's number. */
				if (send(c->fd, c->buf, strlen(c->buf) + 1, 0) < 0)
					bad++;
				served++;
				close(c->fd);
				free(c);
			} else {
				char want[16];

				snprintf(want, sizeof(want), "%d", c->id);
				if (r < 0 || strcmp(c->buf, want))
					bad++;
				answered++;
				epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
				close(c->fd);
			}
		}
	}
	EXPECT_EQ(NCLIENTS, served);
	EXPECT_EQ(NCLIENTS, answered);
	EXPECT_EQ(0, bad);
	close(lc->fd);
	close(ep);
}

TEST_HARNESS_MAIN
