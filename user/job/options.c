// SPDX-License-Identifier: GPL-2.0
/*
 * The job option table.  One table serves job files, the fio-style command
 * line, the defaults and --help, so they can never disagree; the parsers
 * behind it are base/option.c's.  Names, aliases, units and defaults
 * follow fio 3.x.
 */
#define _GNU_SOURCE /* SYNC_FILE_RANGE_* */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload/engine.h"
#include "workload/engine_opts.h"
#include "workload/pattern.h"
#include "job/control_opts.h"
#include "job/dedupe_opts.h"
#include "job/file_opts.h"
#include "job/fio_engines.h"
#include "job/mem_opts.h"
#include "job/options.h"
#include "job/process_opts.h"
#include "job/replay_opts.h"
#include "job/stat_opts.h"
#include "job/steady_opts.h"
#include "job/stream_options.h"
#include "job/sprandom_opts.h"

#define NSEC_PER_SEC 1000000000ULL

/* Values echoed in messages are cut: a fuzzed 8 KiB value helps nobody. */
#define VAL "'%.64s'"

#define FIELD(f) OPT_FIELD(struct job, f)

/* Splits "a,b,c" into at most DDIR_COUNT parts; returns the part count,
 * DDIR_COUNT + 1 for "too many".  Each part is at most @part_len - 1
 * bytes, else -ENAMETOOLONG. */
static int split_rw(const char *value, char (*parts)[64], size_t part_len)
{
	int n = 0;
	const char *p = value;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (n == DDIR_COUNT)
			return DDIR_COUNT + 1;
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

static int parse_bs_value(const struct job *job, const char *part,
			  const char *where, const char *key, uint32_t *out,
			  struct errbuf *err)
{
	uint64_t v;
	int ret = parse_size_kb(part, job->kb_base, &v);

	if (ret)
		return opt_size_error(where, key, part, ret, err);
	if (v == 0 || v > JOB_BS_MAX)
		return err_set(err, ERANGE, "%s: option '%s': %llu is out of "
			       "range 1-%llu", where, key,
			       (unsigned long long)v, JOB_BS_MAX);
	*out = (uint32_t)v;
	return 0;
}

/* bs=A sets every direction; bs=A,B sets read,write and, as in fio's
 * parser, trim to the last value given; bs=A,B,C read,write,trim.  An
 * empty part keeps the current value (fio: "bs=,8k" does not change
 * reads).  bsrange=MIN-MAX likewise.  The last of bs/bsrange wins; with a range bs is its maximum,
 * the size each I/O buffer needs. */
static int set_sizes(struct job *job, const struct opt_desc *o,
		     const char *value, bool range, const char *where,
		     struct errbuf *err)
{
	char parts[DDIR_COUNT][64];
	uint32_t lo[DDIR_COUNT], hi[DDIR_COUNT];
	int n = split_rw(value, parts, sizeof(parts[0]));
	bool any = false;

	if (n == -ENAMETOOLONG)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
			       "block size", where, o->name, value);
	if (n > DDIR_COUNT)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " has more "
			       "than three (read, write, trim) parts", where,
			       o->name, value);
	for (int d = 0; d < DDIR_COUNT; d++) {
		char *part = parts[d < n ? d : n - 1];
		char *dash, sep = '-';
		int ret;

		lo[d] = job->bs_min[d];
		hi[d] = job->bs_max[d];
		if (!part[0])
			continue;
		any = true;
		dash = range ? strpbrk(part, "-:") : NULL; /* fio: 512:1M too */
		if (range && !dash)
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is "
				       "not a range MIN-MAX (fio 3.33 refuses "
				       "it, or after a comma ignores it)",
				       where, o->name, part);
		if (dash) {
			sep = *dash;
			*dash = '\0';
		}
		ret = parse_bs_value(job, part, where, o->name, &lo[d], err);
		if (!ret)
			ret = parse_bs_value(job, dash ? dash + 1 : part, where,
					     o->name, &hi[d], err);
		if (dash && d + 1 >= n)
			*dash = sep; /* the same part serves the rest */
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

/* bs=R[,W[,T]] in fio's parts (opt_fio_dir_parts): "4k-8k,16k" is reads
 * 4k, writes and trims 16k. */
static int set_bs(void *job, const struct opt_desc *o, const char *value,
		  const char *where, struct errbuf *err)
{
	char joined[3 * 64 + 3];
	int ret = opt_fio_dir_parts(o, value, ((struct job *)job)->kb_base,
				    joined, sizeof(joined), where, err);

	return ret ? ret : set_sizes(job, o, joined, false, where, err);
}

static int set_bsrange(void *job, const struct opt_desc *o, const char *value,
		       const char *where, struct errbuf *err)
{
	return set_sizes(job, o, value, true, where, err);
}

/* rw=MODE[:N]: the mode, then its modifier (job/stream_options.c). */
static int set_rw(void *job, const struct opt_desc *o, const char *value,
		  const char *where, struct errbuf *err)
{
	const char *colon = strchr(value, ':');
	char mode[32];
	int ret;

	if (!colon) {
		ret = opt_set_typed(job, o, value, where, err);
		return ret ? ret : stream_rw_modifier(job, NULL, where, err);
	}
	snprintf(mode, sizeof(mode), "%.*s", (int)(colon - value), value);
	ret = opt_set_typed(job, o, mode, where, err);
	return ret ? ret : stream_rw_modifier(job, colon + 1, where, err);
}

/*
 * fio's LOW-HIGH form of a size or time option: @o's field takes LOW and
 * the uint64_t field at @high_offset HIGH, which is 0 without a range.
 * LOW ends at the first of @seps after the value's first character (a
 * sign); HIGH starts after the last of them when @last (fio's filesize
 * takes A-B/C-D as A to D), else after that first one.  A range whose
 * HIGH is below its LOW is refused with @reversed.
 */
static int set_low_high(struct job *job, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err, const char *seps, bool last,
			size_t high_offset, const char *reversed)
{
	const char *sep = value && value[0] ? strpbrk(value + 1, seps) : NULL;
	uint64_t *low_field = (uint64_t *)((char *)job + o->offset);
	uint64_t *high_field = (uint64_t *)((char *)job + high_offset);
	struct opt_desc high = *o;
	const char *from;
	char low[160];
	int ret;

	*high_field = 0;
	if (!sep)
		return opt_set_typed(job, o, value, where, err);
	if ((size_t)(sep - value) >= sizeof(low))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is too long", where,
			       o->name, value);
	from = sep;
	if (last)
		for (const char *c = sep; *c; c++)
			if (strchr(seps, *c))
				from = c;
	snprintf(low, sizeof(low), "%.*s", (int)(sep - value), value);
	high.offset = high_offset;
	ret = opt_set_typed(job, o, low, where, err);
	if (!ret)
		ret = opt_set_typed(job, &high, from + 1, where, err);
	if (!ret && *high_field < *low_field)
		ret = err_set(err, EINVAL, "%s: option '%s': " VAL "%s", where, o->name, value,
			      reversed);
	return ret;
}

/* filesize=SIZE, or fio's LOW-HIGH (a random size per file); of
 * LOW-HIGH/LOW2-HIGH2 fio takes the first and the last value, and it
 * draws nonsense sizes from a reversed range.  ':' and ',' part the
 * values as '-' does (fio 3.33 draws the same sizes from 2k,16k, 2k:16k
 * and 2k-16k, and from 4k-8k,16k-32k those of 4k-32k). */
static int set_filesize(void *base, const struct opt_desc *o,
			const char *value, const char *where,
			struct errbuf *err)
{
	struct job *job = base;
	char trimmed[160];
	size_t n = value ? strlen(value) : 0;
	int ret;

	if (fio_raw_percent(value, &job->filesize))
		return 0;
	/* fio takes 4k, as 4k: a ',' with nothing after it parts nothing */
	while (n && value[n - 1] == ',' && n < sizeof(trimmed))
		n--;
	if (value && n < strlen(value)) {
		snprintf(trimmed, sizeof(trimmed), "%.*s", (int)n, value);
		value = trimmed;
	}
	ret = set_low_high(job, o, value, where, err, "-:,", true,
			   offsetof(struct job, filesize_high),
			   ": its low size is above its high one");

	if (!ret && job->filesize == job->filesize_high)
		job->filesize_high = 0;
	return ret;
}

/* An engine iodig has, else fio's name for one of them; fio's other
 * engines are refused saying why (job/fio_engines.c). */
static int set_engine(void *base, const struct opt_desc *o, const char *value,
		      const char *where, struct errbuf *err)
{
	const struct engine_ops *ops = fio_engine_resolve(value);
	const struct fio_engine *fe = ops ? NULL : fio_engine_find(value);
	struct job *job = base;
	char why[512];

	if (fe) {
		fio_engine_refusal(fe, value, why, sizeof(why));
		return err_set(err, ENOTSUP, "%s: %s", where, why);
	}
	if (!ops || strlen(value) >= o->field_size)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not an "
			       "engine iodig has (%s)", where, o->name, value,
			       engine_names());
	strcpy(job->ioengine, value);
	job->engine = ops;
	engine_opts_reset(job);
	return 0;
}

OPT_VALUES(rw_values,
	OPT_VAL("read", RW_READ),
	OPT_VAL("write", RW_WRITE),
	OPT_VAL("randread", RW_RANDREAD),
	OPT_VAL("randwrite", RW_RANDWRITE),
	OPT_VAL("rw", RW_RW),
	OPT_VAL("readwrite", RW_RW),
	OPT_VAL("randrw", RW_RANDRW),
	OPT_VAL("trim", RW_TRIM),
	OPT_VAL("randtrim", RW_RANDTRIM),
	OPT_VAL("trimwrite", RW_TRIMWRITE),
	OPT_VAL("randtrimwrite", RW_RANDTRIMWRITE));

/* ---- verification and buffer contents (fio's verify*, buffer_*) ---- */

OPT_VALUES(verify_values,
	OPT_VAL("0", VERIFY_NONE),
	OPT_VAL("md5", VERIFY_MD5),
	OPT_VAL("crc64", VERIFY_CRC64),
	OPT_VAL("crc32", VERIFY_CRC32),
	OPT_VAL("crc32c", VERIFY_CRC32C),
	OPT_VAL("crc32c-intel", VERIFY_CRC32C), /* fio writes it as crc32c */
	OPT_VAL("crc16", VERIFY_CRC16),
	OPT_VAL("crc7", VERIFY_CRC7),
	OPT_VAL("sha1", VERIFY_SHA1),
	OPT_VAL("sha256", VERIFY_SHA256),
	OPT_VAL("sha512", VERIFY_SHA512),
	OPT_VAL("sha3-224", VERIFY_SHA3_224),
	OPT_VAL("sha3-256", VERIFY_SHA3_256),
	OPT_VAL("sha3-384", VERIFY_SHA3_384),
	OPT_VAL("sha3-512", VERIFY_SHA3_512),
	OPT_VAL("xxhash", VERIFY_XXHASH),
	OPT_VAL("meta", VERIFY_META),
	OPT_VAL("pattern", VERIFY_PATTERN_NO_HDR),
	OPT_VAL("null", VERIFY_NULL));

/* fio's sync=: the flag the job's files are opened with. */
OPT_VALUES(sync_values,
	OPT_VAL("none", 0),
	OPT_VAL("0", 0),
	OPT_VAL("sync", O_SYNC),
	OPT_VAL("1", O_SYNC),
	OPT_VAL("dsync", O_DSYNC));

/* fio's sync_file_range=FLAGS[:N]: FLAGS wait_before, write and
 * wait_after joined by ','; N (default 1) is every how many writes.  fio
 * reads N with atoi, so 8k is 8 and a word 0 (no syncs); a word is an
 * error here. */
static int set_sync_file_range(void *base, const struct opt_desc *o, const char *value,
			       const char *where, struct errbuf *err)
{
	static const struct { const char *word; unsigned int flag; } flags[] = {
		{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
		{ "write", SYNC_FILE_RANGE_WRITE },
		{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER },
	};
	struct job *job = base;
	const char *colon = value ? strchr(value, ':') : NULL;
	size_t len = colon ? (size_t)(colon - value) : value ? strlen(value) : 0;
	unsigned int set = 0;
	unsigned long nr = 1;
	char *end;

	for (size_t at = 0; at < len;) {
		size_t n = strcspn(value + at, ",:");
		size_t i = 0;

		while (i < sizeof(flags) / sizeof(flags[0]) &&
		       (strlen(flags[i].word) != n || strncmp(value + at, flags[i].word, n)))
			i++;
		if (n && i == sizeof(flags) / sizeof(flags[0]))
			return err_set(err, EINVAL, "%s: option '%s': '%.*s' is not one of "
				       "wait_before, write, wait_after", where, o->name,
				       (int)(n > 64 ? 64 : n), value + at);
		if (n)
			set |= flags[i].flag;
		at += n + 1;
	}
	if (!set)
		return err_set(err, EINVAL, "%s: option '%s' needs flags: wait_before, "
			       "write, wait_after joined by ',', then :N", where, o->name);
	if (colon) {
		errno = 0;
		nr = strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || nr > UINT32_MAX ||
		    colon[1] == '-')
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is not "
				       "FLAGS:N with N a number of writes", where, o->name,
				       value);
	}
	job->sync_file_range_flags = set;
	job->sync_file_range_nr = (unsigned int)nr;
	return 0;
}

/* fio's write_hint: its five words; not given is RWH_WRITE_LIFE_NOT_SET. */
OPT_VALUES(write_hint_values,
	OPT_VAL("none", RWH_WRITE_LIFE_NONE),
	OPT_VAL("short", RWH_WRITE_LIFE_SHORT),
	OPT_VAL("medium", RWH_WRITE_LIFE_MEDIUM),
	OPT_VAL("long", RWH_WRITE_LIFE_LONG),
	OPT_VAL("extreme", RWH_WRITE_LIFE_EXTREME));

/* startdelay=A-B (or A:B): fio waits a random time in the range, drawn
 * as its fixup_options does (workload/worker.c); a range whose end is
 * before its start, which fio turns into a wait of hours, is refused. */
static int set_startdelay(void *base, const struct opt_desc *o, const char *value,
			  const char *where, struct errbuf *err)
{
	return set_low_high(base, o, value, where, err, "-:", false,
			    offsetof(struct job, startdelay_high_ns), " ends before it starts");
}

/* Sets @o and, for a value given (not the default), notes @given. */
static int set_noting_given(void *base, const struct opt_desc *o, const char *value,
			    const char *where, struct errbuf *err, bool *given)
{
	int ret = opt_set_typed(base, o, value, where, err);

	if (!ret && strcmp(where, "default"))
		*given = true;
	return ret;
}

/* fio seeds a job repeatably when randseed is given, randrepeat=0 too. */
static int set_randseed(void *base, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err)
{
	return set_noting_given(base, o, value, where, err,
				&((struct job *)base)->randseed_set);
}

static int set_verify(void *base, const struct opt_desc *o, const char *value,
		      const char *where, struct errbuf *err)
{
	return set_noting_given(base, o, value, where, err, &((struct job *)base)->verify_set);
}

static int set_pattern(void *base, const struct opt_desc *o, const char *value,
		       const char *where, struct errbuf *err)
{
	struct pattern *p = (struct pattern *)((char *)base + o->offset);

	/* only verify_pattern has %o: the offset of the block checked */
	return pattern_parse(p, value, !strcmp(o->name, "verify_pattern"), where,
			     o->name, err);
}

static int set_flag(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	struct opt_flag *f = (struct opt_flag *)((char *)base + o->offset);
	bool b = true;
	int ret = opt_read_bool(o, value, &b, where, err);

	if (ret)
		return ret;
	f->on = b;
	f->given = strcmp(where, "default") != 0;
	return 0;
}

/* verify_async_cpus: checked as cpus_allowed is, kept apart from it. */
static int set_verify_cpus(void *base, const struct opt_desc *o,
			   const char *value, const char *where,
			   struct errbuf *err)
{
	struct job *scratch = calloc(1, sizeof(*scratch));
	int ret;

	if (!scratch)
		return err_set(err, ENOMEM, "%s: out of memory", where);
	ret = set_cpus_allowed(scratch, o, value, where, err);
	if (!ret)
		((struct job *)base)->verify_async_cpus = scratch->cpus;
	free(scratch);
	return ret;
}

/* fio's verify trims some of the blocks it wrote and expects zeros
 * when reading them back; iodig's verify does not. */
#define NO_TRIM "iodig's verify trims none of the blocks it wrote"
/* fio's mem=; cudamalloc is in fio's CUDA builds only (not Debian's). */
OPT_VALUES(mem_values,
	OPT_VAL("malloc", IOMEM_MALLOC),
	OPT_VAL("shm", IOMEM_SHM),
	OPT_VAL("shmhuge", IOMEM_SHMHUGE),
	OPT_VAL("mmap", IOMEM_MMAP),
	OPT_VAL("mmapshared", IOMEM_MMAPSHARED),
	OPT_VAL("mmaphuge", IOMEM_MMAPHUGE),
	{ "cudamalloc", IOMEM_MALLOC, "GPU memory for fio's GPUDirect RDMA (ioengine=rdma): "
	  "iodig has no GPU path" });

OPT_VALUES(kb_base_values, OPT_VAL("1024", 1024), OPT_VAL("1000", 1000));

OPT_VALUES(unit_base_values, OPT_VAL("0", 0), OPT_VAL("8", 8), OPT_VAL("1", 1));

OPT_VALUES(cpus_policy_values, OPT_VAL("shared", CPUS_SHARED), OPT_VAL("split", CPUS_SPLIT));

OPT_VALUES(fallocate_values,
	OPT_VAL("none", FALLOCATE_NONE),
	OPT_VAL("native", FALLOCATE_NATIVE),
	OPT_VAL("posix", FALLOCATE_POSIX),
	OPT_VAL("keep", FALLOCATE_KEEP),
	OPT_VAL("truncate", FALLOCATE_TRUNCATE),
	OPT_VAL("0", FALLOCATE_NONE),   /* fio's older names */
	OPT_VAL("1", FALLOCATE_POSIX));

OPT_VALUES(lockfile_values,
	OPT_VAL("none", LOCKFILE_NONE),
	OPT_VAL("exclusive", LOCKFILE_EXCLUSIVE),
	OPT_VAL("readwrite", LOCKFILE_READWRITE));

OPT_VALUES(fadvise_values,
	OPT_VAL("0", FADVISE_NONE),
	OPT_VAL("1", FADVISE_TYPE),
	OPT_VAL("random", FADVISE_RANDOM),
	OPT_VAL("sequential", FADVISE_SEQUENTIAL));

static const struct opt_desc options[] = {
	STR_OPT("name", FIELD(name), NULL, "Job name (defaults to the [section] name)"),
	STR_OPT("filename", FIELD(filename), NULL,
		"File or block device; none: the scratch device, or directory/jobname",
		.flags = OPT_FILENAME),
	STR_OPT("directory", FIELD(directory), NULL,
		"Directory for files named after the job"),
	STR_OPT("opendir", FIELD(opendir), NULL,
		"Add every regular file under this directory, recursively, to the job's files"),
	ENUM_OPT("lockfile", FIELD(lockfile), lockfile_values, "none",
		 "Lock the file around each I/O against other jobs' I/O on it: none, exclusive, "
		 "readwrite (reads share)", .set = set_lockfile),
	SIZE_OPT("size", FIELD(size), "0",
		 "Bytes (or Nz: zones) of the target region, or N% of the file or device; 0 = "
		 "whole file or device", .set = set_size_or_percent, ZONES(size)),
	SIZE_OPT("io_size", FIELD(io_size), "0",
		 "Bytes (or Nz: zones) to transfer, or N% of size; 0 = size", .alias = "io_limit",
		 .set = set_size_or_percent, ZONES(io_size)),
	SIZE_OPT("offset", FIELD(offset), "0",
		 "Start of the region (bytes, or Nz: zones), or N% into the file or device",
		 .alias = "fileoffset", .set = set_size_or_percent, ZONES(offset)),
	SIZE_OPT("offset_align", FIELD(offset_align), "0",
		 "Alignment of an offset=N%; 0 = the smallest block size"),
	/* nrfiles and filesize: what the file-operation engines need. */
	UINT_OPT("nrfiles", FIELD(nrfiles), "1", 1, 1u << 20,
		 "Files per job clone, the I/O spread over them (file_service_type)",
		 .alias = "nr_files"),
	SIZE_OPT("filesize", FIELD(filesize), "0",
		 "Bytes of each file; 0 = size / nrfiles", .set = set_filesize),
	{ .name = "bs", .alias = "blocksize", .type = OPT_CUSTOM, FIELD(bs),
	  .set = set_bs, .hint = "SIZE[,SIZE[,SIZE]]", .def = "4k", .flags = OPT_NUMBER,
	  .help = "Block size, or read,write,trim block sizes" },
	{ .name = "bsrange", .alias = "blocksize_range", .type = OPT_CUSTOM,
	  FIELD(bs_min), .set = set_bsrange, .hint = "MIN-MAX[,MIN-MAX]", .flags = OPT_NUMBER,
	  .help = "Block size range min-max, or read,write ranges" },
	BOOL_OPT("bs_unaligned", FIELD(bs_unaligned), "0",
		 "Sizes of a bsrange anywhere in it, not multiples of its minimum",
		 .alias = "blocksize_unaligned", .flags = OPT_BARE),
	BOOL_OPT("bs_is_seq_rand", FIELD(bs_is_seq_rand), "0",
		 "The read,write parts of bs, bsrange and bssplit are the sizes of sequential,random "
		 "I/Os"),
	ENUM_OPT("rw", FIELD(rw), rw_values, "read",
		 "I/O pattern", .alias = "readwrite", .set = set_rw),
	UINT_OPT("rwmixread", FIELD(rwmixread), "50", 0, 100, "Percent of reads in rw/randrw"),
	UINT_OPT("rwmixwrite", FIELD(rwmixread), NULL, 0, 100,
		 "Percent of writes in rw/randrw (sets rwmixread=100-N)", .flags = OPT_NEGATE),
	{ .name = "ioengine", .type = OPT_CUSTOM, FIELD(ioengine),
	  .set = set_engine, .hint = "ENGINE", .values_list = engine_names,
	  .def = "psync", .help = "I/O engine" },
	UINT_OPT("iodepth", FIELD(iodepth), "1", 1, 65536, "I/Os kept in flight"),
	UINT_OPT("iodepth_batch_submit", FIELD(iodepth_batch_submit), "1", 0, 65536,
		 "I/Os submitted at once; 0 = all queued", .alias = "iodepth_batch"),
	UINT_OPT("iodepth_batch_complete_min", FIELD(iodepth_batch_complete_min), "1", 0, 65536,
		 "Completions to wait for when reaping", .alias = "iodepth_batch_complete"),
	UINT_OPT("numjobs", FIELD(numjobs), "1", 1, 1024, "Clones of this job"),
	BOOL_OPT("thread", FIELD(thread), NULL,
		 "Run clones as threads, not processes (thread=N: N other than 0)",
		 .set = set_flag_number),
	BOOL_OPT("direct", FIELD(direct), "0", "O_DIRECT I/O (negates buffered)"),
	BOOL_OPT("buffered", FIELD(direct), "1",
		 "Buffered I/O (negates direct)", .flags = OPT_NEGATE),
	TIME_OPT("runtime", FIELD(runtime_ns), NSEC_PER_SEC, "0",
		 "Stop after this time (bare number: seconds)", .alias = "timeout"),
	BOOL_OPT("time_based", FIELD(time_based), NULL,
		 "Repeat the region until runtime has passed", .set = set_flag_number),
	TIME_OPT("ramp_time", FIELD(ramp_time_ns), NSEC_PER_SEC, "0",
		 "Run this long before measuring (seconds)"),
	TIME_OPT("startdelay", FIELD(startdelay_ns), NSEC_PER_SEC, "0",
		 "Wait this long before starting (seconds), or a time drawn in a range A-B",
		 .set = set_startdelay),
	BOOL_OPT("group_reporting", FIELD(group_reporting), NULL,
		 "Report the group as one, not per job", .set = set_flag_number),
	BOOL_OPT("stonewall", FIELD(stonewall), NULL,
		 "Wait for earlier jobs; start a new group",
		 .alias = "wait_for_previous", .set = set_flag_number),
	BOOL_OPT("randrepeat", FIELD(randrepeat), "1", "Same random offsets on every run"),
	UINT_OPT("randseed", FIELD(randseed), "0x89", 0, UINT64_MAX,
		 "Seed of the offset generator", .set = set_randseed),
	BOOL_OPT("allrandrepeat", FIELD(allrandrepeat), "0",
		 "Every random generator seeded repeatably from fio's own constant, whatever "
		 "randseed and randrepeat say"),
	BOOL_OPT("norandommap", FIELD(norandommap), NULL,
		 "Random offsets may repeat before all are covered", .set = set_flag_number),
	/* verification and buffer contents (fio's verify*, buffer_*) */
	ENUM_OPT("verify", FIELD(verify), verify_values, "0",
		 "Check written data on read back, fio's block header and this checksum",
		 .set = set_verify),
	BOOL_OPT("do_verify", FIELD(do_verify), "1",
		 "Read back and check after writing (with verify)"),
	BOOL_OPT("verify_only", FIELD(verify_only), NULL,
		 "Do not write: check what an earlier run of the job wrote",
		 .flags = OPT_BARE),
	BOOL_OPT("verify_fatal", FIELD(verify_fatal), NULL,
		 "Stop at the first bad verify interval of a block"),
	SIZE_OPT("verify_backlog", FIELD(verify_backlog), "0",
		 "Verify after this many blocks are written; 0 = after the write phase"),
	SIZE_OPT("verify_backlog_batch", FIELD(verify_backlog_batch), "0",
		 "Blocks verified each time; 0 = verify_backlog"),
	SIZE_OPT("verify_interval", FIELD(verify_interval), "0",
		 "A header every this many bytes; 0 = the smallest write block size",
		 .min = 80), /* fio: two of its 40-byte verify headers */
	SIZE_OPT("verify_offset", FIELD(verify_offset), "0",
		 "Move the header this far into each interval",
		 .min = 40), /* fio: one verify header */
	{ .name = "verify_pattern", .type = OPT_CUSTOM, FIELD(verify_pattern),
	  .set = set_pattern, .hint = "PATTERN",
	  .help = "Fill with (and check) this pattern: 0x hex, \"text\", "
		  "decimal, 'file', %o for the block offset" },
	BOOL_OPT("verify_dump", FIELD(verify_dump), NULL,
		 "Dump a bad block as read and as expected to files"),
	BOOL_OPT("verify_state_save", FIELD(verify_state_save), "1",
		 "Save fio's verify state file when a writing job ends"),
	BOOL_OPT("verify_state_load", FIELD(verify_state_load), NULL,
		 "Verify only what the saved verify state says was written"),
	UINT_OPT("verify_async", FIELD(verify_async), "0", 0, UINT32_MAX,
		 "fio's verify threads; iodig checks each block in the worker that read it, with "
		 "the same outcome"),
	{ .name = "verify_async_cpus", .type = OPT_CUSTOM,
	  FIELD(verify_async_cpus), .set = set_verify_cpus, .hint = "CPUS",
	  .help = "CPUs of fio's verify threads (checked; iodig verifies in "
		  "the worker, on its CPUs)" },
	BOOL_OPT("experimental_verify", FIELD(experimental_verify), NULL,
		 "fio regenerates the written offsets to verify; iodig checks the same blocks from "
		 "its log of the writes"),
	BOOL_OPT("verify_write_sequence", FIELD(verify_write_sequence), "1",
		 "Check the write number in each header (0: only the checksum and the rest, as "
		 "several writers of one block need)", .set = set_flag),
	REFUSED("trim_percentage", NO_TRIM),
	REFUSED("trim_verify_zero", NO_TRIM),
	REFUSED("trim_backlog", NO_TRIM),
	REFUSED("trim_backlog_batch", NO_TRIM),
	{ .name = "buffer_pattern", .type = OPT_CUSTOM, FIELD(buffer_pattern),
	  .set = set_pattern, .hint = "PATTERN",
	  .help = "Fill write buffers with this pattern (0x hex, \"text\", "
		  "decimal, 'file')" },
	BOOL_OPT("zero_buffers", FIELD(zero_buffers.on), NULL,
		 "Fill write buffers with zeros", .set = set_flag,
		 .flags = OPT_BARE),
	BOOL_OPT("refill_buffers", FIELD(refill_buffers.on), NULL,
		 "Refill write buffers before every write", .set = set_flag,
		 .flags = OPT_BARE),
	BOOL_OPT("scramble_buffers", FIELD(scramble_buffers.on), "1",
		 "Write the offset and time into each 512 bytes of a reused buffer, against naive "
		 "dedupe", .set = set_flag),
	UINT_OPT("buffer_compress_percentage", FIELD(buffer_compress_percentage), NULL, 0, 100,
		 "Make write data compress to this percent"),
	SIZE_OPT("buffer_compress_chunk", FIELD(buffer_compress_chunk), "512",
		 "Size of each random-then-fixed region"),
	UINT_OPT("dedupe_percentage", FIELD(dedupe_percentage), NULL, 0, 100,
		 "Percent of write buffers that repeat an earlier one"),
	ENUM_OPT("mem", FIELD(mem_type), mem_values, "malloc",
		 "What backs the I/O buffers (mmap, mmapshared, mmaphuge: :FILE maps that file)",
		 .alias = "iomem", .set = set_mem),
	SIZE_OPT("iomem_align", FIELD(mem_align), "0",
		 "Start the first buffer this many bytes past a page boundary",
		 .alias = "mem_align"),
	SIZE_OPT("hugepage-size", FIELD(hugepage_size), "2m",
		 "Huge page size the buffers of mem=shmhuge and mmaphuge are rounded up to"),
	SIZE_OPT("lockmem", FIELD(lockmem), "0",
		 "Bytes each worker mlock(2)s while it runs, out of the memory left to the rest"),

	/* job-file syntax and process options (fio's) */
	STR_OPT("description", FIELD(description), NULL,
		"Text describing the job, shown in the report"),
	ENUM_OPT("kb_base", FIELD(kb_base), kb_base_values, "1024",
		 "1024: k, m ... are powers of 1024 (KiB, MiB of 1000); 1000: the SI meaning"),
	ENUM_OPT("unit_base", FIELD(unit_base), unit_base_values, "0",
		 "Report bandwidth in bytes (0 or 8) or bits (1)"),
	{ .name = "cpus_allowed", .type = OPT_CUSTOM, FIELD(cpus),
	  .set = set_cpus_allowed, .hint = "CPUS",
	  .help = "CPUs the workers may run on, like 0,5,8-15" },
	{ .name = "cpumask", .type = OPT_CUSTOM, FIELD(cpus),
	  .set = set_cpumask, .hint = "MASK",
	  .help = "CPUs the workers may run on, bit N for CPU N (0-31)" },
	ENUM_OPT("cpus_allowed_policy", FIELD(cpus_policy), cpus_policy_values, "shared",
		 "shared: each worker may use every CPU of the set; split: one CPU each, round "
		 "robin"),
	{ .name = "nice", .type = OPT_CUSTOM, FIELD(nice), .set = set_nice,
	  .hint = "INT", .def = "0",
	  .help = "Added to the workers' nice value, -20 to 19" },
	UINT_OPT("prio", FIELD(ioprio), NULL, 0, 7,
		 "I/O priority level of the workers, 0 (highest) to 7", .set = set_ioprio_part),
	UINT_OPT("prioclass", FIELD(ioprio_class), NULL, 0, 3,
		 "I/O priority class of the workers: 1 realtime, 2 best effort, 3 idle (0: best "
		 "effort)", .set = set_ioprio_part),
	{ .name = "uid", .type = OPT_CUSTOM, FIELD(uid), .set = set_cred_id, .hint = "INT",
	  .def = "-1", .help = "User ID the workers run as (set before any other process option)" },
	{ .name = "gid", .type = OPT_CUSTOM, FIELD(gid), .set = set_cred_id, .hint = "INT",
	  .def = "-1", .help = "Group ID the workers run as" },
	STR_OPT("cgroup", FIELD(cgroup), NULL,
		"Control group the workers run in, made under the blkio (else cgroup2) hierarchy "
		"when missing"),
	UINT_OPT("cgroup_weight", FIELD(cgroup_weight), NULL, 100, 1000,
		 "The cgroup's blkio.weight (cgroup v1)"),
	BOOL_OPT("cgroup_nodelete", FIELD(cgroup_nodelete), "0",
		 "Leave the cgroups the run made (else removed when it ends)"),
	STR_OPT("ioscheduler", FIELD(ioscheduler), NULL,
		"Switch the job's disk to this I/O scheduler before it runs (iodig puts the old one "
		"back after the run)"),
	STR_OPT("exec_prerun", FIELD(exec_prerun), NULL,
		"Shell command each worker runs before its I/O, output in JOBNAME.prerun.txt (fails: "
		"no I/O, as fio)"),
	STR_OPT("exec_postrun", FIELD(exec_postrun), NULL,
		"Shell command each worker runs after its I/O, output in JOBNAME.postrun.txt"),

	/* ---- fio's file options (job/file_opts.c, run/prepare.c) ---- */
	STR_OPT("filename_format", FIELD(filename_format), NULL,
		"Names of a job's files without filename=: $jobname, $jobnum, $filenum, $clientuid "
		"(default $jobname.$jobnum.$filenum)"),
	BOOL_OPT("unique_filename", FIELD(unique_filename), "1",
		 "fio's client/server: the client's address before the files' names; a "
		 "local run has none"),
	{ .name = "file_service_type", .type = OPT_CUSTOM,
	  FIELD(file_service), .set = set_file_service,
	  .hint = "TYPE[:N]", .def = "roundrobin",
	  .help = "How the next I/O's file is chosen among several: random, "
		  "roundrobin or sequential, each for N I/Os (zipf:T, pareto:H "
		  "and normal:S are refused)" },
	BOOL_OPT("create_on_open", FIELD(create_on_open), "0",
		 "Create the files when the job opens them, not before the jobs start"),
	BOOL_OPT("unlink", FIELD(unlink), "0", "Remove the job's files when it ends"),
	BOOL_OPT("unlink_each_loop", FIELD(unlink_each_loop), "0",
		 "Remove the job's files after each loop (iodig: after the job's one pass)"),
	BOOL_OPT("allow_file_create", FIELD(allow_file_create), "1",
		 "May create files that do not exist (0: they must)"),
	BOOL_OPT("overwrite", FIELD(overwrite), "0",
		 "A write job writes its files out in full before its I/O (0: a missing file is "
		 "only sized)"),
	BOOL_OPT("create_serialize", FIELD(create_serialize), "1",
		 "Lay files out one job after the other (iodig always does; only the speed of "
		 "laying out differs)"),
	BOOL_OPT("create_fsync", FIELD(create_fsync), "1",
		 "fsync(2) a file written out before the jobs start (0: leave it dirty in the "
		 "page cache)"),
	BOOL_OPT("fill_device", FIELD(fill_device), "0",
		 "Write until the device or filesystem is full (ENOSPC ends the job without an "
		 "error)", .alias = "fill_fs"),
	UINT_OPT("openfiles", FIELD(openfiles), NULL, 1, 1u << 20,
		 "Files open at once (iodig keeps all of them open: at least the job's files)"),
	ENUM_OPT("sync", FIELD(sync_flags), sync_values, "none",
		 "Synchronous writes: none (0), sync (1: O_SYNC), dsync (O_DSYNC); with libpmem, a "
		 "drain after each write"),
	ENUM_OPT("write_hint", FIELD(write_hint), write_hint_values, NULL,
		 "Expected life of the data written, set on each file or block device opened "
		 "(fcntl F_SET_RW_HINT; with direct=1 F_SET_FILE_RW_HINT, which Linux 5.17 and "
		 "later refuse)"),
	UINT_OPT("fsync", FIELD(fsync_blocks), "0", 0, UINT32_MAX, "fsync(2) the file after every N writes"),
	UINT_OPT("fdatasync", FIELD(fdatasync_blocks), "0", 0, UINT32_MAX,
		 "fdatasync(2) the file after every N writes"),
	UINT_OPT("write_barrier", FIELD(write_barrier), "0", 0, UINT32_MAX,
		 "Every Nth write a barrier write: no effect, as in fio 3.33, where no engine "
		 "issues barriers"),
	{ .name = "sync_file_range", .type = OPT_CUSTOM, FIELD(sync_file_range_flags),
	  .set = set_sync_file_range, .hint = "FLAGS[:N]",
	  .help = "sync_file_range(2) of the range written since the last sync, after every "
		  "N writes; FLAGS: wait_before, write, wait_after joined by ','" },
	BOOL_OPT("end_fsync", FIELD(end_fsync), "0", "fsync(2) each file when the job's writes end"),
	BOOL_OPT("fsync_on_close", FIELD(fsync_on_close), "0", "fsync(2) each file before closing it"),
	BOOL_OPT("invalidate", FIELD(invalidate), "1",
		 "Drop the page cache of the job's region before each loop and the verify phase (a "
		 "device's whole cache)"),
	BOOL_OPT("pre_read", FIELD(pre_read), "0",
		 "Read the job's region into the page cache before its I/O (turns invalidate off)"),
	ENUM_OPT("fadvise_hint", FIELD(fadvise_hint), fadvise_values, "1",
		 "Advice on each open of a file or block device: 1 random or sequential as rw says, "
		 "random (no readahead), sequential (twice the readahead), 0 none"),
	BOOL_OPT("create_only", FIELD(create_only), "0", "Lay the files out and do no I/O"),
	BOOL_OPT("file_append", FIELD(file_append), "0", "Do the I/O after the end of the file"),
	ENUM_OPT("fallocate", FIELD(fallocate), fallocate_values, "native",
		 "How a writing job's new file gets its size: native (fallocate), posix "
		 "(posix_fallocate), keep (allocated, size 0), truncate (sized, no blocks), none "
		 "(empty)"),
	BOOL_OPT("allow_mounted_write", FIELD(allow_mounted_write), "0",
		 "Write to a block device in use or holding data (the job's --allow-destructive)"),
	{ .name = NULL },
};

/* The options of fio's built-in profiles (act, tiobench): fio takes them
 * in any job file, checks their value and does nothing else with them
 * (a job's "threads=1" does not make threads), so iodig does the same. */
static const struct opt_desc profile_options[] = {
	{ .name = "threads", .type = OPT_UINT, .max = UINT32_MAX,
	  .help = "tiobench" },
	{ .name = "numruns", .type = OPT_UINT, .max = UINT32_MAX,
	  .help = "tiobench" },
	{ .name = "block", .type = OPT_UINT, .max = UINT32_MAX,
	  .help = "tiobench" },
	{ .name = "dir", .type = OPT_STR, .help = "tiobench" },
	{ .name = "device-names", .type = OPT_STR, .help = "act" },
	{ .name = "load", .type = OPT_UINT, .max = UINT32_MAX, .help = "act" },
	{ .name = "test-duration", .type = OPT_TIME, .unit_ns = NSEC_PER_SEC,
	  .help = "act" },
	{ .name = "threads-per-queue", .type = OPT_UINT, .max = UINT32_MAX,
	  .help = "act" },
	{ .name = "read-req-num-512-blocks", .type = OPT_UINT,
	  .max = UINT32_MAX, .help = "act" },
	{ .name = "large-block-op-kbytes", .type = OPT_UINT,
	  .max = UINT32_MAX, .help = "act" },
	{ .name = "prep", .type = OPT_BOOL, .set = set_flag_number,
	  .help = "act" },
	{ .name = NULL },
};

/* Checks a profile option's value as fio does and keeps nothing. */
static int set_profile_option(const struct opt_desc *o, const char *value,
			      const char *where, struct errbuf *err)
{
	union {
		uint64_t num;
		bool flag;
		char str[PATH_MAX];
	} scratch;
	struct opt_desc d = *o;

	d.field_size = o->type == OPT_STR ? sizeof(scratch.str) :
		       o->type == OPT_BOOL ? sizeof(bool) : sizeof(uint64_t);
	return opt_set(&scratch, &d, value, where, err);
}

/* The job's own options: the main table, the I/O stream's, then the
 * measurement's. */
static const struct opt_desc *const job_tables[] = {
	options, stream_options, stat_options, control_options, replay_options,
	steady_options, dedupe_options, sprandom_options,
};
#define N_JOB_TABLES (sizeof(job_tables) / sizeof(job_tables[0]))

static const struct opt_desc *find_job_option(const char *key)
{
	const struct opt_desc *o = NULL;

	for (size_t t = 0; !o && t < N_JOB_TABLES; t++)
		o = opt_find(job_tables[t], key);
	return o;
}

bool job_option_known(const char *key)
{
	return key && (find_job_option(key) || engine_opt_lookup(key) ||
		       opt_find(profile_options, key));
}

static void closer(const char *key, const char *name, const char **best,
		   size_t *best_d)
{
	size_t d = opt_edit_distance(key, name);

	if (d < *best_d) {
		*best_d = d;
		*best = name;
	}
}

/* The job or engine option one or two typos away from @key. */
static const char *suggest(const char *key)
{
	const struct engine_ops *e;
	const char *best = NULL;
	size_t best_d = 3;

	for (size_t t = 0; t < N_JOB_TABLES; t++)
		for (const struct opt_desc *o = job_tables[t]; o->name; o++)
			closer(key, o->name, &best, &best_d);
	for (size_t i = 0; (e = engine_at(i)); i++) {
		for (const struct opt_desc *o = e->options; o && o->name; o++)
			closer(key, o->name, &best, &best_d);
	}
	return strlen(key) > 3 ? best : NULL;
}

int job_option_set_at(struct job *job, const char *key, const char *value,
		      const char *where, int line, struct errbuf *err)
{
	const struct opt_desc *o;
	const struct fio_engine *fe;
	const char *hint;
	char why[512];

	if (!where)
		where = "option";
	if (!key || !key[0])
		return err_set(err, EINVAL, "%s: missing option name", where);
	o = find_job_option(key);
	if (o)
		return opt_set_kb(job, o, value, job->kb_base, where, err);
	o = engine_opt_lookup(key);
	if (o)
		return engine_opt_give(job, o, value, where, line, err);
	o = opt_find(profile_options, key);
	if (o)
		return set_profile_option(o, value, where, err);
	fe = fio_engine_of_option(key);
	if (fe) {
		fio_engine_refusal(fe, fe->name, why, sizeof(why));
		return err_set(err, ENOTSUP, "%s: option '%.64s' is fio's ioengine=%s's: %s",
			       where, key, fe->name, why);
	}
	hint = suggest(key);
	if (hint)
		return err_set(err, EINVAL, "%s: unknown option '%.64s' (did you "
			       "mean '%s'?)", where, key, hint);
	return err_set(err, EINVAL, "%s: unknown option '%.64s'", where, key);
}

int job_option_set(struct job *job, const char *key, const char *value,
		   const char *where, struct errbuf *err)
{
	return job_option_set_at(job, key, value, where, 0, err);
}

int job_option_set_cli(struct job *job, const char *key, const char *value,
		       const char *where, struct errbuf *err)
{
	/* fio's getopt: "option filename requires an argument", whatever a
	 * job file's "key=" means for the option */
	if (value && !value[0])
		return err_set(err, EINVAL, "%s: option '%s' needs a value",
			       where, key);
	return job_option_set(job, key, value, where, err);
}

const char *job_option_name(const char *key)
{
	const struct opt_desc *o = opt_find(options, key);

	if (!o)
		o = engine_opt_lookup(key);
	return o ? o->name : key;
}

void job_set_defaults(struct job *job)
{
	memset(job, 0, sizeof(*job));
	for (size_t t = 0; t < N_JOB_TABLES; t++)
		opt_set_defaults(job, job_tables[t]);
}

void options_print_help(FILE *out)
{
	fprintf(out, "Job options, as \"key=value\" in a job file or "
		"\"--key=value\" on the command line\n"
		"(SIZE: k/m/g/t/p suffixes are powers of 1024 and KiB/MiB... "
		"of 1000, as fio's, the other way round with kb_base=1000; "
		"TIME: us/ms/s/m/h/d; BOOL: bare key means 1):\n");
	for (size_t t = 0; t < N_JOB_TABLES; t++)
		opt_print_help(out, job_tables[t]);
	engine_opts_print_help(out);
}

void job_options_foreach(job_option_fn fn, void *arg)
{
	const struct engine_ops *e;
	struct opt_doc d;

	for (size_t t = 0; t < N_JOB_TABLES; t++) {
		for (const struct opt_desc *o = job_tables[t]; o->name; o++) {
			opt_describe(o, &d);
			fn(&d, arg);
		}
	}
	for (size_t i = 0; (e = engine_at(i)); i++) {
		for (const struct opt_desc *o = e->options; o && o->name; o++) {
			/* an option several engines take, once */
			if (engine_opt_lookup(o->name) != o)
				continue;
			opt_describe(o, &d);
			engine_opt_owners(o->name, d.engines, sizeof(d.engines));
			fn(&d, arg);
		}
	}
}
