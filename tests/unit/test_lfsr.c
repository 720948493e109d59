// random_generator=lfsr: every width's taps give the maximal period (2^w - 1, checked up to 22 bits), and for block counts on and off powers of two each block comes exactly once per cycle, not in order, the same order after a reset, then no more.
#include <stdlib.h>

#include "tests/lib/check.h"
#include "workload/lfsr.h"

static void check_cycle(uint64_t blocks, uint64_t seed)
{
	unsigned char *seen = calloc(blocks, 1);
	uint64_t b, first = 0, in_order = 0, prev = 0, n = 0;
	struct lfsr l;

	lfsr_init(&l, blocks, seed);
	while (lfsr_next(&l, &b)) {
		CHECK(b < blocks && !seen[b]);
		if (b >= blocks || seen[b])
			break;
		seen[b] = 1;
		in_order += n && b == prev + 1;
		first = n ? first : b;
		prev = b;
		n++;
	}
	CHECK(n == blocks);
	CHECK(blocks < 16 || in_order < blocks / 2);
	lfsr_reset(&l);
	CHECK(lfsr_next(&l, &b) && b == first);
	free(seen);
}

int main(void)
{
	static const uint64_t counts[] = { 1, 2, 3, 7, 8, 255, 256, 1000, 4097, 65536 };

	for (unsigned int w = 2; w <= 22; w++)
		CHECK(lfsr_period(w, 1ull << 23) == (1ull << w) - 1);
	CHECK(lfsr_width(256) == 9 && lfsr_width(255) == 8);
	for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		check_cycle(counts[i], 0);
		check_cycle(counts[i], 0x89 * (i + 1));
	}
	return CHECK_DONE();
}
