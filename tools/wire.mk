# SPDX-License-Identifier: GPL-2.0
# For user-space programs that link the module's packet codec
# (net/xtp/wire.c), built the way the unit tests build it.
# Include with TOP set to the repository root.
WIRE_CFLAGS := -I$(TOP)/net/xtp -I$(TOP)/selftests/unit/include \
	       -include $(TOP)/selftests/unit/kshim.h
WIRE_SRC := $(TOP)/net/xtp/wire.c
