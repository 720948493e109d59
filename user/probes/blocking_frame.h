/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which frame of a context switch's kernel stack names why the thread left
 * the CPU, and whether it left inside the tracing's own BPF code.
 */
#ifndef IODIG_PROBES_BLOCKING_FRAME_H
#define IODIG_PROBES_BLOCKING_FRAME_H

#include <stdbool.h>
#include <stddef.h>

/* The name every switch inside BPF programs is counted under. */
#define BLOCKING_IN_BPF "[tracing: in BPF programs]"

/*
 * @frames: symbol names, innermost first, "name [module]" for modules and
 * BPF JIT code ("[bpf]").  Returns the index of the blocking frame (the
 * first that is not the scheduler's or the tracing's plumbing; the
 * outermost when all are), @nr for an empty stack; *@in_bpf tells whether
 * the thread was inside BPF programs there.
 */
size_t blocking_frame_pick(const char *const *frames, size_t nr, bool *in_bpf);

#endif
