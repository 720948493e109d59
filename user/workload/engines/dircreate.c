// SPDX-License-Identifier: GPL-2.0
/*
 * dircreate: fio's engine (fio 3.34 on; 3.33 lacks it) that creates one
 * directory per file of the job, timing each mkdir(2) with fio's mode
 * 0700.  Nothing is laid out before (ENGINE_DISKLESS); a directory that
 * exists already is an error, as in fio.
 */
#define _GNU_SOURCE

#include "workload/engines/file_ops.h"

FILE_OPS_ENGINE(dircreate, file_ops_mkdir, ENGINE_DISKLESS, file_ops_init, NULL);
