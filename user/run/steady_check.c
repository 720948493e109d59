// SPDX-License-Identifier: GPL-2.0
/*
 * fio's steadystate_check, run by the supervisor (run/steady_check.h).
 * Workers write their counters without locks; the supervisor reads
 * counters that only grow, so each difference is between two of a
 * worker's I/Os.  A worker's counters start at its ramp_time's end (its
 * start_ns), where fio resets them too, so its first sample counts from
 * there; ss_ramp is measured from there as well.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/steady_check.h"

/* fio keeps the window in the group's last job under group_reporting. */
static bool holds_window(const struct worker *w, unsigned int nr, unsigned int i)
{
	const struct job *job = w[i].job;

	if (!job->steady.dur_ns)
		return false;
	return !job->group_reporting || i + 1 == nr || w[i + 1].job->group_id != job->group_id;
}

int steady_check_begin(struct steady_check *c, const struct worker *w, unsigned int nr,
		       struct errbuf *err)
{
	steady_check_free(c);
	c->state = calloc(nr ? nr : 1, sizeof(*c->state));
	c->member = calloc(nr ? nr : 1, sizeof(*c->member));
	c->next_ns = calloc(nr ? nr : 1, sizeof(*c->next_ns));
	if (!c->state || !c->member || !c->next_ns)
		goto oom;
	c->nr = nr;
	for (unsigned int i = 0; i < nr; i++)
		if (holds_window(w, nr, i) && steady_init(&c->state[i], &w[i].job->steady))
			goto oom;
	return 0;
oom:
	steady_check_free(c);
	return err_set(err, ENOMEM, "out of memory for the steady-state windows of %u workers", nr);
}

/* Worker @m counts in the window of worker @h. */
static bool is_member(const struct worker *h, const struct worker *m)
{
	return h == m || (h->job->group_reporting && m->job->group_id == h->job->group_id);
}

/* The first sample is one interval after the window's first worker
 * began measuring; 0 while none has. */
static uint64_t first_due(const struct worker *w, unsigned int nr, const struct worker *h)
{
	uint64_t origin = 0;

	for (unsigned int i = 0; i < nr; i++)
		if (is_member(h, &w[i]) && w[i].stats->start_ns &&
		    (!origin || w[i].stats->start_ns < origin))
			origin = w[i].stats->start_ns;
	return origin ? origin + h->job->steady.interval_ns : 0;
}

/* A member's counters now, both directions summed. */
static struct steady_member member_now(const struct worker_stats *st, uint64_t now)
{
	struct steady_member m = { .prev_ns = now };

	for (int d = 0; d < DDIR_COUNT; d++) {
		m.prev_ios += st->dir[d].ios;
		m.prev_bytes += st->dir[d].bytes;
		m.prev_clat_ns += st->dir[d].clat.mean * (double)st->dir[d].clat.n;
		m.prev_clat_n += st->dir[d].clat.n;
	}
	return m;
}

/* What the group adds up over an interval (fio's group_iops/bw/lat). */
struct group_sums {
	double iops, bw, clat_ns;
	uint64_t clat_n;
	unsigned int over;
};

static void add_member(struct group_sums *g, const struct steady_member *was,
		       const struct steady_member *is)
{
	double dt = (double)(is->prev_ns - was->prev_ns);

	g->iops += (double)(is->prev_ios - was->prev_ios) * 1e9 / dt;
	g->bw += (double)(is->prev_bytes - was->prev_bytes) * 1e9 / dt;
	g->clat_ns += is->prev_clat_ns - was->prev_clat_ns;
	g->clat_n += is->prev_clat_n - was->prev_clat_n;
	g->over++;
}

/* One sample of the window of @h: the rates of its running members that
 * are past ss_ramp plus one interval, summed, and their mean clat. */
static void take_sample(struct steady_check *c, const struct worker *w, unsigned int nr,
			const struct worker *h, uint64_t now)
{
	const struct steady_opts *o = &h->job->steady;
	struct group_sums g = { 0 };

	for (unsigned int i = 0; i < nr; i++) {
		struct steady_member *m = &c->member[w[i].index], is;
		const struct worker_stats *st = w[i].stats;

		if (!is_member(h, &w[i]) || !st->start_ns || st->done || now <= st->start_ns)
			continue;
		if (!m->prev_ns)
			m->prev_ns = st->start_ns;
		is = member_now(st, now);
		if ((!o->ramp_ns || now - st->start_ns >= o->ramp_ns + o->interval_ns) &&
		    now > m->prev_ns)
			add_member(&g, m, &is);
		*m = is;
	}
	if (!g.over || !steady_add(&c->state[h->index], (uint64_t)g.iops, (uint64_t)g.bw,
				   g.clat_n ? (uint64_t)(g.clat_ns / (double)g.clat_n) : 0))
		return;
	for (unsigned int i = 0; i < nr; i++)
		if (is_member(h, &w[i]))
			w[i].stats->stop = 1;
}

/* Whether the window of worker @i is still watched. */
static bool watched(const struct steady_check *c, const struct worker *w, unsigned int i)
{
	const struct steady_state *s = w[i].index < c->nr ? &c->state[w[i].index] : NULL;

	return s && s->n && !s->attained && !w[i].stats->done;
}

void steady_check_tick(struct steady_check *c, const struct worker *w, unsigned int nr,
		       uint64_t now)
{
	for (unsigned int i = 0; i < nr; i++) {
		uint64_t *next = &c->next_ns[w[i].index];

		if (!watched(c, w, i))
			continue;
		if (!*next)
			*next = first_due(w, nr, &w[i]);
		if (!*next || now < *next)
			continue;
		take_sample(c, w, nr, &w[i], now);
		while (*next <= now)
			*next += w[i].job->steady.interval_ns;
	}
}

uint64_t steady_check_due(const struct steady_check *c, const struct worker *w,
			  unsigned int nr)
{
	uint64_t due = 0;

	for (unsigned int i = 0; i < nr; i++) {
		uint64_t next;

		if (!watched(c, w, i))
			continue;
		next = c->next_ns[w[i].index] ? c->next_ns[w[i].index] : first_due(w, nr, &w[i]);
		if (next && (!due || next < due))
			due = next;
	}
	return due;
}

const struct steady_state *steady_check_window(const struct steady_check *c,
					       unsigned int index)
{
	return c->state && index < c->nr && c->state[index].n ? &c->state[index] : NULL;
}

void steady_check_free(struct steady_check *c)
{
	for (unsigned int i = 0; c->state && i < c->nr; i++)
		steady_free(&c->state[i]);
	free(c->state);
	free(c->member);
	free(c->next_ns);
	memset(c, 0, sizeof(*c));
}
