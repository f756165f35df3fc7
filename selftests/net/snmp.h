/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the "Name value" counter files /proc/net/{xtp,mtp}/snmp, for the
 * C selftests.
 */
#ifndef _SELFTEST_SNMP_H
#define _SELFTEST_SNMP_H

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Counter PREFIX NAME (XtpInPkts: "Xtp", "InPkts") from FILE, or -1. */
static inline long proc_snmp(const char *file, const char *prefix,
			     const char *name)
{
	size_t plen = strlen(prefix);
	char key[64];
	long val, ret = -1;
	FILE *f;

	f = fopen(file, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2) {
		if (!strncmp(key, prefix, plen) && !strcmp(key + plen, name)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

/*
 * Wait up to 10 s for counter PREFIX NAME in FILE to differ from OLD (loopback
 * delivery may finish in softirq after the send returns); return it.
 */
static inline long proc_snmp_wait_change(const char *file, const char *prefix,
					 const char *name, long old)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	long v = old;
	int i;

	for (i = 0; i < 500 && v == old; i++) {
		v = proc_snmp(file, prefix, name);
		if (v == old)
			nanosleep(&ts, NULL);
	}
	return v;
}

#endif /* _SELFTEST_SNMP_H */
