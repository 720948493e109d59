/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel probes per stonewall group: loaded before the group, read,
 * rendered and unloaded as soon as it ends, so every group gets a kernel
 * section of its own and none of its probes runs during a later group.
 */
#ifndef IODIG_GROUP_PROBES_H
#define IODIG_GROUP_PROBES_H

#include "base/errbuf.h"
#include "run/run.h"

/* Opens the probes for group @g into ctx->probes: maps sized for its jobs,
 * pointed at its first job's disk.  Unless --no-probes; a failure is
 * reported on stderr and the group runs untraced. */
void group_probes_open(struct run_ctx *ctx, const struct run_group *g);
/* After group @g ran: reads ctx->probes, keeps the group's kernel section
 * in ctx->kernels and unloads them, in a thread (ctx->teardown) while the
 * caller goes on to its report.  Nothing without probes. */
int group_probes_collect(struct run_ctx *ctx, const struct run_group *g,
			 struct errbuf *err);
/* Waits until the last group's probes are unloaded: before other probes
 * load (group_probes_open() does) and before the process ends. */
void group_probes_settle(struct run_ctx *ctx);
/* Frees ctx->kernels (before a repeat, at cleanup). */
void group_probes_free(struct run_ctx *ctx);

#endif /* IODIG_GROUP_PROBES_H */
