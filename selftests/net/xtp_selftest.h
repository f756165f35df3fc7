/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the C selftests: reading /proc/net/xtp/snmp.
 */
#ifndef _XTP_SELFTEST_H
#define _XTP_SELFTEST_H

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Counter NAME from /proc/net/xtp/snmp, or -1. */
static inline long xtp_snmp(const char *name)
{
	char key[64];
	long val, ret = -1;
	FILE *f;

	f = fopen("/proc/net/xtp/snmp", "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

/*
 * Wait up to 10 s for counter NAME to differ from OLD (loopback delivery
 * may finish in softirq after the send returns); return its value.
 */
static inline long xtp_snmp_wait_change(const char *name, long old)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	long v = old;
	int i;

	for (i = 0; i < 500 && v == old; i++) {
		v = xtp_snmp(name);
		if (v == old)
			nanosleep(&ts, NULL);
	}
	return v;
}

#endif /* _XTP_SELFTEST_H */
