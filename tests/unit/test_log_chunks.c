// fio's log records in zlib chunks (base/zchunks.c, workload/log_sample.c): fio 3.33's io_sample
// layout (offset and prio flags in the ddir word), a record back to the same text line, streams
// that each end on a record and hold at most the chunk size, and all records back in order.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tests/lib/check.h"
#include "base/zchunks.h"
#include "workload/log_sample.h"

static void line_text(const struct log_columns *c, const struct log_line *l, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	log_line_print(f, c, l);
	fclose(f);
}

static void test_layout(void)
{
	const struct job_log_opts o = { .offset = true, .prio = true };
	const struct log_columns c = log_columns_of(&o, true);
	const struct log_line l = { .ms = 7, .value = 123456, .d = DDIR_WRITE, .bs = 4096,
				    .offset = 8192, .ioprio = 0x2004 };
	unsigned char rec[LOG_SAMPLE_MAX];
	struct log_line back;
	char a[128], b[128];
	uint64_t u64;
	uint32_t u32;
	uint16_t u16;

	CHECK(log_sample_size(&c) == 40);
	log_sample_pack(&c, &l, rec);
	memcpy(&u64, rec, 8);
	CHECK(u64 == 7);
	memcpy(&u64, rec + 8, 8);
	CHECK(u64 == 123456);
	memcpy(&u32, rec + 16, 4);
	CHECK_MSG(u32 == (0x80000000u | 0x40000000u | 1), "ddir word %#x", u32);
	memcpy(&u16, rec + 20, 2);
	CHECK(u16 == 0x2004);
	memcpy(&u64, rec + 24, 8);
	CHECK(u64 == 4096);
	memcpy(&u64, rec + 32, 8);
	CHECK(u64 == 8192);
	log_sample_unpack(&c, rec, &back);
	line_text(&c, &l, a, sizeof(a));
	line_text(&c, &back, b, sizeof(b));
	CHECK_MSG(!strcmp(a, b) && !strcmp(a, "7, 123456, 1, 4096, 8192, 0x2004\n"), "%s / %s", a, b);

	const struct job_log_opts plain = { .window_value = LOG_WINDOW_BOTH, .issue_time = true };
	const struct log_columns p = log_columns_of(&plain, false);
	const struct log_line m = { .ms = 1, .value = 2, .max = 3, .bs = 0, .ioprio = 0x2000 };

	/* fio's 32 bytes, then iodig's maximum; no issue time in a bw log */
	CHECK(log_sample_size(&p) == 40);
	log_sample_pack(&p, &m, rec);
	memcpy(&u32, rec + 16, 4);
	CHECK(u32 == 0);
	log_sample_unpack(&p, rec, &back);
	line_text(&p, &back, b, sizeof(b));
	CHECK_MSG(!strcmp(b, "1, 2, 3, 0, 0, 1\n"), "%s", b);
}

struct seen {
	size_t streams, bytes, biggest;
	uint64_t next;
	int bad;
};

static int each(const void *buf, size_t len, void *arg)
{
	struct seen *s = arg;
	uint64_t v;

	s->streams++;
	s->bytes += len;
	if (len > s->biggest)
		s->biggest = len;
	if (len % 24)
		s->bad++;
	for (size_t at = 0; at + 24 <= len; at += 24) {
		memcpy(&v, (const char *)buf + at, 8);
		if (v != s->next++)
			s->bad++;
	}
	return 0;
}

static void test_chunks(void)
{
	struct zchunks zc;
	struct seen s = { 0 };
	unsigned char rec[24] = { 0 };
	size_t streams = 0;

	zchunks_init(&zc, 1000);
	for (uint64_t i = 0; i < 10000; i++) {
		memcpy(rec, &i, 8);
		CHECK(zchunks_add(&zc, rec, sizeof(rec)) == 0);
	}
	CHECK(zchunks_flush(&zc) == 0);
	CHECK(zchunks_inflate(&zc, each, &s) == 0);
	CHECK_MSG(s.bytes == 240000 && !s.bad && s.next == 10000, "%zu bytes, %d bad", s.bytes, s.bad);
	/* 41 records of 24 bytes fit 1000 */
	CHECK_MSG(s.biggest == 984 && s.streams == (10000 + 40) / 41, "%zu streams, biggest %zu",
		  s.streams, s.biggest);
	CHECK_MSG(zc.z_len < 240000 / 4, "compressed to %zu", zc.z_len);
	/* the streams are zlib's, back to back, as fio's --inflate-log reads them */
	for (size_t at = 0; at < zc.z_len; streams++) {
		z_stream z = { 0 };
		unsigned char out[1024];

		inflateInit(&z);
		z.next_in = zc.z + at;
		z.avail_in = zc.z_len - at;
		z.next_out = out;
		z.avail_out = sizeof(out);
		if (inflate(&z, Z_FINISH) != Z_STREAM_END) {
			inflateEnd(&z);
			break;
		}
		at += z.total_in;
		inflateEnd(&z);
	}
	CHECK(streams == s.streams);
	zchunks_free(&zc);

	/* nothing logged: still one empty stream, which fio inflates */
	memset(&s, 0, sizeof(s));
	zchunks_init(&zc, 1000);
	CHECK(zchunks_flush(&zc) == 0 && zc.z_len == 8);
	CHECK(zchunks_inflate(&zc, each, &s) == 0 && s.streams == 1 && s.bytes == 0);
	zchunks_free(&zc);
}

int main(void)
{
	test_layout();
	test_chunks();
	return CHECK_DONE();
}
