// Job-file syntax as fio 3.33 has it: comments, ${VAR}, $pagesize/$mb_memory/$ncpus with arithmetic, include (relative, nested, loop, missing), kb_base and size suffixes, description, unit_base; fio's engines iodig refuses, and why; process options (cpus_allowed, cpumask, nice, prio, thread=N).
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/expand.h"
#include "job/fio_engines.h"
#include "job/options.h"
#include "workload/engine.h"
#include "tests/lib/check.h"

static int parse_str(const char *name, const char *text, struct job_list *l,
		     struct errbuf *err)
{
	err->msg[0] = '\0';
	return jobfile_parse_buffer(name, text, strlen(text), l, err);
}

/* @text parses into one job, copied to @out. */
static bool parse_one(const char *text, struct job *out, int line)
{
	struct job_list list = { 0 };
	struct errbuf err;
	int ret = parse_str("s.fio", text, &list, &err);
	bool ok = ret == 0 && list.count == 1;

	if (!ok) {
		fprintf(stderr, "%s:%d: parse: %d '%s' (%zu jobs)\n", __FILE__,
			line, ret, err.msg, list.count);
		check_failures++;
	} else {
		*out = list.jobs[0];
	}
	job_list_free(&list);
	return ok;
}
#define PARSE_ONE(text, job) parse_one(text, job, __LINE__)

/* Parsing fails with a message containing @frag. */
static void expect_error(const char *text, const char *frag, int line)
{
	struct job_list list = { 0 };
	struct errbuf err;
	int ret = parse_str("e.fio", text, &list, &err);

	if (ret >= 0 || !strstr(err.msg, frag)) {
		fprintf(stderr, "%s:%d: want error '%s', got %d '%s'\n",
			__FILE__, line, frag, ret, err.msg);
		check_failures++;
	}
	job_list_free(&list);
}
#define PARSE_ERR(text, frag) expect_error(text, frag, __LINE__)

/* fio 3.33's reading of sizes, measured with io_bytes of null-engine
 * runs: k/m are powers of kb_base, KiB/MiB of the other base, a unit is
 * known by its first letters ("1kxyz" is 1k); what fio would read as the
 * bare number ("1e6" is 1, "0x10k" 16) is refused with -EILSEQ. */
static void test_size_suffixes(void)
{
	static const struct {
		const char *s;
		unsigned int kb_base;
		uint64_t v;
	} ok[] = {
		{ "4096", 1024, 4096 }, { "1k", 1024, 1024 }, { "1K", 1024, 1024 },
		{ "1kb", 1024, 1024 }, { "1KB", 1024, 1024 }, { "1ki", 1024, 1024 },
		{ "1KiB", 1024, 1000 }, { "1kib", 1024, 1000 },
		{ "1m", 1024, 1 << 20 }, { "1mi", 1024, 1 << 20 },
		{ "1MiB", 1024, 1000000 }, { "1000ki", 1024, 1024000 },
		{ "1g", 1024, 1ull << 30 }, { "1GiB", 1024, 1000000000 },
		{ "1024b", 1024, 1024 }, { "0x10", 1024, 16 },
		{ "1kxyz", 1024, 1024 }, { "1kbb", 1024, 1024 }, { "1kx", 1024, 1024 },
		{ "1k", 1000, 1000 }, { "1ki", 1000, 1000 }, { "1m", 1000, 1000000 },
		{ "1MiB", 1000, 1 << 20 }, { "1KiB", 1000, 1024 },
		{ "1t", 1000, 1000000000000ull }, { "1k", 0, 1024 },
	};
	static const char *const bad[] = { "", "k", "-1k", "1k-2k" };
	static const char *const misread[] = { "1x", "1e6", "1.5k", "1 k",
					       "0x10k", "10x5" };
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int r = parse_size_kb(ok[i].s, ok[i].kb_base, &v);

		CHECK_MSG(r == 0 && v == ok[i].v, "%s with kb_base %u: %d, %llu",
			  ok[i].s, ok[i].kb_base, r, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(parse_size_kb(bad[i], 1024, &v) == -EINVAL,
			  "'%s' accepted", bad[i]);
	for (size_t i = 0; i < sizeof(misread) / sizeof(misread[0]); i++)
		CHECK_MSG(parse_size_kb(misread[i], 1024, &v) == -EILSEQ,
			  "'%s' not refused as misread", misread[i]);
	CHECK(parse_size_kb("1k", 1023, &v) == -EINVAL);
	CHECK(parse_size_kb("16385p", 1024, &v) == -ERANGE);
	/* iodig's own options keep the IEC meaning */
	CHECK(parse_size("1KiB", &v) == 0 && v == 1024);
}

static void test_kb_base(void)
{
	struct job j;

	if (PARSE_ONE("[j]\nsize=1m\nbs=1k,2KiB\n", &j)) {
		CHECK(j.kb_base == 1024 && j.size == 1 << 20);
		CHECK(j.bs[0] == 1024 && j.bs[1] == 2000);
	}
	if (PARSE_ONE("[global]\nkb_base=1000\n[j]\nsize=1m\nbs=4k\n"
		      "bsrange=1ki-8KiB\n", &j)) {
		CHECK(j.kb_base == 1000 && j.size == 1000000);
		CHECK(j.bs_min[0] == 1000 && j.bs_max[0] == 8192);
	}
	/* a [global] size was read with the [global] kb_base */
	if (PARSE_ONE("[global]\nsize=1m\n[j]\nkb_base=1000\n", &j))
		CHECK(j.size == 1 << 20 && j.kb_base == 1000);
	PARSE_ERR("[j]\nkb_base=1\n", "e.fio:2: option 'kb_base': '1' is not "
		  "one of 1024, 1000");
}

static void test_description_unit_base(void)
{
	struct job j;

	if (PARSE_ONE("[j]\ndescription=Emulation of a file server\n"
		      "unit_base=1\n", &j)) {
		CHECK(!strcmp(j.description, "Emulation of a file server"));
		CHECK(j.unit_base == 1);
	}
	if (PARSE_ONE("[j]\n", &j))
		CHECK(!j.description[0] && j.unit_base == 0);
	PARSE_ERR("[j]\nunit_base=2\n", "option 'unit_base': '2' is not one "
		  "of 0, 8, 1");
	PARSE_ERR("[j]\ndescription=\n", "option 'description' needs a value");
}

/* The engine names of fio's own job files (the corpus), each refused for
 * its class's reason unless iodig has the engine. */
static void test_engine_classes(void)
{
	static const struct {
		const char *name, *frag;
	} cases[] = {
		{ "spdk_bdev", "bypasses the kernel block layer (SPDK's "
			       "user-space block device layer): nothing for "
			       "iodig to trace" },
		{ "spdk", "bypasses the kernel block layer" },
		{ "libcufile", "bypasses the kernel block layer" },
		{ "libhipfile", "bypasses the kernel block layer" },
		{ "net", "is not local I/O (TCP, UDP or unix sockets)" },
		{ "netsplice", "is not local I/O" }, { "rdma", "is not local I/O" },
		{ "http", "is not local I/O" }, { "rbd", "is not local I/O" },
		{ "rados", "is not local I/O" }, { "nfs", "is not local I/O" },
		{ "gfapi", "is not local I/O" }, { "libhdfs", "is not local I/O" },
		{ "libiscsi", "is not local I/O" }, { "nbd", "is not local I/O" },
		{ "dfs", "is not local I/O" }, { "ime_psync", "is not local I/O" },
		{ "ime_psyncv", "is not local I/O" }, { "ime_aio", "is not local I/O" },
		{ "cpuio", "does no storage I/O (it burns CPU cycles): not a "
			   "kernel I/O path" },
		{ "exec", "does no storage I/O" },
		{ "windowsaio", "is Windows's asynchronous I/O" },
		{ "external:/tmp/foo.o", "loads fio engine code from a file" },
		{ "./engine.so", "loads fio engine code from a file" },
		{ "libfio_ceph_objectstore.so", "loads fio engine code from a file" },
		{ "sg", "is a kernel engine iodig does not implement yet" },
		{ "io_uring_cmd", "is a kernel engine iodig does not implement" },
		{ "e4defrag", "is a kernel engine" }, { "dev-dax", "is a kernel engine" },
		{ "libpmem", "is a kernel engine" }, { "page_fault", "is a kernel engine" },
		{ "splice", "is a kernel engine" }, { "mtd", "is a kernel engine" },
		{ "libzbc", "is a kernel engine" },
		{ "xnvme", "bypasses the kernel block layer (xNVMe's SPDK and "
			   "vfio backends; for its io_uring, libaio and ioctl "
			   "ones use ioengine=io_uring, libaio or io_uring_cmd)" },
		{ "libblkio", "bypasses the kernel block layer" },
	};
	const struct fio_engine *e;
	char text[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char frag[256];

		if (engine_find(cases[i].name))
			continue; /* iodig has it now */
		snprintf(text, sizeof(text), "[j]\nioengine=%s\n", cases[i].name);
		snprintf(frag, sizeof(frag), "e.fio:2: engine '%s' %s",
			 cases[i].name, cases[i].frag);
		expect_error(text, frag, __LINE__);
	}
	/* fio's C++ build of its null engine runs as null where iodig has it */
	e = fio_engine_find("cpp_null");
	CHECK(e && e->same_as && !strcmp(e->same_as, "null"));
	if (engine_find("null")) {
		struct job j;

		if (PARSE_ONE("[j]\nioengine=cpp_null\n", &j))
			CHECK(j.engine == engine_find("null"));
	}
	/* every name once; every engine iodig has is one of fio's */
	for (size_t i = 0; (e = fio_engine_at(i)); i++) {
		for (size_t k = i + 1; fio_engine_at(k); k++)
			CHECK_MSG(strcmp(e->name, fio_engine_at(k)->name),
				  "%s twice", e->name);
		CHECK_MSG(e->what && e->what[0], "%s", e->name);
	}
	for (size_t i = 0; engine_at(i); i++) {
		e = fio_engine_find(engine_at(i)->name);
		CHECK_MSG(e && e->cls == FIO_ENGINE_KERNEL, "%s",
			  engine_at(i)->name);
	}
	CHECK(!fio_engine_find("nosuch") && !fio_engine_find(NULL));
}

static bool cpu_in(const struct job *j, unsigned int cpu)
{
	return job_cpus_has(&j->cpus, cpu);
}

static unsigned int cpu_count(const struct job *j)
{
	unsigned int n = 0;

	for (unsigned int c = 0; c < JOB_CPUS_MAX; c++)
		n += cpu_in(j, c);
	return n;
}

static void test_process_options(void)
{
	struct job j;

	if (PARSE_ONE("[j]\ncpus_allowed=0,5,8-15\n", &j)) {
		CHECK(j.cpus_set && j.cpus_policy == CPUS_SHARED);
		CHECK(cpu_in(&j, 0) && cpu_in(&j, 5) && cpu_in(&j, 8));
		CHECK(cpu_in(&j, 15) && !cpu_in(&j, 16) && cpu_count(&j) == 10);
	}
	/* blanks and empty entries as fio takes them; the last option wins */
	if (PARSE_ONE("[j]\ncpumask=0xff\ncpus_allowed= 1 , ,3\n"
		      "cpus_allowed_policy=split\n", &j)) {
		CHECK(cpu_in(&j, 1) && cpu_in(&j, 3) && cpu_count(&j) == 2);
		CHECK(j.cpus_policy == CPUS_SPLIT);
	}
	if (PARSE_ONE("[j]\ncpus_allowed=1000-1023\ncpumask=34\n", &j))
		CHECK(cpu_in(&j, 1) && cpu_in(&j, 5) && cpu_count(&j) == 2);
	if (PARSE_ONE("[j]\n", &j))
		CHECK(!j.cpus_set && !j.nice && !j.ioprio_set);
	PARSE_ERR("[j]\ncpus_allowed=a\n", "option 'cpus_allowed': 'a' is not "
		  "a CPU number or range");
	PARSE_ERR("[j]\ncpus_allowed=3-1\n", "range '3-1' ends before it "
		  "starts");
	PARSE_ERR("[j]\ncpus_allowed=0-\n", "'0-' is not a CPU number");
	PARSE_ERR("[j]\ncpus_allowed=1024\n", "names a CPU above 1023");
	PARSE_ERR("[j]\ncpus_allowed=,\n", "',' names no CPU");
	PARSE_ERR("[j]\ncpumask=0\n", "option 'cpumask': 0 allows no CPU");
	PARSE_ERR("[j]\ncpumask=0x100000000\n", "bits above CPU 31");
	PARSE_ERR("[j]\ncpumask=-1\n", "is not a bit mask");
	PARSE_ERR("[j]\ncpus_allowed_policy=x\n", "is not one of shared, "
		  "split");

	if (PARSE_ONE("[j]\nnice=-20\nprio=7\n", &j)) {
		CHECK(j.nice == -20 && j.ioprio == 7 && j.ioprio_set);
		CHECK(j.ioprio_class == 0); /* best effort when applied */
	}
	if (PARSE_ONE("[j]\nprioclass=3\nnice=+19\n", &j))
		CHECK(j.ioprio_class == 3 && j.ioprio_set && j.nice == 19);
	PARSE_ERR("[j]\nnice=20\n", "option 'nice': 20 is out of range -20-19");
	PARSE_ERR("[j]\nnice=-21\n", "out of range -20-19");
	PARSE_ERR("[j]\nnice=x\n", "'x' is not a whole number");
	PARSE_ERR("[j]\nprio=8\n", "option 'prio': 8 is out of range 0-7");
	PARSE_ERR("[j]\nprioclass=4\n", "out of range 0-3");

	/* fio's "set" options take a number: thread=8 is on, thread=0 off */
	if (PARSE_ONE("[j]\nthread=8\ntime_based=5\ngroup_reporting=-1\n"
		      "stonewall=0x10\nnorandommap=3\n", &j)) {
		CHECK(j.thread && j.time_based && j.group_reporting);
		CHECK(j.stonewall && j.norandommap);
	}
	if (PARSE_ONE("[j]\nthread\nthread=0\n", &j))
		CHECK(!j.thread);
	PARSE_ERR("[j]\nthread=yes\n", "option 'thread': 'yes' is not a "
		  "boolean (fio takes the bare key, or a whole number");
	/* fio takes its profiles' options in any job, checks and ignores them:
	 * "threads=4" leaves processes */
	if (PARSE_ONE("[j]\nthreads=4\nnumruns=2\nblock=4096\ndir=/x\n"
		      "device-names=/dev/x\nload=2\ntest-duration=5m\n"
		      "threads-per-queue=8\nread-req-num-512-blocks=3\n"
		      "large-block-op-kbytes=128\nprep\n", &j))
		CHECK(!j.thread && j.numjobs == 1 && !j.directory[0]);
	PARSE_ERR("[j]\nthreads=abc\n", "e.fio:2: option 'threads': 'abc' is "
		  "not a whole number");
	PARSE_ERR("[j]\nthreads\n", "option 'threads' needs a value");
	PARSE_ERR("[j]\ndir=\n", "option 'dir' needs a value");
}

/* "key=" as fio 3.33 reads it.  It refuses an empty filename= or
 * directory= ("failed parsing filename=", the job dropped) rather than
 * falling back to the job's name: SPDK's test/vhost job files leave
 * filename= for their scripts to fill in before fio reads them.  It takes
 * bssplit= as no change and write_bw_log= as the bare key. */
static void test_empty_values(void)
{
	struct job j;

	if (PARSE_ONE("[global]\nbssplit=4k/50:64k/50\n[j]\nbssplit=\n", &j))
		CHECK_MSG(j.bssplit[0].nr == 2, "%u", j.bssplit[0].nr);
	if (PARSE_ONE("[j]\nwrite_bw_log=\nwrite_hist_log = ; the job's name\n", &j))
		CHECK(j.logs.on[JOB_LOG_BW] && !j.logs.prefix[JOB_LOG_BW][0] &&
		      j.logs.on[JOB_LOG_HIST] && !j.logs.on[JOB_LOG_LAT]);
	PARSE_ERR("[global]\nfilename=\n[j]\n", "e.fio:2: option 'filename' "
		  "needs a value");
	PARSE_ERR("[j]\nfilename=\n", "e.fio:2: option 'filename' needs a value");
	PARSE_ERR("[j]\nfilename = ; filled in later\n",
		  "e.fio:2: option 'filename' needs a value");
	PARSE_ERR("[j]\ndirectory=\n", "e.fio:2: option 'directory' needs a "
		  "value");
	/* a plain fio boolean, which fio 3.33 refuses bare or as a word */
	PARSE_ERR("[j]\nlog_max_value\n", "option 'log_max_value' needs a value");
	PARSE_ERR("[j]\nlog_max_value=true\n", "'true' is not 0 or 1");
}

/* fio 3.33 ends a line at its first ';' or '#', wherever it is. */
static void test_comments(void)
{
	struct job j;

	if (PARSE_ONE("; c\n# c\n  ;c\n[j] ; c\nfilename=/tmp/a#1\n"
		      "description=a b ; c # d\nbs=8k# c\nsize=1m;c\n", &j)) {
		CHECK_MSG(!strcmp(j.filename, "/tmp/a"), "%s", j.filename);
		CHECK_MSG(!strcmp(j.description, "a b"), "%s", j.description);
		CHECK(j.bs[0] == 8192 && j.size == 1 << 20);
	}
	/* a variable's value keeps its '#': comments go first */
	setenv("IODIG_T_HASH", "/tmp/b#2", 1);
	if (PARSE_ONE("[j]\nfilename=${IODIG_T_HASH}\n", &j))
		CHECK_MSG(!strcmp(j.filename, "/tmp/b#2"), "%s", j.filename);
	unsetenv("IODIG_T_HASH");
}

static void test_env(void)
{
	struct job j;

	setenv("IODIG_T_SIZE", "64m", 1);
	setenv("IODIG_T_KEY", "rw", 1);
	unsetenv("IODIG_T_UNSET");
	if (PARSE_ONE("[j]\nsize=${IODIG_T_SIZE}\n${IODIG_T_KEY}=randwrite\n"
		      "bs=${IODIG_T_UNSET}8k\noffset=${}1m\n"
		      "filename=/a/${IODIG_T_SIZE\n", &j)) {
		CHECK(j.size == 64 << 20 && j.rw == RW_RANDWRITE);
		/* unset and empty names become "", as fio does */
		CHECK(j.bs[0] == 8192 && j.offset == 1 << 20);
		/* no closing brace: kept as written */
		CHECK_MSG(!strcmp(j.filename, "/a/${IODIG_T_SIZE"), "%s",
			  j.filename);
	}
	PARSE_ERR("[j]\nsize=${IODIG_T_UNSET}\n", "e.fio:2: option 'size' is "
		  "empty: ${IODIG_T_UNSET} is not set, and fio puts an empty "
		  "string there");
	PARSE_ERR("[j]\nsize=${IODIG_T_UNSET}x\n", "option 'size': 'x' is not a "
		  "size (a number with an optional k, m, g, t or p suffix) "
		  "(${IODIG_T_UNSET} is not set; fio puts an empty string there)");
	/* fio expands job files only, not its command line */
	{
		struct job_list list = { 0 };
		struct errbuf err;
		char *argv[] = { "--name=x", "--size=${IODIG_T_SIZE}" };

		CHECK(cmdline_jobs_parse(2, argv, &list, &err) == -EINVAL);
		CHECK_MSG(strstr(err.msg, "'${IODIG_T_SIZE}' is not a size"),
			  "%s", err.msg);
		job_list_free(&list);
	}
	unsetenv("IODIG_T_SIZE");
	unsetenv("IODIG_T_KEY");
}

static void test_keywords(void)
{
	long page = sysconf(_SC_PAGESIZE), ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long mb = (unsigned long long)sysconf(_SC_PHYS_PAGES) *
				(unsigned long long)page >> 20;
	struct job j;

	if (PARSE_ONE("[j]\nbs=$pagesize\nnumjobs=$ncpus\n"
		      "size=7*1024*1024*$mb_memory/8 ; 7/8 of the memory\n"
		      "offset=8*$pagesize+1\n", &j)) {
		CHECK(j.bs[0] == (uint32_t)page && j.numjobs == (unsigned)ncpus);
		CHECK_MSG(j.size == 7 * 1024 * 1024 * mb / 8, "%llu",
			  (unsigned long long)j.size);
		CHECK(j.offset == (uint64_t)(8 * page + 1));
	}
	if (PARSE_ONE("[j]\nsize=($ncpus + 1) * 2 ^ 2 * 1024\n", &j))
		CHECK(j.size == (uint64_t)(ncpus + 1) * 4 * 1024);
	/* no keyword, no arithmetic: fio reads "4*1024" as a size and fails */
	PARSE_ERR("[j]\nsize=4*1024\n", "option 'size': '4*1024' is not a "
		  "size");
	PARSE_ERR("[j]\nsize=$pagesize*2k\n", "e.fio:2: '4096*2k' uses "
		  "$pagesize, $mb_memory or $ncpus with an operator");
	PARSE_ERR("[j]\nfilename=/mnt/data-$ncpus\n", "with an operator, so "
		  "fio evaluates it as arithmetic");
	PARSE_ERR("[j]\nsize=$pagesize/0\n", "'4096/0' overflows or divides "
		  "by zero");
	PARSE_ERR("[j]\nsize=$pagesize-8192\n", "option 'size': '-4096' is "
		  "negative");
	/* keywords without an operator are just replaced */
	if (PARSE_ONE("[j]\ndescription=uses $ncpus cpus\n", &j)) {
		char want[64];

		snprintf(want, sizeof(want), "uses %ld cpus", ncpus);
		CHECK_MSG(!strcmp(j.description, want), "%s", j.description);
	}
}

/* bc with scale 0: precedence, right-associative ^, unary minus over ^ */
static void test_arith(void)
{
	static const struct {
		const char *s;
		long long v;
	} ok[] = {
		{ "1+2*3", 7 }, { "(1+2)*3", 9 }, { "7/2", 3 }, { "-7/2", -3 },
		{ "7%3", 1 }, { "2^3^2", 512 }, { "-2^2", 4 }, { " 1 - - 1 ", 2 },
		{ "10-4-3", 3 }, { "100/10/5", 2 }, { "2^0", 1 },
		{ "9223372036854775807", 9223372036854775807LL },
	};
	static const char *const bad[] = { "", "1+", "(1", "1)", "1.5*2",
					   "a*2", "2^-1", "0x10*2", "1 2" };
	long long v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK_MSG(arith_eval(ok[i].s, &v) == 0 && v == ok[i].v,
			  "%s = %lld", ok[i].s, v);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_MSG(arith_eval(bad[i], &v) == -EINVAL, "'%s' accepted",
			  bad[i]);
	CHECK(arith_eval("9223372036854775807+1", &v) == -ERANGE);
	CHECK(arith_eval("2^63", &v) == -ERANGE);
	CHECK(arith_eval("1/0", &v) == -ERANGE);
	CHECK(arith_eval("1%0", &v) == -ERANGE);
}

/* fio sorts a section's options by priority: kb_base comes first. */
static void test_section_order(void)
{
	struct job j;

	if (PARSE_ONE("[j]\nsize=1m\nbs=4k\nkb_base=1000\n", &j))
		CHECK(j.size == 1000000 && j.bs[0] == 4000);
	/* ... but only within the section */
	if (PARSE_ONE("[global]\nsize=1m\n[j]\nbs=4k\nkb_base=1000\n", &j))
		CHECK(j.size == 1 << 20 && j.bs[0] == 4000);
	/* the first error is still the first line's */
	PARSE_ERR("[j]\nbogus=1\n[oops\n", "e.fio:2: unknown option 'bogus'");
	PARSE_ERR("[j]\nbogus=1\ninclude /nonexistent/x.fio\n",
		  "e.fio:2: unknown option 'bogus'");
}

/* ---- include ------------------------------------------------------------ */

static char dir[] = "/tmp/iodig-test-include-XXXXXX";

static int remove_entry(const char *path, const struct stat *sb, int flag,
			struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void put_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK_MSG(f, "%s", path);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* jobfile_parse of @name in dir, from the current directory */
static int parse_file(const char *name, struct job_list *list,
		      struct errbuf *err)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err->msg[0] = '\0';
	return jobfile_parse(path, list, err);
}

static void expect_file_error(const char *name, const char *frag, int line)
{
	struct job_list list = { 0 };
	struct errbuf err;
	int ret = parse_file(name, &list, &err);

	if (ret >= 0 || !strstr(err.msg, frag)) {
		fprintf(stderr, "%s:%d: %s: want error '%s', got %d '%s'\n",
			__FILE__, line, name, frag, ret, err.msg);
		check_failures++;
	}
	job_list_free(&list);
}
#define FILE_ERR(name, frag) expect_file_error(name, frag, __LINE__)

static void test_include(void)
{
	struct job_list list = { 0 };
	struct errbuf err;
	char want[512];
	int ret;

	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
	snprintf(want, sizeof(want), "%s/sub", dir);
	CHECK(mkdir(want, 0700) == 0);
	/* relative to the including file, nested, [global] and job scope */
	put_file("main.fio", "[global]\ninclude sub/common.fio\n[a]\n"
		 "include sub/a.fio ; a comment\nrw=randread\n[b]\n");
	put_file("sub/common.fio", "; shared settings\nbs=8k\n"
		 "include\tdepth.fio\n");
	put_file("sub/depth.fio", "iodepth=4\n");
	put_file("sub/a.fio", "size=1m\nkb_base=1000\n");
	CHECK(chdir("/") == 0);
	ret = parse_file("main.fio", &list, &err);
	CHECK_MSG(ret == 0 && list.count == 2, "%d %s", ret, err.msg);
	if (list.count == 2) {
		const struct job *a = &list.jobs[0], *b = &list.jobs[1];

		CHECK(a->bs[0] == 8192 && a->iodepth == 4 && b->iodepth == 4);
		CHECK(a->size == 1000000 && a->rw == RW_RANDREAD);
		CHECK(b->size == 0 && b->kb_base == 1024);
		snprintf(want, sizeof(want), "%s/main.fio", dir);
		CHECK(!strcmp(a->source, want) && a->source_line == 3);
	}
	job_list_free(&list);

	/* fio looks in the current directory first */
	CHECK(chdir(dir) == 0);
	put_file("cwd.fio", "[j]\ninclude depth.fio\n");
	put_file("depth.fio", "iodepth=7\n");
	CHECK(chdir("sub") == 0);
	ret = parse_file("cwd.fio", &list, &err);
	CHECK_MSG(ret == 0 && list.count == 1 && list.jobs[0].iodepth == 4,
		  "%d %s", ret, err.msg);
	job_list_free(&list);
	CHECK(chdir("/") == 0);

	/* errors name the file and line that has them */
	put_file("missing.fio", "[j]\nbs=4k\ninclude nope.fio\n");
	snprintf(want, sizeof(want), "missing.fio:3: include 'nope.fio': cannot "
		 "read '%s/nope.fio': No such file or directory", dir);
	FILE_ERR("missing.fio", want);
	put_file("loop1.fio", "[j]\ninclude loop2.fio\n");
	put_file("loop2.fio", "bs=4k\ninclude loop1.fio\n");
	FILE_ERR("loop1.fio", "loop2.fio:2: include 'loop1.fio': ");
	FILE_ERR("loop1.fio", "loop1.fio' is being read already");
	FILE_ERR("loop1.fio", "an include loop");
	put_file("self.fio", "[j]\ninclude self.fio\n");
	FILE_ERR("self.fio", "self.fio:2: include 'self.fio': ");
	put_file("sec.fio", "[j]\ninclude sub/sec-inc.fio\n");
	put_file("sub/sec-inc.fio", "bs=4k\n[k]\n");
	FILE_ERR("sec.fio", "sub/sec-inc.fio:2: section header '[k]' in an "
		 "included file");
	put_file("early.fio", "include depth.fio\n[j]\n");
	FILE_ERR("early.fio", "early.fio:1: include appears before any "
		 "[section]");
	put_file("empty.fio", "[j]\ninclude   \n");
	FILE_ERR("empty.fio", "empty.fio:2: include needs a file name");
	put_file("bad.fio", "[j]\ninclude sub/bad-inc.fio\n");
	put_file("sub/bad-inc.fio", "bs=4k\n\nbogus=1\n");
	FILE_ERR("bad.fio", "sub/bad-inc.fio:3: unknown option 'bogus'");
	put_file("dir.fio", "[j]\ninclude sub\n");
	FILE_ERR("dir.fio", "include 'sub': cannot read");
	put_file("dev.fio", "[j]\ninclude /dev/null\n");
	FILE_ERR("dev.fio", "include '/dev/null': '/dev/null' is not a regular "
		 "file");
	/* "include" is a directive only as a word of its own */
	put_file("word.fio", "[j]\ninclude_me=1\n");
	FILE_ERR("word.fio", "word.fio:2: unknown option 'include_me'");
	/* a buffer named after a file on disk sees a loop through it too */
	snprintf(want, sizeof(want), "%s/self.fio", dir);
	ret = jobfile_parse_buffer(want, "[j]\ninclude self.fio\n",
				   strlen("[j]\ninclude self.fio\n"), &list, &err);
	CHECK_MSG(ret == -ELOOP, "%d %s", ret, err.msg);
	job_list_free(&list);
	nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	test_size_suffixes();
	test_kb_base();
	test_description_unit_base();
	test_engine_classes();
	test_process_options();
	test_empty_values();
	test_comments();
	test_env();
	test_keywords();
	test_arith();
	test_section_order();
	test_include();
	return CHECK_DONE();
}
