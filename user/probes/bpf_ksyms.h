/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kallsyms symbols of BPF programs' JIT code, from the programs' own
 * info (BPF_OBJ_GET_INFO_BY_FD) instead of /proc/kallsyms, whose listing
 * costs the kernel tens of ms: a program's main function is listed as
 * "bpf_prog_<tag>_<name>" in module "bpf" (bpf_get_prog_name(),
 * kernel/bpf/core.c), <name> its BTF function name, else its short name.
 */
#ifndef IODIG_BPF_KSYMS_H
#define IODIG_BPF_KSYMS_H

#include <stdint.h>

#include "probes/ksyms.h"

struct bpf_ksyms;

/* The JIT code of every loaded program.  -ENOENT when the kernel lists no
 * program in kallsyms (net.core.bpf_jit_kallsyms off, or bpf_jit_harden
 * on), -errno when they cannot be listed. */
int bpf_ksyms__load(struct bpf_ksyms **out);

/*
 * The symbol kallsyms has for @addr when it lies in a program's code: 1
 * with *@sym (owned by @bk) and *@offset (may be NULL) set; 0 when it is
 * in no program's code; -1 when it is in code iodig cannot name as
 * kallsyms does (a subprogram, whose tag the info does not give, or a
 * program gone since).
 */
int bpf_ksyms__map_addr(struct bpf_ksyms *bk, uint64_t addr, const struct ksym **sym,
			uint64_t *offset);

/* Accepts NULL. */
void bpf_ksyms__free(struct bpf_ksyms *bk);

#endif /* IODIG_BPF_KSYMS_H */
