// SPDX-License-Identifier: GPL-2.0
/*
 * fio's measurement and log options that need more than a typed field:
 * gtod_reduce (a switch for five others), percentile_list (fio's float
 * list and the print precision it implies), write_*_log (a bare key or a
 * file name prefix) and log_compression (refused: iodig writes plain
 * logs).  The rows are in job/options.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/stat_opts.h"

#define VAL "'%.64s'"

int set_gtod_reduce(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	struct job *job = base;
	bool on = true;

	if (value && parse_bool(value, &on))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
			       "boolean", where, o->name, value);
	/* fio's str_gtod_reduce_cb: every timed figure off, and with them
	 * the percentiles of the completion latency */
	job->stat.disable_lat = on;
	job->stat.disable_clat = on;
	job->stat.disable_slat = on;
	job->stat.disable_bw = on;
	job->stat.clat_percentiles = !on;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Digits after the first '.' from @p on: fio looks in the rest of the
 * whole list, so "25:50:99.5" prints every entry with one decimal. */
static unsigned int decimals_from(const char *p)
{
	const char *dot = strchr(p, '.');
	unsigned int n = 0;

	while (dot && dot[1 + n] >= '0' && dot[1 + n] <= '9')
		n++;
	return n;
}

int set_percentile_list(void *base, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err)
{
	struct job_stat_opts *st = &((struct job *)base)->stat;
	double vals[JOB_PERCENTILES_MAX];
	unsigned int n = 0, precision = 0;
	const char *p = value;

	if (!value || !value[0])
		return err_set(err, EINVAL, "%s: option '%s' needs a value", where, o->name);
	for (;;) {
		char *end;
		double v = strtod(p, &end);
		unsigned int dec = decimals_from(p);

		if (end == p || (*end && *end != ':') || !(v >= 0.0 && v <= 100.0))
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
				       "list of percentiles 0-100 separated by ':'",
				       where, o->name, value);
		if (n == JOB_PERCENTILES_MAX)
			return err_set(err, E2BIG, "%s: option '%s': more than %d "
				       "percentiles (fio's limit)", where, o->name,
				       JOB_PERCENTILES_MAX);
		vals[n++] = v;
		if (dec > precision)
			precision = dec;
		if (!*end)
			break;
		p = end + 1;
	}
	qsort(vals, n, sizeof(vals[0]), cmp_double);
	memcpy(st->percentiles, vals, n * sizeof(vals[0]));
	st->nr_percentiles = n;
	st->precision = precision;
	return 0;
}

/* write_bw_log (bare) or write_bw_log=PREFIX: which log is the row's. */
static enum job_log_kind log_kind(const char *name)
{
	if (!strcmp(name, "write_lat_log"))
		return JOB_LOG_LAT;
	if (!strcmp(name, "write_bw_log"))
		return JOB_LOG_BW;
	if (!strcmp(name, "write_iops_log"))
		return JOB_LOG_IOPS;
	return JOB_LOG_HIST;
}

int set_log_prefix(void *base, const struct opt_desc *o, const char *value,
		   const char *where, struct errbuf *err)
{
	struct job_log_opts *l = &((struct job *)base)->logs;
	enum job_log_kind k = log_kind(o->name);

	if (value && strlen(value) >= sizeof(l->prefix[k]))
		return err_set(err, ENAMETOOLONG, "%s: option '%s': the file name "
			       "prefix is longer than %zu bytes", where, o->name,
			       sizeof(l->prefix[k]) - 1);
	l->on[k] = true;
	snprintf(l->prefix[k], sizeof(l->prefix[k]), "%s", value ? value : "");
	return 0;
}

int set_log_compression(void *base, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err)
{
	uint64_t v = 0;
	int ret = value ? parse_size(value, &v) : -EINVAL;

	(void)base;
	if (ret)
		return opt_size_error(where, o->name, value ? value : "", ret, err);
	if (v)
		return err_set(err, ENOTSUP, "%s: option '%s' is not supported: "
			       "iodig writes its log files uncompressed (fio's "
			       "zlib chunks); leave it at 0", where, o->name);
	return 0;
}
