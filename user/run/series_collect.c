// SPDX-License-Identifier: GPL-2.0
/*
 * The supervisor's side of the interval series.  Workers write their
 * stats without locks; the supervisor reads counters that only grow, so
 * each sum it takes is between two of a worker's I/Os and the difference
 * of two sums is never negative.  The last interval of a job is taken
 * from the finished workers (their done flag read before their counters),
 * hence the exact totals, and ends at their end of measurement.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/series_collect.h"

int series_collect_begin(struct series_collector *c, const struct job *jobs, size_t nr,
			 unsigned int interval_ms, struct errbuf *err)
{
	series_collect_free(c);
	c->interval_ns = (uint64_t)(interval_ms ? interval_ms : SERIES_DEFAULT_INTERVAL_MS) * 1000000ull;
	c->jobs = calloc(nr ? nr : 1, sizeof(*c->jobs));
	if (!c->jobs)
		return err_set(err, ENOMEM, "out of memory for the interval series of %zu jobs", nr);
	c->nr_jobs = nr;
	for (size_t j = 0; j < nr; j++) {
		c->jobs[j].runtime_ns = jobs[j].runtime_ns;
		for (int d = 0; d < DDIR_COUNT; d++) {
			struct series *s;

			if (!jobs[j].stats || !rw_has_dir(jobs[j].rw, (enum ddir)d))
				continue;
			s = series_set_add(&c->set);
			if (!s)
				return err_set(err, ENOMEM, "out of memory for the interval series");
			snprintf(s->job, sizeof(s->job), "%s", jobs[j].name);
			s->ddir = d;
			s->interval_ns = c->interval_ns;
			s->ramp_ns = jobs[j].ramp_time_ns;
		}
	}
	/* the set is complete: its entries no longer move */
	for (size_t i = 0, j = 0; j < nr; j++)
		for (int d = 0; d < DDIR_COUNT; d++)
			if (i < c->set.n && !strcmp(c->set.s[i].job, jobs[j].name) &&
			    c->set.s[i].ddir == d)
				c->jobs[j].dir[d] = &c->set.s[i++];
	return 0;
}

/*
 * Job @job's start of measurement (its workers' earliest) and, once every
 * worker's measurement is over, its end (the latest; else 0).  A worker's
 * end_ns is written after its last I/O was counted, and read here before
 * any counter, so that the sums taken after it are final.
 */
static uint64_t job_span(const struct worker *w, unsigned int nr, unsigned int job,
			 uint64_t *start)
{
	uint64_t end = 0;
	bool running = false;

	*start = 0;
	for (unsigned int i = 0; i < nr; i++) {
		const struct worker_stats *st = w[i].stats;
		uint64_t e = __atomic_load_n(&st->end_ns, __ATOMIC_ACQUIRE);

		if (w[i].job_index != job)
			continue;
		/* a worker stopped before it measured has no end_ns */
		running |= !e && !__atomic_load_n(&st->done, __ATOMIC_ACQUIRE);
		if (e > end)
			end = e;
		if (st->start_ns && (!*start || st->start_ns < *start))
			*start = st->start_ns;
	}
	return running ? 0 : end;
}

/* The sums of job @job's workers in direction @d into c->cur. */
static void sum_job(struct series_collector *c, const struct worker *w, unsigned int nr,
		    unsigned int job, int d)
{
	struct series_sums *cur = &c->cur;

	memset(cur, 0, sizeof(*cur));
	for (unsigned int i = 0; i < nr; i++) {
		const struct ddir_stats *ds = &w[i].stats->dir[d];

		if (w[i].job_index != job)
			continue;
		cur->ios += ds->ios;
		cur->bytes += ds->bytes;
		cur->lat_ns += ds->lat.mean * (double)ds->lat.n;
		cur->lat_n += ds->lat.n;
		hist_merge(&cur->clat, &ds->clat_h);
	}
}

/* The interval from @j->last_ns to @end in direction @d: c->cur less
 * the sums at the last one's end. */
static int close_interval(struct series_collector *c, struct series_job *j, int d, uint64_t end)
{
	struct series_sums *prev = &j->prev[d], *cur = &c->cur;
	struct series_point p = {
		.end_ns = end - j->origin_ns,
		.dur_ns = end - j->last_ns,
		.ios = cur->ios - prev->ios,
		.bytes = cur->bytes - prev->bytes,
	};

	c->diff.total = 0;
	for (unsigned int i = 0; i < IODIG_HIST_SLOTS; i++) {
		c->diff.slot[i] = cur->clat.slot[i] - prev->clat.slot[i];
		c->diff.total += c->diff.slot[i];
	}
	p.clat_p50_ns = hist_percentile(&c->diff, 50.0);
	p.clat_p99_ns = hist_percentile(&c->diff, 99.0);
	if (cur->lat_n > prev->lat_n)
		p.lat_mean_ns = (cur->lat_ns - prev->lat_ns) / (double)(cur->lat_n - prev->lat_n);
	*prev = *cur;
	return series_append(j->dir[d], &p);
}

/* Whether @j's interval has ended by @now.  Not when the job's runtime
 * ends within a tenth of an interval: its last interval then runs to its
 * end rather than leaving a sliver. */
static bool interval_over(const struct series_collector *c, const struct series_job *j,
			  uint64_t now)
{
	if (now < j->next_ns)
		return false;
	return !j->runtime_ns || now + c->interval_ns / 10 < j->origin_ns + j->runtime_ns;
}

/* Job @job's intervals that end by @now (all of them when @final).  The
 * job's state is taken once, so that its directions close alike. */
static int tick_job(struct series_collector *c, const struct worker *w, unsigned int nr,
		    unsigned int job, uint64_t now, bool final)
{
	struct series_job *j = &c->jobs[job];
	uint64_t end = now, start, done_at;
	int ret = 0;

	if (j->closed)
		return 0;
	done_at = job_span(w, nr, job, &start);
	if (!j->origin_ns && start) {
		j->origin_ns = j->last_ns = start;
		j->next_ns = start + c->interval_ns;
	}
	if (!j->origin_ns || (!final && !done_at && !interval_over(c, j, now)))
		return 0;
	/* a finished job's last interval ends with its measurement, also
	 * when that was after @now was taken */
	if (done_at)
		end = done_at;
	for (int d = 0; d < DDIR_COUNT && !ret; d++) {
		if (!j->dir[d])
			continue;
		sum_job(c, w, nr, job, d);
		if (end > j->last_ns)
			ret = close_interval(c, j, d, end);
	}
	if (ret)
		return ret;
	if (end > j->last_ns)
		j->last_ns = end;
	j->next_ns = j->origin_ns + ((j->last_ns - j->origin_ns) / c->interval_ns + 1) * c->interval_ns;
	if (final || done_at) {
		j->closed = true;
		j->next_ns = 0;
	}
	return 0;
}

int series_collect_tick(struct series_collector *c, const struct worker *w, unsigned int nr,
			uint64_t now, bool final)
{
	int ret = 0;

	for (unsigned int i = 0; i < nr && !ret && c->jobs; i++)
		/* each job once: at its first worker */
		if (!i || w[i].job_index != w[i - 1].job_index)
			ret = tick_job(c, w, nr, w[i].job_index, now, final);
	return ret;
}

/* A job not started yet is polled at a tenth of the interval, so that its
 * first interval ends close to its grid. */
uint64_t series_collect_due(const struct series_collector *c, const struct worker *w,
			    unsigned int nr, uint64_t now)
{
	uint64_t due = 0;

	for (unsigned int i = 0; i < nr && c->jobs; i++) {
		const struct series_job *j = &c->jobs[w[i].job_index];
		uint64_t next = j->origin_ns ? j->next_ns : now + c->interval_ns / 10;

		if (!j->closed && next && (!due || next < due))
			due = next;
	}
	return due;
}

void series_collect_free(struct series_collector *c)
{
	free(c->jobs);
	c->jobs = NULL;
	c->nr_jobs = 0;
	series_set_free(&c->set);
}
