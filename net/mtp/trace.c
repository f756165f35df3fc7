// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: the tracepoints of include/trace/events/mtp.h are instantiated
 * here, once; the rest of the module only calls them.
 */
#include <linux/types.h>

#define CREATE_TRACE_POINTS
#include <trace/events/mtp.h>
