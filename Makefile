# SPDX-License-Identifier: GPL-2.0
#
# XTP and MTP for Linux: out-of-tree kernel modules, tools and tests.
# `make help` lists the targets.

TOP	:= $(CURDIR)
# Newest installed kernels of each series; lazily evaluated so that a
# fresh machine sees them once `deps` has installed them.
KVER	?= $(shell ls /lib/modules 2>/dev/null | grep '^6\.12' | sort -V | tail -1)
KVER61	?= $(shell ls /lib/modules 2>/dev/null | grep '^6\.1\.' | sort -V | tail -1)
MODDIR	 = $(TOP)/build/mod/$(KVER)
KSRC	:= $(TOP)/.ksrc
# Our kernel sources: tracked or new, never generated (*.mod.c).
CHECKPATCH_FILES = $(shell git ls-files -co --exclude-standard \
	'net/*.[ch]' 'include/*.h' 'selftests/net/modules/*.c')

all: modules selftests

help:
	@echo "make              build xtp.ko and mtp.ko for 6.12 (KVER=...)"
	@echo "make demo         build, boot a VM, show XTP and MTP working"
	@echo "make check        every test (unit, builds, checkpatch, VM, debug VM)"
	@echo "make check-debug  KUnit, all selftests and the demo on the debug kernel"
	@echo "make debug-kernel build the KASAN/lockdep/kmemleak kernel (cached)"
	@echo "make bench        every benchmark row in one VM run (<40 min),"
	@echo "                  Documentation/performance.md regenerated"
	@echo "make bench-quick  a subset of each row (<5 min), same report"
	@echo "make deps         install packages, kernels, virtme-ng venv"
	@echo "make modules-6.1  build against Debian's 6.1 kernel"
	@echo "make unit         user-space unit tests only"
	@echo "make vmtest       VM selftests only (TESTS='a b' for some)"
	@echo "make vm CMD=...   run a command in the VM, modules installed"
	@echo "make checkpatch   scripts/checkpatch.pl --strict on our sources"
	@echo "make install      modules, programs and man pages (PREFIX, DESTDIR)"
	@echo "make tcpdump      tcpdump with the XTP and MTP printers (build/tcpdump)"
	@echo "make tcpdump-check tests of the tcpdump printer only"
	@echo "make iproute2     ss with --xtp and --mtp, nstat (build/iproute2/)"

deps:
	@$(TOP)/scripts/deps.sh

$(KSRC)/.done:
	@$(TOP)/scripts/ksrc.sh

modules: deps
	$(TOP)/scripts/build-modules.sh $(KVER)

modules-6.1: deps
	$(TOP)/scripts/build-modules.sh $(KVER61)

selftests: $(KSRC)/.done
	$(MAKE) -C selftests/net

unit: deps $(KSRC)/.done
	$(MAKE) -C selftests/unit check

vmtest: modules selftests
	$(TOP)/scripts/vm/selftests.sh $(KVER) $(MODDIR) build/selftests/net \
		build/vmtest.ktap $(TESTS)
	@$(TOP)/scripts/ktap-summary.sh build/vmtest.ktap

# The command travels in a file, so it may contain any quoting.
export CMD
vm: modules selftests
	@test -n "$$CMD" || { echo 'usage: make vm CMD="command"'; exit 2; }
	@mkdir -p build/vm/cmd && printf '%s\n' "$$CMD" >build/vm/cmd/cmd.sh
	@$(TOP)/scripts/vm/stage-modules.sh $(KVER) $(MODDIR) build/vm/cmd/stage
	@$(TOP)/scripts/vm/run.sh -k $(KVER) -o build/vm/cmd -- \
		$(TOP)/scripts/vm/guest-run.sh build/vm/cmd/stage build/vm/cmd/cmd.sh; \
	rc=$$?; cat build/vm/cmd/cmd.out; exit $$rc

# The compat headers (include/net/kcompat.h and each module's compat.h)
# are where kernel version tests belong, so their LINUX_VERSION_CODE
# warnings are expected there and nowhere else.
CHECKPATCH	= perl $(KSRC)/scripts/checkpatch.pl --strict --no-tree --terse \
		  --show-types
checkpatch: $(KSRC)/.done
	$(CHECKPATCH) -f $(filter-out %compat.h,$(CHECKPATCH_FILES))
	$(CHECKPATCH) --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
		-f $(filter %compat.h,$(CHECKPATCH_FILES))

check:
	@$(TOP)/scripts/check.sh

# The debug-kernel tier alone, with every selftest (make check runs its
# CI subset); the kernel build is cached in ~/.cache/xtp.
check-debug:
	@$(TOP)/scripts/debug-kernel/check.sh

debug-kernel:
	@$(TOP)/scripts/debug-kernel/build.sh

demo:
	@$(TOP)/scripts/demo.sh

bench:
	@$(TOP)/scripts/bench/bench.sh full

bench-quick:
	@$(TOP)/scripts/bench/bench.sh quick

PREFIX	?= /usr/local
BINS	:= xtpsend xtprecv xft fingerx ftpx withxtp withxtp-check mtping mtpget \
	   xtpperf
SBINS	:= xftd fingerdx ftpdx inetdx mtpd

# The modules (autoloaded by socket() after depmod), the programs, the
# withxtp preload library (found by withxtp in ../lib/withxtp) and the man
# pages.
install: modules
	$(MAKE) -C tools
	install -D -m 0644 $(MODDIR)/net/xtp/xtp.ko \
		$(DESTDIR)/lib/modules/$(KVER)/extra/xtp.ko
	install -D -m 0644 $(MODDIR)/net/xtp/xtp_diag.ko \
		$(DESTDIR)/lib/modules/$(KVER)/extra/xtp_diag.ko
	install -D -m 0644 $(MODDIR)/net/mtp/mtp.ko \
		$(DESTDIR)/lib/modules/$(KVER)/extra/mtp.ko
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/sbin \
		$(DESTDIR)$(PREFIX)/lib/withxtp \
		$(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(addprefix build/tools/,$(BINS)) $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(addprefix build/tools/,$(SBINS)) $(DESTDIR)$(PREFIX)/sbin
	install -m 0644 build/tools/libwithxtp.so $(DESTDIR)$(PREFIX)/lib/withxtp
	install -m 0644 Documentation/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 Documentation/man/*.8 $(DESTDIR)$(PREFIX)/share/man/man8
	test -n "$(DESTDIR)" || depmod -a $(KVER)

clean:
	rm -rf build
	$(MAKE) -C selftests/unit clean 2>/dev/null || true

.PHONY: all help deps modules modules-6.1 selftests unit vmtest vm \
	checkpatch check check-debug debug-kernel demo bench bench-quick install \
	clean

# tcpdump from Debian's source package with tools/tcpdump/print-xtp.c wired
# in; the source and both builds are cached under build/tcpdump/.
tcpdump: deps
	@$(TOP)/tools/tcpdump/build.sh normal

tcpdump-check: deps
	@$(TOP)/tools/tcpdump/run-tests.sh

.PHONY: tcpdump tcpdump-check

# ss and nstat from Debian's iproute2 source package with the patch series in
# tools/iproute2/patches; the source and tree are cached in build/iproute2/.
iproute2: deps
	@$(TOP)/tools/iproute2/build.sh

.PHONY: iproute2
