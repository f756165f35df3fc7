// SPDX-License-Identifier: GPL-2.0
/*
 * ftpdx: anonymous FTP server (RFC 959 subset) for inetdx.  The control
 * connection is standard input and output; data connections use the same
 * transport as the control connection (XTP when inetdx accepted an XTP
 * association, TCP for a tcp line).
 *
 *   ftpdx -r ROOT [-w]
 *
 * Commands: USER, PASS, PWD, CWD, CDUP, LIST, NLST, RETR, STOR, DELE, MKD,
 * RMD, TYPE, SIZE, PASV, EPSV, PORT, QUIT, SYST, NOOP.  Only anonymous
 * logins ("anonymous" or "ftp", any password); everything is served from
 * ROOT, and no path (symbolic links included) leads outside it.  -w allows
 * STOR, DELE, MKD and RMD.  TYPE A and I are both accepted; files move
 * unchanged.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char root[PATH_MAX], cwd[PATH_MAX] = "/";
static int proto = IPPROTO_TCP, writable, logged_in, user_ok;
static int pasv_fd = -1;
static struct sockaddr_in port_addr;
static int have_port;

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void reply(const char *fmt, ...)
{
	char line[1200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line) - 2, fmt, ap);
	va_end(ap);
	strcat(line, "\r\n");
	if (write(1, line, strlen(line)) < 0)
		exit(1);
}

/* Normalise @arg against cwd into a virtual path ("/..." under ROOT). */
static void virt_path(const char *arg, char *out)
{
	char tmp[PATH_MAX * 2], *save, *c;
	size_t n = 0;

	snprintf(tmp, sizeof(tmp), "%s/%s", arg[0] == '/' ? "" : cwd, arg);
	out[0] = 0;
	for (c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *s = strrchr(out, '/');

			if (s)
				*s = 0;
			n = strlen(out);
			continue;
		}
		if (n + strlen(c) + 2 >= PATH_MAX)
			break;
		n += sprintf(out + n, "/%s", c);
	}
	if (!out[0])
		strcpy(out, "/");
}

/* The real path of @arg, checked to stay in ROOT; -1 if it escapes.
 * @must_exist 0: only the parent must exist (a new name). */
static int real_path(const char *arg, char *out, int must_exist)
{
	char v[PATH_MAX], full[PATH_MAX * 2], res[PATH_MAX], *slash;
	size_t rl = strlen(root);

	virt_path(arg, v);
	snprintf(full, sizeof(full), "%s%s", root, v);
	if (must_exist) {
		if (!realpath(full, res))
			return -1;
	} else {
		char parent[PATH_MAX * 2];

		snprintf(parent, sizeof(parent), "%s", full);
		slash = strrchr(parent, '/');
		if (!slash || !slash[1])
			return -1;
		*slash = 0;
		if (!realpath(parent[0] ? parent : "/", res))
			return -1;
		if (strlen(res) + strlen(slash + 1) + 2 >= PATH_MAX)
			return -1;
		strcat(res, "/");
		strcat(res, slash + 1);
	}
	if (strncmp(res, root, rl) || (res[rl] && res[rl] != '/'))
		return -1;
	strcpy(out, res);
	return 0;
}

static int data_open(void)
{
	int fd;

	if (pasv_fd >= 0) {
		struct pollfd p = { .fd = pasv_fd, .events = POLLIN };

		fd = poll(&p, 1, 60000) == 1 ? accept(pasv_fd, NULL, NULL) : -1;
		close(pasv_fd);
		pasv_fd = -1;
		return fd;
	}
	if (!have_port)
		return -1;
	have_port = 0;
	fd = socket(AF_INET, SOCK_STREAM, proto);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&port_addr,
			       sizeof(port_addr))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t r = send(fd, p, n, MSG_NOSIGNAL);

		if (r <= 0)
			return -1;
		p += r;
		n -= r;
	}
	return 0;
}

static void do_list(const char *arg, int names_only)
{
	char path[PATH_MAX], line[PATH_MAX + 128];
	struct dirent *de;
	DIR *d;
	int fd, err = 0;

	/* "LIST -l" and similar: ignore ls options. */
	if (arg && arg[0] == '-')
		arg = NULL;
	if (real_path(arg && *arg ? arg : ".", path, 1) ||
	    !(d = opendir(path))) {
		reply("550 No such directory.");
		return;
	}
	reply("150 Here comes the directory listing.");
	fd = data_open();
	if (fd < 0) {
		closedir(d);
		reply("425 Cannot open data connection.");
		return;
	}
	while (!err && (de = readdir(d))) {
		struct stat st;
		char when[32];

		if (de->d_name[0] == '.')
			continue;
		if (names_only) {
			snprintf(line, sizeof(line), "%s\r\n", de->d_name);
		} else {
			if (fstatat(dirfd(d), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW))
				continue;
			strftime(when, sizeof(when), "%b %e %H:%M",
				 localtime(&st.st_mtime));
			snprintf(line, sizeof(line),
				 "%crw-r--r--    1 ftp      ftp  %12lld %s %s\r\n",
				 S_ISDIR(st.st_mode) ? 'd' : '-',
				 (long long)st.st_size, when, de->d_name);
		}
		err = send_all(fd, line, strlen(line));
	}
	closedir(d);
	close(fd);
	reply(err ? "426 Transfer aborted." : "226 Directory send OK.");
}

static void do_retr(const char *arg)
{
	static char buf[1 << 16];
	char path[PATH_MAX];
	struct stat st;
	int in, fd, err = 0;
	ssize_t n;

	if (real_path(arg, path, 1) || (in = open(path, O_RDONLY)) < 0) {
		reply("550 Failed to open file.");
		return;
	}
	if (fstat(in, &st) || !S_ISREG(st.st_mode)) {
		close(in);
		reply("550 Not a plain file.");
		return;
	}
	reply("150 Opening BINARY mode data connection for %s (%lld bytes).",
	      arg, (long long)st.st_size);
	fd = data_open();
	if (fd < 0) {
		close(in);
		reply("425 Cannot open data connection.");
		return;
	}
	while (!err && (n = read(in, buf, sizeof(buf))) > 0)
		err = send_all(fd, buf, n);
	close(in);
	close(fd);
	reply(err ? "426 Transfer aborted." : "226 Transfer complete.");
}

static void do_stor(const char *arg)
{
	static char buf[1 << 16];
	char path[PATH_MAX];
	int out, fd, err = 0;
	ssize_t n;

	if (!writable) {
		reply("550 Permission denied.");
		return;
	}
	if (real_path(arg, path, 0) ||
	    (out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW,
			0644)) < 0) {
		reply("553 Could not create file.");
		return;
	}
	reply("150 Ok to send data.");
	fd = data_open();
	if (fd < 0) {
		close(out);
		reply("425 Cannot open data connection.");
		return;
	}
	while (!err && (n = recv(fd, buf, sizeof(buf), 0)) != 0) {
		char *p = buf;

		if (n < 0) {
			err = 1;
			break;
		}
		while (n > 0) {
			ssize_t w = write(out, p, n);

			if (w <= 0) {
				err = 1;
				break;
			}
			p += w;
			n -= w;
		}
	}
	close(fd);
	if (close(out))
		err = 1;
	reply(err ? "451 Transfer failed." : "226 Transfer complete.");
}

/* A listening data socket on the control connection's local address. */
static int passive(struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);

	if (pasv_fd >= 0)
		close(pasv_fd);
	pasv_fd = -1;
	if (getsockname(0, (struct sockaddr *)sin, &len) ||
	    sin->sin_family != AF_INET)
		return -1;
	sin->sin_port = 0;
	pasv_fd = socket(AF_INET, SOCK_STREAM, proto);
	len = sizeof(*sin);
	if (pasv_fd < 0 || bind(pasv_fd, (struct sockaddr *)sin, sizeof(*sin)) ||
	    listen(pasv_fd, 1) ||
	    getsockname(pasv_fd, (struct sockaddr *)sin, &len)) {
		if (pasv_fd >= 0)
			close(pasv_fd);
		pasv_fd = -1;
		return -1;
	}
	return 0;
}

static void do_port(const char *arg)
{
	unsigned int h[6];
	struct sockaddr_in peer;
	socklen_t len = sizeof(peer);
	uint32_t a;

	if (sscanf(arg, "%u,%u,%u,%u,%u,%u", &h[0], &h[1], &h[2], &h[3],
		   &h[4], &h[5]) != 6 || h[0] > 255 || h[1] > 255 ||
	    h[2] > 255 || h[3] > 255 || h[4] > 255 || h[5] > 255) {
		reply("501 Bad PORT.");
		return;
	}
	a = htonl(h[0] << 24 | h[1] << 16 | h[2] << 8 | h[3]);
	/* Only to the client itself (no FTP bounce). */
	if (getpeername(0, (struct sockaddr *)&peer, &len) ||
	    peer.sin_addr.s_addr != a || (h[4] << 8 | h[5]) < 1024) {
		reply("500 Illegal PORT command.");
		return;
	}
	memset(&port_addr, 0, sizeof(port_addr));
	port_addr.sin_family = AF_INET;
	port_addr.sin_addr.s_addr = a;
	port_addr.sin_port = htons(h[4] << 8 | h[5]);
	have_port = 1;
	if (pasv_fd >= 0)
		close(pasv_fd);
	pasv_fd = -1;
	reply("200 PORT command successful.");
}

static int usage(void)
{
	fprintf(stderr, "usage: ftpdx -r ROOT [-w]\n");
	return 2;
}

int main(int argc, char **argv)
{
	char line[1024];
	socklen_t len = sizeof(proto);
	int c, p = 0;

	while ((c = getopt(argc, argv, "r:w")) != -1) {
		switch (c) {
		case 'r':
			if (!realpath(optarg, root))
				return 1;
			break;
		case 'w': writable = 1; break;
		default: return usage();
		}
	}
	if (!root[0])
		return usage();
	if (!strcmp(root, "/"))
		root[0] = 0;
	signal(SIGPIPE, SIG_IGN);
	if (getsockopt(0, SOL_SOCKET, SO_PROTOCOL, &p, &len) == 0)
		proto = p;
	reply("220 ftpdx ready (%s).", proto == IPPROTO_TCP ? "TCP" : "XTP");
	for (;;) {
		char *cmd, *arg, path[PATH_MAX];
		size_t n = 0;
		struct stat st;

		while (n < sizeof(line) - 1) {
			if (read(0, line + n, 1) != 1)
				return 0;
			if (line[n] == '\n')
				break;
			n++;
		}
		line[n] = 0;
		line[strcspn(line, "\r")] = 0;
		cmd = line;
		arg = strchr(line, ' ');
		if (arg)
			*arg++ = 0;
		else
			arg = "";
		if (!strcasecmp(cmd, "QUIT")) {
			reply("221 Goodbye.");
			return 0;
		} else if (!strcasecmp(cmd, "USER")) {
			user_ok = !strcmp(arg, "anonymous") || !strcmp(arg, "ftp");
			logged_in = 0;
			if (user_ok)
				reply("331 Please specify the password.");
			else
				reply("530 This server is anonymous only.");
			continue;
		} else if (!strcasecmp(cmd, "PASS")) {
			if (!user_ok) {
				reply("503 Login with USER first.");
			} else {
				logged_in = 1;
				reply("230 Login successful.");
			}
			continue;
		} else if (!strcasecmp(cmd, "SYST")) {
			reply("215 UNIX Type: L8");
			continue;
		} else if (!strcasecmp(cmd, "NOOP")) {
			reply("200 NOOP ok.");
			continue;
		}
		if (!logged_in) {
			reply("530 Please login with USER and PASS.");
			continue;
		}
		if (!strcasecmp(cmd, "PWD") || !strcasecmp(cmd, "XPWD")) {
			reply("257 \"%s\" is the current directory", cwd);
		} else if (!strcasecmp(cmd, "CWD") || !strcasecmp(cmd, "CDUP")) {
			if (!strcasecmp(cmd, "CDUP"))
				arg = "..";
			if (real_path(arg, path, 1) || stat(path, &st) ||
			    !S_ISDIR(st.st_mode)) {
				reply("550 Failed to change directory.");
			} else {
				char v[PATH_MAX];

				virt_path(arg, v);
				strcpy(cwd, v);
				reply("250 Directory successfully changed.");
			}
		} else if (!strcasecmp(cmd, "TYPE")) {
			if (!strcasecmp(arg, "I") || !strcasecmp(arg, "A") ||
			    !strcasecmp(arg, "L 8") || !strcasecmp(arg, "A N"))
				reply("200 Type set to %s.", arg);
			else
				reply("504 Type not supported.");
		} else if (!strcasecmp(cmd, "SIZE")) {
			if (real_path(arg, path, 1) || stat(path, &st) ||
			    !S_ISREG(st.st_mode))
				reply("550 Could not get file size.");
			else
				reply("213 %lld", (long long)st.st_size);
		} else if (!strcasecmp(cmd, "PASV")) {
			struct sockaddr_in sin;

			if (passive(&sin)) {
				reply("425 Cannot open passive connection.");
			} else {
				uint32_t a = ntohl(sin.sin_addr.s_addr);
				unsigned int pt = ntohs(sin.sin_port);

				have_port = 0;
				reply("227 Entering Passive Mode (%u,%u,%u,%u,%u,%u).",
				      a >> 24, a >> 16 & 255, a >> 8 & 255,
				      a & 255, pt >> 8, pt & 255);
			}
		} else if (!strcasecmp(cmd, "EPSV")) {
			struct sockaddr_in sin;

			if (passive(&sin)) {
				reply("425 Cannot open passive connection.");
			} else {
				have_port = 0;
				reply("229 Entering Extended Passive Mode (|||%u|)",
				      ntohs(sin.sin_port));
			}
		} else if (!strcasecmp(cmd, "PORT")) {
			do_port(arg);
		} else if (!strcasecmp(cmd, "LIST")) {
			do_list(arg, 0);
		} else if (!strcasecmp(cmd, "NLST")) {
			do_list(arg, 1);
		} else if (!strcasecmp(cmd, "RETR")) {
			do_retr(arg);
		} else if (!strcasecmp(cmd, "STOR")) {
			do_stor(arg);
		} else if (!strcasecmp(cmd, "DELE") || !strcasecmp(cmd, "RMD") ||
			   !strcasecmp(cmd, "MKD")) {
			int mk = !strcasecmp(cmd, "MKD");
			int rm = !strcasecmp(cmd, "RMD");

			if (!writable)
				reply("550 Permission denied.");
			else if (real_path(arg, path, !mk) ||
				 (mk ? mkdir(path, 0755) :
				  rm ? rmdir(path) : unlink(path)))
				reply("550 %s failed.", cmd);
			else if (mk)
				reply("257 \"%s\" created", arg);
			else
				reply("250 %s done.", cmd);
		} else {
			reply("502 Command not implemented.");
		}
	}
}
