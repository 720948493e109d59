// bssplit parses with fio 3.33's rules: sizes without a percentage share what is left, over 100 counts as 100, sorted by percentage, per direction, errors named.
#include <string.h>

#include "tests/lib/check.h"
#include "job/bssplit.h"

static int parse(const char *v, struct bssplit s[DDIR_COUNT], char *why)
{
	memset(s, 0, sizeof(struct bssplit) * DDIR_COUNT);
	return bssplit_parse(v, 1024, s, why, 160);
}

static void test_shares_and_order(void)
{
	struct bssplit s[DDIR_COUNT];
	char why[160];

	CHECK(parse("4k/10:64k/50:32k/", s, why) == 0);
	CHECK(s[DDIR_READ].nr == 3);
	/* 32k gets 100 - 60 = 40; ascending percentage order */
	CHECK(s[DDIR_READ].e[0].bs == 4096 && s[DDIR_READ].e[0].perc == 10);
	CHECK(s[DDIR_READ].e[1].bs == 32768 && s[DDIR_READ].e[1].perc == 40);
	CHECK(s[DDIR_READ].e[2].bs == 65536 && s[DDIR_READ].e[2].perc == 50);
	CHECK(memcmp(&s[DDIR_READ], &s[DDIR_WRITE], sizeof(s[0])) == 0);

	CHECK(parse("4k/:64k/", s, why) == 0);
	CHECK(s[DDIR_READ].e[0].perc == 50 && s[DDIR_READ].e[1].perc == 50);
	/* fio gives a lone size 100 - 100 = 0 percent; one size needs none */
	CHECK(parse("4k", s, why) == 0);
	CHECK(s[DDIR_READ].nr == 1 && s[DDIR_READ].e[0].perc == 0);
	CHECK(parse("8k/150", s, why) == 0);
	CHECK(s[DDIR_READ].e[0].perc == 100);
}

static void test_directions(void)
{
	struct bssplit s[DDIR_COUNT];
	uint32_t lo, hi;
	char why[160];

	CHECK(parse("4k,8k/50:16k/50", s, why) == 0);
	CHECK(s[DDIR_READ].nr == 1 && s[DDIR_READ].e[0].bs == 4096);
	CHECK(s[DDIR_WRITE].nr == 2);
	bssplit_range(&s[DDIR_WRITE], &lo, &hi);
	CHECK(lo == 8192 && hi == 16384);
	CHECK(parse("4k,8k,16k", s, why) == 0); /* trim part checked, dropped */
	CHECK(s[DDIR_WRITE].e[0].bs == 8192);
}

static void test_errors(void)
{
	struct bssplit s[DDIR_COUNT];
	char why[160];

	/* fio: only with more than one size missing its percentage */
	CHECK(parse("4k/60:64k/60:8k/:16k/", s, why) < 0);
	CHECK(strstr(why, "more than 100%") != NULL);
	CHECK(parse("4k/60:64k/60:8k/", s, why) == 0);
	CHECK(parse("4q/10", s, why) < 0);
	CHECK(strstr(why, "'4q' is not a block size") != NULL);
	CHECK(parse("0/10", s, why) < 0);
	CHECK(parse("4k,8k,16k,32k", s, why) < 0);
	CHECK(strstr(why, "more than three") != NULL);
	CHECK(parse(",8k", s, why) < 0);
}

int main(void)
{
	test_shares_and_order();
	test_directions();
	test_errors();
	return CHECK_DONE();
}
