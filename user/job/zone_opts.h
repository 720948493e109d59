/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zonemode's checks across options and fio's 'Nz' sizes: a count of zones
 * in size, io_size, offset, offset_increment and zoneskip, turned into
 * bytes once the zone size is known (zonesize for zonemode=strided, the
 * device's zones for zonemode=zbd).
 */
#ifndef IODIG_ZONE_OPTS_H
#define IODIG_ZONE_OPTS_H

#include <stdint.h>

#include "base/errbuf.h"
#include "workload/job.h"

/* fio's fixup_options for zones: zonesize needs a zonemode, strided
 * needs a zonesize, zonerange defaults to zonesize; 'Nz' resolved now
 * unless zonemode=zbd, whose zone size comes from the target. */
int zone_opts_resolve(struct job *job, const char *where, struct errbuf *err);

/* Each 'Nz' of @job into N * @zone_size bytes (0 without zones, as fio);
 * io_size follows a size given in zones. */
void zone_opts_apply(struct job *job, uint64_t zone_size);

#endif /* IODIG_ZONE_OPTS_H */
