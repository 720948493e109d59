// Mixed jobs' read/write runs: the directions fio 3.33 issued (its write_iolog) for rw=rw and randrw jobs, from the default seed and from randseed=1234.
#include <string.h>

#include "tests/lib/check.h"
#include "workload/rwmix.h"

/* The first strlen(@want) directions of the job numbered @thread with
 * rwmixread=@read_pct, each issued as soon as drawn, as 'R'/'W'. */
static void check_runs(unsigned int thread, unsigned int read_pct, uint64_t randseed,
		       const char *want)
{
	struct job job = { .rwmixread = read_pct };
	char got[256] = { 0 };
	struct rwmix m;
	size_t n = strlen(want);

	rwmix_init(&m, &job, FRAND_BASE(randseed), thread);
	for (size_t i = 0; i < n && i < sizeof(got) - 1; i++) {
		enum ddir d = rwmix_next(&m);

		got[i] = d == DDIR_READ ? 'R' : 'W';
		rwmix_issued(&m, d);
	}
	CHECK_MSG(!strcmp(got, want), "job %u rwmixread=%u seed %llu:\n got %s\nwant %s",
		  thread, read_pct, (unsigned long long)randseed, got, want);
}

/* From fio 3.33's write_iolog of rw=rw bs=4k size=512k (randrw gives the
 * same directions: the offsets have a generator of their own). */
static void test_runs_match_fio(void)
{
	check_runs(1, 70, 0x89, "RRRWRRWRRRWRWRRRRRRRWWRWRRRWWWRRRWRWWRRWRRWRRWRRWWRR"
			     "RRRWRRWRRRWRRRRRRWRRRRWWWRRWRRRWRRWWRWRWRRRWRRRRWRRR"
			     "RRRWRRRRWWRRRRWRRWRRWRWR");
	check_runs(1, 10, 0x89, "WRWWWRWWWRWWWRWWWWWWWWWWWWWWWWWRWWWWWWWWWWWWWWWWWWWW"
			     "WWWWWWWWWWWWWWWWRWRWWWWWWWWWWRWWRWWWRWWWWWWWWWWWWRWW"
			     "WWWWWWRWWWWWRRWWWWWWWWWR");
	/* randrw bs=4k size=256k randseed=1234 */
	check_runs(1, 50, 1234, "RWRRWRWRWRWWRRRRRRWRRRWRWRRWWWWRWRRRRWRWRRWRRRRWWRWR"
			     "RRRRWWRWRRRR");
	/* the second job of a file, randrw bs=4k size=4m: its 15th I/O is
	 * a read because the run of reads begun at the 14th lasts while the
	 * reads are short of half the 10 writes (a draw gives a write) */
	check_runs(2, 50, 0x89, "RWWWWWRWWWWWWRRRWRWWRRRWWWRWWRRWRWRWWWWRRWRW"
				"RRRWRRWRWWWRRRWRWWWR");
}

/* A new loop with randrepeat draws again from the start, the counts of
 * what was issued going on; without it, the draws go on. */
static void test_new_loop(void)
{
	struct job job = { .rwmixread = 70 };
	struct rwmix a, b;

	rwmix_init(&a, &job, FRAND_BASE(0x89), 1);
	rwmix_init(&b, &job, FRAND_BASE(0x89), 1);
	for (int i = 0; i < 10; i++)
		rwmix_issued(&a, rwmix_next(&a));
	rwmix_new_loop(&a, true);
	CHECK(a.run_until == 0 && a.issued[DDIR_READ] + a.issued[DDIR_WRITE] == 10);
	CHECK(!memcmp(&a.state, &b.state, sizeof(a.state)));
	rwmix_new_loop(&a, false);
	CHECK(!memcmp(&a.state, &b.state, sizeof(a.state)));
	rwmix_reset_counts(&a);
	CHECK(a.issued[DDIR_READ] == 0 && a.issued[DDIR_WRITE] == 0);
}

int main(void)
{
	test_runs_match_fio();
	test_new_loop();
	return CHECK_DONE();
}
