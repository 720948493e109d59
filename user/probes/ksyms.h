/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols from /proc/kallsyms (modules included), for turning the
 * instruction pointers of kernel stacks into function names.  Opaque, in
 * the obj__verb style: ksyms__load(), ksyms__map_addr(), ksyms__free().
 */
#ifndef IODIG_KSYMS_H
#define IODIG_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"

struct ksym {
	uint64_t addr;
	const char *name;
	const char *module;   /* "" for the kernel image, else "ext4" etc. */
};

struct ksyms;

/*
 * Reads /proc/kallsyms.  Only text symbols are kept (types t/T/w/W): a
 * stack holds return addresses, and data symbols mixed in would only steal
 * addresses from the functions around them.  -EPERM when every address
 * reads as zero (kptr_restrict, or not root).
 */
int ksyms__load(struct ksyms **out, struct errbuf *err);

/* Same, from @fd, read from its offset to its end; @what names it in
 * errors. */
int ksyms__load_fd(int fd, const char *what, struct ksyms **out, struct errbuf *err);

/* ksyms__load() of /proc/kallsyms already open as @fd (read from its
 * offset): one open can serve an earlier look at its first lines. */
int ksyms__load_opened(int fd, struct ksyms **out, struct errbuf *err);

/*
 * Same, from @len bytes of kallsyms-formatted text (NUL bytes allowed,
 * no terminator needed).  Malformed lines are skipped and counted; the
 * parser never reads outside @buf.  @err may be NULL.
 */
int ksyms__load_buffer(const char *buf, size_t len, struct ksyms **out,
		       struct errbuf *err);

/* The parsed table @ks as an image written to @fd, for another process to
 * take up with ksyms__load_image() without parsing kallsyms again.  0 or
 * -errno. */
int ksyms__save(const struct ksyms *ks, int fd);

/* Whether @sym stays while the kernel runs with the same modules: the
 * kernel's own and its modules' code, not what kallsyms lists as it comes
 * and goes (BPF programs and trampolines "[bpf]", ftrace's and kprobes'
 * "[__builtin__ftrace]", "[__builtin__kprobes]"). */
bool ksym_is_static(const struct ksym *sym);

/* ksyms__save() of the static symbols only. */
int ksyms__save_static(const struct ksyms *ks, int fd);

/* The table of the image at @offset of @fd (a regular file, mapped
 * whole, kept mapped while the table lives); an image that is not one is
 * refused, never read outside of.  0 or -errno with the reason in @err. */
int ksyms__load_image(int fd, size_t offset, struct ksyms **out, struct errbuf *err);

/* What a partial table asks for an address it cannot answer alone. */
typedef const struct ksym *(*ksyms_more_fn)(void *ctx, uint64_t addr, uint64_t *offset);

/*
 * Makes @ks a partial table, of the static symbols only: ksyms__map_addr()
 * answers from it where no other symbol can lie (between two symbols of
 * the kernel image, or of one module), and returns what @more answers
 * everywhere else.
 */
void ksyms__set_more(struct ksyms *ks, ksyms_more_fn more, void *ctx);

/* Module extents from @len bytes of /proc/modules text ("NAME SIZE REFS
 * DEPS STATE 0xBASE"), replacing any earlier ones; malformed lines are
 * skipped.  ksyms__load() reads /proc/modules itself.  0 or -ENOMEM. */
int ksyms__load_modules_buffer(struct ksyms *ks, const char *buf, size_t len);

/*
 * The symbol containing @addr: the one with the highest address <= @addr,
 * when that can hold it.  When the table knows where code is (_stext and
 * _etext, and every module's base from /proc/modules), an address outside
 * the kernel's text and init text, outside every module and not after a
 * listed BPF program or trampoline is nobody's: the nearest symbol below
 * it would be a wrong name (the last function of whatever precedes a
 * JIT page).  It gets the symbol "[bpf: unlisted]" in the module/BPF area
 * (JIT code loaded after kallsyms was read), else NULL, as below the
 * first symbol.  @offset (may be NULL) gets addr - sym->addr, 0 for those.
 */
const struct ksym *ksyms__map_addr(const struct ksyms *ks, uint64_t addr,
				   uint64_t *offset);

/* First symbol named @name, NULL when there is none. */
const struct ksym *ksyms__get_symbol(const struct ksyms *ks, const char *name);

/* The lowest address of the kernel image's code (its first code symbol,
 * _text on x86-64); 0 when the table lists none. */
uint64_t ksyms__text_start(const struct ksyms *ks);

size_t ksyms__count(const struct ksyms *ks);
/* Lines that were not "ADDR TYPE NAME [MODULE]" and were skipped. */
size_t ksyms__malformed(const struct ksyms *ks);

void ksyms__free(struct ksyms *ks);

#endif /* IODIG_KSYMS_H */
