// SPDX-License-Identifier: GPL-2.0
/* fio's dedupe buffer options (job/dedupe_opts.h). */
#include <errno.h>

#include "job/dedupe_opts.h"

#define FIELD(f) OPT_FIELD(struct job, f)

OPT_VALUES(dedupe_mode_values,
	OPT_VAL("repeat", DEDUPE_REPEAT),
	OPT_VAL("working_set", DEDUPE_WORKING_SET));

const struct opt_desc dedupe_options[] = {
	{ .name = "dedupe_mode", .type = OPT_ENUM, FIELD(dedupe_mode),
	  .values = dedupe_mode_values, .def = "repeat",
	  .help = "A repeated buffer: the last unique one again (repeat), or "
		  "one of the job's first unique ones (working_set)" },
	{ .name = "dedupe_working_set_percentage", .type = OPT_UINT,
	  FIELD(dedupe_working_set_percentage), .min = 0, .max = 100,
	  .def = "5", .help = "working_set: its buffers, in percent of size's "
	  "blocks" },
	{ .name = "dedupe_global", .type = OPT_BOOL, FIELD(dedupe_global),
	  .help = "working_set: shared by the jobs, each giving an equal part "
		  "of it" },
	{ .name = NULL },
};

int dedupe_opts_check(const struct job *job, const char *where,
		      struct errbuf *err)
{
	if (job->dedupe_percentage && job->dedupe_mode == DEDUPE_WORKING_SET &&
	    !job->size && !job->size_percent)
		return err_set(err, EINVAL, "%s: dedupe_mode=working_set needs size= "
			       "(its set is a percentage of it)", where);
	return 0;
}
