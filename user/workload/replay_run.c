// SPDX-License-Identifier: GPL-2.0
/* A worker's walk through its read_iolog log (workload/replay_run.h). */
#include "base/clock.h"
#include "base/fine_sleep.h"
#include "workload/replay_run.h"
#include "workload/worker.h"

void replay_cursor_start(struct replay_cursor *c, const struct replay_log *log,
			 uint64_t now)
{
	*c = (struct replay_cursor){ .log = log, .start_ns = now, .last_issue_ns = now,
				     .granularity_ns = fine_sleep_granularity() };
}

void replay_cursor_issued(struct replay_cursor *c, uint64_t now)
{
	c->last_issue_ns = now;
}

static bool halted(const struct worker *w, uint64_t deadline_ns, uint64_t now)
{
	return *w->stop || w->stats->stop || (deadline_ns && now >= deadline_ns);
}

struct pause_ctx {
	const struct worker *w;
	uint64_t deadline_ns;
};

static bool pause_stopped(const void *arg)
{
	const struct pause_ctx *p = arg;

	return halted(p->w, p->deadline_ns, now_ns());
}

/* fio's usec_sleep until @until (base/fine_sleep.h).  False when the
 * worker was stopped first. */
static bool pause_until(const struct replay_cursor *c, const struct worker *w,
			uint64_t deadline_ns, uint64_t until)
{
	struct pause_ctx p = { .w = w, .deadline_ns = deadline_ns };

	return fine_sleep_until(until, c->granularity_ns, pause_stopped, &p);
}

/* fio's iolog_delay: an entry's gap counts from the last issue, less the
 * last wait's overrun, which is spent on the first gap it covers; once a
 * wait was needed, its overrun of the whole gap is the next one's. */
static bool wait_for(struct replay_cursor *c, const struct replay_entry *e,
		     const struct worker *w, uint64_t deadline_ns)
{
	uint64_t gap = e->delay_us * 1000, delay, now = now_ns(), since, slept;

	if (e->kind == REPLAY_WAIT)
		return pause_until(c, w, deadline_ns, c->start_ns + gap);
	if (!gap)
		return !halted(w, deadline_ns, now);
	if (gap < c->late_ns) {
		c->late_ns = 0;
		return !halted(w, deadline_ns, now);
	}
	delay = gap - c->late_ns;
	since = now > c->last_issue_ns ? now - c->last_issue_ns : 0;
	if (delay < since)
		return !halted(w, deadline_ns, now);
	if (!pause_until(c, w, deadline_ns, now + (delay - since)))
		return false;
	slept = now_ns() - now;
	c->late_ns = slept > gap ? slept - gap : 0;
	return true;
}

int replay_cursor_next(struct replay_cursor *c, const struct worker *w,
		       uint64_t deadline_ns, struct io_unit *u,
		       int (*sync)(void *arg, unsigned int file, bool datasync),
		       void *arg)
{
	while (c->next < c->log->nr_entries) {
		const struct replay_entry *e = &c->log->entries[c->next++];
		int ret;

		if (!wait_for(c, e, w, deadline_ns))
			return 0;
		if (e->kind == REPLAY_FILE || e->kind == REPLAY_SYNC ||
		    e->kind == REPLAY_DATASYNC)
			/* fio stamps a file action, and a sync it issues */
			c->last_issue_ns = now_ns();
		if (e->kind == REPLAY_SYNC || e->kind == REPLAY_DATASYNC) {
			ret = sync(arg, e->file, e->kind == REPLAY_DATASYNC);
			if (ret)
				return ret;
			continue;
		}
		if (e->kind != REPLAY_READ && e->kind != REPLAY_WRITE)
			continue;
		u->ddir = (enum ddir)e->kind;
		u->offset = e->offset;
		u->len = e->len;
		u->file = e->file;
		u->fd = w->fds ? w->fds[e->file] : w->fd;
		u->result = 0;
		return 1;
	}
	return 0;
}
