// SPDX-License-Identifier: GPL-2.0
/*
 * filestat: fio's engine that stats each of the job's files (laid out
 * before the run, filesize bytes each) without opening it, timing the
 * stat(2), lstat(2) or statx(2) that stat_type names.
 */
#define _GNU_SOURCE

#include "workload/engines/file_ops.h"

ENGINE_OPTS_FIT(struct stat_opts);

FILE_OPS_ENGINE(filestat, file_ops_stat, 0, file_ops_init, file_ops_stat_options);
