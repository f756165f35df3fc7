// SPDX-License-Identifier: GPL-2.0
/*
 * sockprobe: create a socket and report the outcome, for shell selftests.
 *
 *   sockprobe FAMILY TYPE PROTO             prints "ok" or the errno name
 *   sockprobe FAMILY TYPE PROTO -- CMD...   runs CMD while the socket is
 *                                           open; exits with CMD's status
 *
 * FAMILY is inet or inet6; TYPE and PROTO are numbers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EPROTONOSUPPORT: return "EPROTONOSUPPORT";
	case ESOCKTNOSUPPORT: return "ESOCKTNOSUPPORT";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOMEM: return "ENOMEM";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	int family, fd, status;
	pid_t pid;

	if (argc < 4 || (argc > 4 && (argc < 6 || strcmp(argv[4], "--")))) {
		fprintf(stderr, "usage: sockprobe inet|inet6 TYPE PROTO [-- CMD...]\n");
		return 2;
	}
	family = strcmp(argv[1], "inet6") ? AF_INET : AF_INET6;
	fd = socket(family, atoi(argv[2]), atoi(argv[3]));
	if (fd < 0) {
		printf("%s\n", errname(errno));
		return argc > 4 ? 1 : 0;
	}
	if (argc == 4) {
		printf("ok\n");
		return 0;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		close(fd);
		execvp(argv[5], argv + 5);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	close(fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
