# iodig build.  All outputs go to $(OUT); `make V=1` shows full commands.
OUT      ?= build
CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
ARCH     ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
VERSION  := 0.1.0

# Debian packages that building, running and testing need.  `make deps`
# installs the missing ones and is silent when all are present.
DEB_PKGS := clang llvm gcc make pkg-config bpftool libbpf-dev libelf-dev \
	    zlib1g-dev liburing-dev libaio-dev libblkid-dev libjson-c-dev \
	    libssl-dev libxxhash-dev libisal-dev libpmem-dev libmtd-dev \
	    fio util-linux e2fsprogs kmod procps jq fdisk \
	    libclang-rt-14-dev valgrind time strace \
	    qemu-system-x86 busybox-static cpio xz-utils \
	    chromium libbpf-tools bpftrace blktrace

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

VMLINUX   := vmlinux/$(ARCH)/vmlinux.h
BPF_SRCS  := $(wildcard bpf/*.bpf.c)
BPF_OBJS  := $(patsubst bpf/%.bpf.c,$(OUT)/bpf/%.bpf.o,$(BPF_SRCS))
SKELS     := $(patsubst bpf/%.bpf.c,$(OUT)/skel/%.skel.h,$(BPF_SRCS))
# Test-only BPF programs: skeletons that only tests/bpf include.
TEST_BPF_SRCS := $(wildcard tests/bpf/progs/*.bpf.c)
TEST_SKELS    := $(patsubst tests/bpf/progs/%.bpf.c,$(OUT)/skel/%.skel.h,$(TEST_BPF_SRCS))

# user/<layer>/*.c and one level below (user/workload/engines/).
USER_SRCS := $(wildcard user/*/*.c user/*/*/*.c)
USER_OBJS := $(patsubst %.c,$(OUT)/obj/%.o,$(USER_SRCS))
LIB_OBJS  := $(filter-out $(OUT)/obj/user/cli/main.o,$(USER_OBJS))

# C tests: tests/unit (no privileges), tests/root (root: loop devices,
# kallsyms), tests/bpf (root: load BPF programs).
TEST_DIRS := unit root bpf
UNIT_SRCS := $(foreach d,$(TEST_DIRS),$(wildcard tests/$(d)/*.c))
UNIT_BINS := $(patsubst tests/%.c,$(OUT)/tests/%,$(UNIT_SRCS))
# Bench tools (tests/bench/*.c): built with the tests, run by the bench.
BENCH_BINS := $(patsubst tests/%.c,$(OUT)/tests/%,$(wildcard tests/bench/*.c))
# Lab guest tools (tests/vm/*.c): standalone, copied into the initramfs.
VM_BINS := $(patsubst tests/%.c,$(OUT)/tests/%,$(wildcard tests/vm/*.c))

CFLAGS   ?= -O2 -g
# -Wno-format-truncation: gcc 12 flags every bounded snprintf into a path
# buffer, including those whose return value is checked.
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -Wno-format-truncation \
	    -I. -Iinclude -Iuser -I$(OUT)/skel \
	    -DIODIG_VERSION='"$(VERSION)"' -MMD -MP
LDLIBS   := -lbpf -lelf -lz -luring -laio -lblkid -ljson-c -lxxhash \
	    -lisal -lmtd -lpthread -lm
# libpmem and libcrypto are not linked: what needs them opens them when it
# first runs (base/lazy_lib.h), so other runs do not pay their start.
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude \
	    -I$(dir $(VMLINUX)) -Wall -Werror -MMD -MP

.DELETE_ON_ERROR:
# Skeletons and BPF objects are made through pattern chains; keep them so
# make does not delete them as intermediates and rebuild every time.
.SECONDARY: $(BPF_OBJS) $(SKELS) $(TEST_SKELS) \
	$(patsubst %.skel.h,%.bpf.o,$(subst /skel/,/bpf/,$(TEST_SKELS)))
.PHONY: all deps run test unit bench vmtest fuzz fuzz-build sanitize \
	sanitize-build clean install uninstall

all: $(OUT)/iodig $(OUT)/iodig.1 $(OUT)/iodig.bash-completion

$(OUT)/bpf/%.bpf.o: bpf/%.bpf.c $(VMLINUX)
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/bpf/%.bpf.o: tests/bpf/progs/%.bpf.c $(VMLINUX)
	@mkdir -p $(@D)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/skel/%.skel.h: $(OUT)/bpf/%.bpf.o
	@mkdir -p $(@D)
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@

# Every user object may include any skeleton; generate them first.
$(OUT)/obj/%.o: %.c | $(SKELS)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(OUT)/iodig: $(USER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

# The man page and the bash completion are generated from the option
# tables by the binary itself.
$(OUT)/iodig.1: $(OUT)/iodig
	$(call msg,GEN,$@)
	$(Q)$< help --man > $@

$(OUT)/iodig.bash-completion: $(OUT)/iodig
	$(call msg,GEN,$@)
	$(Q)$< help --bash-completion > $@

$(OUT)/tests/%: tests/%.c $(LIB_OBJS) | $(TEST_SKELS)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< $(LIB_OBJS) -o $@ $(LDLIBS)

$(OUT)/tests/vm/%: tests/vm/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< -o $@

unit: $(UNIT_BINS) $(BENCH_BINS) $(VM_BINS)

deps:
	@missing=""; for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# The README's first command: default job on a scratch loop device.
run: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(OUT)/iodig run jobs/default.fio --target=scratch

# The README's second command, and what .ci/run calls.
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(shell nproc) all unit sanitize-build fuzz-build
	$(Q)OUT=$(OUT) tests/run.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all $(BENCH_BINS)
	$(Q)OUT=$(OUT) tests/bench/run.sh

# QEMU kernel lab (tests/vm/): boots Debian 6.1 and 6.12 kernels under TCG
# and asserts on iodig's JSON there.  VM_KERNELS="6.12" picks kernels;
# downloads are kept in VM_CACHE.  A skip (no QEMU, package or network)
# prints its reason and is not an error here.
VM_KERNELS ?=
VM_CACHE   ?= /var/cache/iodig-vm
vmtest: deps
	$(Q)$(MAKE) --no-print-directory all $(VM_BINS)
	$(Q)OUT=$(OUT) VM_CACHE=$(VM_CACHE) bash tests/vm/lab.sh $(VM_KERNELS); \
		rc=$$?; [ $$rc -eq 77 ] && rc=0; exit $$rc

# --- Sanitizers: iodig and the unit tests again, with ASan+UBSan ---------
# A separate tree, so the normal build stays optimised; tests/run.sh runs
# $(ASAN_OUT)/tests/*/* as "asan-<test>" and tests/host/sanitize_*.sh
# drive $(ASAN_OUT)/iodig.  -fno-sanitize-recover makes any UBSan report
# fatal, so a report can never pass as a success.
ASAN_OUT    := $(OUT)/asan
SAN_FLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer \
	       -fno-sanitize-recover=all
ASAN_CFLAGS  = $(filter-out -O2,$(CFLAGS)) -O1 $(SAN_FLAGS)
ASAN_USER_OBJS := $(patsubst %.c,$(ASAN_OUT)/obj/%.o,$(USER_SRCS))
ASAN_LIB_OBJS  := $(filter-out $(ASAN_OUT)/obj/user/cli/main.o,$(ASAN_USER_OBJS))
ASAN_UNIT_BINS := $(patsubst tests/%.c,$(ASAN_OUT)/tests/%,$(UNIT_SRCS))

$(ASAN_OUT)/obj/%.o: %.c | $(SKELS)
	@mkdir -p $(@D)
	$(call msg,ASAN-CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) -c $< -o $@

$(ASAN_OUT)/iodig: $(ASAN_USER_OBJS)
	$(call msg,ASAN-LD,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) $(LDFLAGS) $^ -o $@ $(LDLIBS)

$(ASAN_OUT)/tests/%: tests/%.c $(ASAN_LIB_OBJS) | $(TEST_SKELS)
	@mkdir -p $(@D)
	$(call msg,ASAN-CC,$@)
	$(Q)$(CC) $(ASAN_CFLAGS) $< $(ASAN_LIB_OBJS) -o $@ $(LDLIBS)

sanitize-build: $(ASAN_OUT)/iodig $(ASAN_UNIT_BINS)

# Builds and runs only the sanitizer tests (make test runs them too).
sanitize: deps
	$(Q)$(MAKE) --no-print-directory all sanitize-build
	$(Q)OUT=$(OUT) tests/run.sh -e 'asan-|sanitize_|valgrind_'

# --- Fuzzing: libFuzzer targets tests/fuzz/fuzz_<name>.c ----------------
# clang only (libFuzzer).  The library objects are rebuilt with coverage
# instrumentation (fuzzer-no-link); each target is linked with all of them,
# like the unit tests.  The trace-file target joins once its parser exists.
FUZZ_OUT     := $(OUT)/fuzz
FUZZ_NAMES   := jobfile cmdline ksyms tracefile iolog
FUZZ_BINS    := $(patsubst %,$(FUZZ_OUT)/bin/fuzz_%,$(FUZZ_NAMES))
FUZZ_CFLAGS   = $(filter-out -O2 -Wno-format-truncation,$(CFLAGS)) -O1 \
	       $(SAN_FLAGS) -fsanitize=fuzzer-no-link
FUZZ_LIB_OBJS := $(patsubst %.c,$(FUZZ_OUT)/obj/%.o,$(filter-out user/cli/main.c,$(USER_SRCS)))
FUZZ_SECONDS ?= 45

$(FUZZ_OUT)/obj/%.o: %.c | $(SKELS)
	@mkdir -p $(@D)
	$(call msg,FUZZ-CC,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_OUT)/bin/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJS)
	@mkdir -p $(@D)
	$(call msg,FUZZ-LD,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB_OBJS) -o $@ $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

# Library objects reached only through pattern rules; keep them.
.SECONDARY: $(ASAN_LIB_OBJS) $(FUZZ_LIB_OBJS)

# Each target for FUZZ_SECONDS (default 45 s); a crash is copied to
# tests/fuzz/regressions/<name>/ and fails the target.
fuzz: deps
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)OUT=$(OUT) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(FUZZ_NAMES)

# --- Install: the binary, its man page and bash completion, the job files.
# `make install PREFIX=/usr DESTDIR=/tmp/pkg` stages a package; uninstall
# removes exactly what install put there.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man/man1
COMPDIR ?= $(PREFIX)/share/bash-completion/completions
JOBDIR  ?= $(PREFIX)/share/iodig/jobs
# A link named fio, for harnesses that call fio: put this folder first in
# their PATH. It stays out of BINDIR so that the real fio is not shadowed.
FIOLINKDIR ?= $(PREFIX)/libexec/iodig
JOB_FILES := $(wildcard jobs/*.fio)

install: $(OUT)/iodig $(OUT)/iodig.1 $(OUT)/iodig.bash-completion
	install -D -m 0755 $(OUT)/iodig $(DESTDIR)$(BINDIR)/iodig
	install -D -m 0644 $(OUT)/iodig.1 $(DESTDIR)$(MANDIR)/iodig.1
	install -D -m 0644 $(OUT)/iodig.bash-completion $(DESTDIR)$(COMPDIR)/iodig
	install -d $(DESTDIR)$(JOBDIR)
	install -m 0644 $(JOB_FILES) $(DESTDIR)$(JOBDIR)/
	install -d $(DESTDIR)$(FIOLINKDIR)
	ln -sf $(BINDIR)/iodig $(DESTDIR)$(FIOLINKDIR)/fio

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/iodig $(DESTDIR)$(MANDIR)/iodig.1 \
		$(DESTDIR)$(COMPDIR)/iodig \
		$(addprefix $(DESTDIR)$(JOBDIR)/,$(notdir $(JOB_FILES))) \
		$(DESTDIR)$(FIOLINKDIR)/fio
	rmdir $(DESTDIR)$(JOBDIR) $(dir $(DESTDIR)$(JOBDIR)) $(DESTDIR)$(FIOLINKDIR) \
		2>/dev/null || true

clean:
	rm -rf $(OUT)

-include $(USER_OBJS:.o=.d) $(BPF_OBJS:.o=.d) $(UNIT_BINS:=.d)
-include $(wildcard $(ASAN_OUT)/obj/user/*/*.d $(ASAN_OUT)/obj/user/*/*/*.d \
	 $(FUZZ_OUT)/obj/user/*/*.d $(FUZZ_OUT)/obj/user/*/*/*.d \
	 $(ASAN_OUT)/tests/*/*.d $(FUZZ_OUT)/bin/*.d)
