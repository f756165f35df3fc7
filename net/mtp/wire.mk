# SPDX-License-Identifier: GPL-2.0
# For user-space programs that link the MTP module's pure code (header
# codec, RTT estimator, flow control).  Include with TOP set to the
# repository root.
MTP_WIRE_CFLAGS := -I$(TOP)/net/mtp -I$(TOP)/selftests/unit/include \
		   -include $(TOP)/selftests/unit/kshim.h
MTP_WIRE_SRC := $(TOP)/net/mtp/wire.c $(TOP)/net/mtp/rtt.c \
		$(TOP)/net/mtp/flow.c $(TOP)/net/mtp/cc.c
