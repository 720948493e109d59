// fio's block_error_percentiles: the blocks of a region in trim-sized units, the trims each took and its state (a failure sticks), the lifetime percentiles over the blocks ever trimmed or failed as fio's calc_block_percentiles orders them, the report's text lines (fio's wrap at 75 columns) and JSON "block" object, and the option with its single-file rule.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "job/options.h"
#include "report/report_block_life.h"
#include "workload/block_life.h"
#include "workload/stats.h"

#define KIB 1024u

static void test_init(void)
{
	static struct block_life bl;

	CHECK(block_life_init(&bl, 256 * KIB, 16 * KIB) == 0 && bl.nr == 16);
	CHECK(block_life_init(&bl, 8 * KIB, 16 * KIB) == -EINVAL);
	CHECK(block_life_init(&bl, 256 * KIB, 0) == -EINVAL);
	CHECK(block_life_init(&bl, (uint64_t)BLOCK_LIFE_MAX * 512, 512) == 0);
	CHECK(block_life_init(&bl, (uint64_t)(BLOCK_LIFE_MAX + 1) * 512, 512) == -EINVAL);
}

/* 16 blocks: block 0 trimmed three times, block 1 once, a write failed
 * in block 2 (which a later trim does not revive), the rest unwritten. */
static void fill(struct block_life *bl)
{
	CHECK(block_life_init(bl, 256 * KIB, 16 * KIB) == 0);
	for (int i = 0; i < 3; i++)
		block_life_trimmed(bl, 0, 16 * KIB);
	block_life_trimmed(bl, 16 * KIB + 512, 16 * KIB);
	block_life_failed(bl, 32 * KIB + 4 * KIB, 16 * KIB, DDIR_WRITE);
	block_life_trimmed(bl, 32 * KIB, 16 * KIB);
	block_life_failed(bl, 48 * KIB, 16 * KIB, DDIR_READ);  /* not a block's */
	block_life_trimmed(bl, 256 * KIB, 16 * KIB);           /* past the region */
}

static void test_percentiles(void)
{
	static struct block_life bl;
	const double plist[3] = { 1, 50, 99 };
	uint32_t out[3], counts[BLOCK_STATES];

	fill(&bl);
	/* 3 blocks of 16 count: 1 trim, 3 trims, then the failed one (0) */
	CHECK(block_life_percentiles(&bl, plist, 3, out, counts) == 3);
	CHECK_MSG(out[0] == 1 && out[1] == 3 && out[2] == 0, "%u %u %u",
		  out[0], out[1], out[2]);
	CHECK(counts[BLOCK_UNWRITTEN] == 13 && counts[BLOCK_TRIMMED] == 2 &&
	      counts[BLOCK_WRITTEN] == 0 && counts[BLOCK_TRIM_FAILURE] == 0 &&
	      counts[BLOCK_WRITE_FAILURE] == 1);
	CHECK(bl.trims[2] == 0 && bl.state[2] == BLOCK_WRITE_FAILURE);
	CHECK(block_life_init(&bl, 256 * KIB, 16 * KIB) == 0);
	CHECK(block_life_percentiles(&bl, plist, 3, out, counts) == 0);
	CHECK(counts[BLOCK_UNWRITTEN] == 16);
}

static char *render_text(const struct block_life *bl)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	report_block_life_text(f, bl, NULL);
	fclose(f);
	return text;
}

static void test_render(void)
{
	static struct block_life bl;
	struct json_object *o = json_object_new_object(), *b = NULL, *v = NULL;
	char *text;

	fill(&bl);
	text = render_text(&bl);
	/* fio's 17 default percentiles, wrapped as fio wraps them: below
	 * 33.3% the block of 1 trim, then the one of 3, then the failed one */
	CHECK_MSG(text && !strcmp(text,
		"  block lifetime percentiles :\n"
		"   | 1.00th=1, 5.00th=1, 10.00th=1, 20.00th=1, 30.00th=1, 40.00th=3, 50.00th=3,\n"
		"   | 60.00th=3, 70.00th=0, 80.00th=0, 90.00th=0, 95.00th=0, 99.00th=0,\n"
		"   | 99.50th=0, 99.90th=0, 99.95th=0, 99.99th=0\n"
		"        states               : unwritten=13, trimmed=2, written=0, trim failure=0, write failure=1\n"),
		"%s", text ? text : "(null)");
	free(text);
	CHECK(report_block_life_json(o, &bl, NULL) == 0);
	CHECK(json_object_object_get_ex(o, "block", &b));
	CHECK(json_object_object_get_ex(b, "percentiles", &v) &&
	      json_object_object_length(v) == 17);
	CHECK(json_object_object_get_ex(v, "50.000000", &v) && json_object_get_int(v) == 3);
	CHECK(json_object_object_get_ex(b, "states", &v) &&
	      json_object_object_get_ex(v, "write failure", &v) && json_object_get_int(v) == 1);
	json_object_put(o);
	/* no block kept: nothing printed, no object */
	bl.nr = 0;
	text = render_text(&bl);
	CHECK(text && !*text);
	free(text);
	o = json_object_new_object();
	CHECK(report_block_life_json(o, &bl, NULL) == 0 && json_object_object_length(o) == 0);
	json_object_put(o);
}

static int finalize(const char *text, struct errbuf *err)
{
	struct job_list list = { 0 };
	int ret = jobfile_parse_buffer("b.fio", text, strlen(text), &list, err);

	if (!ret)
		ret = job_list_finalize(&list, err);
	if (!ret)
		CHECK(list.jobs[0].stat.block_error_hist);
	job_list_free(&list);
	return ret;
}

static void test_option(void)
{
	struct errbuf err = { "" };

	CHECK_MSG(finalize("[t]\nfilename=/dev/null\nrw=trimwrite\nbs=512,512,16k\n"
			   "block_error_percentiles=1\n", &err) == 0, "%s", err.msg);
	CHECK(finalize("[t]\nrw=trim\nnrfiles=2\nsize=1m\nblock_error_percentiles=1\n",
		       &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "b.fio:") && strstr(err.msg, "single file"), "%s", err.msg);
}

int main(void)
{
	test_init();
	test_percentiles();
	test_render();
	test_option();
	return CHECK_DONE();
}
