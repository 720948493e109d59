// SPDX-License-Identifier: GPL-2.0
/*
 * The tap sets of maximal-length registers per width, as fio 3.33 lists
 * them (from the published tables; XAPP052 for most, another for 32
 * bits), used as fio uses them: a Galois register in XNOR form, whose
 * forbidden state is all ones, so that the offsets are fio's own.
 */
#include <errno.h>

#include "workload/lfsr.h"

#define MIN_WIDTH 3
#define MAX_WIDTH 63

/* taps[width]: the register bits (1 = lowest) of the feedback,
 * 0-terminated; the first is the width */
static const unsigned char taps_table[MAX_WIDTH + 1][7] = {
	[3] = { 3, 2 }, [4] = { 4, 3 }, [5] = { 5, 3 },
	[6] = { 6, 5 }, [7] = { 7, 6 }, [8] = { 8, 6, 5, 4 }, [9] = { 9, 5 },
	[10] = { 10, 7 }, [11] = { 11, 9 }, [12] = { 12, 6, 4, 1 },
	[13] = { 13, 4, 3, 1 }, [14] = { 14, 5, 3, 1 }, [15] = { 15, 14 },
	[16] = { 16, 15, 13, 4 }, [17] = { 17, 14 }, [18] = { 18, 11 },
	[19] = { 19, 6, 2, 1 }, [20] = { 20, 17 }, [21] = { 21, 19 },
	[22] = { 22, 21 }, [23] = { 23, 18 }, [24] = { 24, 23, 22, 17 },
	[25] = { 25, 22 }, [26] = { 26, 6, 2, 1 }, [27] = { 27, 5, 2, 1 },
	[28] = { 28, 25 }, [29] = { 29, 27 }, [30] = { 30, 6, 4, 1 },
	[31] = { 31, 28 }, [32] = { 32, 31, 29, 1 }, [33] = { 33, 20 },
	[34] = { 34, 27, 2, 1 }, [35] = { 35, 33 }, [36] = { 36, 25 },
	[37] = { 37, 5, 4, 3, 2, 1 }, [38] = { 38, 6, 5, 1 },
	[39] = { 39, 35 }, [40] = { 40, 38, 21, 19 }, [41] = { 41, 38 },
	[42] = { 42, 41, 20, 19 }, [43] = { 43, 42, 38, 37 },
	[44] = { 44, 43, 18, 17 }, [45] = { 45, 44, 42, 41 },
	[46] = { 46, 45, 26, 25 }, [47] = { 47, 42 },
	[48] = { 48, 47, 21, 20 }, [49] = { 49, 40 },
	[50] = { 50, 49, 24, 23 }, [51] = { 51, 50, 36, 35 },
	[52] = { 52, 49 }, [53] = { 53, 52, 38, 37 },
	[54] = { 54, 53, 18, 17 }, [55] = { 55, 31 },
	[56] = { 56, 55, 35, 34 }, [57] = { 57, 50 }, [58] = { 58, 39 },
	[59] = { 59, 58, 38, 37 }, [60] = { 60, 59 },
	[61] = { 61, 60, 46, 45 }, [62] = { 62, 61, 6, 5 },
	[63] = { 63, 62 },
};

static uint64_t taps_of(unsigned int width)
{
	uint64_t t = 0;

	for (const unsigned char *p = taps_table[width]; *p; p++)
		t |= 1ull << (*p - 1);
	return t;
}

/* The fewest bits whose 2^w states exceed @blocks (fio's find_lfsr: one
 * state, all ones, is never reached); 0 when none does. */
unsigned int lfsr_width(uint64_t blocks)
{
	for (unsigned int w = MIN_WIDTH; w <= MAX_WIDTH; w++)
		if ((1ull << w) > blocks)
			return w;
	return 0;
}

/* One shift right: the top bit comes in set, and the taps flip when the
 * bit shifted out was 0 (XNOR feedback). */
static uint64_t step(uint64_t state, uint64_t top, uint64_t taps)
{
	uint64_t next = (state >> 1) | top;

	return state & 1 ? next : next ^ taps;
}

int lfsr_init(struct lfsr *l, uint64_t blocks, uint64_t seed)
{
	unsigned int w = lfsr_width(blocks);

	*l = (struct lfsr){ .blocks = blocks };
	if (!blocks || !w)
		return -EINVAL;
	l->mask = (1ull << w) - 1;
	l->top = 1ull << (w - 1);
	l->taps = taps_of(w);
	l->start = seed & l->mask;
	if (l->start == l->mask)
		return -EINVAL;
	/* fio's prepare_spin counts its first cycle one longer, so that its
	 * first draw after the init steps twice; later cycles, from a reset,
	 * step once */
	l->first_twice = true;
	lfsr_reset(l);
	return 0;
}

void lfsr_reset(struct lfsr *l)
{
	l->state = l->start;
	l->left = l->blocks;
}

bool lfsr_next(struct lfsr *l, uint64_t *block)
{
	if (!l->left)
		return false;
	if (l->first_twice) {
		l->state = step(l->state, l->top, l->taps);
		l->first_twice = false;
	}
	/* states past the last block are stepped over */
	do
		l->state = step(l->state, l->top, l->taps);
	while (l->state >= l->blocks);
	*block = l->state;
	l->left--;
	return true;
}

uint64_t lfsr_period(unsigned int width, uint64_t limit)
{
	uint64_t top = 1ull << (width - 1), taps = taps_of(width), s = 0, n = 0;

	do {
		s = step(s, top, taps);
		n++;
	} while (s != 0 && n < limit);
	return n;
}
