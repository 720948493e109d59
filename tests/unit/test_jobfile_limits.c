// SPDX-License-Identifier: GPL-2.0
/* Job parser limits on hostile input: file size, line length, job count, NUL bytes, numjobs/iodepth/bs ranges and the run-wide worker cap, each refused with a message naming the place. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/options.h"
#include "tests/lib/check.h"

/* parse TEXT (LEN bytes) and finalize; returns the error, fills @err */
static int parse(const char *text, size_t len, struct errbuf *err)
{
	struct job_list list = { 0 };
	int ret;

	err->msg[0] = '\0';
	ret = jobfile_parse_buffer("limits.fio", text, len, &list, err);
	if (!ret)
		ret = job_list_finalize(&list, err);
	job_list_free(&list);
	return ret;
}

static int parse_str(const char *text, struct errbuf *err)
{
	return parse(text, strlen(text), err);
}

/* @n sections "[jN]" each with @body */
static char *sections(unsigned int n, const char *body)
{
	size_t cap = (size_t)n * (strlen(body) + 24) + 1, off = 0;
	char *buf = malloc(cap);

	for (unsigned int i = 0; buf && i < n; i++)
		off += (size_t)snprintf(buf + off, cap - off, "[j%u]\n%s", i, body);
	return buf;
}

int main(void)
{
	struct errbuf err;
	char *buf;
	int ret;

	/* Larger than 16 MiB: refused before parsing anything. */
	buf = calloc(1, (16u << 20) + 2);
	CHECK(buf);
	if (buf) {
		memset(buf, '\n', (16u << 20) + 1);
		memcpy(buf, "[a]\n", 4);
		ret = parse(buf, (16u << 20) + 1, &err);
		CHECK_MSG(ret == -EFBIG, "ret %d: %s", ret, err.msg);
		CHECK_MSG(strstr(err.msg, "limits.fio"), "%s", err.msg);
	}
	free(buf);

	/* One line longer than PATH_MAX + 1024: names the line. */
	buf = malloc(3 * 4096 + 16);
	CHECK(buf);
	if (buf) {
		strcpy(buf, "[a]\nfilename=");
		memset(buf + strlen(buf), 'x', 3 * 4096);
		buf[4 + 9 + 3 * 4096] = '\0';
		ret = parse_str(buf, &err);
		CHECK_MSG(ret == -E2BIG, "ret %d: %s", ret, err.msg);
		CHECK_MSG(strstr(err.msg, "limits.fio:2"), "%s", err.msg);
	}
	free(buf);

	/* 1024 jobs are fine, 1025 are not. */
	buf = sections(1024, "size=1m\n");
	ret = parse_str(buf, &err);
	CHECK_MSG(ret == 0, "1024 jobs: ret %d: %s", ret, err.msg);
	free(buf);
	buf = sections(1025, "size=1m\n");
	ret = parse_str(buf, &err);
	CHECK_MSG(ret == -E2BIG, "1025 jobs: ret %d: %s", ret, err.msg);
	CHECK_MSG(strstr(err.msg, "more than 1024 jobs"), "%s", err.msg);
	free(buf);

	/* A NUL byte in the middle of a line. */
	ret = parse("[a]\nrw=re\0ad\n", 14, &err);
	CHECK_MSG(ret == -EINVAL && strstr(err.msg, "limits.fio:2"), "ret %d: %s", ret, err.msg);

	/* Per-option ranges. */
	CHECK(parse_str("[a]\nsize=1m\nnumjobs=1024\n", &err) == 0);
	ret = parse_str("[a]\nsize=1m\nnumjobs=1025\n", &err);
	CHECK_MSG(ret < 0 && strstr(err.msg, "numjobs"), "ret %d: %s", ret, err.msg);
	ret = parse_str("[a]\nsize=1m\niodepth=65537\n", &err);
	CHECK_MSG(ret < 0 && strstr(err.msg, "iodepth"), "ret %d: %s", ret, err.msg);
	ret = parse_str("[a]\nsize=4g\nbs=2g\n", &err);
	CHECK_MSG(ret < 0 && strstr(err.msg, "bs"), "ret %d: %s", ret, err.msg);
	ret = parse_str("[a]\nsize=1m\nnumjobs=99999999999999999999\n", &err);
	CHECK_MSG(ret < 0 && strstr(err.msg, "numjobs"), "ret %d: %s", ret, err.msg);

	/* The whole run: 4 x 1024 workers are fine, 5 x 1024 are not. */
	buf = sections(4, "size=1m\nnumjobs=1024\n");
	ret = parse_str(buf, &err);
	CHECK_MSG(ret == 0, "4096 workers: ret %d: %s", ret, err.msg);
	free(buf);
	buf = sections(5, "size=1m\nnumjobs=1024\n");
	ret = parse_str(buf, &err);
	CHECK_MSG(ret == -E2BIG, "5120 workers: ret %d: %s", ret, err.msg);
	CHECK_MSG(strstr(err.msg, "5120 workers"), "%s", err.msg);
	free(buf);
	return CHECK_DONE();
}
