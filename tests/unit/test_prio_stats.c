// Latency per priority folds as fio's stat.c: a worker's own priority is entry 0 (prio alone is best effort), I/Os land in their entry (total latency under lat_percentiles), a report entry keeps them only when a member had several or the members' own differ, a member of one priority adds its whole clat under it, the first member with entries gives the order, the lists are capped, and a reset keeps the lists.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/prio_stats.h"
#include "tests/lib/check.h"

#define RT(l) ((uint16_t)(1u << 13 | (l)))
#define BE(l) ((uint16_t)(2u << 13 | (l)))

/* A worker of @job with one read of @clat ns at its own priority. */
static void one_read(struct worker_stats *st, uint64_t clat)
{
	worker_stats_init(st);
	stats_account_io(st, DDIR_READ, 4096, 4096, 0, clat, clat + 100, false);
}

int main(void)
{
	struct job own = { .name = "t", .ioprio_set = true, .ioprio = 4 };
	struct job cls3 = { .name = "u", .ioprio_set = true, .ioprio_class = 3 };
	struct prio_stats *w = calloc(1, sizeof(*w)), *r = calloc(1, sizeof(*r));
	struct worker_stats *st = calloc(1, sizeof(*st));

	CHECK(w && r && st);
	if (!w || !r || !st)
		return CHECK_DONE();
	CHECK(job_ioprio(&own) == BE(4) && job_ioprio(&cls3) == (3u << 13));

	/* a worker of two priorities: its own first, then cmdprio's */
	prio_stats_begin(w, &own, DDIR_READ);
	CHECK(w->nr[DDIR_READ] == 1 && w->e[DDIR_READ][0].ioprio == BE(4));
	CHECK(prio_stats_index(w, DDIR_READ, RT(0)) == 1);
	CHECK(prio_stats_index(w, DDIR_READ, BE(4)) == 0);
	prio_stats_io(w, DDIR_READ, 1, 500, 700);
	prio_stats_io(w, DDIR_READ, 1, 300, 400);
	prio_stats_io(w, DDIR_READ, 0, 900, 950);
	prio_stats_io(w, DDIR_WRITE, 0, 900, 950);   /* no list: nothing */
	CHECK(w->e[DDIR_READ][1].acc.n == 2 && w->e[DDIR_READ][1].acc.max == 500);
	CHECK(prio_stats_shown(w, DDIR_READ) == 2 && prio_stats_shown(w, DDIR_WRITE) == 0);

	/* a report entry: the worker with entries, then one of one priority */
	one_read(st, 1000);
	CHECK(!prio_stats_merge(r, w, st, &own) && r->wanted);
	one_read(st, 2000);
	CHECK(!prio_stats_merge(r, NULL, st, &cls3));
	CHECK(r->nr[DDIR_READ] == 3 && r->e[DDIR_READ][2].ioprio == (3u << 13));
	CHECK(r->e[DDIR_READ][0].acc.n == 1 && r->e[DDIR_READ][2].acc.min == 2000);

	/* members of one and the same priority: fio keeps nothing */
	memset(r, 0, sizeof(*r));
	CHECK(!prio_stats_merge(r, NULL, st, &own) && !prio_stats_merge(r, NULL, st, &own));
	CHECK(!r->wanted);
	CHECK(!prio_stats_merge(r, NULL, st, &cls3) && r->wanted);

	/* the cap, and a reset that keeps the lists */
	for (unsigned int l = 1; l < PRIO_STATS_MAX; l++)
		CHECK(prio_stats_index(w, DDIR_READ, BE(l)) >= 0);
	CHECK(prio_stats_index(w, DDIR_READ, RT(7)) == -ENOSPC);
	prio_stats_reset(w);
	CHECK(w->nr[DDIR_READ] == PRIO_STATS_MAX && prio_stats_shown(w, DDIR_READ) == 0);

	/* lat_percentiles: the total latency */
	memset(w, 0, sizeof(*w));
	own.stat.lat_percentiles = true;
	prio_stats_begin(w, &own, DDIR_WRITE);
	prio_stats_io(w, DDIR_WRITE, 0, 100, 180);
	CHECK(w->e[DDIR_WRITE][0].acc.min == 180);
	free(w);
	free(r);
	free(st);
	return CHECK_DONE();
}
