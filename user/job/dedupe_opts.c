// SPDX-License-Identifier: GPL-2.0
/* fio's dedupe buffer options (job/dedupe_opts.h). */
#include <errno.h>

#include "job/dedupe_opts.h"

#define FIELD(f) OPT_FIELD(struct job, f)

OPT_VALUES(dedupe_mode_values,
	OPT_VAL("repeat", DEDUPE_REPEAT),
	OPT_VAL("working_set", DEDUPE_WORKING_SET));

const struct opt_desc dedupe_options[] = {
	ENUM_OPT("dedupe_mode", FIELD(dedupe_mode), dedupe_mode_values, "repeat",
		 "A repeated buffer: the last unique one again (repeat), or one of the job's first "
		 "unique ones (working_set)"),
	UINT_OPT("dedupe_working_set_percentage", FIELD(dedupe_working_set_percentage), "5", 0, 100,
		 "working_set: its buffers, in percent of size's blocks"),
	BOOL_OPT("dedupe_global", FIELD(dedupe_global), NULL,
		 "working_set: shared by the jobs, each giving an equal part of it"),
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
