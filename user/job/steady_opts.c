// SPDX-License-Identifier: GPL-2.0
/*
 * fio's steady-state options (HOWTO "Steady state"): steadystate (ss),
 * steadystate_duration (ss_dur), steadystate_ramp_time (ss_ramp) and,
 * from fio after 3.33, steadystate_check_interval (ss_interval).  The
 * detection itself is workload/steady.c and run/steady_check.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/steady_opts.h"

#define VAL "'%.64s'"
#define NS_PER_S 1000000000ull

static const struct {
	const char *name;
	enum steady_metric metric;
	bool slope;
} criteria[] = {
	{ "iops", STEADY_IOPS, false }, { "iops_slope", STEADY_IOPS, true },
	{ "bw", STEADY_BW, false }, { "bw_slope", STEADY_BW, true },
	{ "lat", STEADY_LAT, false }, { "lat_slope", STEADY_LAT, true },
};

/* The limit after the ':': "N%" a percentage, else IOPS or ns as a number
 * or bytes/s as a size (fio's str_steadystate_cb). */
static int parse_limit(struct job *job, const char *s, double *limit)
{
	const char *pct = strchr(s, '%');
	char *end;
	uint64_t bytes;

	job->steady.pct = pct != NULL;
	if (pct || job->steady.metric != STEADY_BW) {
		*limit = strtod(s, &end);
		while (end != s && *end == ' ')
			end++;
		return end != s && end == (pct ? pct : s + strlen(s)) &&
		       (!pct || !pct[1]) && *limit >= 0 ? 0 : -EINVAL;
	}
	if (parse_size_kb(s, job->kb_base, &bytes))
		return -EINVAL;
	*limit = (double)bytes;
	return 0;
}

int set_steadystate(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	struct job *job = base;
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	double limit;

	for (size_t i = 0; i < sizeof(criteria) / sizeof(criteria[0]); i++) {
		if (strlen(criteria[i].name) != len || strncmp(value, criteria[i].name, len))
			continue;
		if (!colon || !colon[1])
			return err_set(err, EINVAL, "%s: option '%s': " VAL ": give the "
				       "limit after the criterion (%s:1%%)", where,
				       o->name, value, criteria[i].name);
		job->steady.metric = criteria[i].metric;
		job->steady.slope = criteria[i].slope;
		if (parse_limit(job, colon + 1, &limit))
			return err_set(err, EINVAL, "%s: option '%s': " VAL ": the limit "
				       "'%s' is not a number, a percentage (N%%) or, for "
				       "bw, a size per second", where, o->name, value,
				       colon + 1);
		job->steady.limit = limit;
		return 0;
	}
	return err_set(err, EINVAL, "%s: option '%s': " VAL " is not one of iops:N, "
		       "iops_slope:N, bw:N, bw_slope:N, lat:N, lat_slope:N (N or N%%)",
		       where, o->name, value);
}

#define FIELD(f) OPT_FIELD(struct job, f)

const struct opt_desc steady_options[] = {
	{ .name = "steadystate", .alias = "ss", .type = OPT_CUSTOM,
	  FIELD(steady), .set = set_steadystate, .def = "iops_slope:0.01%",
	  .hint = "iops|bw|lat[_slope]:N[%]",
	  .help = "With ss_dur: stop the job once, over the last ss_dur, the "
		  "largest deviation from the mean (iops, bw, lat) or the slope "
		  "(_slope) is below N (IOPS, bytes/s, clat ns) or N% of the mean" },
	TIME_OPT("steadystate_duration", FIELD(steady.dur_ns), NS_PER_S, "0",
		 "The window steadystate judges; 0: no steady-state detection", .alias = "ss_dur"),
	TIME_OPT("steadystate_ramp_time", FIELD(steady.ramp_ns), NS_PER_S, "0",
		 "The first steady-state sample ends one check interval after this much measured "
		 "time (from ramp_time's end)", .alias = "ss_ramp"),
	TIME_OPT("steadystate_check_interval", FIELD(steady.interval_ns), NS_PER_S, "1",
		 "One steady-state sample per interval (fio 3.33: always 1s)",
		 .alias = "ss_interval"),
	{ .name = NULL },
};

int steady_opts_check(const struct job *job, const char *where, struct errbuf *err)
{
	const struct steady_opts *s = &job->steady;

	if (!s->dur_ns)
		return 0;
	if (s->interval_ns < NS_PER_S / 10)
		return err_set(err, EINVAL, "%s: steadystate_check_interval %llu ms is "
			       "shorter than 100 ms", where,
			       (unsigned long long)(s->interval_ns / 1000000));
	if (steady_window(s) < (s->slope ? 2u : 1u))
		return err_set(err, EINVAL, "%s: steadystate_duration %llu ms holds %u "
			       "check interval(s) of %llu ms; %s needs at least %u",
			       where, (unsigned long long)(s->dur_ns / 1000000),
			       steady_window(s),
			       (unsigned long long)(s->interval_ns / 1000000),
			       s->slope ? "a slope" : "steadystate", s->slope ? 2 : 1);
	return 0;
}

static bool same_steady(const struct steady_opts *a, const struct steady_opts *b)
{
	if (!a->dur_ns && !b->dur_ns)
		return true;
	return a->dur_ns == b->dur_ns && a->ramp_ns == b->ramp_ns &&
	       a->interval_ns == b->interval_ns && a->limit == b->limit &&
	       a->metric == b->metric && a->slope == b->slope && a->pct == b->pct;
}

int steady_opts_check_groups(const struct job *jobs, size_t n, struct errbuf *err)
{
	for (size_t i = 1; i < n; i++) {
		const struct job *first = jobs, *j = &jobs[i];

		while (first->group_id != j->group_id)
			first++;
		if (!same_steady(&first->steady, &j->steady))
			return err_set(err, EINVAL, "%s%s%.0d: job '%s': its steadystate "
				       "options differ from those of job '%s' of the same "
				       "reporting group, which fio rejects", j->source,
				       j->source_line ? ":" : "", j->source_line, j->name,
				       first->name);
	}
	return 0;
}
