/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs, where classic tracepoints are found: mounting it when the
 * machine has not, and asking it which tracepoints this kernel has.
 */
#ifndef IODIG_PROBES_TRACEFS_H
#define IODIG_PROBES_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/errbuf.h"

/*
 * tracefs_mount() mounts tracefs at /sys/kernel/tracing when neither that
 * nor the debugfs copy is there, and sets *mounted so the caller can undo
 * it with tracefs_unmount() (which does nothing when @mounted is false).
 */
int tracefs_mount(bool *mounted, struct errbuf *err);
void tracefs_unmount(bool mounted);

/* 0 when tracefs lists @category/@event; -ENODEV when tracefs is not
 * mounted; -ENOENT when this kernel has no such tracepoint. */
int tracefs_event_exists(const char *category, const char *event);

/* 0 when tracefs lists every one of @events in @category, else -errno
 * with @why naming the first missing one (libbpf would only say "failed
 * to determine tracepoint id"). */
int tracefs_events_required(const char *category, const char *const *events, size_t nr,
			    struct errbuf *why);

#endif /* IODIG_PROBES_TRACEFS_H */
