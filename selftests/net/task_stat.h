/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A thread's scheduler state from /proc/self/task/TID/status, for tests
 * that count which threads a wakeup reached.
 */
#ifndef _SELFTEST_TASK_STAT_H
#define _SELFTEST_TASK_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Field @key of /proc/self/task/@tid/status into @val; false if none. */
static bool task_field(pid_t tid, const char *key, char *val, size_t len)
{
	char path[64], line[128];
	size_t klen = strlen(key);
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		found = !strncmp(line, key, klen) && line[klen] == ':';
		if (found)
			snprintf(val, len, "%s", line + klen + 1);
	}
	fclose(f);
	return found;
}

static long task_switches(pid_t tid)
{
	char v[128];

	return task_field(tid, "voluntary_ctxt_switches", v, sizeof(v)) ?
	       atol(v) : -1;
}

/* Thread @tid sleeps (state S). */
static bool task_sleeps(pid_t tid)
{
	char v[128];

	return task_field(tid, "State", v, sizeof(v)) && strchr(v, 'S');
}

#endif /* _SELFTEST_TASK_STAT_H */
