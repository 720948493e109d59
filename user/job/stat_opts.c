// SPDX-License-Identifier: GPL-2.0
/*
 * fio's measurement and log options that need more than a typed field:
 * gtod_reduce (a switch for five others), percentile_list (fio's float
 * list and the print precision it implies), write_*_log (a bare key or a
 * file name prefix), bwavgtime/iopsavgtime (resolved with the logs),
 * log_compression (fio's range) and log_compression_cpus (checked, then
 * dropped).  Their rows are this file's table, one of job/options.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "job/given_opts.h"
#include "job/process_opts.h"
#include "job/stat_opts.h"

#define VAL "'%.64s'"

int set_gtod_reduce(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	struct job *job = base;
	bool on = true;
	int ret = opt_read_bool(o, value, &on, where, err);

	if (ret)
		return ret;
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

/* write_bw_log (bare), write_bw_log=PREFIX, or write_bw_log= which fio 3.33
 * takes as the bare key (the job's name): which log is the row's. */
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

/* log_compression_cpus: the CPUs of fio's compression threads, which
 * need log_compression; checked as cpus_allowed is, then dropped. */
static int set_log_compression_cpus(void *base, const struct opt_desc *o, const char *value,
				    const char *where, struct errbuf *err)
{
	struct job *scratch = calloc(1, sizeof(*scratch));
	int ret;

	(void)base;
	if (!scratch)
		return err_set(err, ENOMEM, "%s: out of memory", where);
	ret = set_cpus_allowed(scratch, o, value, where, err);
	free(scratch);
	return ret;
}

int set_log_compression(void *base, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err)
{
	uint64_t v = 0;
	int ret = value ? parse_size(value, &v) : -EINVAL;

	if (ret)
		return opt_size_error(where, o->name, value ? value : "", ret, err);
	/* fio's range: 0 (its default) is refused as well */
	if (v < LOG_COMPRESS_MIN || v > LOG_COMPRESS_MAX)
		return err_set(err, ERANGE, "%s: option '%s': %llu is out of range "
			       "%u-%u (fio's)", where, o->name, (unsigned long long)v,
			       LOG_COMPRESS_MIN, LOG_COMPRESS_MAX);
	((struct job *)base)->logs.compress = v;
	return 0;
}

/* fio 3.33's log_max_value is a boolean; since 3.37 it is an alias of
 * log_window_value, whose 1 is "max". */
static int set_log_max_value(void *base, const struct opt_desc *o,
			     const char *value, const char *where,
			     struct errbuf *err)
{
	bool b;
	int ret = opt_read_bool(o, value, &b, where, err); /* fio: bare refused */

	if (ret)
		return ret;
	((struct job *)base)->logs.window_value = b ? LOG_WINDOW_MAX : LOG_WINDOW_AVG;
	return 0;
}

/* bwavgtime, iopsavgtime: the window, and that it was given, which
 * decides how it combines with write_*_log (fio's fio_option_is_set). */
static int set_rate_window(void *base, const struct opt_desc *o, const char *value,
			   const char *where, struct errbuf *err)
{
	struct job_stat_opts *st = &((struct job *)base)->stat;
	int ret = opt_set_typed(base, o, value, where, err);

	if (!ret && strcmp(where, "default"))
		*(strcmp(o->name, "bwavgtime") ? &st->iops_avg_given : &st->bw_avg_given) = true;
	return ret;
}

/* fio's add_job: a job logging bw (iops) takes log_avg_msec as its
 * window unless bwavgtime (iopsavgtime) was given; its log averages
 * over the smaller of the two, and a log not averaged is fed, and the
 * report sampled, one I/O at a time. */
static void resolve_rate_window(bool logged, uint64_t log_msec, bool given,
				uint64_t *window_msec, bool *per_io)
{
	uint64_t log_window = log_msec;

	*per_io = false;
	if (!logged)
		return;
	if (!given)
		*window_msec = log_msec;
	else if (*window_msec < log_window)
		log_window = *window_msec;
	*per_io = log_window == 0;
}

int stat_opts_resolve(struct job *job, const char *where, struct errbuf *err)
{
	struct job_stat_opts *st = &job->stat;

	(void)where;
	(void)err;
	resolve_rate_window(job->logs.on[JOB_LOG_BW], job->logs.avg_msec, st->bw_avg_given,
			    &st->bw_avg_msec, &st->bw_per_io);
	resolve_rate_window(job->logs.on[JOB_LOG_IOPS], job->logs.avg_msec,
			    st->iops_avg_given, &st->iops_avg_msec, &st->iops_per_io);
	return 0;
}

void stat_opts_share_clocksource(struct job *jobs, size_t nr)
{
	for (size_t i = nr; i-- > 0;) {
		if (!job_given_has(&jobs[i], "clocksource"))
			continue;
		for (size_t k = 0; k < nr; k++)
			jobs[k].stat.clocksource = jobs[i].stat.clocksource;
		return;
	}
}

static bool sample_log_on(const struct job *job)
{
	return job->logs.on[JOB_LOG_LAT] || job->logs.on[JOB_LOG_BW] || job->logs.on[JOB_LOG_IOPS];
}

int stat_opts_check(const struct job *job, const char *where, struct errbuf *err)
{
	if (job->logs.issue_time && (!job->logs.on[JOB_LOG_LAT] || !job->logs.offset))
		return err_set(err, EINVAL, "%s: log_issue_time needs write_lat_log "
			       "and log_offset=1 (fio's rule)", where);
	if ((job->logs.unix_epoch || job->logs.alternate_epoch) &&
	    clock_gettime((clockid_t)job->logs.epoch_clock, &(struct timespec){ 0 }))
		return err_set(err, EINVAL, "%s: log_alternate_epoch_clock_id %u is not a "
			       "clock of this system (clock_gettime: %s)", where,
			       job->logs.epoch_clock, strerror(errno));
	if (job->logs.store_compressed && (job->logs.on[JOB_LOG_HIST] || job->logs.issue_time ||
					   (job->logs.window_value == LOG_WINDOW_BOTH &&
					    sample_log_on(job))))
		return err_set(err, EINVAL, "%s: log_store_compressed: fio 3.33's .fz "
			       "records have no room for %s; leave it at 0", where,
			       job->logs.on[JOB_LOG_HIST] ? "write_hist_log's histograms "
			       "(fio stores pointers there)" : job->logs.issue_time ?
			       "log_issue_time's column" : "log_window_value=both's maximum");
	if (job->stat.block_error_hist && job->nrfiles != 1)
		return err_set(err, EINVAL, "%s: block_error_percentiles is only "
			       "available with a single file per job, but %u "
			       "files are given (fio's rule)", where, job->nrfiles);
	return 0;
}

OPT_VALUES(window_values,
	OPT_VAL("avg", LOG_WINDOW_AVG),
	OPT_VAL("max", LOG_WINDOW_MAX),
	OPT_VAL("both", LOG_WINDOW_BOTH),
	OPT_VAL("0", LOG_WINDOW_AVG),
	OPT_VAL("1", LOG_WINDOW_MAX),
	OPT_VAL("2", LOG_WINDOW_BOTH));

OPT_VALUES(clocksource_values,
	OPT_VAL("clock_gettime", CLOCKSOURCE_CLOCK_GETTIME),
	OPT_VAL("gettimeofday", CLOCKSOURCE_GETTIMEOFDAY),
	OPT_VAL("cpu", CLOCKSOURCE_CPU));

/* fio's gtod_cpu: a thread on that CPU keeps the time in shared memory
 * for the jobs to copy, and the CPU is taken from their masks. */
#define GTOD_THREAD "iodig's workers read the clock themselves; fio's clock " \
	"thread (whose copies fio 3.33 reads as 0 ns latencies) has no equivalent"
/* fio's built-in workloads; their own options are accepted (options.c). */
#define NO_PROFILES "iodig does not carry fio's built-in tiobench and act " \
	"workloads: write their jobs out as a job file"

/* fio 3.33's words, and its old 0/1 (and 2) */
OPT_VALUES(unified_values,
	OPT_VAL("none", UNIFIED_NONE),
	OPT_VAL("mixed", UNIFIED_MIXED),
	OPT_VAL("both", UNIFIED_BOTH),
	OPT_VAL("0", UNIFIED_NONE),
	OPT_VAL("1", UNIFIED_MIXED),
	OPT_VAL("2", UNIFIED_BOTH));

#define FIELD(f) OPT_FIELD(struct job, f)

/* fio's latency measurement, percentiles and log files. */
const struct opt_desc stat_options[] = {
	{ .name = "gtod_reduce", .type = OPT_BOOL, .set = set_gtod_reduce,
	  .help = "Time nothing: sets the disable_* options "
	  "and clat_percentiles=0" },
	{ .name = "disable_lat", .type = OPT_BOOL, FIELD(stat.disable_lat),
	  .help = "Do not measure total latency (lat)" },
	{ .name = "disable_clat", .type = OPT_BOOL, FIELD(stat.disable_clat),
	  .help = "Do not measure completion latency (clat) nor its buckets" },
	{ .name = "disable_slat", .type = OPT_BOOL, FIELD(stat.disable_slat),
	  .help = "Do not measure submission latency (slat)" },
	{ .name = "disable_bw_measurement", .alias = "disable_bw", .type = OPT_BOOL,
	  FIELD(stat.disable_bw), .help = "No bandwidth and IOPS samples" },
	{ .name = "clat_percentiles", .type = OPT_BOOL, FIELD(stat.clat_percentiles),
	  .def = "1", .help = "Report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = OPT_BOOL, FIELD(stat.lat_percentiles),
	  .help = "Report total latency percentiles" },
	{ .name = "slat_percentiles", .type = OPT_BOOL, FIELD(stat.slat_percentiles),
	  .help = "Report submission latency percentiles" },
	{ .name = "percentile_list", .type = OPT_CUSTOM, .set = set_percentile_list,
	  .hint = "P[:P...]", .help = "Percentiles to report (up to 20, 0-100), "
	  "instead of fio's 17" },
	{ .name = "block_error_percentiles", .type = OPT_BOOL,
	  FIELD(stat.block_error_hist),
	  .help = "Count the trims of each trim-sized block and report their "
	  "percentiles and the blocks' states (flash wear)" },
	UINT_OPT("significant_figures", FIELD(stat.sig_figs), "4", 1, 10,
		 "Digits of the text report's IOPS, bandwidth and sizes"),
	ENUM_OPT("clocksource", FIELD(stat.clocksource), clocksource_values, "clock_gettime",
		 "fio's timer, for every job of the run: gettimeofday times in whole "
		 "microseconds; clock_gettime and cpu in nanoseconds (iodig's "
		 "CLOCK_MONOTONIC)"),
	REFUSED("gtod_cpu", GTOD_THREAD),
	REFUSED("profile", NO_PROFILES),
	{ .name = "disk_util", .type = OPT_BOOL, FIELD(stat.disk_util), .def = "1",
	  .help = "Report the disk's counters (\"Disk stats\", JSON disk_util, terse's disk "
		  "fields); 0: not this job's disk" },
	ENUM_OPT("unified_rw_reporting", FIELD(stat.unified_rw), unified_values, "none",
		 "none: each direction apart; mixed: the directions summed as one, \"mixed\"; "
		 "both: the directions, then their sum"),
	{ .name = "write_lat_log", .type = OPT_BOOL, .set = set_log_prefix,
	  .flags = OPT_EMPTY_OK,
	  .help = "write_lat_log=PREFIX writes PREFIX_{slat,clat,lat}.N.log; "
	  "bare, PREFIX is the job name" },
	{ .name = "write_bw_log", .type = OPT_BOOL, .set = set_log_prefix,
	  .flags = OPT_EMPTY_OK,
	  .help = "write_bw_log[=PREFIX]: PREFIX_bw.N.log (KiB/s)" },
	{ .name = "write_iops_log", .type = OPT_BOOL, .set = set_log_prefix,
	  .flags = OPT_EMPTY_OK,
	  .help = "write_iops_log[=PREFIX]: PREFIX_iops.N.log" },
	{ .name = "write_hist_log", .type = OPT_BOOL, .set = set_log_prefix,
	  .flags = OPT_EMPTY_OK,
	  .help = "write_hist_log[=PREFIX]: PREFIX_clat_hist.N.log, "
	  "fio's 1856-bin histograms every log_hist_msec" },
	{ .name = "log_avg_msec", .type = OPT_UINT, FIELD(logs.avg_msec),
	  .max = UINT32_MAX, .def = "0",
	  .help = "Log one averaged line per this many ms; 0 = one per I/O" },
	{ .name = "bwavgtime", .type = OPT_UINT, FIELD(stat.bw_avg_msec),
	  .max = UINT32_MAX, .def = "500", .set = set_rate_window,
	  .help = "Window of each bandwidth sample of the report, ms (with write_bw_log: "
		  "log_avg_msec unless given)" },
	{ .name = "iopsavgtime", .type = OPT_UINT, FIELD(stat.iops_avg_msec),
	  .max = UINT32_MAX, .def = "500", .set = set_rate_window,
	  .help = "Window of each IOPS sample of the report, ms (with write_iops_log: "
		  "log_avg_msec unless given)" },
	{ .name = "log_hist_msec", .type = OPT_UINT, FIELD(logs.hist_msec),
	  .max = UINT32_MAX, .def = "0",
	  .help = "Interval of write_hist_log's lines, ms" },
	{ .name = "log_max_value", .type = OPT_BOOL, .set = set_log_max_value,
	  .help = "Log each window's maximum instead of its mean" },
	{ .name = "log_window_value", .type = OPT_ENUM, FIELD(logs.window_value),
	  .values = window_values, .def = "avg",
	  .help = "What a log_avg_msec window's line holds: avg, max, or both "
		  "(mean, then maximum; fio 3.37)" },
	{ .name = "log_issue_time", .type = OPT_BOOL, FIELD(logs.issue_time),
	  .help = "A last column in the latency logs: the I/O's issue time, "
		  "ns since the start (needs log_offset; fio 3.38)" },
	{ .name = "log_offset", .type = OPT_BOOL, FIELD(logs.offset),
	  .help = "Add the I/O's offset column to each line" },
	{ .name = "log_unix_epoch", .type = OPT_BOOL, FIELD(logs.unix_epoch),
	  .help = "Times in ms since 1970 (or the epoch of log_alternate_epoch_clock_id), "
		  "not since the job started" },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL, FIELD(logs.alternate_epoch),
	  .help = "Times in ms since the epoch of log_alternate_epoch_clock_id's clock" },
	{ .name = "log_alternate_epoch_clock_id", .type = OPT_UINT, FIELD(logs.epoch_clock),
	  .max = INT32_MAX, .def = "0",
	  .help = "The clock (clockid_t) of log_alternate_epoch and log_unix_epoch: 0 "
		  "CLOCK_REALTIME, 1 CLOCK_MONOTONIC ..." },
	{ .name = "log_hist_coarseness", .type = OPT_UINT, FIELD(logs.hist_coarseness),
	  .max = 10, .def = "0",
	  .help = "write_hist_log: sum 2^N of fio's 1856 bins into one (0-6: 1856 to 29 "
		  "bins; fio 3.33 aborts above 10)" },
	{ .name = "log_entries", .type = OPT_UINT, FIELD(logs.entries),
	  .min = 1024, .max = 1048576, .def = "1024",
	  .help = "fio's first log buffer, in entries; iodig's logs grow as needed, so it "
		  "changes nothing" },
	{ .name = "per_job_logs", .type = OPT_BOOL, FIELD(logs.per_job),
	  .def = "1", .help = "One file per clone (NAME_bw.N.log); 0: one per "
	  "job (NAME_bw.log)" },
	{ .name = "log_prio", .type = OPT_BOOL, FIELD(logs.prio),
	  .help = "Last column: the I/O priority (0xCPPP), not fio's 0/1 flag" },
	{ .name = "write_iolog", .type = OPT_STR, FIELD(write_iolog),
	  .help = "Write the I/O issued to this file, fio's iolog version 3 "
		  "(USEC FILE read|write OFFSET LENGTH)" },
	{ .name = "log_compression", .type = OPT_CUSTOM, .set = set_log_compression,
	  .hint = "SIZE", .help = "Keep the logs' lines zlib-compressed in chunks of this "
	  "many bytes of fio's records (1k-512m); the files are the same" },
	{ .name = "log_compression_cpus", .type = OPT_CUSTOM, .set = set_log_compression_cpus,
	  .hint = "CPUS", .help = "CPUs of fio's log compression threads (checked; iodig "
	  "compresses in the worker)" },
	{ .name = "log_store_compressed", .type = OPT_BOOL, FIELD(logs.store_compressed),
	  .help = "Write the logs as fio's zlib chunks, PREFIX_KIND.N.log.fz "
	  "(fio --inflate-log=FILE prints the text)" },
	{ .name = NULL },
};
