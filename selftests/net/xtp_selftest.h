/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the XTP C selftests.
 */
#ifndef _XTP_SELFTEST_H
#define _XTP_SELFTEST_H

#include "snmp.h"

#define XTP_SNMP "/proc/net/xtp/snmp"

static inline long xtp_snmp(const char *name)
{
	return proc_snmp(XTP_SNMP, name);
}

static inline long xtp_snmp_wait_change(const char *name, long old)
{
	return proc_snmp_wait_change(XTP_SNMP, name, old);
}

#endif /* _XTP_SELFTEST_H */
