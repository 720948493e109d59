/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zonemode=zbd before a job runs, as fio 3.33's zbd_init_files and
 * zbd_verify_sizes: the zone size (the device's, or zonesize= emulated on
 * a target that is not zoned), the job's 'Nz' sizes in bytes, and a
 * writing job's region rounded to whole zones.
 */
#ifndef IODIG_ZBD_PREPARE_H
#define IODIG_ZBD_PREPARE_H

#include "base/errbuf.h"
#include "run/run.h"

/* Once the target is inspected, before its region is sized. */
int zbd_prepare_zones(struct job *job, const struct job_target *t,
		      struct errbuf *err);

/* Once the region is sized: a writing job's region starts and ends at
 * zone boundaries. */
int zbd_prepare_region(const struct job *job, struct job_target *t,
		       struct errbuf *err);

#endif /* IODIG_ZBD_PREPARE_H */
