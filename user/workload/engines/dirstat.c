// SPDX-License-Identifier: GPL-2.0
/*
 * dirstat: fio's engine (fio 3.34 on; 3.33 lacks it) that makes one
 * directory per file of the job before the run (an existing one is kept)
 * and times a stat(2), lstat(2) or statx(2) of each, as stat_type says.
 */
#define _GNU_SOURCE

#include "workload/engines/file_ops.h"

FILE_OPS_ENGINE(dirstat, file_ops_stat, ENGINE_DISKLESS, file_ops_init_dirs, file_ops_stat_options);
