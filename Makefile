# SPDX-License-Identifier: GPL-2.0
#
# sliceext: the module builds with kbuild (see Kbuild); everything else
# here drives the patched kernel, the test VM and the benchmarks.
#
#   make [KDIR=...]   build sliceext.ko against KDIR (default: running kernel)
#   make check        the test suite (installs packages, builds the test
#                     kernel into ~/.cache/sliceext, runs host and VM tests)
#   make demo         build, boot, load, show debugfs and a recorded trace,
#                     then a short benchmark run on the test kernel
#   make bench        the benchmarks: release and stock kernels in QEMU, one
#                     table (ARGS="--quick", "--repeat N", "--json FILE", ...)
#   make kernel       build (or reuse) the patched test kernel
#   make checkpatch   scripts/checkpatch.pl --strict on patches and module
#   make tools        build the sliceext(8) tool (tools/sliceext/)
#   make install      install the tool, its man page and the user ABI
#                     headers (PREFIX=/usr/local, DESTDIR=)
#   make deb          Debian packages sliceext-dkms and sliceext, into
#                     build/deb/ (docs/packaging.md)
#   make kernel-deb [CONFIG=/boot/config-...]
#                     linux-image/linux-headers packages of the patched
#                     6.12 (scripts/kernel-deb.sh)

KDIR ?= /lib/modules/$(shell uname -r)/build

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

kernel:
	scripts/kernel.sh test

check:
	tests/run

demo:
	scripts/demo.sh

bench:
	SLICEEXT_BENCH_CMD='make bench$(if $(ARGS), ARGS="$(ARGS)")' \
		scripts/bench.sh $(ARGS)

checkpatch:
	scripts/checkpatch.sh

PREFIX ?= /usr/local
DESTDIR ?=
incdir := $(DESTDIR)$(PREFIX)/include/sliceext

tools:
	$(MAKE) -C tools/sliceext

install: tools
	install -D -m 0755 tools/sliceext/sliceext $(DESTDIR)$(PREFIX)/sbin/sliceext
	install -D -m 0644 tools/sliceext/sliceext.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/sliceext.8
	install -D -m 0644 -t $(incdir)/linux $(wildcard uapi/linux/*.h)
	install -D -m 0644 -t $(incdir) tools/rseq_slice.h

deb:
	scripts/deb.sh

kernel-deb:
	scripts/kernel-deb.sh $(if $(CONFIG),--config "$(CONFIG)")

.PHONY: all modules clean kernel check demo bench checkpatch tools install \
	deb kernel-deb
