# SPDX-License-Identifier: GPL-2.0-or-later
# Measurement tools (tools/): tsstat, tsprobe, clkjitter, irqlat.
# Everything is built under build/tools/; `make tools` builds, `make
# test-tools` runs tests/tools/run.sh, `make bench-tools` the 10^7-packet
# benchmark (not part of `make test`: it takes minutes).

TOOLS_B      := $(BUILD)/tools
TOOLS_CC     ?= cc
TOOLS_CFLAGS := -std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wshadow \
                -Wstrict-prototypes -Wmissing-prototypes
TOOLS_LIBSRC := $(wildcard tools/lib/*.c)
TOOLS_LIBHDR := $(wildcard tools/lib/*.h)
TOOLS_LIBOBJ := $(patsubst tools/lib/%.c,$(TOOLS_B)/lib/%.o,$(TOOLS_LIBSRC))
TOOLS_LIB    := $(TOOLS_B)/lib/libtools.a
TOOLS_BINS   := $(TOOLS_B)/tsstat $(TOOLS_B)/clkjitter $(TOOLS_B)/tsprobe $(TOOLS_B)/irqlat
TOOLS_TESTB  := $(TOOLS_B)/test

.PHONY: tools test-tools bench-tools fuzz-tools
SUITES += tools

tools: $(TOOLS_BINS)

$(TOOLS_B)/lib/%.o: tools/lib/%.c $(TOOLS_LIBHDR)
	@mkdir -p $(@D)
	$(TOOLS_CC) $(TOOLS_CFLAGS) -c $< -o $@

$(TOOLS_LIB): $(TOOLS_LIBOBJ)
	rm -f $@
	ar rcs $@ $^

$(TOOLS_B)/tsstat: tools/tsstat.c $(TOOLS_LIB)
	$(TOOLS_CC) $(TOOLS_CFLAGS) $< $(TOOLS_LIB) -lpcap -lm -o $@

$(TOOLS_B)/clkjitter: tools/clkjitter.c $(TOOLS_LIB)
	$(TOOLS_CC) $(TOOLS_CFLAGS) $< $(TOOLS_LIB) -lm -lpthread -o $@

$(TOOLS_B)/tsprobe: tools/tsprobe.c $(TOOLS_LIB)
	$(TOOLS_CC) $(TOOLS_CFLAGS) $< $(TOOLS_LIB) -lm -o $@

# irqlat: CO-RE BPF. vmlinux.h comes from the running kernel's BTF at build
# time (never committed); the object runs on any BTF kernel (CO-RE).
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
$(TOOLS_B)/vmlinux.h: $(VMLINUX_BTF)
	@mkdir -p $(@D)
	bpftool btf dump file $< format c >$@.tmp && mv $@.tmp $@

$(TOOLS_B)/irqlat.bpf.o: tools/irqlat.bpf.c tools/irqlat.h $(TOOLS_B)/vmlinux.h
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I$(TOOLS_B) -Itools -c $< -o $@

$(TOOLS_B)/irqlat.skel.h: $(TOOLS_B)/irqlat.bpf.o
	bpftool gen skeleton $< >$@.tmp && mv $@.tmp $@

$(TOOLS_B)/irqlat: tools/irqlat.c tools/irqlat.h $(TOOLS_B)/irqlat.skel.h $(TOOLS_LIB)
	$(TOOLS_CC) $(TOOLS_CFLAGS) -I$(TOOLS_B) $< $(TOOLS_LIB) -lbpf -lelf -lz -lm -o $@

# test helpers and the fuzz target
$(TOOLS_TESTB)/gencap: tests/tools/gencap.c $(TOOLS_LIB)
	@mkdir -p $(@D)
	$(TOOLS_CC) $(TOOLS_CFLAGS) -Itools $< $(TOOLS_LIB) -lm -o $@

$(TOOLS_TESTB)/capfile_fuzz: tools/fuzz/capfile_fuzz.c tools/lib/capfile.c tools/lib/capfile.h
	@mkdir -p $(@D)
	clang -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -Itools $< tools/lib/capfile.c -o $@

test-tools: tools $(TOOLS_TESTB)/gencap $(TOOLS_TESTB)/capfile_fuzz
	@BUILD=$(BUILD) sh tests/tools/run.sh

bench-tools: $(TOOLS_B)/tsstat $(TOOLS_TESTB)/gencap
	@BUILD=$(BUILD) sh tests/tools/bench.sh

# a long fuzz run of the pcap/pcapng reader; the corpus persists between runs
fuzz-tools: $(TOOLS_TESTB)/capfile_fuzz
	@mkdir -p $(BUILD)/tools/fuzz-corpus
	$(TOOLS_TESTB)/capfile_fuzz -max_total_time=$${FUZZ_SECONDS:-600} -max_len=4096 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $(BUILD)/tools/fuzz-corpus
