// libFuzzer target for read_iolog's two readers, fio's text iolog and a blktrace binary trace: any bytes must give 0 with a log of entries or -errno with a message and no log, never a crash, leak or read past the buffer.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload/replay_blktrace.h"
#include "workload/replay_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first byte picks the replay options, so they are fuzzed too;
 * every I/O is redirected, so no trace's device is looked up. */
static void options_of(uint8_t b, struct job_replay_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->no_stall = b & 1;
	o->align = b & 2 ? 4096 : 0;
	o->scale = b & 4 ? 3 : 1;
	o->time_scale = b & 8 ? 50 : 100;
	o->skip = (b >> 4) & 0xf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_replay_opts o;
	struct replay_log log;
	struct errbuf err = { "" };
	char *text;
	int ret;

	if (!size)
		return 0;
	options_of(data[0], &o);
	data++;
	size--;
	if (replay_is_blktrace(data, size)) {
		ret = replay_blktrace_parse(&log, data, size, "fuzz.bin", &o, "/dev/null", &err);
	} else {
		/* the text reader takes a C string, as replay_log_load gives it */
		text = malloc(size + 1);
		if (!text)
			return 0;
		memcpy(text, data, size);
		text[size] = '\0';
		ret = replay_log_parse(&log, text, "fuzz.log", &o, "/dev/null", &err);
		free(text);
	}
	/* the contract: a failure says why and leaves nothing to free; a
	 * success has a read or write to replay, each entry on a file */
	if (ret && !err.msg[0])
		__builtin_trap();
	if (ret)
		return 0;
	if (!log.ios[DDIR_READ] && !log.ios[DDIR_WRITE])
		__builtin_trap();
	for (size_t i = 0; i < log.nr_entries; i++)
		if (log.entries[i].file >= log.nr_files)
			__builtin_trap();
	replay_log_free(&log);
	return 0;
}
