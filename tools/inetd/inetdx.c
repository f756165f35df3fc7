// SPDX-License-Identifier: GPL-2.0
/*
 * inetdx: an inetd that also listens for XTP.  Reads an inetd.conf-style
 * file whose protocol column may say "xtp" besides "tcp" and "udp":
 *
 *   [ADDR:]SERVICE  SOCKTYPE  PROTO  wait|nowait[.MAX]  USER[:GROUP]  PATH [ARGS...]
 *
 *   finger          stream    xtp    nowait             nobody        /usr/local/sbin/fingerdx fingerdx
 *
 * SERVICE is a name from /etc/services (XTP looks up the TCP port) or a
 * number; SOCKTYPE is stream, seqpacket or dgram; PROTO is tcp, udp or
 * xtp (tcp4, udp4, xtp4 too).  A nowait stream service gets each accepted
 * connection or association on its standard input, output and error; a
 * wait service gets the listening (or datagram) socket itself and inetdx
 * stops watching it until the server exits.  ARGS start with argv[0].
 * SIGHUP rereads the file (sockets of unchanged services are kept),
 * SIGTERM ends.  Logs go to syslog, or to standard error with -d.
 *
 *   inetdx [-d] [-l] [CONFIG]     (CONFIG: /etc/inetdx.conf)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netdb.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "toolutil.h"

#define MAXARGS 20
#define MAXSVC 64

struct svc {
	char *text;		/* the line, for messages */
	struct in_addr addr;
	int port, type, proto, wait;
	char *user, *group, *path, *argv[MAXARGS + 1];
	int fd;
	pid_t busy;		/* wait service: the server running */
};

static struct svc *svcs[MAXSVC];
static int nsvc, use_stderr, log_conns;
static const char *config = "/etc/inetdx.conf";

static void logmsg(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void logmsg(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (use_stderr) {
		fprintf(stderr, "inetdx: ");
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}

static void svc_free(struct svc *s)
{
	int i;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	for (i = 0; s->argv[i]; i++)
		free(s->argv[i]);
	free(s->text);
	free(s->user);
	free(s->group);
	free(s->path);
	free(s);
}

/* Parse one line; NULL (and a log line) if it is not usable. */
static struct svc *parse_line(char *line, int lineno)
{
	char *f[6 + MAXARGS], *save, *svcname, *colon, *dot;
	const char *lookup;
	struct servent *se;
	struct svc *s;
	int n = 0, i;
	char *end;
	long port;

	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->fd = -1;
	s->text = strdup(line);
	for (f[n] = strtok_r(line, " \t", &save); f[n] && n < 6 + MAXARGS - 1;
	     f[n] = strtok_r(NULL, " \t", &save))
		n++;
	if (n < 6) {
		logmsg(LOG_ERR, "%s:%d: too few fields", config, lineno);
		goto bad;
	}
	svcname = f[0];
	colon = strrchr(f[0], ':');
	if (colon) {
		*colon = 0;
		svcname = colon + 1;
		if (strcmp(f[0], "*") &&
		    inet_pton(AF_INET, f[0], &s->addr) != 1) {
			logmsg(LOG_ERR, "%s:%d: bad address %s", config,
			       lineno, f[0]);
			goto bad;
		}
	}
	if (!strcmp(f[1], "stream")) {
		s->type = SOCK_STREAM;
	} else if (!strcmp(f[1], "dgram")) {
		s->type = SOCK_DGRAM;
	} else if (!strcmp(f[1], "seqpacket")) {
		s->type = SOCK_SEQPACKET;
	} else {
		logmsg(LOG_ERR, "%s:%d: bad socket type %s", config, lineno,
		       f[1]);
		goto bad;
	}
	if (!strcmp(f[2], "tcp") || !strcmp(f[2], "tcp4")) {
		s->proto = IPPROTO_TCP;
		lookup = "tcp";
	} else if (!strcmp(f[2], "udp") || !strcmp(f[2], "udp4")) {
		s->proto = IPPROTO_UDP;
		lookup = "udp";
	} else if (!strcmp(f[2], "xtp") || !strcmp(f[2], "xtp4")) {
		s->proto = IPPROTO_XTP;
		lookup = "tcp";
	} else {
		logmsg(LOG_ERR, "%s:%d: protocol %s not supported", config,
		       lineno, f[2]);
		goto bad;
	}
	if ((s->proto == IPPROTO_UDP) != (s->type == SOCK_DGRAM) ||
	    (s->proto == IPPROTO_TCP && s->type != SOCK_STREAM)) {
		logmsg(LOG_ERR, "%s:%d: %s does not go with %s", config,
		       lineno, f[1], f[2]);
		goto bad;
	}
	port = strtol(svcname, &end, 10);
	if (*svcname && !*end) {
		if (port <= 0 || port > 65535)
			goto badport;
		s->port = port;
	} else {
		se = getservbyname(svcname, lookup);
		if (!se)
			goto badport;
		s->port = ntohs(se->s_port);
	}
	dot = strchr(f[3], '.');
	if (dot)
		*dot = 0;	/* the .MAX rate limit is accepted, not enforced */
	if (!strcmp(f[3], "wait")) {
		s->wait = 1;
	} else if (!strcmp(f[3], "nowait")) {
		/* A datagram socket cannot be shared: always "wait". */
		s->wait = s->type == SOCK_DGRAM;
	} else {
		logmsg(LOG_ERR, "%s:%d: expected wait or nowait", config,
		       lineno);
		goto bad;
	}
	dot = strpbrk(f[4], ":.");
	if (dot) {
		*dot = 0;
		s->group = strdup(dot + 1);
	}
	s->user = strdup(f[4]);
	if (!getpwnam(s->user)) {
		logmsg(LOG_ERR, "%s:%d: no user %s", config, lineno, s->user);
		goto bad;
	}
	if (s->group && !getgrnam(s->group)) {
		logmsg(LOG_ERR, "%s:%d: no group %s", config, lineno, s->group);
		goto bad;
	}
	if (!strcmp(f[5], "internal") || f[5][0] != '/') {
		logmsg(LOG_ERR, "%s:%d: server must be an absolute path", config,
		       lineno);
		goto bad;
	}
	s->path = strdup(f[5]);
	if (n == 6) {
		s->argv[0] = strdup(f[5]);
	} else {
		for (i = 6; i < n; i++)
			s->argv[i - 6] = strdup(f[i]);
	}
	return s;
badport:
	logmsg(LOG_ERR, "%s:%d: unknown service %s/%s", config, lineno,
	       svcname, f[2]);
bad:
	svc_free(s);
	return NULL;
}

static int same_socket(const struct svc *a, const struct svc *b)
{
	return a->addr.s_addr == b->addr.s_addr && a->port == b->port &&
	       a->type == b->type && a->proto == b->proto;
}

static const char *proto_name(int proto)
{
	return proto == IPPROTO_XTP ? "xtp" : proto == IPPROTO_TCP ? "tcp" :
	       "udp";
}

static int open_socket(struct svc *s)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int one = 1, fd;

	fd = socket(AF_INET, s->type | SOCK_CLOEXEC, s->proto);
	if (fd < 0) {
		logmsg(LOG_ERR, "%s/%d: socket: %m", proto_name(s->proto),
		       s->port);
		return -1;
	}
	if (s->proto != IPPROTO_XTP)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sin.sin_addr = s->addr;
	sin.sin_port = htons(s->port);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    (s->type != SOCK_DGRAM && listen(fd, 64))) {
		logmsg(LOG_ERR, "%s/%d: bind/listen: %m", proto_name(s->proto),
		       s->port);
		close(fd);
		return -1;
	}
	return fd;
}

/* (Re)read the configuration; keep the sockets of unchanged services. */
static void load(void)
{
	struct svc *next[MAXSVC];
	char line[4096];
	int n = 0, lineno = 0, i, j;
	FILE *f = fopen(config, "r");

	if (!f) {
		logmsg(LOG_ERR, "%s: %m", config);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		struct svc *s;
		char *p = line;

		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (n == MAXSVC) {
			logmsg(LOG_ERR, "%s:%d: too many services", config,
			       lineno);
			break;
		}
		s = parse_line(p, lineno);
		if (s)
			next[n++] = s;
	}
	fclose(f);
	for (i = 0; i < n; i++) {
		for (j = 0; j < nsvc; j++)
			if (svcs[j] && svcs[j]->fd >= 0 &&
			    same_socket(svcs[j], next[i])) {
				next[i]->fd = svcs[j]->fd;
				next[i]->busy = svcs[j]->busy;
				svcs[j]->fd = -1;
				break;
			}
	}
	for (j = 0; j < nsvc; j++)
		svc_free(svcs[j]);
	for (i = 0; i < n; i++) {
		svcs[i] = next[i];
		if (svcs[i]->fd < 0)
			svcs[i]->fd = open_socket(svcs[i]);
	}
	nsvc = n;
	logmsg(LOG_INFO, "ready: %d services from %s", n, config);
}

static void spawn(struct svc *s, sigset_t *mask)
{
	int fd = s->fd;
	pid_t pid;

	if (s->type != SOCK_DGRAM && !s->wait) {
		struct sockaddr_in peer;
		socklen_t plen = sizeof(peer);

		fd = accept4(s->fd, (struct sockaddr *)&peer, &plen,
			     SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EAGAIN && errno != ECONNABORTED &&
			    errno != EINTR)
				logmsg(LOG_WARNING, "%s/%d: accept: %m",
				       proto_name(s->proto), s->port);
			return;
		}
		if (log_conns) {
			char a[INET_ADDRSTRLEN];

			inet_ntop(AF_INET, &peer.sin_addr, a, sizeof(a));
			logmsg(LOG_INFO, "%s/%d: from %s:%u, starting %s",
			       proto_name(s->proto), s->port, a,
			       ntohs(peer.sin_port), s->path);
		}
	}
	pid = fork();
	if (pid < 0) {
		logmsg(LOG_ERR, "fork: %m");
	} else if (!pid) {
		struct passwd *pw = getpwnam(s->user);
		struct group *gr = s->group ? getgrnam(s->group) : NULL;
		gid_t gid;
		int sig;

		for (sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, mask, NULL);
		setsid();
		if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		if (!pw)
			_exit(126);
		gid = gr ? gr->gr_gid : pw->pw_gid;
		if (getuid() == 0 &&
		    (setgid(gid) || initgroups(pw->pw_name, gid) ||
		     setuid(pw->pw_uid)))
			_exit(126);
		closelog();
		execv(s->path, s->argv);
		_exit(127);
	} else if (s->wait) {
		s->busy = pid;
	}
	if (fd != s->fd)
		close(fd);
}

static void reap(void)
{
	pid_t pid;
	int st, i;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		for (i = 0; i < nsvc; i++)
			if (svcs[i]->busy == pid)
				svcs[i]->busy = 0;
		if (WIFEXITED(st) && WEXITSTATUS(st) >= 126)
			logmsg(LOG_WARNING, "server %d could not start (%d)",
			       pid, WEXITSTATUS(st));
		else if (WIFSIGNALED(st))
			logmsg(LOG_WARNING, "server %d killed by signal %d", pid,
			       WTERMSIG(st));
	}
}

int main(int argc, char **argv)
{
	struct pollfd pfd[MAXSVC + 1];
	int map[MAXSVC + 1];
	sigset_t mask;
	int c, sfd;

	while ((c = getopt(argc, argv, "dl")) != -1) {
		switch (c) {
		case 'd': use_stderr = 1; break;
		case 'l': log_conns = 1; break;
		default:
			fprintf(stderr, "usage: inetdx [-d] [-l] [CONFIG]\n");
			return 2;
		}
	}
	if (optind < argc)
		config = argv[optind];
	if (!use_stderr) {
		openlog("inetdx", LOG_PID, LOG_DAEMON);
		if (daemon(0, 0)) {
			return fail("daemon");
		}
	}
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		logmsg(LOG_ERR, "signalfd: %m");
		return 1;
	}
	load();
	for (;;) {
		int n = 1, i;

		pfd[0].fd = sfd;
		pfd[0].events = POLLIN;
		for (i = 0; i < nsvc; i++) {
			if (svcs[i]->fd < 0 || svcs[i]->busy)
				continue;
			pfd[n].fd = svcs[i]->fd;
			pfd[n].events = POLLIN;
			map[n++] = i;
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			logmsg(LOG_ERR, "poll: %m");
			return 1;
		}
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGHUP) {
					reap();
					load();
					continue;
				}
				if (si.ssi_signo == SIGTERM ||
				    si.ssi_signo == SIGINT) {
					logmsg(LOG_INFO, "exiting");
					return 0;
				}
			}
			reap();
		}
		for (i = 1; i < n; i++)
			if (pfd[i].revents & (POLLIN | POLLERR | POLLHUP))
				spawn(svcs[map[i]], &mask);
	}
}
