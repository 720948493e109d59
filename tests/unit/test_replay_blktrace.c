// read_iolog of a blktrace trace, as fio 3.33's read_blktrace: queue events become reads, writes and syncs at sector * 512, paced by their times; notifies and pdus skipped; the depth counted from queues, merges and completions; replay_scale/align/skip/redirect; either byte order; a cut-short or corrupt trace names the byte.
#include <string.h>

#include "tests/lib/check.h"
#include "workload/replay_blktrace.h"

/* struct blk_io_trace as include/uapi/linux/blktrace_api.h lays it out. */
struct rec {
	uint32_t magic, sequence;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};
_Static_assert(sizeof(struct rec) == 48, "blk_io_trace is 48 bytes");

#define MAGIC 0x65617407u
#define TC(bit) (1u << (16 + (bit)))
#define R (TC(0) | TC(8))
#define W (TC(1) | TC(8))
#define FLUSH TC(2)
#define NOTIFY TC(10)
#define DISCARD TC(13)
#define Q 1u
#define M 2u /* a back merge */
#define C 8u

static const struct job_replay_opts plain = { .scale = 1, .time_scale = 100 };

struct trace {
	unsigned char buf[4096];
	size_t len;
};

static void add(struct trace *t, uint64_t time_ns, uint32_t action, uint64_t sector,
		uint32_t bytes, uint16_t pdu_len)
{
	struct rec r = { .magic = MAGIC, .time = time_ns, .sector = sector, .bytes = bytes,
			 .action = action, .device = 7u << 20 | 3, .pdu_len = pdu_len };

	memcpy(t->buf + t->len, &r, sizeof(r));
	memset(t->buf + t->len + sizeof(r), 'x', pdu_len);
	t->len += sizeof(r) + pdu_len;
}

static void swap_all(struct trace *t)
{
	for (size_t at = 0; at < t->len;) {
		struct rec r;

		memcpy(&r, t->buf + at, sizeof(r));
		uint16_t pdu = r.pdu_len;
		r.magic = __builtin_bswap32(r.magic);
		r.time = __builtin_bswap64(r.time);
		r.sector = __builtin_bswap64(r.sector);
		r.bytes = __builtin_bswap32(r.bytes);
		r.action = __builtin_bswap32(r.action);
		r.device = __builtin_bswap32(r.device);
		r.pdu_len = __builtin_bswap16(r.pdu_len);
		memcpy(t->buf + at, &r, sizeof(r));
		at += sizeof(r) + pdu;
	}
}

static int parse(struct replay_log *log, const struct trace *t,
		 const struct job_replay_opts *o, char *msg)
{
	struct errbuf err = { { 0 } };
	int ret = replay_blktrace_parse(log, t->buf, t->len, "x.bin", o, "/dev/y", &err);

	strcpy(msg, err.msg);
	return ret;
}

/* A notify with a pdu, two writes queued (one merged into the other), a
 * completion, a read, a flush, an empty read and a discard. */
static void sample(struct trace *t)
{
	memset(t, 0, sizeof(*t));
	add(t, 0, NOTIFY, 0, 0, 16);
	add(t, 1000000, W | Q, 8, 4096, 0);
	add(t, 1500000, W | Q, 16, 4096, 0);
	add(t, 1500100, W | Q, 24, 4096, 0);
	add(t, 1500200, W | M, 24, 4096, 0);
	add(t, 2000000, W | C, 8, 12288, 0);
	add(t, 4000000, R | Q, 100, 8192, 0);
	add(t, 5000000, W | FLUSH | Q, 0, 0, 0);
	add(t, 6000000, R | Q, 0, 0, 0);
	add(t, 7000000, W | DISCARD | Q, 200, 4096, 0);
}

static void test_sample(bool swapped)
{
	struct job_replay_opts o = plain;
	struct replay_log log;
	struct trace t;
	char msg[ERRBUF_LEN];

	sample(&t);
	if (swapped)
		swap_all(&t);
	CHECK(replay_is_blktrace(t.buf, t.len));
	CHECK_MSG(parse(&log, &t, &o, msg) < 0 && strstr(msg, "byte 448: a discard"),
		  "%s", msg);
	o.skip = REPLAY_SKIP_TRIM;
	CHECK_MSG(parse(&log, &t, &o, msg) == 0, "%s", msg);
	CHECK(log.nr_files == 1 && !strcmp(log.files[0], "/dev/y"));
	CHECK(log.nr_entries == 5 && log.syncs == 1);
	CHECK(log.ios[DDIR_WRITE] == 3 && log.bytes[DDIR_WRITE] == 12288);
	CHECK(log.ios[DDIR_READ] == 1 && log.max_len[DDIR_READ] == 8192);
	CHECK(log.entries[0].kind == REPLAY_WRITE && log.entries[0].offset == 4096);
	CHECK(log.entries[0].delay_us == 0); /* fio: none before the first */
	CHECK(log.entries[1].offset == 8192 && log.entries[1].delay_us == 500);
	CHECK(log.entries[3].kind == REPLAY_READ && log.entries[3].offset == 51200);
	CHECK(log.entries[3].delay_us == 2499); /* from the queue before, 1500100 */
	CHECK(log.entries[4].kind == REPLAY_SYNC && log.entries[4].delay_us == 1000);
	CHECK(log.depth == 2); /* three writes queued, one merged, then done */
	CHECK(log.end == 51200 + 8192);
	replay_log_free(&log);
}

static void test_options(void)
{
	struct job_replay_opts o = plain;
	struct replay_log log;
	struct trace t;
	char msg[ERRBUF_LEN];

	sample(&t);
	o.skip = REPLAY_SKIP_TRIM | REPLAY_SKIP_WRITE | REPLAY_SKIP_SYNC;
	o.scale = 2;
	o.align = 8192;
	o.time_scale = 200;
	CHECK_MSG(parse(&log, &t, &o, msg) == 0, "%s", msg);
	CHECK(log.nr_entries == 1 && log.syncs == 0 && !log.ios[DDIR_WRITE]);
	/* 51200 / 2 = 25600, down to 24576; the length up to 8k (fio's t_bytes_align) */
	CHECK(log.entries[0].offset == 24576 && log.entries[0].len == 8192);
	CHECK(log.entries[0].delay_us == 1249); /* twice as fast */
	replay_log_free(&log);
	o = plain;
	o.no_stall = true;
	o.skip = REPLAY_SKIP_TRIM;
	CHECK(parse(&log, &t, &o, msg) == 0 && log.entries[1].delay_us == 0);
	replay_log_free(&log);
}

static void bad(const struct trace *t, const char *want)
{
	struct job_replay_opts o = plain;
	struct replay_log log;
	char msg[ERRBUF_LEN];

	o.skip = REPLAY_SKIP_TRIM;
	CHECK_MSG(parse(&log, t, &o, msg) < 0, "accepted, want %s", want);
	CHECK_MSG(strstr(msg, want) != NULL, "'%s' lacks '%s'", msg, want);
	CHECK(log.entries == NULL && log.files == NULL);
}

static void test_errors(void)
{
	struct trace t;

	sample(&t);
	t.len -= 20;
	bad(&t, "x.bin: byte 448: a blktrace record cut short (28 of its 48 bytes)");
	sample(&t);
	t.buf[64 + 48 + 3] ^= 0xff; /* the magic's top byte */
	bad(&t, "x.bin: byte 112: not a blktrace record");
	sample(&t);
	t.buf[64] = 0x06;
	bad(&t, "x.bin: byte 64: blktrace records of version 7");
	sample(&t);
	t.len = 48 + 8; /* the notify's 16 bytes of pdu, 8 of them there */
	bad(&t, "x.bin: byte 0: the record's 16 bytes of data run past the end");
	memset(&t, 0, sizeof(t));
	add(&t, 1, W | FLUSH | Q, 0, 0, 0);
	bad(&t, "x.bin: the blktrace trace has no queued read or write");
	CHECK(!replay_is_blktrace((const unsigned char *)"fio version 3 iolog\n", 20));
}

int main(void)
{
	test_sample(false);
	test_sample(true);
	test_options();
	test_errors();
	return CHECK_DONE();
}
