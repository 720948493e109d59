/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where kernel code begins, for sched's stack fingerprints, known before
 * the whole of /proc/kallsyms is read: on x86-64 the kernel image, its
 * modules, BPF programs and trampolines all lie at or above the image's
 * _text, and nothing a stack holds besides code addresses (and small
 * negative numbers) does.  The kernel takes tens of ms of CPU to list all
 * of kallsyms, and a run's probes load meanwhile; its first lines are
 * enough for this.
 */
#ifndef IODIG_KERNEL_TEXT_H
#define IODIG_KERNEL_TEXT_H

#include <stdint.h>

/*
 * /proc/kallsyms opened and the address of its first code symbol (the
 * lowest address of the kernel image's code, as ksyms__text_start() gives
 * it) read from its first lines into *@text: 0 when not among them or
 * hidden (kptr_restrict, not root).  The file is returned rewound, for
 * ksyms__load_opened(): one open serves both.  -errno when it cannot be
 * opened or rewound.
 */
int kernel_text_open(uint64_t *text);

#endif /* IODIG_KERNEL_TEXT_H */
