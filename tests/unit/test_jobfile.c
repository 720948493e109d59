// Job files and fio command lines: [global] inheritance, comments, CRLF, every error with file:line, finalize checks, jobs/*.fio.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/engine.h"
#include "job/options.h"
#include "tests/lib/check.h"
#include "tests/lib/engine_echo.h"

#define NS_S 1000000000ULL

static int parse_str(const char *name, const char *text, struct job_list *l,
		     struct errbuf *err)
{
	err->msg[0] = '\0';
	return jobfile_parse_buffer(name, text, strlen(text), l, err);
}

/* Parsing @text fails and the message starts with @prefix. */
static void expect_parse_error(const char *text, size_t len,
			       const char *prefix, int line)
{
	struct job_list list = { 0 };
	struct errbuf err = { "" };
	int ret = jobfile_parse_buffer("e.fio", text, len, &list, &err);

	if (ret >= 0 || list.count ||
	    strncmp(err.msg, prefix, strlen(prefix))) {
		fprintf(stderr, "%s:%d: want error '%s', got %d '%s' (%zu "
			"jobs)\n", __FILE__, line, prefix, ret, err.msg,
			list.count);
		check_failures++;
	}
	job_list_free(&list);
}
#define PARSE_ERR(text, prefix) \
	expect_parse_error(text, strlen(text), prefix, __LINE__)

/* Parsing @text succeeds and gives no job. */
static void expect_no_jobs(const char *text, int line)
{
	struct job_list list = { 0 };
	struct errbuf err = { "" };
	int ret = jobfile_parse_buffer("e.fio", text, strlen(text), &list, &err);

	if (ret || list.count) {
		fprintf(stderr, "%s:%d: want no job and no error, got %d '%s' (%zu jobs)\n",
			__FILE__, line, ret, err.msg, list.count);
		check_failures++;
	}
	job_list_free(&list);
}

/* Parsing succeeds, finalize fails with a message containing @frag. */
static void expect_finalize_error(const char *text, const char *frag,
				  int line)
{
	struct job_list list = { 0 };
	struct errbuf err = { "" };
	int ret = parse_str("f.fio", text, &list, &err);

	if (ret) {
		fprintf(stderr, "%s:%d: parse failed: %s\n", __FILE__, line,
			err.msg);
		check_failures++;
		goto cleanup;
	}
	ret = job_list_finalize(&list, &err);
	if (ret >= 0 || !strstr(err.msg, frag)) {
		fprintf(stderr, "%s:%d: want finalize error '%s', got %d "
			"'%s'\n", __FILE__, line, frag, ret, err.msg);
		check_failures++;
	}
cleanup:
	job_list_free(&list);
}
#define FINALIZE_ERR(text, frag) expect_finalize_error(text, frag, __LINE__)

/* Parsing and finalize succeed. */
static void expect_finalize_ok(const char *text, int line)
{
	struct job_list list = { 0 };
	struct errbuf err = { "" };
	int ret = parse_str("f.fio", text, &list, &err);

	if (!ret)
		ret = job_list_finalize(&list, &err);
	if (ret < 0) {
		fprintf(stderr, "%s:%d: want no error, got %d '%s'\n",
			__FILE__, line, ret, err.msg);
		check_failures++;
	}
	job_list_free(&list);
}
#define FINALIZE_OK(text) expect_finalize_ok(text, __LINE__)

static const char realistic[] =
	"; iodig test job\r\n"
	"# second comment style\r\n"
	"\r\n"
	"[global]\r\n"
	"ioengine = libaio ; trailing comment\r\n"
	"  direct=1\r\n"
	"bs=4k\t# tab then comment\r\n"
	"runtime=2\r\n"
	"time_based\r\n"
	"\n"
	"[seq-read]   # comment after header\n"           /* line 11 */
	"rw=read\n"
	"filename=/tmp/a#1\n"
	"\n"
	"[rand-write]\n"                                   /* line 15 */
	"rw=randwrite\n"
	"bs=8k\n"
	"iodepth = 32\n"
	"name=custom\n"
	"\n"
	"[global]\n"
	"iodepth=8\n"
	"direct=0\n"
	"\n"
	"[after-global]\n"                                 /* line 25 */
	"stonewall\n"
	"rw=randrw\n"
	"rwmixwrite=25\n"
	"numjobs=4\n"
	"group_reporting\n"
	"size=1m";                                         /* no final \n */

static void test_realistic(void)
{
	struct job_list list = { 0 };
	struct errbuf err = { "" };
	const struct job *a, *b, *c;
	int ret = parse_str("real.fio", realistic, &list, &err);

	CHECK_MSG(ret == 0, "%s", err.msg);
	CHECK(list.count == 3);
	if (list.count != 3)
		goto cleanup;
	a = &list.jobs[0];
	b = &list.jobs[1];
	c = &list.jobs[2];
	CHECK(!strcmp(a->name, "seq-read") && a->source_line == 11);
	CHECK(!strcmp(a->source, "real.fio"));
	CHECK(!strcmp(a->ioengine, "libaio") && a->direct);
	CHECK(a->bs[0] == 4096 && a->runtime_ns == 2 * NS_S && a->time_based);
	CHECK(a->rw == RW_READ && a->iodepth == 1);
	/* fio 3.33 ends a line at the first ';' or '#', wherever it is */
	CHECK_MSG(!strcmp(a->filename, "/tmp/a"), "%s", a->filename);

	CHECK(!strcmp(b->name, "custom") && b->source_line == 15);
	CHECK(b->rw == RW_RANDWRITE && b->bs[1] == 8192 && b->iodepth == 32);
	CHECK(!strcmp(b->ioengine, "libaio") && b->direct);
	CHECK(b->filename[0] == '\0'); /* a job's options stay its own */

	/* the second [global] adds to the first, for later jobs only */
	CHECK(!strcmp(c->name, "after-global") && c->source_line == 25);
	CHECK(!strcmp(c->ioengine, "libaio") && !c->direct);
	CHECK(c->iodepth == 8 && c->rw == RW_RANDRW && c->rwmixread == 75);
	CHECK(c->numjobs == 4 && c->group_reporting && c->stonewall);
	CHECK(c->size == 1 << 20);

	ret = job_list_finalize(&list, &err);
	CHECK_MSG(ret == 0, "%s", err.msg);
	CHECK(a->group_id == 0 && b->group_id == 0 && c->group_id == 1);
	CHECK(a->engine && !strcmp(a->engine->name, "libaio"));
	CHECK(c->io_size == 1 << 20 && a->io_size == 0);
	CHECK(c->numjobs == 4); /* kept as a count */
cleanup:
	job_list_free(&list);
}

static void test_parse_errors(void)
{
	char big[10000];

	PARSE_ERR("bs=4k\n[j]\n",
		  "e.fio:1: option 'bs' appears before any [section]");
	PARSE_ERR("; c\n\ntime_based\n[j]\n",
		  "e.fio:3: option 'time_based' appears before any [section]");
	PARSE_ERR("[j]\n\n[oops\n",
		  "e.fio:3: section header '[oops' has no closing ']'");
	PARSE_ERR("[j]\nbs=\n", "e.fio:2: option 'bs' needs a value");
	PARSE_ERR("[j]\nbs = ; nothing\n", "e.fio:2: option 'bs' needs a value");
	PARSE_ERR("[j]\niodepth\n", "e.fio:2: option 'iodepth' needs a value");
	PARSE_ERR("[j]\n=4k\n", "e.fio:2: '=4k' has no option name");
	PARSE_ERR("[j]\nfoo=1\n", "e.fio:2: unknown option 'foo'");
	PARSE_ERR("[j]\r\nbs=4k\r\nfoo\r\n", "e.fio:3: unknown option 'foo'");
	PARSE_ERR("[j]\n;c\n\nrwmixread=101\n",
		  "e.fio:4: option 'rwmixread': 101 is out of range 0-100");
	PARSE_ERR("[j]\nrw=randread\n[k]\nioengine=nosuch\n",
		  "e.fio:4: option 'ioengine': 'nosuch' is not an engine");
	PARSE_ERR("[j]\nrw=randread\n[k]\nioengine=spdk_bdev\n",
		  "e.fio:4: engine 'spdk_bdev' bypasses the kernel block layer");
	FINALIZE_ERR("[j]\nrw=trim\nioengine=filecreate\n",
		     "f.fio:1: job 'j': rw=trim: engine filecreate issues no trims");
	FINALIZE_ERR("[j]\nrw=trimwrite\nnrfiles=2\n",
		     "f.fio:1: job 'j': rw=trimwrite with nrfiles=2");
	/* an option of an engine iodig does not run gets that engine's
	 * refusal, wherever it stands before the ioengine= line */
	PARSE_ERR("[global]\nnfs_url=nfs://h/x\n[j]\nioengine=nfs\n",
		  "e.fio:2: option 'nfs_url' is fio's ioengine=nfs's: engine 'nfs' is not local I/O");
	PARSE_ERR("[j]\nnfs_urlx=1\n", "e.fio:2: unknown option 'nfs_urlx'");
	PARSE_ERR("[j]\nverify=none\n",
		  "e.fio:2: option 'verify': 'none' is not one of 0, md5");
	PARSE_ERR("[j]\nverify_async_cpus=0-x\n",
		  "e.fio:2: option 'verify_async_cpus'");
	PARSE_ERR("[j]\nbuffer_pattern=%o\n", "e.fio:2: option "
		  "'buffer_pattern': '%o' is not a format it takes");
	/* a file without a job is no parse error, as in fio (SPDK's files
	 * of [global] only): the command says what a run of none means */
	expect_no_jobs("[global]\nbs=4k\n", __LINE__);
	expect_no_jobs("", __LINE__);
	expect_no_jobs("; only a comment\n\n", __LINE__);
	PARSE_ERR("[j]\nfilename=${IODIG_TEST_SURELY_UNSET}\n",
		  "e.fio:2: option 'filename' is empty: "
		  "${IODIG_TEST_SURELY_UNSET} is not set");
	PARSE_ERR("[j]\nfilename=${}\n", "e.fio:2: option 'filename' is "
		  "empty: ${} is not set");
	expect_parse_error("[j]\nbs=4k\0\n", 11,
			   "e.fio:2: line contains a NUL byte", __LINE__);

	memset(big, 'a', sizeof(big));
	memcpy(big, "[j]\nfilename=", 13);
	expect_parse_error(big, sizeof(big), "e.fio:2: line is longer than",
			   __LINE__);

	/* a long section name is refused, not truncated */
	memset(big, 'n', 300);
	big[0] = '[';
	memcpy(big + 299, "]\n", 3);
	PARSE_ERR(big, "e.fio:1: job name is longer than 127 bytes");
}

static void test_parse_details(void)
{
	struct job_list list = { 0 };
	struct errbuf err;
	struct job *before;
	int ret;

	setenv("IODIG_TEST_DIR", "/mnt/x", 1);
	ret = parse_str("d.fio", "\xef\xbb\xbf[j]\ndirectory=${IODIG_TEST_DIR}"
			"/sub\nfilename=a;b\n[global]\n[k k]\n", &list, &err);
	CHECK_MSG(ret == 0, "%s", err.msg);
	CHECK(list.count == 2);
	if (list.count == 2) {
		CHECK_MSG(!strcmp(list.jobs[0].directory, "/mnt/x/sub"), "%s",
			  list.jobs[0].directory);
		CHECK(!strcmp(list.jobs[0].filename, "a"));
		CHECK(!strcmp(list.jobs[1].name, "k k"));
	}

	/* jobs append; a failed parse leaves the list as it was */
	before = list.jobs;
	ret = parse_str("d2.fio", "[x]\nbs=4k\nfoo\n", &list, &err);
	CHECK(ret == -EINVAL && list.count == 2 && list.jobs == before);
	ret = parse_str("d3.fio", "[y]\n", &list, &err);
	CHECK(ret == 0 && list.count == 3);
	if (list.count == 3)
		CHECK(!strcmp(list.jobs[2].source, "d3.fio"));
	job_list_free(&list);
	CHECK(list.count == 0 && list.jobs == NULL);
	job_list_free(&list);
	job_list_free(NULL);
}

/* fio 3.33's section names (the header between its first and last
 * characters) and its comments (';' and '#' only: a number option reads
 * "0 // note" as 0, a path keeps the text). */
static void test_fio_headers_and_comments(void)
{
	static const char text[] =
		"[fio-test]G\ndirect=1 // note\nsize=64k // note\n"
		"[a] b\niodepth=4 ; note\nruntime=2 // note\n"
		"[ a ]\nfilename=/tmp/x // note\n[ global ]\n[]\nbs=8k\n";
	/* "[]" is a job without a name, as fio 3.33 runs it */
	static const char *const names[] = { "fio-test]", "a] ", " a ",
					      " global ", "" };
	struct job_list list = { 0 };
	struct errbuf err;
	int ret = parse_str("h.fio", text, &list, &err);

	CHECK_MSG(ret == 0, "%s", err.msg);
	CHECK_MSG(list.count == 5, "%zu jobs", list.count);
	for (size_t i = 0; i < list.count && i < 5; i++)
		CHECK_MSG(!strcmp(list.jobs[i].name, names[i]), "job %zu: '%s'",
			  i, list.jobs[i].name);
	if (list.count == 5) {
		CHECK(list.jobs[0].direct && list.jobs[0].size == 64 << 10);
		CHECK(list.jobs[1].iodepth == 4 &&
		      list.jobs[1].runtime_ns == 2 * NS_S);
		CHECK_MSG(!strcmp(list.jobs[2].filename, "/tmp/x // note"),
			  "%s", list.jobs[2].filename);
		CHECK(list.jobs[4].bs[DDIR_READ] == 8192);
	}
	job_list_free(&list);
	PARSE_ERR("[j]\nrw=read // note\n", "e.fio:2: option 'rw': 'read // note' is not one of");
}

static void test_files(void)
{
	char path[] = "/tmp/iodig-test-jobfile-XXXXXX";
	struct job_list list = { 0 };
	struct errbuf err;
	FILE *f;
	int fd, ret;

	ret = jobfile_parse("/nonexistent/iodig.fio", &list, &err);
	CHECK(ret == -ENOENT);
	CHECK_MSG(!strcmp(err.msg, "cannot read job file "
			  "'/nonexistent/iodig.fio': No such file or "
			  "directory"), "%s", err.msg);
	ret = jobfile_parse("/tmp", &list, &err);
	CHECK_MSG(ret == -EISDIR && strstr(err.msg, "'/tmp': Is a directory"),
		  "%d %s", ret, err.msg);

	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fputs("[global]\nrw=randread\n[a]\n[b]\nrw=write\nbs=64k\nflag\n", f);
	fclose(f);
	ret = jobfile_parse(path, &list, &err);
	CHECK(ret == -EINVAL && list.count == 0);
	CHECK_MSG(strstr(err.msg, ":7: unknown option 'flag'") &&
		  !strncmp(err.msg, path, strlen(path)), "%s", err.msg);

	f = fopen(path, "w");
	fputs("[global]\nrw=randread\n[a]\n[b]\nrw=write\nbs=64k\n", f);
	fclose(f);
	ret = jobfile_parse(path, &list, &err);
	CHECK_MSG(ret == 0 && list.count == 2, "%s", err.msg);
	if (list.count == 2) {
		CHECK(list.jobs[0].rw == RW_RANDREAD && list.jobs[1].rw ==
		      RW_WRITE);
		CHECK(!strcmp(list.jobs[1].source, path));
		CHECK(list.jobs[1].source_line == 4);
	}
	job_list_free(&list);
	unlink(path);
}

static void test_cmdline(void)
{
	char *argv[] = {
		"--ioengine=io_uring", "--direct=1", "--name=a",
		"--filename=/dev/loop0", "--rw=randread", "--bs=4k",
		"--iodepth=32", "--runtime=5", "--time_based", "--name=b",
		"--bs", "8k", "--rw=write", "--name=global", "--iodepth=4",
		"--name", "c",
	};
	struct job_list list = { 0 };
	struct errbuf err;
	int ret;

	ret = cmdline_jobs_parse(sizeof(argv) / sizeof(argv[0]), argv, &list,
				 &err);
	CHECK_MSG(ret == 0 && list.count == 3, "%d %s", ret, err.msg);
	if (list.count == 3) {
		const struct job *a = &list.jobs[0], *b = &list.jobs[1];
		const struct job *c = &list.jobs[2];

		CHECK(!strcmp(a->name, "a") && !strcmp(a->ioengine, "io_uring"));
		CHECK(a->direct && !strcmp(a->filename, "/dev/loop0"));
		CHECK(a->rw == RW_RANDREAD && a->bs[0] == 4096);
		CHECK(a->iodepth == 32 && a->runtime_ns == 5 * NS_S);
		CHECK(a->time_based);
		CHECK(!strcmp(a->source, "command line") && a->source_line == 0);
		/* b gets the globals, not a's options */
		CHECK(!strcmp(b->name, "b") && !strcmp(b->ioengine, "io_uring"));
		CHECK(b->direct && b->filename[0] == '\0' && b->iodepth == 1);
		CHECK(b->bs[0] == 8192 && b->rw == RW_WRITE && !b->time_based);
		/* --name=global switches back to the defaults, as in fio */
		CHECK(!strcmp(c->name, "c") && c->iodepth == 4);
		CHECK(b->iodepth == 1);
	}
	job_list_free(&list);

	/* options without --name define no job, and are no error (fio's
	 * --parse-only passes them) */
	char *e1[] = { "--rw=read", "--bs=4k" };
	ret = cmdline_jobs_parse(2, e1, &list, &err);
	CHECK_MSG(ret == 0 && list.count == 0, "%d %s", ret, err.msg);
	char *e2[] = { "--name=a", "--foo=1" };
	ret = cmdline_jobs_parse(2, e2, &list, &err);
	CHECK_MSG(ret == -EINVAL && !strcmp(err.msg, "command line: unknown "
		  "option 'foo'"), "%s", err.msg);
	char *e3[] = { "--name=a", "--rwmixread=101" };
	ret = cmdline_jobs_parse(2, e3, &list, &err);
	CHECK_MSG(!strcmp(err.msg, "command line: option 'rwmixread': 101 is "
			  "out of range 0-100"), "%s", err.msg);
	char *e4[] = { "--name=a", "stray" };
	ret = cmdline_jobs_parse(2, e4, &list, &err);
	CHECK_MSG(ret == -EINVAL && strstr(err.msg, "unexpected argument "
		  "'stray'"), "%s", err.msg);
	char *e5[] = { "--name" };
	ret = cmdline_jobs_parse(1, e5, &list, &err);
	CHECK_MSG(ret == -EINVAL && strstr(err.msg, "option 'name' needs a "
		  "value"), "%s", err.msg);
	char *e6[] = { "--name=a", "--iodepth" };
	ret = cmdline_jobs_parse(2, e6, &list, &err);
	CHECK_MSG(strstr(err.msg, "option 'iodepth' needs a value"), "%s",
		  err.msg);
	CHECK(list.count == 0);

	char *f1[] = { "--name=x", "--bs=8k", "--size=4k" };
	ret = cmdline_jobs_parse(3, f1, &list, &err);
	CHECK(ret == 0);
	ret = job_list_finalize(&list, &err);
	CHECK_MSG(ret == -EINVAL && !strcmp(err.msg, "command line: job 'x': "
		  "bs 8192 is larger than size 4096"), "%s", err.msg);
	job_list_free(&list);
}

/* Finalize on a one-job list where the test edits fields directly. */
static int finalize_edited(void (*edit)(struct job *), struct errbuf *err)
{
	struct job_list list = { 0 };
	int ret = parse_str("p.fio", "\n[p]\n", &list, err);

	if (ret)
		return 1;
	edit(&list.jobs[0]);
	ret = job_list_finalize(&list, err);
	job_list_free(&list);
	return ret;
}
static void iodepth0(struct job *j) { j->iodepth = 0; }
static void mix101(struct job *j) { j->rwmixread = 101; }
static void numjobs0(struct job *j) { j->numjobs = 0; }
static void bogus_engine(struct job *j) { strcpy(j->ioengine, "bogus"); }
static void bs0(struct job *j) { j->bs[DDIR_READ] = 0; }
static void reversed(struct job *j) { j->bs_min[0] = 8192; }

/* One job parsed from @text and finalized: 0, or -errno with @err set. */
static int finalized_job(const char *text, struct job_list *l, struct errbuf *err)
{
	int ret = parse_str("t.fio", text, l, err);

	if (!ret)
		ret = job_list_finalize(l, err);
	if (!ret && l->count != 1)
		ret = err_set(err, EINVAL, "%zu jobs, not 1", l->count);
	return ret;
}

/* fio drops time_based without a runtime and runs the job sized. */
static void test_time_based_without_runtime(void)
{
	struct job_list list = { 0 };
	struct errbuf err = { "" };
	int ret = finalized_job("[j]\ntime_based\nsize=1m\n", &list, &err);

	CHECK_MSG(ret == 0, "%s", err.msg);
	CHECK(!ret && !list.jobs[0].time_based);
	job_list_free(&list);
}

/* fio's cpp_null is its null engine built as C++: it runs as null and
 * keeps its name, through the finalize that resolves every job's engine. */
static void test_cpp_null_is_null(void)
{
	struct job_list list = { 0 };
	struct errbuf err = { "" };
	int ret = finalized_job("[j]\nioengine=cpp_null\nsize=1m\n", &list, &err);
	const struct job *j = ret ? NULL : &list.jobs[0];

	CHECK_MSG(ret == 0, "%s", err.msg);
	CHECK(j && j->engine && !strcmp(j->engine->name, "null") &&
	      !strcmp(j->ioengine, "cpp_null"));
	job_list_free(&list);
}

/* fio 3.33's io_uring_cmd takes io_uring's cmdprio options (one option
 * table for both engines); the kernel fails a URING_CMD SQE carrying an
 * ioprio, so iodig refuses those that would set one, saying why. */
static void test_uring_cmd_cmdprio(void)
{
	struct errbuf err;
	struct job_list list = { 0 };
	int ret = finalized_job("[j]\nioengine=io_uring_cmd\ncmdprio_class=1\ncmdprio=3\n",
				&list, &err);

	CHECK_MSG(ret == 0, "cmdprio_class and cmdprio alone: %s", err.msg);
	job_list_free(&list);
	FINALIZE_ERR("[j]\nioengine=io_uring_cmd\ncmdprio_percentage=30\ncmdprio_class=1\n",
		     "f.fio:1: job 'j': cmdprio_percentage with ioengine=io_uring_cmd: "
		     "the kernel takes no I/O priority on a passthrough command");
	FINALIZE_ERR("[j]\nioengine=io_uring_cmd\ncmdprio_percentage=0,20\n",
		     "cmdprio_percentage with ioengine=io_uring_cmd");
	FINALIZE_ERR("[j]\nioengine=io_uring_cmd\ncmdprio_bssplit=4k/30:8k/50\n",
		     "cmdprio_bssplit with ioengine=io_uring_cmd");
	/* fio's limits still apply when the value is read */
	PARSE_ERR("[j]\nioengine=io_uring_cmd\ncmdprio_class=4\n",
		  "e.fio:3: option 'cmdprio_class': '4' is not a number 1-3");
	PARSE_ERR("[j]\nioengine=io_uring_cmd\ncmdprio_percentage=101\n",
		  "e.fio:3: option 'cmdprio_percentage': '101' is not a number 0-100");
	FINALIZE_ERR("[j]\nioengine=psync\ncmdprio_percentage=10\n",
		     "cmdprio_percentage is an option of ioengine libaio, io_uring or io_uring_cmd, not psync");
}

static void test_finalize(void)
{
	struct errbuf err;
	struct job_list list = { 0 };
	int ret;

	FINALIZE_ERR("[j]\nbs=8k\nsize=4k\n",
		     "f.fio:1: job 'j': bs 8192 is larger than size 4096");
	FINALIZE_ERR("[global]\nioengine=libaio\n[j]\nfixedbufs\n",
		     "f.fio:4: fixedbufs is an option of ioengine io_uring or "
		     "io_uring_cmd, not libaio");
	FINALIZE_ERR("[j]\nregisterfiles\n", "f.fio:2: registerfiles is an "
		     "option of ioengine io_uring or io_uring_cmd, not psync");
	FINALIZE_ERR("[j]\nioengine=mmap\nsqthread_poll\n", "f.fio:3: "
		     "sqthread_poll is an option of ioengine io_uring or io_uring_cmd, not mmap");
	FINALIZE_ERR("[j]\nioengine=posixaio\nnowait=1\n", "f.fio:3: nowait is "
		     "an option of ioengine pvsync2, libaio, io_uring or io_uring_cmd, not posixaio");
	FINALIZE_ERR("[j]\nioengine=mmap\nnowait=1\n",
		     "nowait is an option of ioengine pvsync2, libaio, io_uring or io_uring_cmd, not "
		     "mmap");
	FINALIZE_ERR("[j]\nioengine=libaio\ndirect=1\nhipri\n", "f.fio:4: "
		     "hipri is an option of ioengine pvsync2, io_uring, "
		     "io_uring_cmd or sg, not libaio");
	FINALIZE_ERR("[j]\nioengine=io_uring\nhipri\n", "f.fio:1: job 'j': "
		     "hipri needs direct=1");
	FINALIZE_ERR("[j]\nioengine=pvsync2\nhipri\n", "hipri needs direct=1");
	/* psync and sync are fio's engines without options */
	FINALIZE_ERR("[j]\nioengine=sync\nhipri\n", "f.fio:3: hipri is an "
		     "option of ioengine pvsync2, io_uring, io_uring_cmd or sg, "
		     "not sync");
	FINALIZE_ERR("[j]\nioengine=pvsync2\nuncached=1\n", "uncached=1: "
		     "fio 3.33 asks for RWF_UNCACHED");
	FINALIZE_ERR("[j]\nverify=pattern\n", "f.fio:1: job 'j': "
		     "verify=pattern needs verify_pattern");
	FINALIZE_ERR("[j]\nverify=sha512\nbs=512\nverify_interval=128\n",
		     "a 128-byte block or verify_interval has no room for "
		     "verify=sha512's 168-byte header");
	FINALIZE_ERR("[j]\nverify=md5\nverify_interval=3k\n",
		     "verify_interval 3072 does not divide the write block size "
		     "4096");
	PARSE_ERR("[j]\nverify=md5\nverify_offset=8\n",
		  "e.fio:3: option 'verify_offset': 8 is below 40, fio 3.33's minimum");
	FINALIZE_ERR("[j]\nverify=md5\nverify_offset=4090\n",
		     "puts verify=md5's 56-byte header past the end");
	FINALIZE_ERR("[j]\nrw=write\nverify=md5\nverify_only=1\n"
		     "time_based\nruntime=1\n", "verify_only replays");
	/* the kernel says what O_DIRECT needs (tmpfs takes any size) */
	FINALIZE_OK("[j]\ndirect=1\nbs=1000\n");
	FINALIZE_OK("[j]\nrw=write\nbuffered=0\nbs=4k,1000\n");
	FINALIZE_OK("[j]\ndirect=1\nbsrange=700-4k\n");
	FINALIZE_ERR("[j]\ndirect=1\noffset=100\n",
		     "offset 100 is not a multiple of 512");
	FINALIZE_ERR("[j]\noffset=16383p\nsize=16383p\n", "overflows");
	FINALIZE_ERR("[j]\niodepth=4\niodepth_batch_complete=8\n",
		     "iodepth_batch_complete_min 8 is larger than iodepth 4");
	FINALIZE_ERR("[j]\nrw=randrw\nbs=4k,16k\nsize=8k\n",
		     "bs 16384 is larger than size 8192");

	CHECK(finalize_edited(iodepth0, &err) == -EINVAL);
	CHECK_MSG(!strcmp(err.msg, "p.fio:2: job 'p': iodepth 0 is out of "
			  "range 1-65536"), "%s", err.msg);
	CHECK(finalize_edited(mix101, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "job 'p': rwmixread 101 is out of range "
			 "0-100"), "%s", err.msg);
	CHECK(finalize_edited(numjobs0, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "numjobs 0 is out of range 1-1024"), "%s",
		  err.msg);
	CHECK(finalize_edited(bogus_engine, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "job 'p': ioengine 'bogus' is unknown"),
		  "%s", err.msg);
	CHECK(finalize_edited(bs0, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "bs must be larger than 0"), "%s", err.msg);
	CHECK(finalize_edited(reversed, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "does not fit bsrange 8192-4096"), "%s",
		  err.msg);

	/* accepted combinations, fio's clamping, stonewall groups */
	ret = parse_str("g.fio",
			"[a]\nstonewall\n"
			"[b]\nioengine=io_uring\ndirect=1\nhipri\nfixedbufs\n"
			"registerfiles\nsqthread_poll\nnowait=1\niodepth=4\n"
			"iodepth_batch=16\n"
			"[c]\nwait_for_previous\nioengine=pvsync2\nhipri\ndirect=1\n"
			"nowait=1\nrw=randwrite\nverify=crc32c\nsize=8k\n"
			"[d]\nrw=rw\nruntime=1\ntime_based\n"
			"[e]\nstonewall\nioengine=libaio\n",
			&list, &err);
	CHECK_MSG(ret == 0 && list.count == 5, "%s", err.msg);
	ret = job_list_finalize(&list, &err);
	CHECK_MSG(ret == 0, "%s", err.msg);
	if (!ret && list.count == 5) {
		CHECK(list.jobs[0].group_id == 0 && list.jobs[1].group_id == 0);
		CHECK(list.jobs[2].group_id == 1 && list.jobs[3].group_id == 1);
		CHECK(list.jobs[4].group_id == 2);
		CHECK(list.jobs[1].iodepth_batch_submit == 4);
		CHECK(!strcmp(list.jobs[2].engine->name, "pvsync2"));
		CHECK(list.jobs[2].io_size == 8192);
	}
	job_list_free(&list);

	CHECK(job_list_finalize(&list, &err) == -EINVAL);
}

/* Finalizes @list unless @ret (its parse) failed, echoes the engine
 * options of job @idx and frees the list. */
static int finish_echo(int ret, struct job_list *list, size_t idx,
		       char *echo, size_t len, struct errbuf *err)
{
	if (!ret)
		ret = job_list_finalize(list, err);
	if (!ret && idx < list->count)
		engine_echo(&list->jobs[idx], echo, len);
	job_list_free(list);
	return ret;
}

static int finalize_echo(const char *text, size_t idx, char *echo,
			 size_t len, struct errbuf *err)
{
	struct job_list list = { 0 };

	return finish_echo(parse_str("f.fio", text, &list, err), &list, idx,
			   echo, len, err);
}

/* Engine options are applied once the job's engine is known, wherever
 * ioengine= comes; an error names the line that gave the option. */
static void test_engine_option_order(void)
{
	struct job_list list = { 0 };
	struct errbuf err;
	char echo[128] = "";
	int ret;

	ret = finalize_echo("[j]\nfixedbufs\nioengine=io_uring\n", 0, echo,
			    sizeof(echo), &err);
	CHECK_MSG(ret == 0 && !strcmp(echo, "fixedbufs=1"), "%s %s", err.msg,
		  echo);
	ret = finalize_echo("[global]\nregisterfiles=1\nnowait=1\n[a]\n"
			    "ioengine=io_uring\n[b]\nioengine=pvsync2\n"
			    "registerfiles=0\n", 0, echo, sizeof(echo), &err);
	CHECK_MSG(ret == -EINVAL && !strcmp(err.msg, "f.fio:8: registerfiles "
			  "is an option of ioengine io_uring or io_uring_cmd, not pvsync2"),
		  "%s", err.msg);
	ret = finalize_echo("[global]\nregisterfiles=1\nnowait=1\n[a]\n"
			    "ioengine=io_uring\n[b]\nioengine=psync\n", 0,
			    echo, sizeof(echo), &err);
	CHECK_MSG(ret == -EINVAL && !strcmp(err.msg, "f.fio:2: registerfiles "
			  "is an option of ioengine io_uring or io_uring_cmd, not psync (job 'b' "
			  "has it from [global])"), "%s", err.msg);
	/* fio drops what [global] gave its own engine when a job changes it */
	ret = finalize_echo("[global]\nioengine=io_uring\nregisterfiles=1\n"
			    "[b]\nioengine=psync\n", 0, echo, sizeof(echo),
			    &err);
	CHECK_MSG(ret == 0, "%s", err.msg);
	ret = finalize_echo("[global]\nsqthread_poll\nnowait=1\n[a]\n"
			    "ioengine=io_uring\n[b]\nioengine=sync\n"
			    "sqthread_poll=0\n[c]\nioengine=io_uring\n", 0,
			    echo, sizeof(echo), &err);
	CHECK_MSG(ret == -EINVAL && strstr(err.msg, "f.fio:8: sqthread_poll "),
		  "%s", err.msg);
	ret = finalize_echo("[global]\nsqthread_poll\nnowait=1\n[a]\n"
			    "ioengine=io_uring\n[c]\nioengine=sync\n"
			    "[global]\nioengine=io_uring\n[d]\n", 2, echo,
			    sizeof(echo), &err);
	CHECK_MSG(ret == -EINVAL && strstr(err.msg, "(job 'c' has it from "
			  "[global])"), "%s", err.msg);
	ret = finalize_echo("[global]\nsqthread_poll\nnowait=1\n[a]\n"
			    "ioengine=io_uring\n[global]\nioengine=sync\n"
			    "[d]\nioengine=io_uring\n", 1, echo, sizeof(echo),
			    &err);
	CHECK_MSG(ret == 0 && !strcmp(echo, "sqthread_poll=1,nowait=1"),
		  "%s %s", err.msg, echo);
	ret = finalize_echo("[global]\nioengine=io_uring\n[a]\nfixedbufs\n"
			    "ioengine=libaio\n", 0, echo, sizeof(echo), &err);
	CHECK_MSG(ret == -EINVAL && !strcmp(err.msg, "f.fio:4: fixedbufs is an "
			  "option of ioengine io_uring or io_uring_cmd, not libaio"), "%s",
		  err.msg);
	PARSE_ERR("[j]\nioengine=io_uring\nfixedbufs=yes\n",
		  "e.fio:3: option 'fixedbufs': 'yes' is not a number");

	/* the command line, before or after --name, before or after
	 * --ioengine */
	char *c1[] = { "--fixedbufs=1", "--ioengine=io_uring", "--name=a",
		       "--name=b", "--nowait=1", "--ioengine=psync",
		       "--name=c", "--ioengine=libaio" };
	ret = cmdline_jobs_parse(8, c1, &list, &err);
	CHECK_MSG(ret == 0 && list.count == 3, "%s", err.msg);
	ret = job_list_finalize(&list, &err);
	CHECK_MSG(ret == -EINVAL && !strcmp(err.msg, "command line: fixedbufs "
			  "is an option of ioengine io_uring or io_uring_cmd, not psync"), "%s",
		  err.msg);
	job_list_free(&list);
	char *c2[] = { "--name=a", "--sqthread_poll", "--ioengine=io_uring" };
	ret = finish_echo(cmdline_jobs_parse(3, c2, &list, &err), &list, 0,
			  echo, sizeof(echo), &err);
	CHECK_MSG(ret == 0 && !strcmp(echo, "sqthread_poll=1"), "%s %s",
		  err.msg, echo);

	/* command-line options over a job file's jobs (iodig run f.fio
	 * --fixedbufs=1 --ioengine=io_uring), in either order */
	ret = parse_str("f.fio", "[a]\nioengine=libaio\n[b]\nnowait=1\n",
			&list, &err);
	for (size_t i = 0; !ret && i < list.count; i++) {
		ret = job_option_set(&list.jobs[i], "fixedbufs", "1",
				     "command line", &err);
		if (!ret)
			ret = job_option_set(&list.jobs[i], "ioengine",
					     "io_uring", "command line", &err);
	}
	ret = finish_echo(ret, &list, 1, echo, sizeof(echo), &err);
	CHECK_MSG(ret == 0 && !strcmp(echo, "fixedbufs=1,nowait=1"), "%s %s",
		  err.msg, echo);
}

static int endswith(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* Every shipped job file parses and passes finalize; runs from the repo
 * root, as the test runner does. */
static void test_shipped_jobs(void)
{
	DIR *dir = opendir("jobs");
	struct dirent *de;
	int files = 0;

	CHECK_MSG(dir != NULL, "cannot open jobs/ (run from the repo root)");
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		struct job_list list = { 0 };
		struct errbuf err;
		char path[512];
		int ret;

		if (!endswith(de->d_name, ".fio"))
			continue;
		files++;
		snprintf(path, sizeof(path), "jobs/%s", de->d_name);
		ret = jobfile_parse(path, &list, &err);
		if (!ret)
			ret = job_list_finalize(&list, &err);
		CHECK_MSG(ret == 0, "%s", err.msg);
		for (size_t i = 0; !ret && i < list.count; i++) {
			const struct job *j = &list.jobs[i];

			CHECK_MSG(j->runtime_ns && j->runtime_ns <= 5 * NS_S,
				  "%s: job %s runtime", path, j->name);
			CHECK_MSG(!j->filename[0] && !j->directory[0],
				  "%s: job %s names a target", path, j->name);
		}
		if (!ret && endswith(path, "/default.fio")) {
			const struct job *j = &list.jobs[0];

			CHECK(list.count == 1);
			CHECK(j->rw == RW_RANDREAD && j->bs[0] == 4096);
			CHECK(!strcmp(j->engine->name, "io_uring"));
			CHECK(j->iodepth == 16 && j->direct && j->time_based);
			CHECK(j->runtime_ns == 3 * NS_S);
		}
		if (!ret && endswith(path, "/gup-libaio.fio")) {
			CHECK(list.count == 2);
			CHECK(list.jobs[0].numjobs == 1 && list.jobs[1].numjobs ==
			      20);
			CHECK(list.jobs[1].group_id == 1 &&
			      list.jobs[1].group_reporting);
			CHECK(!strcmp(list.jobs[0].engine->name, "libaio"));
			CHECK(list.jobs[0].iodepth == 64 && list.jobs[0].direct);
		}
		job_list_free(&list);
	}
	closedir(dir);
	CHECK_MSG(files >= 5, "only %d job files in jobs/", files);
}

/* Random mutations of a valid file must never crash the parser. */
static void test_mutations(void)
{
	static const char alphabet[] = "[]=;#$ {}\r\n\t\\:,-0k9ab\0";
	size_t len = sizeof(realistic) - 1;
	char *buf = malloc(len + 64);
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int ok = 0;

	if (!buf)
		return;
	for (int iter = 0; iter < 20000; iter++) {
		struct job_list list = { 0 };
		struct errbuf err = { "" };
		size_t n = len;

		memcpy(buf, realistic, len);
		for (int m = 0; m < 4; m++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			buf[x % n] = alphabet[(x >> 32) % (sizeof(alphabet) - 1)];
		}
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		n = x % (len + 1);
		if (jobfile_parse_buffer("m.fio", buf, n, &list, &err) == 0) {
			ok++;
			job_list_finalize(&list, &err);
		} else {
			CHECK_MSG(err.msg[0], "failed without a message");
		}
		job_list_free(&list);
	}
	CHECK(ok > 0);
	free(buf);
}

int main(void)
{
	test_realistic();
	test_parse_errors();
	test_parse_details();
	test_fio_headers_and_comments();
	test_files();
	test_cmdline();
	test_finalize();
	test_uring_cmd_cmdprio();
	test_time_based_without_runtime();
	test_cpp_null_is_null();
	test_engine_option_order();
	test_shipped_jobs();
	test_mutations();
	return CHECK_DONE();
}
