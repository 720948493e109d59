// Option table: every option and alias sets its field, value parsers (size, time, bool) and every error path.
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/engine.h"
#include "workload/engine_opts.h"
#include "job/options.h"
#include "tests/lib/check.h"
#include "tests/lib/engine_echo.h"

#define KIB 1024ULL
#define MIB (1024ULL * KIB)
#define GIB (1024ULL * MIB)
#define NS_S 1000000000ULL

/* Applies one option to a default job; returns the result code. */
static int set1(struct job *job, const char *key, const char *value,
		struct errbuf *err)
{
	job_set_defaults(job);
	err->msg[0] = '\0';
	return job_option_set(job, key, value, "t.fio:7", err);
}

#define SET_OK(job, key, value)                                            \
	do {                                                               \
		struct errbuf e_;                                          \
		int r_ = set1(job, key, value, &e_);                       \
		CHECK_MSG(r_ == 0, "%s=%s: %d %s", key,                    \
			  value ? value : "(bare)", r_, e_.msg);           \
	} while (0)

/* Fails with a message that contains every given fragment. */
static void expect_error(const char *key, const char *value,
			 const char *frag1, const char *frag2, int line)
{
	struct job job;
	struct errbuf err;
	int ret = set1(&job, key, value, &err);

	if (ret >= 0) {
		fprintf(stderr, "%s:%d: %s=%s was accepted\n", __FILE__, line,
			key, value ? value : "(bare)");
		check_failures++;
		return;
	}
	if (strncmp(err.msg, "t.fio:7: ", 9) || !strstr(err.msg, frag1) ||
	    (frag2 && !strstr(err.msg, frag2))) {
		fprintf(stderr, "%s:%d: %s=%s: message '%s' lacks '%s'/'%s'\n",
			__FILE__, line, key, value ? value : "(bare)", err.msg,
			frag1, frag2 ? frag2 : "");
		check_failures++;
	}
}
#define EXPECT_ERR(k, v, f1, f2) expect_error(k, v, f1, f2, __LINE__)

static void test_defaults(void)
{
	struct job j;

	job_set_defaults(&j);
	CHECK(j.bs[DDIR_READ] == 4096 && j.bs[DDIR_WRITE] == 4096);
	CHECK(j.bs_min[DDIR_READ] == 4096 && j.bs_max[DDIR_WRITE] == 4096);
	CHECK(j.rw == RW_READ);
	CHECK(j.iodepth == 1 && j.numjobs == 1);
	CHECK(j.iodepth_batch_submit == 1);
	CHECK(j.iodepth_batch_complete_min == 1);
	CHECK(!strcmp(j.ioengine, "psync"));
	CHECK(j.engine && !strcmp(j.engine->name, "psync"));
	CHECK(j.rwmixread == 50);
	CHECK(j.randrepeat && j.randseed == 0x89);
	CHECK(!j.direct && !j.time_based && !j.thread && !j.stonewall);
	CHECK(j.size == 0 && j.io_size == 0 && j.offset == 0);
	CHECK(j.runtime_ns == 0 && j.verify == VERIFY_NONE);
	CHECK(j.name[0] == '\0' && j.filename[0] == '\0');
	CHECK(j.group_id == 0);
}

/* fio 3.33's fadvise_hint values */
static const struct {
	const char *value;
	enum fadvise_hint hint;
} fadvise_hints[] = {
	{ "0", FADVISE_NONE }, { "1", FADVISE_TYPE },
	{ "random", FADVISE_RANDOM }, { "sequential", FADVISE_SEQUENTIAL },
};

static void test_every_option(void)
{
	struct job j;

	SET_OK(&j, "name", "seq-read");
	CHECK(!strcmp(j.name, "seq-read"));
	SET_OK(&j, "filename", "/dev/loop0");
	CHECK(!strcmp(j.filename, "/dev/loop0"));
	SET_OK(&j, "filename", "/dev/disk/by-path/pci-0000\\:00\\:1f.2");
	CHECK(!strcmp(j.filename, "/dev/disk/by-path/pci-0000:00:1f.2"));
	{ /* fio 3.33: "failed parsing filename=" */
		struct errbuf e;

		CHECK(set1(&j, "filename", "", &e) == -EINVAL);
		CHECK_MSG(strstr(e.msg, "'filename' needs a value"), "%s", e.msg);
	}
	SET_OK(&j, "directory", "/mnt/pmem");
	CHECK(!strcmp(j.directory, "/mnt/pmem"));
	SET_OK(&j, "size", "256m");
	CHECK(j.size == 256 * MIB);
	SET_OK(&j, "io_size", "1g");
	CHECK(j.io_size == GIB);
	SET_OK(&j, "io_limit", "2g");
	CHECK(j.io_size == 2 * GIB);
	SET_OK(&j, "offset", "1m");
	CHECK(j.offset == MIB);
	SET_OK(&j, "fileoffset", "2m");
	CHECK(j.offset == 2 * MIB);
	/* offset_increment=N% is its own percentage, not offset's */
	SET_OK(&j, "offset_increment", "25%");
	CHECK(j.offset_increment_percent == 25 && !j.offset_increment &&
	      !j.offset_percent);
	SET_OK(&j, "offset_increment", "1m");
	CHECK(j.offset_increment == MIB && !j.offset_increment_percent);

	SET_OK(&j, "bs", "8k");
	CHECK(j.bs[0] == 8192 && j.bs[1] == 8192);
	CHECK(j.bs_min[0] == 8192 && j.bs_max[1] == 8192);
	SET_OK(&j, "blocksize", "16k");
	CHECK(j.bs[0] == 16384 && j.bs[1] == 16384);
	SET_OK(&j, "bs", "4k,64k");
	CHECK(j.bs[DDIR_READ] == 4096 && j.bs[DDIR_WRITE] == 65536);
	SET_OK(&j, "bs", ",8k"); /* fio: only the write size changes */
	CHECK(j.bs[DDIR_READ] == 4096 && j.bs[DDIR_WRITE] == 8192);
	SET_OK(&j, "bs", "8k,");
	CHECK(j.bs[DDIR_READ] == 8192 && j.bs[DDIR_WRITE] == 4096);

	SET_OK(&j, "bsrange", "512-4k");
	CHECK(j.bs_min[0] == 512 && j.bs_max[0] == 4096);
	CHECK(j.bs_min[1] == 512 && j.bs_max[1] == 4096);
	CHECK(j.bs[0] == 4096 && j.bs[1] == 4096);
	SET_OK(&j, "bsrange", "4k-16k,8k-32k");
	CHECK(j.bs_min[0] == 4096 && j.bs_max[0] == 16384);
	CHECK(j.bs_min[1] == 8192 && j.bs_max[1] == 32768);
	SET_OK(&j, "blocksize_range", "16k-4k"); /* fio swaps */
	CHECK(j.bs_min[0] == 4096 && j.bs_max[0] == 16384);
	EXPECT_ERR("bsrange", "8k", "'8k' is not a range MIN-MAX", NULL);
	/* fio: trims take the third part, else the last part given */
	SET_OK(&j, "bs", "4k,8k,16k");
	CHECK(j.bs[DDIR_READ] == 4096 && j.bs[DDIR_WRITE] == 8192 &&
	      j.bs[DDIR_TRIM] == 16384);
	SET_OK(&j, "bs", "4k,8k");
	CHECK(j.bs[DDIR_WRITE] == 8192 && j.bs[DDIR_TRIM] == 8192);
	SET_OK(&j, "bs", "2k");
	CHECK(j.bs[DDIR_READ] == 2048 && j.bs[DDIR_TRIM] == 2048);
	SET_OK(&j, "bsrange", "1k-2k,2k-4k,4k-8k");
	CHECK(j.bs_min[DDIR_TRIM] == 4096 && j.bs_max[DDIR_TRIM] == 8192 &&
	      j.bs_min[DDIR_WRITE] == 2048);

	static const struct { const char *v; enum rw_mode rw; } rws[] = {
		{ "read", RW_READ }, { "write", RW_WRITE },
		{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE },
		{ "rw", RW_RW }, { "readwrite", RW_RW },
		{ "randrw", RW_RANDRW }, { "trim", RW_TRIM },
		{ "randtrim", RW_RANDTRIM }, { "trimwrite", RW_TRIMWRITE },
		{ "randtrimwrite", RW_RANDTRIMWRITE },
	};
	for (size_t i = 0; i < sizeof(rws) / sizeof(rws[0]); i++) {
		SET_OK(&j, "rw", rws[i].v);
		CHECK_MSG(j.rw == rws[i].rw, "rw=%s", rws[i].v);
		SET_OK(&j, "readwrite", rws[i].v);
		CHECK_MSG(j.rw == rws[i].rw, "readwrite=%s", rws[i].v);
	}

	SET_OK(&j, "rwmixread", "70");
	CHECK(j.rwmixread == 70);
	SET_OK(&j, "rwmixwrite", "30");
	CHECK(j.rwmixread == 70);
	SET_OK(&j, "rwmixwrite", "100");
	CHECK(j.rwmixread == 0);
	SET_OK(&j, "rwmixread", "0");
	CHECK(j.rwmixread == 0);

	SET_OK(&j, "ioengine", "libaio");
	CHECK(!strcmp(j.ioengine, "libaio") && !strcmp(j.engine->name,
						       "libaio"));
	SET_OK(&j, "ioengine", "io_uring");
	CHECK(!strcmp(j.engine->name, "io_uring"));
	SET_OK(&j, "ioengine", "mmap");
	CHECK(!strcmp(j.engine->name, "mmap"));
	SET_OK(&j, "ioengine", "sync");
	CHECK(!strcmp(j.ioengine, "sync") && !strcmp(j.engine->name, "sync"));
	SET_OK(&j, "ioengine", "pvsync2");
	CHECK(!strcmp(j.engine->name, "pvsync2"));

	SET_OK(&j, "iodepth", "64");
	CHECK(j.iodepth == 64);
	SET_OK(&j, "iodepth", "65536");
	CHECK(j.iodepth == 65536);
	SET_OK(&j, "iodepth_batch_submit", "8");
	CHECK(j.iodepth_batch_submit == 8);
	SET_OK(&j, "iodepth_batch", "0");
	CHECK(j.iodepth_batch_submit == 0);
	SET_OK(&j, "iodepth_batch_complete_min", "4");
	CHECK(j.iodepth_batch_complete_min == 4);
	SET_OK(&j, "iodepth_batch_complete", "0");
	CHECK(j.iodepth_batch_complete_min == 0);
	SET_OK(&j, "numjobs", "20");
	CHECK(j.numjobs == 20);

	static const struct { const char *key; size_t off; } bools[] = {
		{ "thread", offsetof(struct job, thread) },
		{ "direct", offsetof(struct job, direct) },
		{ "time_based", offsetof(struct job, time_based) },
		{ "group_reporting", offsetof(struct job, group_reporting) },
		{ "stonewall", offsetof(struct job, stonewall) },
		{ "wait_for_previous", offsetof(struct job, stonewall) },
		{ "norandommap", offsetof(struct job, norandommap) },
	};
	for (size_t i = 0; i < sizeof(bools) / sizeof(bools[0]); i++) {
		bool *field = (bool *)((char *)&j + bools[i].off);

		if (strcmp(bools[i].key, "direct")) { /* fio: direct=N only */
			SET_OK(&j, bools[i].key, NULL);
			CHECK_MSG(*field, "bare %s", bools[i].key);
		}
		SET_OK(&j, bools[i].key, "1");
		CHECK_MSG(*field, "%s=1", bools[i].key);
		SET_OK(&j, bools[i].key, "0");
		CHECK_MSG(!*field, "%s=0", bools[i].key);
	}
	SET_OK(&j, "randrepeat", "0");
	CHECK(!j.randrepeat);
	SET_OK(&j, "buffered", "0");
	CHECK(j.direct);
	SET_OK(&j, "buffered", "1");
	CHECK(!j.direct);
	EXPECT_ERR("buffered", NULL, "needs a value, 0 or 1", NULL);

	SET_OK(&j, "runtime", "5");
	CHECK(j.runtime_ns == 5 * NS_S);
	SET_OK(&j, "timeout", "500ms");
	CHECK(j.runtime_ns == 500000000ULL);
	SET_OK(&j, "ramp_time", "2");
	CHECK(j.ramp_time_ns == 2 * NS_S);
	SET_OK(&j, "startdelay", "1m");
	CHECK(j.startdelay_ns == 60 * NS_S);
	SET_OK(&j, "randseed", "12345");
	CHECK(j.randseed == 12345);
	SET_OK(&j, "randseed", "0xffffffffffffffff");
	CHECK(j.randseed == UINT64_MAX);

	SET_OK(&j, "verify", "crc32c");
	CHECK(j.verify == VERIFY_CRC32C);
	SET_OK(&j, "verify", "crc32c-intel");
	CHECK(j.verify == VERIFY_CRC32C);
	SET_OK(&j, "verify", "0");
	CHECK(j.verify == VERIFY_NONE);
	SET_OK(&j, "verify", "md5");
	CHECK(j.verify == VERIFY_MD5 && j.verify_set);
	SET_OK(&j, "verify", "sha3-512");
	CHECK(j.verify == VERIFY_SHA3_512);
	SET_OK(&j, "verify", "pattern");
	CHECK(j.verify == VERIFY_PATTERN_NO_HDR);
	SET_OK(&j, "verify", "meta");
	CHECK(j.verify == VERIFY_META);
	SET_OK(&j, "verify", "0");
	CHECK(j.verify == VERIFY_NONE && j.verify_set);
	job_set_defaults(&j);
	CHECK(j.do_verify && j.verify_state_save && !j.verify_set);
	CHECK(j.scramble_buffers.on && !j.scramble_buffers.given);
	CHECK(j.buffer_compress_chunk == 512);
	SET_OK(&j, "verify_pattern", "0xab%o\"xy\"");
	CHECK(j.verify_pattern.len == 11 && j.verify_pattern.nr_offsets == 1);
	SET_OK(&j, "buffer_pattern", "-12");
	CHECK(j.buffer_pattern.len == 4 && j.buffer_pattern.bytes[0] == 0xf4);
	SET_OK(&j, "zero_buffers", NULL);
	CHECK(j.zero_buffers.on && j.zero_buffers.given);
	SET_OK(&j, "scramble_buffers", "0");
	CHECK(!j.scramble_buffers.on && j.scramble_buffers.given);
	SET_OK(&j, "verify_backlog", "1m");
	CHECK(j.verify_backlog == 1048576);
	SET_OK(&j, "verify_interval", "512");
	CHECK(j.verify_interval == 512);
	SET_OK(&j, "buffer_compress_percentage", "50");
	CHECK(j.buffer_compress_percentage == 50);
	SET_OK(&j, "dedupe_percentage", "25");
	CHECK(j.dedupe_percentage == 25);
	job_set_defaults(&j);
	CHECK(j.fadvise_hint == FADVISE_TYPE);  /* fio's default, 1 */
	for (size_t i = 0; i < sizeof(fadvise_hints) / sizeof(fadvise_hints[0]); i++) {
		SET_OK(&j, "fadvise_hint", fadvise_hints[i].value);
		CHECK(j.fadvise_hint == fadvise_hints[i].hint);
	}

	CHECK(job_option_known("iodepth") && job_option_known("readwrite"));
	CHECK(job_option_known("fixedbufs") && job_option_known("hipri"));
	CHECK(job_option_known("io_limit") && job_option_known("timeout"));
	CHECK(!job_option_known("target") && !job_option_known(""));
	CHECK(!job_option_known(NULL));
}

static void test_errors(void)
{
	EXPECT_ERR("foo", "1", "unknown option 'foo'", NULL);
	EXPECT_ERR("iodpeth", "1", "unknown option 'iodpeth'", "'iodepth'");
	EXPECT_ERR("bs", NULL, "option 'bs' needs a value", NULL);
	EXPECT_ERR("bs", "", "option 'bs' needs a value", NULL);
	EXPECT_ERR("name", "", "option 'name' needs a value", NULL);
	EXPECT_ERR("size", "abc", "option 'size': 'abc' is not a size", NULL);
	EXPECT_ERR("size", "-1", "'-1' is negative", NULL);
	EXPECT_ERR("size", "4x", "'4x' is not a size: fio 3.33 reads it as 4", NULL);
	EXPECT_ERR("size", " 4k", "starts with a blank: fio 3.33 then ignores its unit (reads it as 4)", NULL);
	EXPECT_ERR("size", "1.5k", "'1.5k' is not a size: fio 3.33 reads it as 1", NULL);
	EXPECT_ERR("size", "1m-2m", "holds several values", NULL);
	EXPECT_ERR("io_size", "101%", "'101%' is not a percentage 0-100 (fio 3.33: \"io_size values greater than 100% aren't supported\")", NULL);
	EXPECT_ERR("offset", "x%", "'x%' is not a percentage 0-100", NULL);
	EXPECT_ERR("offset_increment", "101%", "'101%' is not a percentage 0-100", NULL);
	EXPECT_ERR("size", "99999999999999999999", "too large", NULL);
	EXPECT_ERR("size", "16777216t", "too large", NULL);
	EXPECT_ERR("offset", "x", "option 'offset'", "not a size");
	EXPECT_ERR("io_size", "-5", "option 'io_size'", "negative");
	EXPECT_ERR("rwmixread", "101", "option 'rwmixread': 101 is out of "
		   "range 0-100", NULL);
	EXPECT_ERR("rwmixwrite", "101", "out of range 0-100", NULL);
	EXPECT_ERR("rwmixread", "-1", "is negative", NULL);
	EXPECT_ERR("rwmixread", "5k", "5k is out of range 0-100", NULL);
	EXPECT_ERR("rwmixread", "5.5", "is not a whole number (fio 3.33 reads it as 5)", NULL);
	EXPECT_ERR("iodepth", "0", "option 'iodepth': 0 is out of range "
		   "1-65536", NULL);
	EXPECT_ERR("iodepth", "65537", "out of range", NULL);
	EXPECT_ERR("numjobs", "0", "out of range 1-1024", NULL);
	EXPECT_ERR("numjobs", "1025", "out of range 1-1024", NULL);
	EXPECT_ERR("iodepth", "99999999999999999999999", "out of range", NULL);
	EXPECT_ERR("direct", "2", "option 'direct': '2' is not 0 or 1",
		   NULL);
	EXPECT_ERR("direct", "true", "is not 0 or 1 (fio 3.33 takes no words)", NULL);
	EXPECT_ERR("direct", NULL, "needs a value, 0 or 1", NULL);
	EXPECT_ERR("time_based", "maybe", "is not a boolean", NULL);
	EXPECT_ERR("runtime", "abc", "option 'runtime': 'abc' is not a time",
		   NULL);
	EXPECT_ERR("runtime", "-1", "is negative", NULL);
	EXPECT_ERR("runtime", "10sec", "fio 3.33 reads it as 10 microseconds", NULL);
	EXPECT_ERR("runtime", "10x", "is not a time", NULL);
	EXPECT_ERR("runtime", "1.5", "is not a time", NULL);
	EXPECT_ERR("runtime", "999999999999d", "too long", NULL);
	EXPECT_ERR("rw", "randread:0", "is not a count of I/Os", NULL);
	EXPECT_ERR("rw", "read:x", "is not a size to skip", NULL);
	EXPECT_ERR("rw", "sideways", "'sideways' is not one of read, write",
		   "randrw");
	EXPECT_ERR("verify", "none", "is not one of 0, md5", NULL);
	EXPECT_ERR("verify", "bogus", "is not one of 0, md5, crc64", "sha3-512");
	EXPECT_ERR("verify_async", "-1", "is negative", NULL);
	EXPECT_ERR("verify_async_cpus", "x", "verify_async_cpus", NULL);
	EXPECT_ERR("fallocate", "sometimes", "is not one of none, native", NULL);
	EXPECT_ERR("fadvise_hint", "noreuse", "is not one of 0, 1, random, "
		   "sequential", NULL);  /* fio 3.33 has no noreuse */
	EXPECT_ERR("trim_percentage", "10", "iodig's verify trims none", NULL);
	EXPECT_ERR("buffer_compress_percentage", "101", "out of range 0-100",
		   NULL);
	EXPECT_ERR("verify_pattern", "\"ab", "has no closing quote", NULL);
	EXPECT_ERR("zero_buffers", "maybe", "is not a number (0 is off, any other on; fio 3.33 takes no words)", NULL);
	EXPECT_ERR("ioengine", "nosuchengine", "'nosuchengine' is not an "
		   "engine", "io_uring");
	EXPECT_ERR("ioengine", "splice", "engine 'splice' is a kernel engine "
		   "iodig does not implement yet", NULL);
	EXPECT_ERR("ioengine", "external:/x.so", "engine 'external:/x.so' "
		   "loads fio engine code from a file", NULL);
	EXPECT_ERR("bs", "0", "option 'bs': 0 is out of range", NULL);
	EXPECT_ERR("bs", "2g", "out of range 1-1073741824", NULL);
	EXPECT_ERR("bs", "4k,8k,4k,4k", "more than three (read, write, trim)", NULL);
	EXPECT_ERR("bs", "4k-x", "'x' is not a size", NULL);
	EXPECT_ERR("bs", ",", "needs a value", NULL);
	EXPECT_ERR("bsrange", "4k-x", "option 'bsrange': 'x' is not a size",
		   NULL);
	EXPECT_ERR("bsrange", "1k-2k,2k-4k,1k-2k,1k", "more than three", NULL);
	EXPECT_ERR("time_based", "", "needs a value", NULL);
	/* an engine option's value is checked where it is given */
	EXPECT_ERR("fixedbufs", "maybe", "option 'fixedbufs': 'maybe' is not "
		   "a number", NULL);
	EXPECT_ERR("nowait", "", "option 'nowait' needs a value", NULL);
	EXPECT_ERR("fixedbuf", "1", "unknown option 'fixedbuf'",
		   "(did you mean 'fixedbufs'?)");

	char longname[200];

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	EXPECT_ERR("name", longname, "option 'name': value is longer than "
		   "127 bytes", NULL);

	/* where defaults to "option" when the caller gives none */
	struct job j;
	struct errbuf err;

	job_set_defaults(&j);
	CHECK(job_option_set(&j, "xyzzy_opt", "1", NULL, &err) == -EINVAL);
	CHECK_MSG(!strcmp(err.msg, "option: unknown option 'xyzzy_opt'"), "%s",
		  err.msg);
	CHECK(job_option_set(&j, "", "1", "--x", &err) == -EINVAL);
	/* a rejected value leaves the field alone */
	CHECK(job_option_set(&j, "iodepth", "8", "x", &err) == 0);
	CHECK(job_option_set(&j, "iodepth", "0", "x", &err) < 0);
	CHECK(j.iodepth == 8);
	CHECK(job_option_set(&j, "bs", "8k,bad", "x", &err) < 0);
	CHECK(j.bs[0] == 4096 && j.bs[1] == 4096);
}

/* fio 3.33's percentages: io_size=N% of the size resolved, 0% not given;
 * a byte value after a percentage replaces it. */
static void test_percentages(void)
{
	struct job j;
	struct errbuf err;

	job_set_defaults(&j);
	CHECK_MSG(!job_option_set(&j, "io_size", "50%", "x", &err), "%s", err.msg);
	CHECK(j.io_size_percent == 50 && j.io_size == 0);
	CHECK(!job_option_set(&j, "io_size", "1m", "x", &err));
	CHECK(j.io_size_percent == 0 && j.io_size == 1 << 20);
	CHECK_MSG(!job_option_set(&j, "size", "0%", "x", &err), "%s", err.msg);
	CHECK(j.size_percent == 0 && j.size == 0);
	CHECK(!job_option_set(&j, "size", "25%", "x", &err) && j.size_percent == 25);
	/* fio 3.33's reading where it takes no percentage: 2^64-1-N bytes */
	CHECK(!job_option_set(&j, "size", "150%", "x", &err) && j.size_percent == 0 &&
	      j.size == UINT64_MAX - 150);
	CHECK(!job_option_set(&j, "filesize", "50%", "x", &err) &&
	      j.filesize == UINT64_MAX - 50);
}

/* Sets options in order on a default job, then resolves the engine's. */
static int resolve(struct job *job, const char *const *kv, size_t n,
		   struct errbuf *err)
{
	job_set_defaults(job);
	err->msg[0] = '\0';
	for (size_t i = 0; i + 1 < n; i += 2) {
		int ret = job_option_set(job, kv[i], kv[i + 1], "t.fio:7", err);

		if (ret)
			return ret;
	}
	return engine_opts_resolve(job, "t.fio:1: job 'j'", err);
}
#define RESOLVE(job, err, ...)                                             \
	resolve(job, (const char *const[]){ __VA_ARGS__ },                 \
		sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *), \
		err)

static void test_engine_options(void)
{
	struct errbuf err;
	struct job j;
	char text[256];
	int ret;

	ret = RESOLVE(&j, &err, "ioengine", "io_uring", "direct", "1",
		      "hipri", NULL, "fixedbufs", "1", "registerfiles", "2",
		      "sqthread_poll", NULL, "nowait", "1");
	CHECK_MSG(ret == 0, "%s", err.msg);
	engine_echo(&j, text, sizeof(text));
	CHECK_MSG(!strcmp(text, "hipri=1,fixedbufs=1,registerfiles=1,"
			  "sqthread_poll=1,nowait=1"), "%s", text);
	/* off is the default, which is not echoed; the last value wins */
	ret = RESOLVE(&j, &err, "fixedbufs", "1", "ioengine", "io_uring",
		      "hipri", "0", "fixedbufs", "0", "sqthread_poll", NULL);
	CHECK_MSG(ret == 0, "%s", err.msg);
	engine_echo(&j, text, sizeof(text));
	CHECK_MSG(!strcmp(text, "sqthread_poll=1"), "%s", text);
	/* pvsync2 takes hipri and nowait */
	ret = RESOLVE(&j, &err, "nowait", "1", "ioengine", "pvsync2",
		      "hipri", "1", "direct", "1");
	CHECK_MSG(ret == 0, "%s", err.msg);
	engine_echo(&j, text, sizeof(text));
	CHECK_MSG(!strcmp(text, "hipri=1,nowait=1"), "%s", text);
	/* engines without options echo nothing */
	ret = RESOLVE(&j, &err, "ioengine", "mmap");
	engine_echo(&j, text, sizeof(text));
	CHECK_MSG(ret == 0 && !text[0], "%d %s %s", ret, err.msg, text);

	/* an option the engine does not declare: where it was given */
	ret = RESOLVE(&j, &err, "fixedbufs", NULL, "ioengine", "libaio");
	CHECK(ret == -EINVAL);
	CHECK_MSG(!strcmp(err.msg, "t.fio:7: fixedbufs is an option of "
			  "ioengine io_uring or io_uring_cmd, not libaio"), "%s", err.msg);
	ret = RESOLVE(&j, &err, "ioengine", "sync", "sqthread_poll", "0");
	CHECK_MSG(!strcmp(err.msg, "t.fio:7: sqthread_poll is an option of "
			  "ioengine io_uring or io_uring_cmd, not sync"), "%s", err.msg);
	ret = RESOLVE(&j, &err, "ioengine", "mmap", "nowait", "1");
	CHECK_MSG(!strcmp(err.msg, "t.fio:7: nowait is an option of ioengine "
			  "pvsync2, libaio, io_uring or io_uring_cmd, not mmap"), "%s", err.msg);
	/* the engine's own check, naming the job */
	ret = RESOLVE(&j, &err, "ioengine", "io_uring", "hipri", "1");
	CHECK_MSG(ret == -EINVAL && !strcmp(err.msg, "t.fio:1: job 'j': hipri "
			  "needs direct=1: the kernel polls only O_DIRECT I/O"),
		  "%s", err.msg);
	ret = RESOLVE(&j, &err, "ioengine", "pvsync2", "hipri", "1");
	CHECK_MSG(ret == -EINVAL && strstr(err.msg, "hipri needs direct=1"),
		  "%s", err.msg);

	CHECK_MSG(engines_check(&err) == 0, "%s", err.msg);
	/* an engine option never hides behind a job option of its name */
	for (size_t i = 0; engine_at(i); i++) {
		const struct opt_desc *o = engine_at(i)->options;

		for (; o && o->name; o++) {
			const char *v = o->type == OPT_BOOL ?
					(o->flags & OPT_BARE ? NULL : "1") :
					o->def ? o->def : "1";

			job_set_defaults(&j);
			ret = job_option_set(&j, o->name, v, "x", &err);
			CHECK_MSG(ret == 0 && j.engine_given[0].name &&
				  !strcmp(j.engine_given[0].name, o->name),
				  "%s is also a job option (%s)", o->name,
				  err.msg);
		}
	}
}

static void test_parse_size(void)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "0", 0 }, { "1", 1 }, { "4096", 4096 }, { "1b", 1 },
		{ "4k", 4 * KIB }, { "4K", 4 * KIB }, { "1kb", KIB },
		{ "1KB", KIB }, { "1KiB", KIB }, { "1kib", KIB },
		{ "1m", MIB }, { "1M", MIB }, { "1MiB", MIB }, { "1mb", MIB },
		{ "1g", GIB }, { "1G", GIB }, { "1GiB", GIB },
		{ "1t", 1024 * GIB }, { "1p", 1024 * 1024 * GIB },
		{ "0x1000", 4096 }, { "0x10k", 16 * KIB },
		{ "16383p", 16383ULL << 50 },
		{ "18446744073709551615", UINT64_MAX },
	};
	static const char *const bad[] = {
		"", "-1", "abc", "4kx", "k", "1.5k", "1.5", " 4k", "4k ",
		"+4k", "1e3", "0x", "4 k", "1kk", "1q", "50%",
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int r = parse_size(ok[i].s, &v);

		CHECK_MSG(r == 0 && v == ok[i].v, "parse_size(%s) = %d, %llu",
			  ok[i].s, r, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(parse_size(bad[i], &v) == -EINVAL,
			  "parse_size('%s') accepted", bad[i]);
	CHECK(parse_size("16384p", &v) == -ERANGE);
	CHECK(parse_size("18446744073709551616", &v) == -ERANGE);
	CHECK(parse_size(NULL, &v) == -EINVAL);
}

static void test_parse_time(void)
{
	static const struct { const char *s; uint64_t unit, v; } ok[] = {
		{ "5", NS_S, 5 * NS_S }, { "5", 1000, 5000 },
		{ "0", NS_S, 0 },
		{ "100us", NS_S, 100000 }, { "100usec", NS_S, 100000 },
		{ "500ms", NS_S, 500000000 }, { "500msec", NS_S, 500000000 },
		{ "5s", 1, 5 * NS_S }, { "5sec", 1, 5 * NS_S },
		{ "2m", NS_S, 120 * NS_S }, { "2min", NS_S, 120 * NS_S },
		{ "1h", NS_S, 3600 * NS_S }, { "1d", NS_S, 86400 * NS_S },
		{ "10S", NS_S, 10 * NS_S },
	};
	static const char *const bad[] = {
		"", "-1", "abc", "10x", "1.5", "1.5s", "s", " 5", "5 s",
		"0x10", "5ns",
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int r = parse_time_ns(ok[i].s, ok[i].unit, &v);

		CHECK_MSG(r == 0 && v == ok[i].v, "parse_time_ns(%s) = %d, "
			  "%llu", ok[i].s, r, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(parse_time_ns(bad[i], NS_S, &v) == -EINVAL,
			  "parse_time_ns('%s') accepted", bad[i]);
	CHECK(parse_time_ns("999999999999d", NS_S, &v) == -ERANGE);
	CHECK(parse_time_ns("18446744073709551615", NS_S, &v) == -ERANGE);
}

static void test_parse_bool(void)
{
	static const char *const yes[] = { "1", "true", "yes", "on", "TRUE",
					   "Yes" };
	static const char *const no[] = { "0", "false", "no", "off", "OFF" };
	static const char *const bad[] = { "", "2", "-1", "y", "n", "truex",
					   " 1" };
	bool b;

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		CHECK_MSG(parse_bool(yes[i], &b) == 0 && b, "'%s'", yes[i]);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		CHECK_MSG(parse_bool(no[i], &b) == 0 && !b, "'%s'", no[i]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(parse_bool(bad[i], &b) == -EINVAL, "'%s' accepted",
			  bad[i]);
	b = false;
	CHECK(parse_bool(NULL, &b) == 0 && b); /* bare key */
}

/* Engine options come after the job options, under their engine. */
static void check_engine_help(const char *text)
{
	static const char *const in_order[] = {
		"verify=", "Engine options",
		" ioengine=pvsync2:",
		"hipri=", "hipri_percentage=", "uncached=", "nowait=",
		" ioengine=io_uring:",
		"hipri=", "fixedbufs=", "registerfiles=", "sqthread_poll=",
		"nowait=",
	};
	const char *at = text;

	for (size_t i = 0; i < sizeof(in_order) / sizeof(in_order[0]); i++) {
		const char *next = strstr(at, in_order[i]);

		CHECK_MSG(next, "help lacks '%s' after '%.40s'", in_order[i],
			  at);
		if (next)
			at = next + strlen(in_order[i]);
	}
	CHECK_MSG(!strstr(text, "ioengine=sync:") &&
		  !strstr(text, "ioengine=posixaio:"),
		  "help lists engines that have no options");
}

static void test_help(void)
{
	static const char *const names[] = {
		"name=", "filename=", "directory=", "size=", "io_size=",
		"offset=", "bs=", "bsrange=", "rw=", "rwmixread=",
		"rwmixwrite=", "ioengine=", "iodepth=",
		"iodepth_batch_submit=", "iodepth_batch_complete_min=",
		"numjobs=", "thread=", "direct=", "buffered=", "runtime=",
		"time_based=", "ramp_time=", "startdelay=",
		"group_reporting=", "stonewall=", "randrepeat=", "randseed=",
		"norandommap=", "verify=", "alias readwrite",
		"alias io_limit", "alias timeout", "alias wait_for_previous",
		"values read write randread", "default 4k", "range 0-100",
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		CHECK(f != NULL);
		return;
	}
	options_print_help(f);
	fclose(f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK_MSG(strstr(text, names[i]), "help lacks '%s'", names[i]);
	check_engine_help(text);
	free(text);
}

/* fio's 'Nz': a count of zones where fio takes one, kept apart from the
 * bytes and cleared by a later byte value. */
static void test_zone_counts(void)
{
	struct job job;
	struct errbuf err;

	SET_OK(&job, "size", "8z");
	CHECK(job.zone_counts.size == 8 && job.size == 0);
	SET_OK(&job, "offset", "524Z");
	CHECK(job.zone_counts.offset == 524 && job.offset == 0);
	SET_OK(&job, "zoneskip", "2z");
	CHECK(job.zone_counts.skip == 2);
	job_set_defaults(&job);
	CHECK(!job_option_set(&job, "io_size", "3z", "t.fio:7", &err));
	CHECK(!job_option_set(&job, "io_size", "1m", "t.fio:7", &err));
	CHECK(job.zone_counts.io_size == 0 && job.io_size == 1048576);
	EXPECT_ERR("zonerange", "1z", "'1z' counts zones", "zoneskip");
	EXPECT_ERR("bs", "1z", "option 'bs'", NULL);
	EXPECT_ERR("size", "1.5z", "not a whole number of zones", NULL);
	EXPECT_ERR("size", "z", "not a whole number of zones", NULL);
}

int main(void)
{
	test_zone_counts();
	test_defaults();
	test_every_option();
	test_errors();
	test_percentages();
	test_engine_options();
	test_parse_size();
	test_parse_time();
	test_parse_bool();
	test_help();
	return CHECK_DONE();
}
