/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by every program in tools/: error messages in one
 * form ("program: what: reason") and the clock they time with.
 */
#ifndef _TOOLUTIL_H
#define _TOOLUTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on the monotonic clock, for timing transfers. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "program: WHAT: strerror(errno)" on stderr; 1, for "return fail(...)". */
static inline int fail(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	return 1;
}

/* The same, and exit status 1. */
static inline void __attribute__((noreturn)) die(const char *what)
{
	exit(fail(what));
}

#endif /* _TOOLUTIL_H */
