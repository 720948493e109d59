/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sprandom, spr_op and spr_num_regions (fio after 3.33, workload/
 * sprandom.h): their table, searched by job/options.c, and fio's
 * fix-ups and checks of the job they apply to.
 */
#ifndef IODIG_SPRANDOM_OPTS_H
#define IODIG_SPRANDOM_OPTS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

extern const struct opt_desc sprandom_options[];

/* fio's fixup_options: sprandom needs random writes; it sets
 * random_generator=lfsr and norandommap=1 unless given otherwise, which
 * it refuses.  bs must be a power of 2 (fio's sprandom_init). */
int sprandom_opts_resolve(struct job *job, const char *where,
			  struct errbuf *err);

#endif /* IODIG_SPRANDOM_OPTS_H */
