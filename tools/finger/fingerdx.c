// SPDX-License-Identifier: GPL-2.0
/*
 * fingerdx: RFC 1288 finger server for inetd (inetdx).  Has no network
 * code: reads one query line from standard input and answers on standard
 * output, so it serves XTP, TCP or anything else inetdx hands it.
 *
 *   fingerdx [-u] [-p]
 *
 * A query is "[/W] [USER]" ending in CR LF (a bare LF or the end of the
 * stream is accepted too).  An empty query lists the users logged in
 * (utmp); "USER" describes that account and shows ~/.plan unless -p;
 * "USER@HOST" (forwarding) is refused.  -u refuses the empty query.
 *
 * The answer is collected and written at once.  When standard output is
 * an XTP association, that one send() carries MSG_XTP_WCLOSE, so the
 * answer closes the stream in the same packet: with the client's request
 * in the FIRST, a query is XTP's 4-packet minimum (FIRST, TCNTL, answer,
 * END).
 */
#include <ctype.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utmp.h>

#include <linux/xtp.h>

static int no_list, no_plan;
static FILE *answer;

/* Output goes out with CR LF line ends, as RFC 1288 asks. */
static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = strlen(line);
	if (n && line[n - 1] == '\n') {
		line[n - 1] = 0;
		fprintf(answer, "%s\r\n", line);
	} else {
		fputs(line, answer);
	}
}

static void list_users(void)
{
	struct utmp *u;
	int any = 0;

	setutent();
	while ((u = getutent())) {
		char name[UT_NAMESIZE + 1], tty[UT_LINESIZE + 1];
		char when[32];
		time_t t = u->ut_tv.tv_sec;

		if (u->ut_type != USER_PROCESS)
			continue;
		if (!any)
			out("%-16s %-12s %s\n", "Login", "Tty", "Since");
		any = 1;
		snprintf(name, sizeof(name), "%.*s", UT_NAMESIZE, u->ut_user);
		snprintf(tty, sizeof(tty), "%.*s", UT_LINESIZE, u->ut_line);
		strftime(when, sizeof(when), "%a %b %e %H:%M",
			 localtime(&t));
		out("%-16s %-12s %s\n", name, tty, when);
	}
	endutent();
	if (!any)
		out("No one logged on.\n");
}

static void show_plan(const char *home)
{
	char path[4096], line[1024];
	struct stat st;
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/.plan", home);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		out("No Plan.\n");
		return;
	}
	f = fdopen(fd, "r");
	out("Plan:\n");
	while (f && fgets(line, sizeof(line), f)) {
		size_t i;

		line[strcspn(line, "\r\n")] = 0;
		for (i = 0; line[i]; i++)
			if (iscntrl((unsigned char)line[i]) && line[i] != '\t')
				line[i] = '?';
		out("%s\n", line);
	}
	if (f)
		fclose(f);
}

static void show_user(const char *name)
{
	struct passwd *pw = getpwnam(name);
	char gecos[256];

	if (!pw) {
		out("finger: %s: no such user.\n", name);
		return;
	}
	snprintf(gecos, sizeof(gecos), "%s", pw->pw_gecos ? pw->pw_gecos : "");
	gecos[strcspn(gecos, ",")] = 0;
	out("Login: %-24s Name: %s\n", pw->pw_name, gecos);
	out("Directory: %-20s Shell: %s\n", pw->pw_dir, pw->pw_shell);
	if (!no_plan)
		show_plan(pw->pw_dir);
}

/* Write the answer to standard output; on XTP, WCLOSE rides on it. */
static int emit(const char *p, size_t len)
{
	int proto = 0, flags = 0;
	socklen_t plen = sizeof(proto);

	if (!getsockopt(1, SOL_SOCKET, SO_PROTOCOL, &proto, &plen) &&
	    proto == IPPROTO_XTP)
		flags = MSG_XTP_WCLOSE;
	if (flags && !len)
		shutdown(1, SHUT_WR);
	while (len) {
		ssize_t r = flags ? send(1, p, len, flags | MSG_NOSIGNAL) :
				    write(1, p, len);

		if (r <= 0)
			return 1;
		p += r;
		len -= r;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char q[1024], *p, *user, *abuf = NULL;
	size_t n = 0, alen = 0;
	int c;

	while ((c = getopt(argc, argv, "up")) != -1) {
		switch (c) {
		case 'u': no_list = 1; break;
		case 'p': no_plan = 1; break;
		default:
			fprintf(stderr, "usage: fingerdx [-u] [-p]\n");
			return 2;
		}
	}
	/* One line; read() so nothing past it is consumed. */
	while (n < sizeof(q) - 1) {
		ssize_t r = read(0, q + n, 1);

		if (r <= 0 || q[n] == '\n')
			break;
		n++;
	}
	q[n] = 0;
	q[strcspn(q, "\r")] = 0;
	p = q;
	while (*p == ' ')
		p++;
	if (!strncmp(p, "/W", 2) && (p[2] == ' ' || !p[2]))
		p += 2;
	while (*p == ' ')
		p++;
	user = p;
	p += strcspn(p, " ");
	*p = 0;

	answer = open_memstream(&abuf, &alen);
	if (!answer)
		return 1;
	if (strchr(user, '@'))
		out("Finger forwarding service denied.\n");
	else if (!*user && no_list)
		out("Please supply a user name.\n");
	else if (!*user)
		list_users();
	else
		show_user(user);
	if (fclose(answer))
		return 1;
	return emit(abuf, alen);
}
