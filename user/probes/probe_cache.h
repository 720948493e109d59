/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every family reads from the kernel alike and that stays the same
 * for a whole run: the kernel's BTF and its symbols.  Parsing either is
 * the dearest part of opening the probes, so a run parses each once and
 * every family, group and repeat shares it.  Opaque; the getters load on
 * first use, and a failed load is remembered (not retried) with its reason.
 */
#ifndef IODIG_PROBE_CACHE_H
#define IODIG_PROBE_CACHE_H

#include <stdint.h>

#include "base/errbuf.h"

struct btf;
struct ksyms;
struct probe_cache;

int probe_cache_new(struct probe_cache **out);
/* Accepts NULL. */
void probe_cache_free(struct probe_cache *c);

/* The kernel's BTF: raw or ELF BTF at @path, NULL = the running kernel's
 * (/sys/kernel/btf/vmlinux).  NULL with errno set when it cannot be read.
 * The cache keeps it; the first @path asked for is the one kept. */
const struct btf *probe_cache_btf(struct probe_cache *c, const char *path);

/*
 * Starts reading /proc/kallsyms in a child process, so that the kernel's
 * slow listing of it runs beside the probes' loading and not after the
 * workload, when the families symbolize their stacks.  A child and not a
 * thread: the probes count the events of iodig's own process (threaded
 * jobs), and must not see this.  Call it before any probe is attached,
 * so that no event count is inherited by the child.  Without effect when
 * the symbols are read already, and no child at all when the boot's
 * cache file (probes/ksyms_cache.h) holds them; the child writes that
 * file.  A failed prefetch leaves the reading to probe_cache_ksyms().
 */
void probe_cache_prefetch_ksyms(struct probe_cache *c);

/* /proc/kallsyms (probes/ksyms.h), owned by the cache: from the boot's
 * cache file a partial table that asks for BPF programs' names from their
 * info and for the rest from all of kallsyms, as of this call (programs
 * come and go between groups and repeats).  -errno with the reason in
 * @err when it cannot be read. */
int probe_cache_ksyms(struct probe_cache *c, const struct ksyms **out, struct errbuf *err);

/*
 * The lowest address of the kernel image's code (ksyms__text_start()),
 * without waiting for all of kallsyms: from the symbols when they are
 * read or in the boot's cache file, else from the prefetch child, which
 * tells it from kallsyms' first lines before it reads the rest.  0 when
 * none of them knows it (no prefetch: `iodig probe`).
 */
uint64_t probe_cache_text_start(struct probe_cache *c);

#endif /* IODIG_PROBE_CACHE_H */
