// SPDX-License-Identifier: GPL-2.0
/*
 * The I/O stream options (job/stream_options.h), with fio 3.33's names,
 * defaults and fix-ups (its options.c and init.c's fixup_options).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/bssplit.h"
#include "job/file_opts.h"
#include "job/given_opts.h"
#include "job/random_dist_opt.h"
#include "job/options.h"
#include "workload/engine.h"
#include "job/stream_options.h"

#define VAL "'%.64s'"
#define FIELD(f) OPT_FIELD(struct job, f)

static int set_bssplit(void *base, const struct opt_desc *o, const char *value,
		       const char *where, struct errbuf *err)
{
	struct job *job = base;
	struct bssplit parsed[DDIR_COUNT];
	char why[160];

	if (!value[0]) /* fio 3.33: "bssplit=" keeps the split [global] gave */
		return 0;
	if (bssplit_parse(value, job->kb_base, parsed, why, sizeof(why)))
		return err_set(err, EINVAL, "%s: option '%s': " VAL ": %s", where,
			       o->name, value, why);
	memcpy(job->bssplit, parsed, sizeof(parsed));
	return 0;
}

/* The text of direction @d's part of "R[,W[,T]]": a direction past the
 * parts given takes the last one, as fio's parser copies it. */
static void per_dir_part(const char *value, int d, char *out, size_t len)
{
	const char *p = value, *comma;

	for (int i = 0; i < d && (comma = strchr(p, ',')); i++)
		p = comma + 1;
	comma = strchr(p, ',');
	snprintf(out, len, "%.*s", comma ? (int)(comma - p) : (int)strlen(p), p);
}

/* A value per direction, "R[,W[,T]]" (one value: every direction; an
 * empty part keeps its direction's value): blockalign and the rate
 * options, into a uint32_t[DDIR_COUNT] or uint64_t[DDIR_COUNT] field. */
static int set_per_dir(void *base, const struct opt_desc *o, const char *value,
		       const char *where, struct errbuf *err)
{
	struct job *job = base;
	char *field = (char *)base + o->offset;
	size_t each = o->field_size / DDIR_COUNT;
	char part[64], joined[3 * 64 + 3];
	uint64_t v[DDIR_COUNT];
	int ret = opt_fio_dir_parts(o, value, job->kb_base, joined,
				    sizeof(joined), where, err);

	if (ret)
		return ret;
	value = joined;
	for (int d = 0; d < DDIR_COUNT; d++) {
		uint32_t u32;

		per_dir_part(value, d, part, sizeof(part));
		if (!part[0]) {
			if (each == sizeof(u32)) {
				memcpy(&u32, field + d * each, each);
				v[d] = u32;
			} else {
				memcpy(&v[d], field + d * each, each);
			}
			continue;
		}
		if (parse_size_kb(part, job->kb_base, &v[d]) ||
		    (each == sizeof(u32) && v[d] > UINT32_MAX) ||
		    (o->min && v[d] < o->min))
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is "
				       "not a value of at least %llu", where,
				       o->name, part, (unsigned long long)o->min);
	}
	for (int d = 0; d < DDIR_COUNT; d++) {
		uint32_t u32 = (uint32_t)v[d];

		memcpy(field + d * each, each == sizeof(u32) ? (void *)&u32 :
		       (void *)&v[d], each);
	}
	return 0;
}

/* A time per direction, "R[,W[,T]]" as set_per_dir's parts, a bare
 * number in the row's unit_ns: max_latency, into a uint64_t[DDIR_COUNT]. */
static int set_per_dir_time(void *base, const struct opt_desc *o, const char *value,
			    const char *where, struct errbuf *err)
{
	uint64_t *field = (uint64_t *)((char *)base + o->offset), v[DDIR_COUNT];
	char part[64], joined[3 * 64 + 3];
	const char *end;
	int ret = opt_fio_dir_parts(o, value, ((struct job *)base)->kb_base,
				    joined, sizeof(joined), where, err);

	if (ret)
		return ret;
	value = joined;
	for (int d = 0; d < DDIR_COUNT; d++) {
		per_dir_part(value, d, part, sizeof(part));
		if (!part[0])
			v[d] = field[d];
		else if (parse_time_fio(part, o->unit_ns, &v[d], &end) || *end)
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
				       "time", where, o->name, part);
	}
	memcpy(field, v, sizeof(v));
	return 0;
}

static int set_distribution(void *base, const struct opt_desc *o,
			    const char *value, const char *where,
			    struct errbuf *err)
{
	struct job *job = base;
	struct rand_dist_opts parsed;
	char why[160];

	if (random_dist_parse(value, job->kb_base, &parsed, why, sizeof(why)))
		return err_set(err, EINVAL, "%s: option '%s': " VAL ": %s", where,
			       o->name, value, why);
	job->random_distribution = parsed;
	return 0;
}

/* percentage_random=N[,M[,T]]: reads, writes, trims; the last given
 * serves the directions after it. */
static int set_percentage_random(void *base, const struct opt_desc *o,
				 const char *value, const char *where,
				 struct errbuf *err)
{
	struct job *job = base;
	unsigned long v[DDIR_COUNT];
	const char *p = value;
	char *end;

	for (int d = 0; d < DDIR_COUNT; d++) {
		v[d] = strtoul(p, &end, 10);
		if (end == p || v[d] > 100 || (*end && *end != ','))
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is not "
				       "a percentage 0-100 (or one each: reads,"
				       "writes,trims)", where, o->name, value);
		if (!*end) {
			for (int k = d + 1; k < DDIR_COUNT; k++)
				v[k] = v[d];
			break;
		}
		p = end + 1;
	}
	for (int d = 0; d < DDIR_COUNT; d++)
		job->percentage_random[d] = (unsigned int)v[d];
	return 0;
}

/* latency_percentile: fio's float from 0 to 100. */
static int set_latency_percentile(void *base, const struct opt_desc *o,
				  const char *value, const char *where,
				  struct errbuf *err)
{
	struct job *job = base;
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || !(v >= 0.0 && v <= 100.0))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
			       "percentage 0-100", where, o->name, value);
	job->latency_percentile = v;
	return 0;
}

OPT_VALUES(generator_values,
	OPT_VAL("tausworthe", RGEN_TAUSWORTHE),
	OPT_VAL("tausworthe64", RGEN_TAUSWORTHE64),
	OPT_VAL("lfsr", RGEN_LFSR));

OPT_VALUES(rate_process_values, OPT_VAL("linear", RATE_LINEAR), OPT_VAL("poisson", RATE_POISSON));

OPT_VALUES(think_type_values,
	OPT_VAL("complete", THINK_ON_COMPLETE),
	OPT_VAL("issue", THINK_ON_ISSUE));

OPT_VALUES(submit_mode_values,
	OPT_VAL("inline", SUBMIT_INLINE),
	OPT_VAL("offload", SUBMIT_OFFLOAD));

OPT_VALUES(sequencer_values,
	OPT_VAL("sequential", SEQ_SEQUENTIAL),
	OPT_VAL("identical", SEQ_IDENTICAL));

const struct opt_desc stream_options[] = {
	UINT_OPT("loops", FIELD(loops), "1", 1, UINT_MAX, "Run the job's I/O this many times over"),
	ENUM_OPT("io_submit_mode", FIELD(io_submit_mode), submit_mode_values, "inline",
		 "inline: each worker submits its own I/O; offload: iodepth submit threads of the "
		 "worker do"),
	BOOL_OPT("serialize_overlap", FIELD(serialize_overlap), "0",
		 "Hold an I/O back while one in flight overlaps it (with offload: one of any "
		 "offloaded job that sets it)"),
	UINT_OPT("iodepth_low", FIELD(iodepth_low), "0", 0, 65536,
		 "Once the queue is full, reap until this many are in flight; 0 = iodepth"),
	UINT_OPT("iodepth_batch_complete_max", FIELD(iodepth_batch_complete_max), "0", 0, 65536,
		 "Completions reaped at most at once; below iodepth_batch_complete_min "
		 "(as 0, the default) it is that minimum, as in fio"),
	UINT_OPT("number_ios", FIELD(number_ios), "0", 0, UINT64_MAX,
		 "Stop after this many I/Os (each loop); 0 = no limit"),
	{ .name = "bssplit", .type = OPT_CUSTOM, FIELD(bssplit),
	  .set = set_bssplit, .flags = OPT_EMPTY_OK, .hint = "BS/PERC:BS/PERC...[,WRITE]",
	  .help = "Block sizes with the percent of I/Os of each, per "
		  "direction" },
	{ .name = "blockalign", .alias = "ba", .type = OPT_CUSTOM,
	  FIELD(blockalign), .set = set_per_dir, .min = 1, .hint = "SIZE[,SIZE]",
	  .help = "Alignment of random offsets; default the smallest block "
		  "size" },
	ENUM_OPT("rw_sequencer", FIELD(rw_sequencer), sequencer_values, "sequential",
		 "Between rw=randX:N's random offsets: sequential or the same offset again"),
	{ .name = "random_distribution", .type = OPT_CUSTOM,
	  FIELD(random_distribution), .set = set_distribution,
	  .hint = "DIST[:ARGS]", .def = "random",
	  .help = "How random offsets spread over the region: random, "
		  "zipf[:T], pareto[:H], normal[:D], zoned:A/S:..., "
		  "zoned_abs:A/SIZE:... or sequence:B,B,... (block indices)" },
	BOOL_OPT("random_sequence_stride", FIELD(random_sequence_stride), NULL,
		 "random_distribution=sequence: each round of the sequence one group of its length "
		 "further (fio after 3.33)"),
	ENUM_OPT("random_generator", FIELD(random_generator), generator_values, "tausworthe",
		 "Generator of random offsets and sizes"),
	BOOL_OPT("atomic", FIELD(atomic), NULL,
		 "Untorn writes: RWF_ATOMIC on each write (fio 3.38; fio 3.33 took it and did "
		 "nothing), implies direct=1"),
	{ .name = "percentage_random", .type = OPT_CUSTOM,
	  FIELD(percentage_random), .set = set_percentage_random,
	  .hint = "PERCENT[,PERCENT[,PERCENT]]", .def = "100",
	  .help = "Percent of a random job's offsets that are random, the "
		  "rest sequential (reads,writes,trims)" },
	SIZE_OPT("offset_increment", FIELD(offset_increment), "0",
		 "Clone N of numjobs starts N times this (bytes, Nz: zones, or N% of the "
		 "file or device) past offset",
		 ZONES(offset_increment), .set = set_size_or_percent),
	/* pacing: workload/pacing.c */
	{ .name = "rate", .type = OPT_CUSTOM, FIELD(rate), .set = set_per_dir,
	  .hint = "BYTES/S[,BYTES/S]",
	  .help = "Bandwidth cap per direction (reads,writes), each clone" },
	{ .name = "rate_iops", .type = OPT_CUSTOM, FIELD(rate_iops),
	  .set = set_per_dir, .hint = "IOPS[,IOPS]",
	  .help = "IOPS cap per direction (reads,writes), each clone" },
	{ .name = "rate_min", .alias = "ratemin", .type = OPT_CUSTOM,
	  FIELD(rate_min), .set = set_per_dir, .hint = "BYTES/S[,BYTES/S]",
	  .help = "Fail the job when a rate_cycle's bandwidth is below this" },
	{ .name = "rate_iops_min", .type = OPT_CUSTOM, FIELD(rate_iops_min),
	  .set = set_per_dir, .hint = "IOPS[,IOPS]",
	  .help = "Fail the job when a rate_cycle's IOPS are below this" },
	ENUM_OPT("rate_process", FIELD(rate_process), rate_process_values, "linear",
		 "linear: evenly spaced I/O; poisson: random arrivals at the same mean"),
	TIME_OPT("rate_cycle", FIELD(rate_cycle_ns), 1000000, "1000",
		 "Window of the rate_min check (bare number: ms)", .alias = "ratecycle"),
	TIME_OPT("thinktime", FIELD(thinktime_ns), 1000, "0",
		 "Pause this long every thinktime_blocks I/Os (bare: us)"),
	TIME_OPT("thinktime_spin", FIELD(thinktime_spin_ns), 1000, "0",
		 "Of thinktime, this much spent spinning on the CPU (us)"),
	UINT_OPT("thinktime_blocks", FIELD(thinktime_blocks), "1", 1, UINT_MAX,
		 "I/Os between thinktime pauses"),
	ENUM_OPT("thinktime_blocks_type", FIELD(thinktime_blocks_type), think_type_values,
		 "complete", "Count thinktime_blocks on completion or on issue"),
	TIME_OPT("thinktime_iotime", FIELD(thinktime_iotime_ns), 1000000000ull, "0",
		 "Think after this much I/O time (bare: s), or thinktime_blocks I/Os if given and sooner"),
	BOOL_OPT("rate_ignore_thinktime", FIELD(rate_ignore_thinktime), "0",
		 "Do not catch up the rate after a thinktime pause"),
	{ .name = "max_latency", .type = OPT_CUSTOM, FIELD(max_latency_ns),
	  .set = set_per_dir_time, .unit_ns = 1000, .hint = "TIME[,TIME[,TIME]]",
	  .help = "End the job with ETIMEDOUT at an I/O whose total latency is above this "
		  "(bare: us; reads,writes,trims)" },
	/* the depth search: workload/lat_target.c */
	TIME_OPT("latency_target", FIELD(latency_target_ns), 1000, "0",
		 "Find the highest depth up to iodepth whose I/Os complete within this latency "
		 "(bare: us)"),
	TIME_OPT("latency_window", FIELD(latency_window_ns), 1000, "0",
		 "Time each depth is tried for latency_target (bare: us)"),
	{ .name = "latency_percentile", .type = OPT_CUSTOM,
	  FIELD(latency_percentile), .set = set_latency_percentile,
	  .hint = "PERCENT", .def = "100",
	  .help = "Percent of a window's I/Os that must meet latency_target" },
	BOOL_OPT("latency_run", FIELD(latency_run), "0",
		 "Keep adjusting the depth to latency_target until the job ends, instead of ending "
		 "once it is found"),
	{ .name = NULL },
};

int stream_rw_modifier(struct job *job, const char *mod, const char *where,
		       struct errbuf *err)
{
	uint64_t v;
	char *end;
	long n;

	job->rw_seq_nr = 1;
	job->rw_seq_add = 0;
	if (!mod)
		return 0;
	if (rw_is_random(job->rw)) {
		n = strtol(mod, &end, 10);
		if (*end || end == mod || n <= 0 || n > INT_MAX)
			return err_set(err, EINVAL, "%s: option 'rw': ':" VAL "' is "
				       "not a count of I/Os per random offset "
				       "(1 or more)", where, mod);
		job->rw_seq_nr = (unsigned int)n;
		return 0;
	}
	if (parse_size_kb(mod[0] == '-' ? mod + 1 : mod, job->kb_base, &v) ||
	    v > INT64_MAX)
		return err_set(err, EINVAL, "%s: option 'rw': ':" VAL "' is not a "
			       "size to skip after each I/O", where, mod);
	job->rw_seq_add = mod[0] == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* bssplit decides the block sizes: its smallest and largest become the
 * job's range, as in fio. */
static void apply_bssplit(struct job *job)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!job->bssplit[d].nr)
			continue;
		bssplit_range(&job->bssplit[d], &job->bs_min[d], &job->bs_max[d]);
		job->bs[d] = job->bs_max[d];
	}
}

int stream_opts_resolve(struct job *job, const char *where,
			struct errbuf *err)
{
	apply_bssplit(job);
	if (job->atomic && rw_has_write(job->rw) &&
	    !(job->engine->flags & ENGINE_ATOMIC))
		return err_set(err, EINVAL, "%s: atomic=1 needs ioengine pvsync2, "
			       "libaio or io_uring: RWF_ATOMIC is a flag of their "
			       "writes, and %s has no such flag", where,
			       job->engine->name);
	job->direct |= job->atomic; /* fio: atomic implies O_DIRECT */
	/* fio: a non-uniform distribution turns the random map off */
	if (job->random_distribution.kind != DIST_RANDOM)
		job->norandommap = true;
	/* fio: a low water mark of 0 or above the depth is the depth */
	if (!job->iodepth_low || job->iodepth_low > job->iodepth)
		job->iodepth_low = job->iodepth;
	/* fio: reaped one at a time unless told otherwise */
	if (job->iodepth_batch_complete_max < job->iodepth_batch_complete_min)
		job->iodepth_batch_complete_max = job->iodepth_batch_complete_min;
	if (job->direct && job->offset_increment % 512)
		return err_set(err, EINVAL, "%s: offset_increment %llu is not a "
			       "multiple of 512, which direct=1 (O_DIRECT) needs",
			       where, (unsigned long long)job->offset_increment);
	job->thinktime_blocks_given = job_given_has(job, "thinktime_blocks");
	/* fio: thinktime_spin is capped at thinktime */
	if (job->thinktime_spin_ns > job->thinktime_ns)
		job->thinktime_spin_ns = job->thinktime_ns;
	for (int d = 0; d < DDIR_COUNT; d++) {
		if ((job->rate[d] || job->rate_min[d]) &&
		    (job->rate_iops[d] || job->rate_iops_min[d]))
			return err_set(err, EINVAL, "%s: rate and rate_iops are "
				       "mutually exclusive (fio's rule)", where);
		if ((job->rate[d] && job->rate[d] < job->rate_min[d]) ||
		    (job->rate_iops[d] && job->rate_iops[d] < job->rate_iops_min[d]))
			return err_set(err, EINVAL, "%s: the minimum rate exceeds "
				       "the rate", where);
	}
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!job->blockalign[d])
			continue;
		if (job->direct && job->blockalign[d] % 512)
			return err_set(err, EINVAL, "%s: blockalign %u is not a "
				       "multiple of 512, which direct=1 "
				       "(O_DIRECT) needs", where,
				       job->blockalign[d]);
	}
	return 0;
}
