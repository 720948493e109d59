/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Setters of fio's measurement and log options that a typed field cannot
 * express; rows of job/options.c's table.
 */
#ifndef IODIG_STAT_OPTS_H
#define IODIG_STAT_OPTS_H

#include <stddef.h>

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* gtod_reduce: disable_lat/clat/slat/bw_measurement on, clat_percentiles
 * off (fio's str_gtod_reduce_cb). */
opt_setter set_gtod_reduce;
/* percentile_list=P:P:...: up to 20 values 0-100, sorted; the precision
 * of the text report is the most decimals fio sees (its rule). */
opt_setter set_percentile_list;
/* write_{lat,bw,iops,hist}_log[=PREFIX]. */
opt_setter set_log_prefix;
/* log_compression=SIZE: fio's 1024 to 512 MiB. */
#define LOG_COMPRESS_MIN 1024u
#define LOG_COMPRESS_MAX (512u << 20)
opt_setter set_log_compression;

/* The windows of the bandwidth and IOPS samples as fio combines
 * bwavgtime/iopsavgtime with write_bw_log/write_iops_log and log_avg_msec. */
int stat_opts_resolve(struct job *job, const char *where, struct errbuf *err);

/* fio's clocksource is its process's: the last job that names one sets
 * it for every job. */
void stat_opts_share_clocksource(struct job *jobs, size_t nr);

/* log_issue_time needs write_lat_log and log_offset, as fio's. */
int stat_opts_check(const struct job *job, const char *where, struct errbuf *err);

/* The rows of these options, a table of the job's (job/options.c). */
extern const struct opt_desc stat_options[];

#endif /* IODIG_STAT_OPTS_H */
