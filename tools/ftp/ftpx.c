// SPDX-License-Identifier: GPL-2.0
/*
 * ftpx: FTP client (RFC 959 subset) over XTP, or TCP with -t.  Logs in
 * anonymously, then reads commands from standard input, one a line:
 *
 *   ls [DIR]  nlist [DIR]  get REMOTE [LOCAL]  put LOCAL [REMOTE]
 *   cd DIR  cdup  pwd  mkdir DIR  rmdir DIR  delete FILE  size FILE
 *   binary  ascii  passive  quote RAW  quit
 *
 * Data connections use EPSV (PASV with -4), or PORT after "passive"
 * toggles passive mode off (or -A).  Server replies go to standard output.
 *
 *   ftpx [-t] [-A] [-4] [-p PORT] [-u USER] HOST
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/xtp.h>

#include "toolutil.h"

static int ctl = -1, proto = IPPROTO_XTP, passive_mode = 1, use_pasv;
static FILE *ctl_in;

/* Read one (possibly multi-line) reply; returns its code. */
static int get_reply(char *last, size_t size)
{
	char line[1200];
	int code = 0;

	for (;;) {
		if (!fgets(line, sizeof(line), ctl_in)) {
			fprintf(stderr, "ftpx: control connection closed\n");
			exit(1);
		}
		line[strcspn(line, "\r\n")] = 0;
		printf("%s\n", line);
		if (!code)
			code = atoi(line);
		if (strlen(line) >= 4 && atoi(line) == code && line[3] == ' ')
			break;
	}
	fflush(stdout);
	if (last)
		snprintf(last, size, "%s", line);
	return code;
}

static int command(char *last, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int command(char *last, size_t size, const char *fmt, ...)
{
	char buf[1100];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 2, fmt, ap);
	va_end(ap);
	strcpy(buf + n, "\r\n");
	if (send(ctl, buf, n + 2, MSG_NOSIGNAL) != n + 2)
		die("send");
	return get_reply(last, size);
}

static int new_socket(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, proto);
	struct timeval tv = { .tv_sec = 60 };

	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}

/*
 * Run a transfer command: set up the data connection, send @cmd, return
 * the data socket (or -1 after printing the refusal).
 */
static int data_cmd(const char *cmd)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	char last[1200];
	int fd, ls = -1, code;

	if (passive_mode) {
		unsigned int h[6], port = 0;
		char *p;

		code = command(last, sizeof(last), use_pasv ? "PASV" : "EPSV");
		if (getpeername(ctl, (struct sockaddr *)&sin, &len))
			die("getpeername");
		if (code == 229 && (p = strstr(last, "(|||"))) {
			port = atoi(p + 4);
		} else if (code == 227 && (p = strchr(last, '(')) &&
			   sscanf(p + 1, "%u,%u,%u,%u,%u,%u", &h[0], &h[1],
				  &h[2], &h[3], &h[4], &h[5]) == 6) {
			sin.sin_addr.s_addr = htonl(h[0] << 24 | h[1] << 16 |
						    h[2] << 8 | h[3]);
			port = h[4] << 8 | h[5];
		} else {
			return -1;
		}
		sin.sin_port = htons(port);
		fd = new_socket();
		if (connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
			fail("data connect");
			close(fd);
			return -1;
		}
		code = command(NULL, 0, "%s", cmd);
		if (code / 100 != 1) {
			close(fd);
			return -1;
		}
		return fd;
	}
	if (getsockname(ctl, (struct sockaddr *)&sin, &len))
		die("getsockname");
	sin.sin_port = 0;
	ls = new_socket();
	len = sizeof(sin);
	if (bind(ls, (struct sockaddr *)&sin, sizeof(sin)) || listen(ls, 1) ||
	    getsockname(ls, (struct sockaddr *)&sin, &len))
		die("data listen");
	{
		uint32_t a = ntohl(sin.sin_addr.s_addr);
		unsigned int pt = ntohs(sin.sin_port);

		code = command(NULL, 0, "PORT %u,%u,%u,%u,%u,%u", a >> 24,
			       a >> 16 & 255, a >> 8 & 255, a & 255, pt >> 8,
			       pt & 255);
	}
	if (code != 200 || command(NULL, 0, "%s", cmd) / 100 != 1) {
		close(ls);
		return -1;
	}
	{
		struct pollfd p = { .fd = ls, .events = POLLIN };

		fd = poll(&p, 1, 60000) == 1 ? accept(ls, NULL, NULL) : -1;
	}
	close(ls);
	if (fd < 0)
		fail("data accept");
	return fd;
}

/* Copy @in to @out until EOF; bytes moved or -1. */
static long long copy(int in, int out, int in_sock, int out_sock)
{
	static char buf[1 << 16];
	long long total = 0;

	for (;;) {
		ssize_t n = in_sock ? recv(in, buf, sizeof(buf), 0) :
				      read(in, buf, sizeof(buf));
		char *p = buf;

		if (n < 0)
			return -1;
		if (!n)
			return total;
		total += n;
		/* Listings to the terminal: CR LF becomes LF. */
		if (out == 1 && !out_sock) {
			ssize_t i, j = 0;

			for (i = 0; i < n; i++)
				if (buf[i] != '\r')
					buf[j++] = buf[i];
			n = j;
		}
		while (n > 0) {
			ssize_t w = out_sock ? send(out, p, n, MSG_NOSIGNAL) :
					       write(out, p, n);

			if (w <= 0)
				return -1;
			p += w;
			n -= w;
		}
	}
}

static void transfer(const char *cmd, int file, int upload)
{
	double t0 = now(), t;
	long long n;
	int fd = data_cmd(cmd);

	if (fd < 0)
		return;
	n = upload ? copy(file, fd, 0, 1) : copy(fd, file, 1, 0);
	close(fd);
	get_reply(NULL, 0);
	t = now() - t0;
	if (n >= 0 && file != 1)
		printf("%lld bytes %s in %.3f s (%.3f Mbit/s)\n", n,
		       upload ? "sent" : "received", t,
		       t > 0 ? n * 8 / t / 1e6 : 0.0);
	else if (n < 0)
		printf("transfer failed\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct addrinfo hints = { .ai_family = AF_INET }, *ai;
	const char *port = "21", *user = "anonymous";
	char line[1100];
	int c;

	while ((c = getopt(argc, argv, "tA4p:u:")) != -1) {
		switch (c) {
		case 't': proto = IPPROTO_TCP; break;
		case 'A': passive_mode = 0; break;
		case '4': use_pasv = 1; break;
		case 'p': port = optarg; break;
		case 'u': user = optarg; break;
		default:
			fprintf(stderr, "usage: ftpx [-t] [-A] [-4] [-p PORT] [-u USER] HOST\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: ftpx [-t] [-A] [-4] [-p PORT] [-u USER] HOST\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (getaddrinfo(argv[optind], port, &hints, &ai)) {
		fprintf(stderr, "ftpx: cannot resolve %s\n", argv[optind]);
		return 1;
	}
	ctl = new_socket();
	if (connect(ctl, ai->ai_addr, ai->ai_addrlen))
		die("connect");
	freeaddrinfo(ai);
	ctl_in = fdopen(dup(ctl), "r");
	if (!ctl_in)
		die("fdopen");
	if (get_reply(NULL, 0) != 220)
		return 1;
	if (command(NULL, 0, "USER %s", user) == 331 &&
	    command(NULL, 0, "PASS ftpx@") != 230)
		return 1;
	command(NULL, 0, "TYPE I");
	while (fgets(line, sizeof(line), stdin)) {
		char *cmd, *a1, *a2, *save;

		line[strcspn(line, "\r\n")] = 0;
		cmd = strtok_r(line, " \t", &save);
		if (!cmd)
			continue;
		a1 = strtok_r(NULL, " \t", &save);
		a2 = strtok_r(NULL, " \t", &save);
		printf("ftp> %s%s%s\n", cmd, a1 ? " " : "", a1 ? a1 : "");
		fflush(stdout);
		if (!strcmp(cmd, "quit") || !strcmp(cmd, "bye")) {
			break;
		} else if (!strcmp(cmd, "ls") || !strcmp(cmd, "dir") ||
			   !strcmp(cmd, "nlist")) {
			char c2[1100];

			snprintf(c2, sizeof(c2), "%s%s%s",
				 cmd[0] == 'n' ? "NLST" : "LIST",
				 a1 ? " " : "", a1 ? a1 : "");
			transfer(c2, 1, 0);
		} else if (!strcmp(cmd, "get") && a1) {
			char c2[1100];
			int f = open(a2 ? a2 : a1, O_WRONLY | O_CREAT | O_TRUNC,
				     0644);

			if (f < 0) {
				fail(a2 ? a2 : a1);
				continue;
			}
			snprintf(c2, sizeof(c2), "RETR %s", a1);
			transfer(c2, f, 0);
			close(f);
		} else if (!strcmp(cmd, "put") && a1) {
			char c2[1100];
			const char *base = strrchr(a1, '/');
			int f = open(a1, O_RDONLY);

			if (f < 0) {
				fail(a1);
				continue;
			}
			snprintf(c2, sizeof(c2), "STOR %s",
				 a2 ? a2 : base ? base + 1 : a1);
			transfer(c2, f, 1);
			close(f);
		} else if (!strcmp(cmd, "cd") && a1) {
			command(NULL, 0, "CWD %s", a1);
		} else if (!strcmp(cmd, "cdup")) {
			command(NULL, 0, "CDUP");
		} else if (!strcmp(cmd, "pwd")) {
			command(NULL, 0, "PWD");
		} else if (!strcmp(cmd, "mkdir") && a1) {
			command(NULL, 0, "MKD %s", a1);
		} else if (!strcmp(cmd, "rmdir") && a1) {
			command(NULL, 0, "RMD %s", a1);
		} else if (!strcmp(cmd, "delete") && a1) {
			command(NULL, 0, "DELE %s", a1);
		} else if (!strcmp(cmd, "size") && a1) {
			command(NULL, 0, "SIZE %s", a1);
		} else if (!strcmp(cmd, "binary")) {
			command(NULL, 0, "TYPE I");
		} else if (!strcmp(cmd, "ascii")) {
			command(NULL, 0, "TYPE A");
		} else if (!strcmp(cmd, "passive")) {
			passive_mode = !passive_mode;
			printf("Passive mode %s.\n", passive_mode ? "on" : "off");
		} else if (!strcmp(cmd, "quote") && a1) {
			command(NULL, 0, "%s%s%s", a1, a2 ? " " : "",
				a2 ? a2 : "");
		} else {
			printf("?Invalid command\n");
		}
		fflush(stdout);
	}
	command(NULL, 0, "QUIT");
	fclose(ctl_in);
	close(ctl);
	return 0;
}
