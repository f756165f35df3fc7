// SPDX-License-Identifier: GPL-2.0
/*
 * XTP: the tracepoints of include/trace/events/xtp.h are instantiated
 * here, once; the rest of the module only calls them.
 */
#include "xtp.h"
#include "wire.h"

#define CREATE_TRACE_POINTS
#include <trace/events/xtp.h>
