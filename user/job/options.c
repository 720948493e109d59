// SPDX-License-Identifier: GPL-2.0
/*
 * The job option table and the value parsers behind it.  One table serves job
 * files, the fio-style command line, the defaults and --help, so they can
 * never disagree.  Names, aliases, units and defaults follow fio 3.x.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "workload/engine.h"
#include "job/options.h"

#define NSEC_PER_SEC 1000000000ULL
#define BS_MAX_BYTES (128ULL << 20)

enum opt_type {
	OPT_STR,     /* copied into a char array */
	OPT_SIZE,    /* uint64_t bytes, fio size suffixes */
	OPT_UINT,    /* unsigned int or uint64_t, decimal or 0x hex */
	OPT_BOOL,    /* bool; a bare key means true */
	OPT_TIME,    /* uint64_t ns; a bare number is in unit_ns */
	OPT_ENUM,    /* one of values[] */
	OPT_ENGINE,  /* ioengine name, checked with engine_find() */
	OPT_BS,      /* "4k" or "4k,8k" (read,write) */
	OPT_BSRANGE, /* "512-4k" or "4k-16k,8k-32k" (read,write) */
};

/* bool stored inverted (buffered -> direct); percent stored as 100 - N
 * (rwmixwrite -> rwmixread). */
#define OPT_NEGATE   (1u << 0)
/* An empty value is allowed and clears the string (filename=, directory=). */
#define OPT_EMPTY_OK (1u << 1)
/* fio's filename syntax: ':' separates files, '\:' is a literal colon. */
#define OPT_FILENAME (1u << 2)

struct opt_value {
	const char *name;
	int value;
	const char *unsupported; /* non-NULL: fio knows it, iodig refuses */
};

struct option_def {
	const char *name;
	const char *alias;
	enum opt_type type;
	size_t offset;
	size_t field_size;
	const char *def;  /* applied by job_set_defaults(); NULL = zero */
	const char *help;
	const struct opt_value *values;
	uint64_t min, max; /* OPT_UINT range, inclusive */
	uint64_t unit_ns;  /* OPT_TIME: unit of a bare number */
	unsigned int flags;
};

#define FIELD(f) .offset = offsetof(struct job, f), \
		 .field_size = sizeof(((struct job *)0)->f)

static const struct opt_value rw_values[] = {
	{ "read", RW_READ, NULL },
	{ "write", RW_WRITE, NULL },
	{ "randread", RW_RANDREAD, NULL },
	{ "randwrite", RW_RANDWRITE, NULL },
	{ "rw", RW_RW, NULL },
	{ "readwrite", RW_RW, NULL },
	{ "randrw", RW_RANDRW, NULL },
	{ "trim", -1, "iodig issues no discards" },
	{ "randtrim", -1, "iodig issues no discards" },
	{ "trimwrite", -1, "iodig issues no discards" },
	{ "randtrimwrite", -1, "iodig issues no discards" },
	{ NULL, 0, NULL },
};

#define VERIFY_ONLY "iodig verifies with crc32c only"
static const struct opt_value verify_values[] = {
	{ "0", VERIFY_NONE, NULL },
	{ "none", VERIFY_NONE, NULL },
	{ "crc32c", VERIFY_CRC32C, NULL },
	{ "crc32c-intel", VERIFY_CRC32C, NULL }, /* fio's alias */
	{ "md5", -1, VERIFY_ONLY },   { "crc64", -1, VERIFY_ONLY },
	{ "crc32", -1, VERIFY_ONLY }, { "crc16", -1, VERIFY_ONLY },
	{ "crc7", -1, VERIFY_ONLY },  { "sha1", -1, VERIFY_ONLY },
	{ "sha256", -1, VERIFY_ONLY }, { "sha512", -1, VERIFY_ONLY },
	{ "sha3-224", -1, VERIFY_ONLY }, { "sha3-256", -1, VERIFY_ONLY },
	{ "sha3-384", -1, VERIFY_ONLY }, { "sha3-512", -1, VERIFY_ONLY },
	{ "xxhash", -1, VERIFY_ONLY }, { "meta", -1, VERIFY_ONLY },
	{ "pattern", -1, VERIFY_ONLY }, { "null", -1, VERIFY_ONLY },
	{ NULL, 0, NULL },
};

static const struct option_def options[] = {
	{ .name = "name", .type = OPT_STR, FIELD(name),
	  .help = "Job name (defaults to the [section] name)" },
	{ .name = "filename", .type = OPT_STR, FIELD(filename),
	  .flags = OPT_EMPTY_OK | OPT_FILENAME,
	  .help = "File or block device; none: the scratch device, or "
		  "directory/jobname" },
	{ .name = "directory", .type = OPT_STR, FIELD(directory),
	  .flags = OPT_EMPTY_OK,
	  .help = "Directory for files named after the job" },
	{ .name = "size", .type = OPT_SIZE, FIELD(size), .def = "0",
	  .help = "Bytes of the target region; 0 = whole file or device" },
	{ .name = "io_size", .alias = "io_limit", .type = OPT_SIZE,
	  FIELD(io_size), .def = "0",
	  .help = "Bytes to transfer; 0 = size" },
	{ .name = "offset", .alias = "fileoffset", .type = OPT_SIZE,
	  FIELD(offset), .def = "0", .help = "Start of the region" },
	{ .name = "bs", .alias = "blocksize", .type = OPT_BS, FIELD(bs),
	  .def = "4k", .help = "Block size, or read,write block sizes" },
	{ .name = "bsrange", .alias = "blocksize_range", .type = OPT_BSRANGE,
	  FIELD(bs_min),
	  .help = "Block size range min-max, or read,write ranges" },
	{ .name = "rw", .alias = "readwrite", .type = OPT_ENUM, FIELD(rw),
	  .values = rw_values, .def = "read", .help = "I/O pattern" },
	{ .name = "rwmixread", .type = OPT_UINT, FIELD(rwmixread),
	  .min = 0, .max = 100, .def = "50",
	  .help = "Percent of reads in rw/randrw" },
	{ .name = "rwmixwrite", .type = OPT_UINT, FIELD(rwmixread),
	  .min = 0, .max = 100, .flags = OPT_NEGATE,
	  .help = "Percent of writes in rw/randrw (sets rwmixread=100-N)" },
	{ .name = "ioengine", .type = OPT_ENGINE, FIELD(ioengine),
	  .def = "psync", .help = "I/O engine (sync is psync)" },
	{ .name = "iodepth", .type = OPT_UINT, FIELD(iodepth),
	  .min = 1, .max = 65536, .def = "1",
	  .help = "I/Os kept in flight" },
	{ .name = "iodepth_batch_submit", .alias = "iodepth_batch",
	  .type = OPT_UINT, FIELD(iodepth_batch_submit), .min = 0,
	  .max = 65536, .def = "1",
	  .help = "I/Os submitted at once; 0 = all queued" },
	{ .name = "iodepth_batch_complete_min",
	  .alias = "iodepth_batch_complete", .type = OPT_UINT,
	  FIELD(iodepth_batch_complete_min), .min = 0, .max = 65536,
	  .def = "1", .help = "Completions to wait for when reaping" },
	{ .name = "numjobs", .type = OPT_UINT, FIELD(numjobs), .min = 1,
	  .max = 1024, .def = "1", .help = "Clones of this job" },
	{ .name = "thread", .type = OPT_BOOL, FIELD(thread),
	  .help = "Run clones as threads, not processes" },
	{ .name = "direct", .type = OPT_BOOL, FIELD(direct), .def = "0",
	  .help = "O_DIRECT I/O (negates buffered)" },
	{ .name = "buffered", .type = OPT_BOOL, FIELD(direct), .def = "1",
	  .flags = OPT_NEGATE, .help = "Buffered I/O (negates direct)" },
	{ .name = "runtime", .alias = "timeout", .type = OPT_TIME,
	  FIELD(runtime_ns), .unit_ns = NSEC_PER_SEC, .def = "0",
	  .help = "Stop after this time (bare number: seconds)" },
	{ .name = "time_based", .type = OPT_BOOL, FIELD(time_based),
	  .help = "Repeat the region until runtime has passed" },
	{ .name = "ramp_time", .type = OPT_TIME, FIELD(ramp_time_ns),
	  .unit_ns = NSEC_PER_SEC, .def = "0",
	  .help = "Run this long before measuring (seconds)" },
	{ .name = "startdelay", .type = OPT_TIME, FIELD(startdelay_ns),
	  .unit_ns = NSEC_PER_SEC, .def = "0",
	  .help = "Wait this long before starting (seconds)" },
	{ .name = "group_reporting", .type = OPT_BOOL,
	  FIELD(group_reporting),
	  .help = "Report the group as one, not per job" },
	{ .name = "stonewall", .alias = "wait_for_previous", .type = OPT_BOOL,
	  FIELD(stonewall),
	  .help = "Wait for earlier jobs; start a new group" },
	{ .name = "randrepeat", .type = OPT_BOOL, FIELD(randrepeat),
	  .def = "1", .help = "Same random offsets on every run" },
	{ .name = "randseed", .type = OPT_UINT, FIELD(randseed), .min = 0,
	  .max = UINT64_MAX, .def = "0x89",
	  .help = "Seed of the offset generator" },
	{ .name = "norandommap", .type = OPT_BOOL, FIELD(norandommap),
	  .help = "Random offsets may repeat before all are covered" },
	{ .name = "hipri", .type = OPT_BOOL, FIELD(hipri),
	  .help = "Polled completions (RWF_HIPRI / IORING_SETUP_IOPOLL)" },
	{ .name = "fixedbufs", .type = OPT_BOOL, FIELD(fixedbufs),
	  .help = "io_uring registered buffers" },
	{ .name = "registerfiles", .type = OPT_BOOL, FIELD(registerfiles),
	  .help = "io_uring registered files" },
	{ .name = "sqthread_poll", .type = OPT_BOOL, FIELD(sqthread_poll),
	  .help = "io_uring kernel submission thread" },
	{ .name = "nowait", .type = OPT_BOOL, FIELD(nowait),
	  .help = "RWF_NOWAIT: fail instead of blocking" },
	{ .name = "verify", .type = OPT_ENUM, FIELD(verify),
	  .values = verify_values, .def = "0",
	  .help = "Check written data on read back" },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

static const struct option_def *option_find(const char *key)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		if (!strcmp(options[i].name, key) ||
		    (options[i].alias && !strcmp(options[i].alias, key)))
			return &options[i];
	}
	return NULL;
}

bool job_option_known(const char *key)
{
	return key && option_find(key);
}

/* ---- value parsers ---------------------------------------------------- */

struct unit {
	const char *suffix;
	uint64_t mult;
};

/* kb_base=1024, fio's default.  Note: fio 3.33 reads "KiB" as 1000 there
 * (its inverted kb_base convention); iodig takes the IEC meaning. */
static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
	{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
	{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
	{ "p", 1ULL << 50 }, { "pb", 1ULL << 50 }, { "pib", 1ULL << 50 },
	{ NULL, 0 },
};

static const struct unit time_units[] = {
	{ "us", 1000ULL }, { "usec", 1000ULL },
	{ "ms", 1000000ULL }, { "msec", 1000000ULL },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC }, { "d", 86400 * NSEC_PER_SEC },
	{ NULL, 0 },
};

static int unit_find(const struct unit *units, const char *suffix,
		     uint64_t *mult)
{
	for (; units->suffix; units++) {
		if (!strcasecmp(units->suffix, suffix)) {
			*mult = units->mult;
			return 0;
		}
	}
	return -EINVAL;
}

/* Digits (decimal, or hex after 0x when @hex_ok), no sign, no spaces;
 * *end points at what follows. */
static int parse_digits(const char *s, bool hex_ok, uint64_t *out,
			const char **end)
{
	int base = 10;
	char *e;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
		base = 16;
	}
	errno = 0;
	*out = strtoull(s, &e, base);
	if (errno == ERANGE)
		return -ERANGE;
	*end = e;
	return 0;
}

static int parse_scaled(const char *s, bool hex_ok, const struct unit *units,
			uint64_t bare_mult, uint64_t *out)
{
	const char *end;
	uint64_t v, mult;
	int ret;

	ret = parse_digits(s, hex_ok, &v, &end);
	if (ret)
		return ret;
	if (*end == '\0')
		mult = bare_mult;
	else if (unit_find(units, end, &mult))
		return -EINVAL;
	if (v && mult > UINT64_MAX / v)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	return parse_scaled(s, true, size_units, 1, out);
}

int parse_time_ns(const char *s, uint64_t unit_ns, uint64_t *out)
{
	return parse_scaled(s, false, time_units, unit_ns, out);
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	if (!s) { /* a bare key, as in "time_based" */
		*out = true;
		return 0;
	}
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* ---- setters ------------------------------------------------------------ */

/* Values echoed in messages are cut: a fuzzed 8 KiB value helps nobody. */
#define VAL "'%.64s'"

static void *field_of(struct job *job, const struct option_def *o)
{
	return (char *)job + o->offset;
}

static int store_uint(void *p, size_t size, uint64_t v)
{
	if (size == sizeof(uint64_t)) {
		memcpy(p, &v, sizeof(uint64_t));
		return 0;
	}
	if (size == sizeof(unsigned int) && v <= UINT_MAX) {
		unsigned int u = (unsigned int)v;

		memcpy(p, &u, sizeof(u));
		return 0;
	}
	return -ERANGE;
}

static int size_error(const char *where, const char *key, const char *value,
		      int ret, struct errbuf *err)
{
	const char *why = "is not a size (a number with an optional k, m, g, "
			  "t or p suffix)";

	if (ret == -ERANGE)
		why = "is too large";
	else if (value[0] == '-')
		why = "is negative";
	else if (strchr(value, '.'))
		why = "is fractional; give whole bytes (1.5k is 1536)";
	else if (strchr(value, '%'))
		why = "is a percentage, which iodig does not support";
	return err_set(err, ret == -ERANGE ? ERANGE : EINVAL,
		       "%s: option '%s': " VAL " %s", where, key, value, why);
}

static int set_str(struct job *job, const struct option_def *o,
		   const char *value, const char *where, struct errbuf *err)
{
	char *dst = field_of(job, o);
	size_t n = 0;

	for (const char *p = value; *p; p++) {
		char c = *p;

		if ((o->flags & OPT_FILENAME) && c == '\\' && p[1] == ':') {
			c = ':';
			p++;
		} else if ((o->flags & OPT_FILENAME) && c == ':') {
			return err_set(err, EINVAL,
				       "%s: option '%s': " VAL " lists several "
				       "files, which iodig does not support "
				       "(write a ':' inside a path as '\\:')",
				       where, o->name, value);
		}
		if (n + 1 >= o->field_size)
			return err_set(err, ENAMETOOLONG,
				       "%s: option '%s': value is longer than "
				       "%zu bytes", where, o->name,
				       o->field_size - 1);
		dst[n++] = c;
	}
	dst[n] = '\0';
	return 0;
}

static int set_enum(struct job *job, const struct option_def *o,
		    const char *value, const char *where, struct errbuf *err)
{
	char allowed[256] = "";
	size_t used = 0;

	for (const struct opt_value *v = o->values; v->name; v++) {
		if (strcmp(v->name, value))
			continue;
		if (v->unsupported)
			return err_set(err, ENOTSUP, "%s: option '%s': " VAL
				       " is not supported (%s)", where,
				       o->name, value, v->unsupported);
		return store_uint(field_of(job, o), o->field_size,
				  (uint64_t)v->value);
	}
	if (!strcmp(o->name, "rw") && strchr(value, ':'))
		return err_set(err, ENOTSUP, "%s: option 'rw': " VAL " is not "
			       "supported (no ':N' offset modifiers)", where,
			       value);
	for (const struct opt_value *v = o->values; v->name; v++) {
		if (!v->unsupported && used < sizeof(allowed))
			used += snprintf(allowed + used, sizeof(allowed) - used,
					 "%s%s", used ? ", " : "", v->name);
	}
	return err_set(err, EINVAL, "%s: option '%s': " VAL " is not one of "
		       "%s", where, o->name, value, allowed);
}

/* Splits "a,b" into at most two parts; returns the part count, 3 for "too
 * many".  Each part is at most @part_len - 1 bytes, else -ENAMETOOLONG. */
static int split_rw(const char *value, char (*parts)[64], size_t part_len)
{
	int n = 0;
	const char *p = value;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (n == 2)
			return 3;
		if (len >= part_len)
			return -ENAMETOOLONG;
		memcpy(parts[n], p, len);
		parts[n][len] = '\0';
		n++;
		if (!comma)
			return n;
		p = comma + 1;
	}
}

static int parse_bs_value(const char *part, const char *where,
			  const char *key, uint32_t *out, struct errbuf *err)
{
	uint64_t v;
	int ret = parse_size(part, &v);

	if (ret)
		return size_error(where, key, part, ret, err);
	if (v == 0 || v > BS_MAX_BYTES)
		return err_set(err, ERANGE, "%s: option '%s': %llu is out of "
			       "range 1-%llu", where, key,
			       (unsigned long long)v, BS_MAX_BYTES);
	*out = (uint32_t)v;
	return 0;
}

/* bs=A sets both directions; bs=A,B sets read,write; an empty part keeps
 * the current value (fio: "bs=,8k" only changes writes).  bsrange=MIN-MAX
 * likewise.  The last of bs/bsrange wins; with a range bs is its maximum,
 * the size each I/O buffer needs. */
static int set_bs(struct job *job, const struct option_def *o,
		  const char *value, const char *where, struct errbuf *err)
{
	char parts[2][64];
	uint32_t lo[DDIR_COUNT], hi[DDIR_COUNT];
	int n = split_rw(value, parts, sizeof(parts[0]));
	bool any = false;

	if (n == -ENAMETOOLONG)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
			       "block size", where, o->name, value);
	if (n == 3)
		return err_set(err, ENOTSUP, "%s: option '%s': " VAL " has a "
			       "third (trim) part, which iodig does not "
			       "support", where, o->name, value);
	for (int d = 0; d < DDIR_COUNT; d++) {
		char *part = parts[n == 1 ? 0 : d];
		char *dash;
		int ret;

		lo[d] = job->bs_min[d];
		hi[d] = job->bs_max[d];
		if (!part[0])
			continue;
		any = true;
		dash = o->type == OPT_BSRANGE ? strchr(part, '-') : NULL;
		if (dash)
			*dash = '\0';
		ret = parse_bs_value(part, where, o->name, &lo[d], err);
		if (!ret)
			ret = parse_bs_value(dash ? dash + 1 : part, where,
					     o->name, &hi[d], err);
		if (dash && n == 1)
			*dash = '-'; /* the same part serves both directions */
		if (ret)
			return ret;
		if (lo[d] > hi[d]) { /* fio swaps a reversed range */
			uint32_t t = lo[d];

			lo[d] = hi[d];
			hi[d] = t;
		}
	}
	if (!any)
		return err_set(err, EINVAL, "%s: option '%s' needs a value",
			       where, o->name);
	for (int d = 0; d < DDIR_COUNT; d++) {
		job->bs_min[d] = lo[d];
		job->bs_max[d] = hi[d];
		job->bs[d] = hi[d];
	}
	return 0;
}

static int set_value(struct job *job, const struct option_def *o,
		     const char *value, const char *where, struct errbuf *err)
{
	const struct engine_ops *ops;
	const char *end;
	uint64_t v;
	bool b;
	int ret;

	switch (o->type) {
	case OPT_STR:
		return set_str(job, o, value, where, err);
	case OPT_SIZE:
		ret = parse_size(value, &v);
		if (ret)
			return size_error(where, o->name, value, ret, err);
		return store_uint(field_of(job, o), o->field_size, v);
	case OPT_TIME:
		ret = parse_time_ns(value, o->unit_ns, &v);
		if (ret == -ERANGE)
			return err_set(err, ERANGE, "%s: option '%s': " VAL
				       " is too long", where, o->name, value);
		if (ret)
			return err_set(err, EINVAL, "%s: option '%s': " VAL
				       " is not a time (a whole number with an "
				       "optional us, ms, s, m, h or d suffix)",
				       where, o->name, value);
		return store_uint(field_of(job, o), o->field_size, v);
	case OPT_UINT:
		ret = parse_digits(value, true, &v, &end);
		if (!ret && *end)
			ret = -EINVAL;
		if (ret == -EINVAL)
			return err_set(err, EINVAL, "%s: option '%s': " VAL
				       " is not a whole number", where,
				       o->name, value);
		if (ret || v < o->min || v > o->max)
			return err_set(err, ERANGE, "%s: option '%s': %.64s"
				       " is out of range %llu-%llu", where,
				       o->name, value,
				       (unsigned long long)o->min,
				       (unsigned long long)o->max);
		if (o->flags & OPT_NEGATE)
			v = o->max - v;
		return store_uint(field_of(job, o), o->field_size, v);
	case OPT_BOOL:
		if (parse_bool(value, &b))
			return err_set(err, EINVAL, "%s: option '%s': " VAL
				       " is not a boolean (1/0, true/false, "
				       "yes/no, on/off)", where, o->name,
				       value);
		*(bool *)field_of(job, o) = (o->flags & OPT_NEGATE) ? !b : b;
		return 0;
	case OPT_ENUM:
		return set_enum(job, o, value, where, err);
	case OPT_ENGINE:
		ops = engine_find(value);
		if (!ops || strlen(value) >= o->field_size)
			return err_set(err, EINVAL, "%s: option '%s': " VAL
				       " is not an engine iodig has (%s)",
				       where, o->name, value, engine_names());
		strcpy(field_of(job, o), value);
		job->engine = ops;
		return 0;
	case OPT_BS:
	case OPT_BSRANGE:
		return set_bs(job, o, value, where, err);
	}
	return err_set(err, EINVAL, "%s: option '%s' has no parser", where,
		       o->name);
}

/* Levenshtein distance, capped: only short keys get a suggestion. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0], cost;

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];

			cost = diag + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < cost)
				cost = row[j] + 1;
			if (row[j - 1] + 1 < cost)
				cost = row[j - 1] + 1;
			row[j] = cost;
			diag = up;
		}
	}
	return row[lb];
}

static const char *suggest(const char *key)
{
	const char *best = NULL;
	size_t best_d = 3; /* suggest only for one or two typos */

	for (size_t i = 0; i < N_OPTIONS; i++) {
		size_t d = edit_distance(key, options[i].name);

		if (d < best_d) {
			best_d = d;
			best = options[i].name;
		}
	}
	return strlen(key) > 3 ? best : NULL;
}

int job_option_set(struct job *job, const char *key, const char *value,
		   const char *where, struct errbuf *err)
{
	const struct option_def *o;
	const char *hint;

	if (!where)
		where = "option";
	if (!key || !key[0])
		return err_set(err, EINVAL, "%s: missing option name", where);
	o = option_find(key);
	if (!o) {
		hint = suggest(key);
		if (hint)
			return err_set(err, EINVAL, "%s: unknown option "
				       "'%.64s' (did you mean '%s'?)", where,
				       key, hint);
		return err_set(err, EINVAL, "%s: unknown option '%.64s'",
			       where, key);
	}
	if (!value && o->type != OPT_BOOL)
		return err_set(err, EINVAL, "%s: option '%s' needs a value",
			       where, key);
	if (value && !value[0]) {
		if (!(o->flags & OPT_EMPTY_OK))
			return err_set(err, EINVAL, "%s: option '%s' needs a "
				       "value", where, key);
		*(char *)field_of(job, o) = '\0';
		return 0;
	}
	return set_value(job, o, value, where, err);
}

void job_set_defaults(struct job *job)
{
	memset(job, 0, sizeof(*job));
	for (size_t i = 0; i < N_OPTIONS; i++) {
		if (options[i].def)
			set_value(job, &options[i], options[i].def, "default",
				  NULL);
	}
}

static const char *type_hint(const struct option_def *o)
{
	switch (o->type) {
	case OPT_STR:     return "STR";
	case OPT_SIZE:    return "SIZE";
	case OPT_UINT:    return "INT";
	case OPT_BOOL:    return "BOOL";
	case OPT_TIME:    return "TIME";
	case OPT_ENUM:    return "WORD";
	case OPT_ENGINE:  return "ENGINE";
	case OPT_BS:      return "SIZE[,SIZE]";
	case OPT_BSRANGE: return "MIN-MAX[,MIN-MAX]";
	}
	return "?";
}

void options_print_help(FILE *out)
{
	fprintf(out, "Job options, as \"key=value\" in a job file or "
		"\"--key=value\" on the command line\n"
		"(SIZE: k/m/g/t/p suffixes are powers of 1024; TIME: "
		"us/ms/s/m/h/d; BOOL: bare key means 1):\n");
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct option_def *o = &options[i];
		const char *sep = "";
		char key[64];

		snprintf(key, sizeof(key), "%s=%s", o->name, type_hint(o));
		fprintf(out, "  %-30s %s\n", key, o->help);
		if (!o->alias && !o->def && o->type != OPT_ENUM &&
		    o->type != OPT_ENGINE)
			continue;
		fprintf(out, "  %-30s   ", "");
		if (o->def) {
			fprintf(out, "default %s", o->def);
			sep = "; ";
		}
		if (o->alias) {
			fprintf(out, "%salias %s", sep, o->alias);
			sep = "; ";
		}
		if (o->type == OPT_UINT && o->max != UINT64_MAX) {
			fprintf(out, "%srange %llu-%llu", sep,
				(unsigned long long)o->min,
				(unsigned long long)o->max);
			sep = "; ";
		}
		if (o->type == OPT_ENGINE)
			fprintf(out, "%svalues %s", sep, engine_names());
		if (o->type == OPT_ENUM) {
			fprintf(out, "%svalues", sep);
			for (const struct opt_value *v = o->values; v->name;
			     v++) {
				if (!v->unsupported)
					fprintf(out, " %s", v->name);
			}
		}
		fputc('\n', out);
	}
}

void job_options_foreach(job_option_fn fn, void *arg)
{
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct option_def *o = &options[i];
		struct job_option_doc d = {
			.name = o->name, .alias = o->alias, .arg = type_hint(o),
			.help = o->help, .def = o->def, .min = o->min, .max = o->max,
			.has_range = o->type == OPT_UINT && o->max != UINT64_MAX,
		};
		size_t len = 0;

		if (o->type == OPT_ENGINE)
			snprintf(d.values, sizeof(d.values), "%s", engine_names());
		for (const struct opt_value *v = o->values; v && v->name; v++) {
			if (!v->unsupported && len < sizeof(d.values))
				len += (size_t)snprintf(d.values + len, sizeof(d.values) - len,
							"%s%s", len ? ", " : "", v->name);
		}
		fn(&d, arg);
	}
}
