// SPDX-License-Identifier: GPL-2.0
/*
 * MTP: XTP's delivery-rate model (net/xtp/bbr.c), one source built into
 * each module, for rate.c.
 */
#include "../xtp/bbr.c"
