// SPDX-License-Identifier: GPL-2.0
/* sprandom's options and checks (job/sprandom_opts.h). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "job/given_opts.h"
#include "job/sprandom_opts.h"
#include "workload/files.h"

#define FIELD(f) OPT_FIELD(struct job, f)
#define OP_MAX (5.0 / 3.0) /* write amplification 0.5 / op + 0.7 above 1 */

/* spr_op: fio's model needs 0 < op < 5/3, or its write amplification
 * would not be above 1 (fio asserts it). */
static int set_op(void *base, const struct opt_desc *o, const char *value,
		  const char *where, struct errbuf *err)
{
	struct job *job = base;
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || !(v > 0.0 && v < OP_MAX))
		return err_set(err, EINVAL, "%s: option '%s': '%.64s' is not an "
			       "over-provisioning ratio above 0 and below 5/3 "
			       "(fio's model: write amplification 0.5/op + 0.7 "
			       "must be above 1)", where, o->name, value);
	job->sprandom.op = v;
	return 0;
}

const struct opt_desc sprandom_options[] = {
	BOOL_OPT("sprandom", FIELD(sprandom.on), "0",
		 "Random writes leaving an SSD's data as in its steady state (SanDisk's "
		 "preconditioning, fio after 3.33)"),
	{ .name = "spr_op", .type = OPT_CUSTOM, FIELD(sprandom.op),
	  .set = set_op, .hint = "RATIO", .def = "0.15",
	  .help = "sprandom: the device's over-provisioning (0.15: 15%)" },
	UINT_OPT("spr_num_regions", FIELD(sprandom.regions), "100", 1, UINT_MAX,
		 "sprandom: regions of the device, each with its own share of invalid data"),
	{ .name = NULL },
};

int sprandom_opts_resolve(struct job *job, const char *where,
			  struct errbuf *err)
{
	uint32_t bs = job->bs[DDIR_WRITE];

	if (!job->sprandom.on)
		return 0;
	if (!rw_is_random(job->rw) || !rw_has_write(job->rw))
		return err_set(err, EINVAL, "%s: sprandom needs random writes "
			       "(rw=randwrite, randrw or randtrimwrite), as in "
			       "fio", where);
	if (job_given_has(job, "random_generator") &&
	    job->random_generator != RGEN_LFSR)
		return err_set(err, EINVAL, "%s: sprandom needs "
			       "random_generator=lfsr (each block once), as in "
			       "fio", where);
	if (job_given_has(job, "norandommap") && !job->norandommap)
		return err_set(err, EINVAL, "%s: sprandom needs norandommap=1, "
			       "as in fio", where);
	if (bs & (bs - 1))
		return err_set(err, EINVAL, "%s: sprandom needs a bs that is a "
			       "power of 2, not %u, as in fio", where, bs);
	if (job->nrfiles > 1 || job_filename_count(job) > 1)
		return err_set(err, EINVAL, "%s: iodig runs sprandom over one "
			       "file, not several (nrfiles, filename=a:b)", where);
	job->random_generator = RGEN_LFSR;
	job->norandommap = true;
	return 0;
}
