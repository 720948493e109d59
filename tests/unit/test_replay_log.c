// read_iolog's parser reads fio's iolog v2 and v3 as fio 3.33's read_iolog() does: files, directions, offsets, lengths, the pace of v3, replay_redirect/scale/align/skip/no_stall/time_scale, logs appended one after another (write_iolog with numjobs), and names the log and line of a bad one.
#include <string.h>

#include "tests/lib/check.h"
#include "workload/replay_log.h"

static const struct job_replay_opts plain = { .scale = 1, .time_scale = 100 };

static const char v3[] =
	"fio version 3 iolog\n"
	"100 a add\n"
	"150 b add\n"
	"200 a open\n"
	"1200 a write 8192 4096\n"
	"3200 b read 0 16384\n"
	"3300 a sync 0 0\n"
	"4300 a close\n";

static int parse(struct replay_log *log, const char *text,
		 const struct job_replay_opts *o, const char *redirect, char *msg)
{
	struct errbuf err = { { 0 } };
	int ret = replay_log_parse(log, text, "x.log", o, redirect, &err);

	strcpy(msg, err.msg);
	return ret;
}

static void test_v3(void)
{
	struct replay_log log;
	char msg[ERRBUF_LEN];

	CHECK_MSG(parse(&log, v3, &plain, NULL, msg) == 0, "%s", msg);
	CHECK(log.version == 3 && log.nr_files == 2);
	CHECK(!strcmp(log.files[0], "a") && !strcmp(log.files[1], "b"));
	CHECK(log.nr_entries == 7);
	CHECK(log.ios[DDIR_WRITE] == 1 && log.bytes[DDIR_WRITE] == 4096);
	CHECK(log.ios[DDIR_READ] == 1 && log.max_len[DDIR_READ] == 16384);
	CHECK(log.syncs == 1 && log.end == 16384);
	/* the write: file a, 1000 us after the open before it */
	CHECK(log.entries[3].kind == REPLAY_WRITE && log.entries[3].file == 0);
	CHECK(log.entries[3].offset == 8192 && log.entries[3].len == 4096);
	CHECK(log.entries[3].delay_us == 1000);
	CHECK(log.entries[4].file == 1 && log.entries[4].delay_us == 2000);
	CHECK(log.entries[0].delay_us == 0); /* fio: no wait before the first */
	replay_log_free(&log);
}

static void test_pace_options(void)
{
	struct job_replay_opts o = plain;
	struct replay_log log;
	char msg[ERRBUF_LEN];

	o.time_scale = 200; /* twice as fast */
	CHECK(parse(&log, v3, &o, NULL, msg) == 0);
	CHECK(log.entries[3].delay_us == 500);
	replay_log_free(&log);
	o.no_stall = true;
	CHECK(parse(&log, v3, &o, NULL, msg) == 0);
	for (size_t i = 0; i < log.nr_entries; i++)
		CHECK(log.entries[i].delay_us == 0);
	replay_log_free(&log);
}

static void test_offsets_and_skip(void)
{
	struct job_replay_opts o = plain;
	struct replay_log log;
	char msg[ERRBUF_LEN];

	o.scale = 2;
	o.align = 8192;
	o.skip = REPLAY_SKIP_SYNC;
	CHECK(parse(&log, "fio version 3 iolog\n1 a add\n2 a write 28672 4096\n",
		    &o, NULL, msg) == 0);
	CHECK(log.entries[1].offset == 8192); /* 28672 / 2 = 14336, down to 8k */
	replay_log_free(&log);
	CHECK(parse(&log, v3, &o, "/dev/other", msg) == 0);
	CHECK(log.nr_files == 1 && !strcmp(log.files[0], "/dev/other"));
	CHECK(log.entries[4].file == 0 && log.syncs == 0);
	replay_log_free(&log);
	o.skip = REPLAY_SKIP_TRIM;
	CHECK(parse(&log, "fio version 2 iolog\nf add\nf trim 0 1073741824\n"
		    "f write 0 4096\n", &o, NULL, msg) == 0);
	CHECK(log.ios[DDIR_WRITE] == 1 && log.end == 4096);
	replay_log_free(&log);
}

static void test_v2(void)
{
	struct replay_log log;
	char msg[ERRBUF_LEN];

	CHECK(parse(&log, "fio version 2 iolog\nf add\nf open\nf read 4096 512\n"
		    "f wait 5 0\n\nf datasync 0 0\nf close\n", &plain, NULL, msg) == 0);
	CHECK(log.version == 2 && log.ios[DDIR_READ] == 1 && log.syncs == 1);
	CHECK(log.entries[3].kind == REPLAY_WAIT && log.entries[3].delay_us == 5000);
	CHECK(log.entries[4].kind == REPLAY_DATASYNC);
	replay_log_free(&log);
}

/* write_iolog with numjobs: each clone's log after the one before, its
 * times from 0 again; fio reads on past each header, no gap between them */
static void test_appended(void)
{
	struct replay_log log;
	char msg[ERRBUF_LEN];

	CHECK(parse(&log, "fio version 3 iolog\n10 x.0.0 add\n20 x.0.0 open\n"
		    "30 x.0.0 read 0 4096\n90 x.0.0 close\n"
		    "fio version 3 iolog\n12 x.1.0 add\n25 x.1.0 open\n"
		    "40 x.1.0 read 8192 4096\n95 x.1.0 close\n", &plain, NULL, msg) == 0);
	CHECK(log.nr_files == 2 && log.ios[DDIR_READ] == 2 && log.nr_entries == 8);
	CHECK(log.entries[4].file == 1 && log.entries[4].delay_us == 0);
	CHECK(log.entries[6].offset == 8192 && log.entries[6].delay_us == 15);
	replay_log_free(&log);
}

static void bad(const char *text, const char *want)
{
	struct replay_log log;
	char msg[ERRBUF_LEN];

	CHECK_MSG(parse(&log, text, &plain, NULL, msg) < 0, "accepted: %s", text);
	CHECK_MSG(strstr(msg, want) != NULL, "'%s' lacks '%s'", msg, want);
	CHECK(log.entries == NULL && log.files == NULL);
}

static void test_errors(void)
{
	bad("fio version 1 iolog\n", "x.log:1: not a fio iolog");
	bad("fio version 3 iolog\n1 f add\n2 f raed 0 4096\n", "x.log:3: unknown action");
	bad("fio version 3 iolog\n1 f add\n2 f read 0\n", "x.log:3: expected");
	bad("fio version 3 iolog\n1 f add\nf read 0 4096\n", "x.log:3: the time");
	bad("fio version 3 iolog\n1 f add\n2 f read -1 4096\n", "x.log:3: offset");
	bad("fio version 3 iolog\n1 f add\n2 f read 0 5000000000\n", "x.log:3: length");
	bad("fio version 3 iolog\n1 f add\n2 g write 0 4096\n", "x.log:3: file 'g'");
	bad("fio version 2 iolog\nf add\nf trim 0 4096\n", "x.log:3: trim");
	bad("fio version 2 iolog\nf add\nf bogus\n", "x.log:3: unknown file action");
	bad("fio version 2 iolog\nf add\nf open\n", "x.log: the log has no read or write");
}

int main(void)
{
	test_v3();
	test_pace_options();
	test_offsets_and_skip();
	test_v2();
	test_appended();
	test_errors();
	return CHECK_DONE();
}
