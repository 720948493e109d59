// SPDX-License-Identifier: GPL-2.0
/* The latency_target depth search (workload/lat_target.h), fio 3.33's. */
#include "workload/lat_target.h"

static void new_window(struct lat_target *t, uint64_t now)
{
	t->window_start_ns = now;
	t->ios = 0;
	t->failed = 0;
}

void lat_target_init(struct lat_target *t, const struct job *job, uint64_t now)
{
	*t = (struct lat_target){ .job = job, .qd = job->iodepth };
	if (!lat_target_on(job))
		return;
	t->qd = 1;
	t->qd_low = 1;
	t->qd_high = job->iodepth;
	new_window(t, now);
}

/* A window (or, at percentile 100, one I/O) missed the target: bisect
 * down; false when already at depth 1. */
static bool ramp_down(struct lat_target *t, uint64_t now)
{
	if (t->qd == 1)
		return false;
	t->qd_high = t->qd;
	if (t->qd == t->qd_low)
		t->qd_low--;
	t->qd = (t->qd + t->qd_low) / 2;
	t->stable = 0;
	/* fio drains the deeper queue so its latencies do not fail the
	 * next window too */
	t->quiesce_due = true;
	new_window(t, now);
	return true;
}

static enum lat_action ramp_up(struct lat_target *t, uint64_t now)
{
	unsigned int qd = t->qd, depth = t->job->iodepth;
	enum lat_action act = LAT_GO_ON;

	t->qd_low = t->qd;
	/* one below a known bad depth three times running: fio tries that
	 * depth again rather than settle below the target */
	if (t->qd + 1 == t->qd_high && ++t->stable >= 3) {
		t->qd_high++;
		t->stable = 0;
	}
	if (t->qd_high != depth)
		t->qd = (t->qd + t->qd_high) / 2;
	else
		t->qd *= 2;
	if (t->qd > depth)
		t->qd = depth;
	if (!t->job->latency_run && t->qd == qd) {
		act = t->end_run ? LAT_DONE : LAT_RESTART_STATS;
		t->end_run = true;
	}
	new_window(t, now);
	return act;
}

bool lat_target_sample(struct lat_target *t, uint64_t lat_ns, uint64_t now)
{
	t->ios++;
	if (lat_ns <= t->job->latency_target_ns)
		return false;
	if (t->job->latency_percentile < 100.0) {
		t->failed++;
		return false;
	}
	return !ramp_down(t, now);
}

enum lat_action lat_target_check(struct lat_target *t, uint64_t now)
{
	double success;

	if (now - t->window_start_ns < t->job->latency_window_ns || !t->ios)
		return LAT_GO_ON;
	success = 100.0 * (double)(t->ios - t->failed) / (double)t->ios;
	if (success >= t->job->latency_percentile)
		return ramp_up(t, now);
	ramp_down(t, now);
	return LAT_GO_ON;
}
