// random_generator=lfsr: every width's taps give the maximal period (2^w - 1, checked up to 22 bits); for block counts on and off powers of two each block comes exactly once per cycle, not in order, then no more, and again once per cycle after a reset, each reset the same order; fio 3.33's first blocks for 256 blocks and its randrepeat seed; an all-ones seed refused as fio refuses it.
#include <errno.h>
#include <stdlib.h>

#include "tests/lib/check.h"
#include "workload/fio_rand.h"
#include "workload/lfsr.h"

/* One cycle of @l: each block once, not mostly in order; its first
 * block in *@first. */
static void check_one_cycle(struct lfsr *l, uint64_t *first)
{
	uint64_t blocks = l->blocks;
	unsigned char *seen = calloc(blocks, 1);
	uint64_t b, in_order = 0, prev = 0, n = 0;

	while (lfsr_next(l, &b)) {
		CHECK(b < blocks && !seen[b]);
		if (b >= blocks || seen[b])
			break;
		seen[b] = 1;
		in_order += n && b == prev + 1;
		*first = n ? *first : b;
		prev = b;
		n++;
	}
	CHECK(n == blocks);
	CHECK(blocks < 16 || in_order < blocks / 2);
	CHECK(!lfsr_next(l, &b));
	free(seen);
}

static void check_cycle(uint64_t blocks, uint64_t seed)
{
	uint64_t first = 0, again = 0, third = 0;
	struct lfsr l;

	CHECK(lfsr_init(&l, blocks, seed) == 0);
	check_one_cycle(&l, &first);
	lfsr_reset(&l);
	check_one_cycle(&l, &again);
	lfsr_reset(&l);
	check_one_cycle(&l, &third);
	CHECK(again == third);
}

int main(void)
{
	static const uint64_t counts[] = { 1, 2, 3, 7, 8, 255, 256, 1000, 4097, 65536 };
	/* fio 3.33, rw=randread bs=4k size=1m random_generator=lfsr: its
	 * write_iolog's first offsets, in blocks */
	static const uint64_t fio_first[] = { 235, 205, 163, 196, 114, 41, 154, 93 };
	struct lfsr l;
	uint64_t b;

	for (unsigned int w = 3; w <= 22; w++)
		CHECK(lfsr_period(w, 1ull << 23) == (1ull << w) - 1);
	CHECK(lfsr_width(256) == 9 && lfsr_width(255) == 8 && lfsr_width(1) == 3);
	for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		check_cycle(counts[i], 0);
		check_cycle(counts[i], 0x89 * (i + 1));
	}
	CHECK(lfsr_init(&l, 256, FIO_RANDSEED) == 0);
	for (unsigned int i = 0; i < sizeof(fio_first) / sizeof(fio_first[0]); i++)
		CHECK(lfsr_next(&l, &b) && b == fio_first[i]);
	CHECK(lfsr_init(&l, 256, 0x1ff) == -EINVAL);
	CHECK(lfsr_init(&l, 0, 1) == -EINVAL);
	return CHECK_DONE();
}
