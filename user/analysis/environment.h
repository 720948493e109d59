/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine a run happened on, recorded in the trace file so that two
 * runs are compared honestly: kernel (release, version, config digest and
 * the BPF/block/DAX/io_uring options), boot command line, CPUs, memory and
 * the target devices' queue settings.
 */
#ifndef IODIG_ENVIRONMENT_H
#define IODIG_ENVIRONMENT_H

#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"

struct json_object;

/* Builds the "environment" object.  @disks are /sys/block names (may be
 * empty).  Facts that cannot be read are recorded as "unavailable", never
 * fail the call; only allocation failure does (-ENOMEM). */
int environment_collect(const char *const *disks, size_t nr_disks,
			struct json_object **out, struct errbuf *err);

/* Sets the "scheduler" of device @disk in @env (environment_collect's)
 * to @sched: the one a run switched to and measured with, put back
 * before the environment is read (ioscheduler=).  No such device: none. */
void environment_set_scheduler(struct json_object *env, const char *disk,
			       const char *sched);

/* SHA-256 of @len bytes as 64 hex digits plus NUL in @hex. */
void sha256_hex(const void *data, size_t len, char hex[65]);

/* True for the kernel config options a storage comparison depends on. */
int environment_config_relevant(const char *option);

#endif /* IODIG_ENVIRONMENT_H */
