// SPDX-License-Identifier: GPL-2.0
/* A Fibonacci LFSR per width, from the published table of maximal-length
 * tap sets (Xilinx XAPP052), each tap set a primitive polynomial. */
#include "workload/lfsr.h"

/* taps[width]: the register bits (1 = lowest) fed back, 0-terminated */
static const unsigned char taps_table[65][7] = {
	[2] = { 2, 1 }, [3] = { 3, 2 }, [4] = { 4, 3 }, [5] = { 5, 3 },
	[6] = { 6, 5 }, [7] = { 7, 6 }, [8] = { 8, 6, 5, 4 }, [9] = { 9, 5 },
	[10] = { 10, 7 }, [11] = { 11, 9 }, [12] = { 12, 6, 4, 1 },
	[13] = { 13, 4, 3, 1 }, [14] = { 14, 5, 3, 1 }, [15] = { 15, 14 },
	[16] = { 16, 15, 13, 4 }, [17] = { 17, 14 }, [18] = { 18, 11 },
	[19] = { 19, 6, 2, 1 }, [20] = { 20, 17 }, [21] = { 21, 19 },
	[22] = { 22, 21 }, [23] = { 23, 18 }, [24] = { 24, 23, 22, 17 },
	[25] = { 25, 22 }, [26] = { 26, 6, 2, 1 }, [27] = { 27, 5, 2, 1 },
	[28] = { 28, 25 }, [29] = { 29, 27 }, [30] = { 30, 6, 4, 1 },
	[31] = { 31, 28 }, [32] = { 32, 22, 2, 1 }, [33] = { 33, 20 },
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
	[63] = { 63, 62 }, [64] = { 64, 63, 61, 60 },
};

static uint64_t taps_of(unsigned int width)
{
	uint64_t t = 0;

	for (const unsigned char *p = taps_table[width]; *p; p++)
		t |= 1ull << (*p - 1);
	return t;
}

static uint64_t width_mask(unsigned int width)
{
	return width >= 64 ? UINT64_MAX : (1ull << width) - 1;
}

/* The fewest bits (at least 2) whose nonzero states number @blocks. */
unsigned int lfsr_width(uint64_t blocks)
{
	unsigned int w = 2;

	while (w < 64 && width_mask(w) < blocks)
		w++;
	return w;
}

static uint64_t step(uint64_t state, uint64_t taps, uint64_t mask)
{
	uint64_t bit = (uint64_t)__builtin_parityll(state & taps);

	return ((state << 1) | bit) & mask;
}

void lfsr_init(struct lfsr *l, uint64_t blocks, uint64_t seed)
{
	unsigned int w = lfsr_width(blocks);

	l->blocks = blocks;
	l->mask = width_mask(w);
	l->taps = taps_of(w);
	l->start = seed % l->mask + 1;
	lfsr_reset(l);
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
	/* states 1 .. mask stand for blocks 0 .. mask - 1; those past the
	 * last block are stepped over */
	do {
		*block = l->state - 1;
		l->state = step(l->state, l->taps, l->mask);
	} while (*block >= l->blocks);
	l->left--;
	return true;
}

uint64_t lfsr_period(unsigned int width, uint64_t limit)
{
	uint64_t taps = taps_of(width), mask = width_mask(width), s = 1, n = 0;

	do {
		s = step(s, taps, mask);
		n++;
	} while (s != 1 && n < limit);
	return n;
}
