/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear latency histogram shared by the BPF programs and user space.
 *
 * Values below 2^(SUB_BITS+1) get a slot each; above that every power of
 * two is split into 2^SUB_BITS equal slots.  With SUB_BITS = 6 the midpoint
 * of a slot is within 1/128 (0.78%) of any value in it, the same precision
 * fio's clat percentiles have.  The slot math is straight-line rather than a loop
 * so the BPF verifier accepts it and user-space unit tests can check it.
 */
#ifndef IODIG_HIST_H
#define IODIG_HIST_H

#ifdef __bpf__
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
typedef __u64 iodig_u64;
typedef __u32 iodig_u32;
#else
#include <stdint.h>
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
typedef uint64_t iodig_u64;
typedef uint32_t iodig_u32;
#endif

#define IODIG_HIST_SUB_BITS 6
#define IODIG_HIST_SUB (1u << IODIG_HIST_SUB_BITS)
/* 36 groups cover values up to 2^41 ns (about 36 minutes). */
#define IODIG_HIST_GROUPS 36
#define IODIG_HIST_SLOTS (IODIG_HIST_GROUPS * IODIG_HIST_SUB)

/* One histogram as one value of a per-CPU array: such an array allocates
 * each entry on its own, so an entry per slot made thousands of
 * allocations to create, read and free the map (docs/overhead.md). */
struct iodig_hist_row {
	iodig_u64 slot[IODIG_HIST_SLOTS];
};

/* Hides a value from the compiler, so that it cannot turn the arithmetic
 * below back into a compare and branch (BPF has no set-on-condition). */
#ifdef __bpf__
#define IODIG_OPAQUE(x) asm volatile("" : "+r"(x))
#else
#define IODIG_OPAQUE(x) ((void)0)
#endif

/* 1 when @x, below 2^63, is not 0: its negation then has the top bit. */
#define IODIG_NONZERO(x) ((0 - (x)) >> 63)

/*
 * Index of the most significant set bit; 0 for v == 0.  A binary search
 * without branches: each branch would double the paths the verifier walks
 * through every histogram update of a program (the block issue program
 * with --detail has four), and its load time with them.
 */
static __always_inline iodig_u32 iodig_msb64(iodig_u64 v)
{
	iodig_u64 r = 0, x, s;

	x = v >> 32; IODIG_OPAQUE(x); s = IODIG_NONZERO(x) << 5; v >>= s; r += s;
	x = v >> 16; IODIG_OPAQUE(x); s = IODIG_NONZERO(x) << 4; v >>= s; r += s;
	x = v >> 8;  IODIG_OPAQUE(x); s = IODIG_NONZERO(x) << 3; v >>= s; r += s;
	x = v >> 4;  IODIG_OPAQUE(x); s = IODIG_NONZERO(x) << 2; v >>= s; r += s;
	x = v >> 2;  IODIG_OPAQUE(x); s = IODIG_NONZERO(x) << 1; v >>= s; r += s;
	r += v >> 1;
	return (iodig_u32)r;
}

static __always_inline iodig_u32 iodig_hist_slot(iodig_u64 v)
{
	iodig_u32 msb, shift, slot;

	if (v < (2u << IODIG_HIST_SUB_BITS))
		return (iodig_u32)v;
	msb = iodig_msb64(v);
	shift = msb - IODIG_HIST_SUB_BITS;
	slot = ((shift + 1) << IODIG_HIST_SUB_BITS) +
	       (iodig_u32)((v >> shift) & (IODIG_HIST_SUB - 1));
	if (slot >= IODIG_HIST_SLOTS)
		slot = IODIG_HIST_SLOTS - 1;
	return slot;
}

/* Smallest value that lands in @slot. */
static __always_inline iodig_u64 iodig_hist_slot_low(iodig_u32 slot)
{
	iodig_u32 shift;

	if (slot < (2u << IODIG_HIST_SUB_BITS))
		return slot;
	shift = (slot >> IODIG_HIST_SUB_BITS) - 1;
	return (iodig_u64)((slot & (IODIG_HIST_SUB - 1)) + IODIG_HIST_SUB) << shift;
}

/* Width of @slot in value units (1 for the exact low slots). */
static __always_inline iodig_u64 iodig_hist_slot_width(iodig_u32 slot)
{
	if (slot < (2u << IODIG_HIST_SUB_BITS))
		return 1;
	return (iodig_u64)1 << ((slot >> IODIG_HIST_SUB_BITS) - 1);
}

/* Value reported for @slot: the middle of its range, rounded up as fio's
 * plat_idx_to_val does, so percentiles print the same numbers as fio. */
static __always_inline iodig_u64 iodig_hist_slot_mid(iodig_u32 slot)
{
	return iodig_hist_slot_low(slot) + iodig_hist_slot_width(slot) / 2;
}

#endif /* IODIG_HIST_H */
