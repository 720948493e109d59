/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where kernel code begins, for sched's stack fingerprints: on x86-64 the
 * kernel image, its modules, BPF programs and trampolines all lie at or
 * above the image's _text, and nothing a stack holds besides code
 * addresses (and small negative numbers) does.
 */
#ifndef IODIG_KERNEL_TEXT_H
#define IODIG_KERNEL_TEXT_H

#include <stdint.h>

/* The lowest kernel code address (_text) from @kallsyms (/proc/kallsyms
 * when NULL): its first code symbol, read from its first lines only.  0
 * when unknown: not x86-64, not listed there, or hidden (kptr_restrict,
 * not root). */
uint64_t kernel_text_start(const char *kallsyms);

#endif /* IODIG_KERNEL_TEXT_H */
