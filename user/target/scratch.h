/* SPDX-License-Identifier: GPL-2.0 */
/* iodig's own scratch target: a loop device for jobs that name no file. */
#ifndef IODIG_SCRATCH_H
#define IODIG_SCRATCH_H

#include <stdint.h>

#include "base/errbuf.h"

/* A loop device backed by a sparse file on tmpfs, removed by
 * scratch_destroy (which accepts NULL). */
struct scratch_dev;

int scratch_create(uint64_t size, struct scratch_dev **out, struct errbuf *err);
const char *scratch_path(const struct scratch_dev *s);   /* "/dev/loopN" */
void scratch_destroy(struct scratch_dev *s);
/* Detaches loop devices and removes backing files left by an earlier iodig
 * that was killed; returns how many it removed (>= 0) or -errno. */
int scratch_cleanup_stale(struct errbuf *err);

#endif /* IODIG_SCRATCH_H */
