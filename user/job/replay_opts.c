// SPDX-License-Identifier: GPL-2.0
/* fio's replay options (job/replay_opts.h). */
#include <errno.h>
#include <string.h>

#include "job/replay_opts.h"
#include "workload/engine.h"

#define FIELD(f) OPT_FIELD(struct job, f)

/* replay_skip=read,write,trim,sync, as fio's str_replay_skip_cb. */
static int set_replay_skip(void *base, const struct opt_desc *o, const char *value,
			   const char *where, struct errbuf *err)
{
	static const struct { const char *name; unsigned int bit; } kinds[] = {
		{ "read", REPLAY_SKIP_READ }, { "write", REPLAY_SKIP_WRITE },
		{ "trim", REPLAY_SKIP_TRIM }, { "sync", REPLAY_SKIP_SYNC },
	};
	struct job *job = base;
	unsigned int skip = 0;

	for (const char *p = value; *p;) {
		size_t len = strcspn(p, ",");
		unsigned int bit = 0;

		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strlen(kinds[i].name) == len && !strncmp(p, kinds[i].name, len))
				bit = kinds[i].bit;
		if (!bit)
			return err_set(err, EINVAL, "%s: option '%s': '%.64s' is not "
				       "one of read, write, trim, sync (comma-separated)",
				       where, o->name, value);
		skip |= bit;
		p += len + (p[len] == ',');
	}
	job->replay.skip = skip;
	return 0;
}

const struct opt_desc replay_options[] = {
	STR_OPT("read_iolog", FIELD(replay.log), NULL,
		"Replay the I/O of this fio iolog (version 2 or 3) or blktrace binary trace: "
		"its files, offsets, lengths and pace"),
	BOOL_OPT("read_iolog_chunked", FIELD(replay.chunked), NULL,
		 "Accepted; iodig reads the log whole before the job starts"),
	BOOL_OPT("replay_no_stall", FIELD(replay.no_stall), NULL,
		 "Replay the log as fast as possible, without its waits"),
	STR_OPT("replay_redirect", FIELD(replay.redirect), NULL,
		"Replay every I/O of the log onto this file or device"),
	SIZE_OPT("replay_align", FIELD(replay.align), NULL,
		 "Align the log's offsets down to this power of 2"),
	UINT_OPT("replay_scale", FIELD(replay.scale), "1", 1, UINT64_MAX,
		 "Divide the log's offsets by this"),
	UINT_OPT("replay_time_scale", FIELD(replay.time_scale), "100", 1, UINT32_MAX,
		 "The log's pace in percent: 200 replays twice as fast"),
	{ .name = "replay_skip", .type = OPT_CUSTOM, .set = set_replay_skip,
	  .hint = "read,write,trim,sync",
	  .help = "Leave these kinds of the log's I/O out" },
	/* fio 3.33's merge reads no record whole: its merge file is empty and
	 * it replays the first trace alone (docs/usage.md). */
	REFUSED("merge_blktrace_file", "iodig merges no blktrace traces (fio 3.33 "
		"writes an empty merge file and replays the first trace alone)"),
	REFUSED("merge_blktrace_scalars", "iodig merges no blktrace traces"),
	REFUSED("merge_blktrace_iters", "iodig merges no blktrace traces"),
	{ .name = NULL },
};

int replay_opts_check(struct job *job, const char *where, struct errbuf *err)
{
	const struct engine_ops *e = job->engine;

	if (!job->replay.log[0])
		return 0;
	if (job->verify != VERIFY_NONE)
		return err_set(err, ENOTSUP, "%s: read_iolog with verify: iodig "
			       "does not verify a replayed log's writes", where);
	if ((e->flags & ENGINE_FILE_OPS) || e->inspect_device)
		return err_set(err, ENOTSUP, "%s: read_iolog: ioengine=%s does not "
			       "replay a log's reads and writes", where, e->name);
	job->write_iolog[0] = '\0'; /* fio: "read iolog overrides write_iolog" */
	return 0;
}
