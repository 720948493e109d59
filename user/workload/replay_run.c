// SPDX-License-Identifier: GPL-2.0
/* A worker's walk through its read_iolog log (workload/replay_run.h). */
#define _GNU_SOURCE
#include <time.h>

#include "base/clock.h"
#include "workload/replay_run.h"
#include "workload/worker.h"

/* Sleeps are cut into slices so that a stop is seen within one. */
#define SLICE_NS 10000000ull

void replay_cursor_start(struct replay_cursor *c, const struct replay_log *log,
			 uint64_t now)
{
	*c = (struct replay_cursor){ .log = log, .start_ns = now, .last_ns = now };
}

static bool halted(const struct worker *w, uint64_t deadline_ns, uint64_t now)
{
	return *w->stop || w->stats->stop || (deadline_ns && now >= deadline_ns);
}

/* Sleeps until @until; false when the worker was stopped first. */
static bool sleep_until(const struct worker *w, uint64_t deadline_ns, uint64_t until)
{
	for (uint64_t now = now_ns(); now < until; now = now_ns()) {
		uint64_t left = until - now;
		struct timespec ts = { 0, (long)(left < SLICE_NS ? left : SLICE_NS) };

		if (halted(w, deadline_ns, now))
			return false;
		nanosleep(&ts, NULL);
	}
	return !halted(w, deadline_ns, now_ns());
}

/* fio's iolog_delay: the entry's delay counts from when the one before
 * was taken, less what the last sleep overran. */
static bool wait_for(struct replay_cursor *c, const struct replay_entry *e,
		     const struct worker *w, uint64_t deadline_ns)
{
	uint64_t delay = e->delay_us * 1000, until, now;

	if (e->kind == REPLAY_WAIT)
		return sleep_until(w, deadline_ns, c->start_ns + delay);
	if (!delay)
		return !halted(w, deadline_ns, now_ns());
	if (delay <= c->late_ns) {
		c->late_ns = 0;
		return true;
	}
	until = c->last_ns + delay - c->late_ns;
	if (!sleep_until(w, deadline_ns, until))
		return false;
	now = now_ns();
	c->late_ns = now > until ? now - until : 0;
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
		c->last_ns = now_ns();
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
