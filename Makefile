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
	    fio util-linux e2fsprogs kmod procps jq fdisk

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

USER_SRCS := $(wildcard user/*.c user/engines/*.c user/probes/*.c)
USER_OBJS := $(patsubst %.c,$(OUT)/obj/%.o,$(USER_SRCS))
LIB_OBJS  := $(filter-out $(OUT)/obj/user/main.o,$(USER_OBJS))

UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUT)/tests/unit/%,$(UNIT_SRCS))

CFLAGS   ?= -O2 -g
# -Wno-format-truncation: gcc 12 flags every bounded snprintf into a path
# buffer, including those whose return value is checked.
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -Wno-format-truncation \
	    -I. -Iinclude -Iuser -I$(OUT)/skel \
	    -DIODIG_VERSION='"$(VERSION)"' -MMD -MP
LDLIBS   := -lbpf -lelf -lz -luring -laio -lblkid -ljson-c -lpthread -lm
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude \
	    -I$(dir $(VMLINUX)) -Wall -Werror -MMD -MP

.DELETE_ON_ERROR:
# Skeletons and BPF objects are made through pattern chains; keep them so
# make does not delete them as intermediates and rebuild every time.
.SECONDARY: $(BPF_OBJS) $(SKELS)
.PHONY: all deps run test unit bench vmtest fuzz clean

all: $(OUT)/iodig

$(OUT)/bpf/%.bpf.o: bpf/%.bpf.c $(VMLINUX)
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

$(OUT)/tests/unit/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $< $(LIB_OBJS) -o $@ $(LDLIBS)

unit: $(UNIT_BINS)

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
	$(Q)$(OUT)/iodig run jobs/default.fio

# The README's second command, and what .ci/run calls.
test: deps
	$(Q)$(MAKE) --no-print-directory all unit
	$(Q)OUT=$(OUT) tests/run.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)OUT=$(OUT) tests/bench/run.sh

clean:
	rm -rf $(OUT)

-include $(USER_OBJS:.o=.d) $(BPF_OBJS:.o=.d) $(UNIT_BINS:=.d)
