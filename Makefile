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

.PHONY: all modules clean kernel check demo bench checkpatch
