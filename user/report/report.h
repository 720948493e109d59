/* SPDX-License-Identifier: GPL-2.0 */
/* Aggregated results of a run, rendered by report_text and report_json. */
#ifndef IODIG_REPORT_H
#define IODIG_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "probes/figures.h"
#include "workload/job.h"
#include "workload/series.h"
#include "workload/steady.h"
#include "workload/prio_stats.h"
#include "workload/stats.h"
#include "target/diskstats.h"

struct json_object;
struct probe_toggle;

/* One report entry: a job (numjobs folded in with group_reporting) or one
 * clone of it.  fio prints "name: (groupid=G, jobs=N): err= 0: pid=P". */
struct report_job {
	const struct job *job;
	unsigned int nr_workers;     /* jobs=N in fio's header */
	struct worker_stats st;      /* merged over nr_workers */
	int pid;                     /* first worker's pid */
	int error;                   /* fio's job error, -errno (run_report.c) */
	char errmsg[256];
	/* the last member's continue_on_error, as fio's group takes it: the
	 * report shows total_err and first_error when set */
	unsigned int continue_on_error;
	const struct steady_state *steady; /* fio's steadystate window, or NULL */
	/* fio's latency per priority (clat_prio), NULL when fio keeps none
	 * for the entry; shown for a direction with two or more in use */
	struct prio_stats *prio;
	/* unified_rw_reporting's directions summed as one (report_unified.h),
	 * NULL when the entry reports each direction alone */
	struct report_job *mixed;
};

struct report_group {
	int id;
	uint64_t bytes[DDIR_COUNT];
	uint64_t ios[DDIR_COUNT];
	uint64_t runtime_min_ms[DDIR_COUNT];  /* over jobs that did that ddir */
	uint64_t runtime_max_ms[DDIR_COUNT];
	uint64_t bw_min[DDIR_COUNT];          /* bytes/s over jobs */
	uint64_t bw_max[DDIR_COUNT];
	uint64_t bw_agg[DDIR_COUNT];          /* bytes / max runtime */
	unsigned int kb_base;                 /* 1024 */
	/* the last entry's significant_figures, as fio's group takes it */
	unsigned int sig_figs;
	/* its entries' unified_rw_reporting OR'ed, as fio's group keeps it:
	 * UNIFIED_MIXED names its lines MIXED, UNIFIED_BOTH adds one */
	unsigned int unified;
};

struct report_disk {
	char name[64];
	struct disk_counters delta;
	double util_pct;
	int master;                  /* the disk it is under (md, dm), -1 none */
	/* fio's aggregate of the disks under it (report_disks_aggregate):
	 * their counters averaged, the busiest one's util; none when
	 * nr_slaves is 0 */
	unsigned int nr_slaves;
	struct disk_counters slaves_avg;
	double slaves_util_pct;
};

/* report_disks.c: disk @d's figures over the run, the counters @after
 * minus @before and the time busy over @span_ms (at most 100%), as fio's
 * "Disk stats"; @master as in struct report_disk. */
void report_disk_fill(struct report_disk *d, const char *name, int master,
		      const struct disk_counters *before,
		      const struct disk_counters *after, uint64_t span_ms);
/* Each disk's slaves aggregated, as fio's aggregate_slaves_stats does. */
void report_disks_aggregate(struct report_disk *disks, size_t nr);

/*
 * One job group's kernel section.  A group's probes are read, rendered and
 * unloaded when the group ends (run/group_probes.c), so none of them runs
 * during a later group; this is what is kept of them.
 */
struct report_kernel {
	int group_id;                /* its first job's reporting group */
	int run_group;               /* the jobs it covers (job->run_group) */
	char *text;                  /* the text section, after its heading */
	struct json_object *json;    /* the "kernel" object */
	struct figure_set figures;   /* the families' figures and stacks */
};

/* What a job measured (target/describe.h), named in every report. */
struct report_target {
	const char *job;             /* the job's name */
	char text[4352];             /* path, device, filesystem */
	const char *path;
	const char *device;          /* "loop3"; "" for none (tmpfs) */
	const char *filesystem;      /* "ext4", "tmpfs"; "" for a device */
	bool scratch;                /* iodig's scratch loop device */
};

struct report {
	struct report_job *jobs;
	size_t nr_jobs;
	struct report_group *groups;
	size_t nr_groups;
	struct report_disk *disks;
	size_t nr_disks;
	struct report_target *targets;  /* one per job definition */
	size_t nr_targets;

	bool interrupted;          /* stopped by SIGINT/SIGTERM */
	time_t timestamp;
	uint64_t timestamp_ms;
	char command[256];         /* "iodig run ..." as fio's "fio version" */
	char kernel_release[128];
	char hostname[64];

	const struct job *job_defs;     /* the jobs as parsed, for fio's */
	size_t nr_job_defs;             /* "name: (g=0): rw=..." preamble */

	/* Kernel sections, one per group that ran with probes (none without
	 * them).  With one group the report is laid out as it always was;
	 * with several, each group's section follows its jobs. */
	const struct report_kernel *kernels;
	size_t nr_kernels;
	const struct probe_toggle *toggle; /* --probe-toggle, may be NULL */
	const struct series_set *series;   /* latency over time, may be NULL */
	bool steady;                       /* --steady: its steady_* figures too */
};

/* The group @rj ran in (0 for an entry without a job). */
static inline int report_job_group(const struct report_job *rj)
{
	return rj->job ? rj->job->group_id : 0;
}

/* The job moved bytes or issued I/O in some direction: fio leaves out
 * of its reports the entries that did neither. */
static inline bool report_job_did_io(const struct worker_stats *st)
{
	for (int d = 0; d < DDIR_COUNT; d++)
		if (st->dir[d].bytes || st->issued[d])
			return true;
	return false;
}

/* The job's error as fio reports it (its ts->error), @st its statistics;
 * -errno, 0 = none. */
static inline int report_job_error(const struct report_job *rj,
				   const struct worker_stats *st)
{
	return rj->error ? rj->error : st->error;
}

/* The job's only errors are those continue_on_error went on from: fio
 * reports the first as the job's error and the run does not fail. */
static inline bool report_job_went_on(const struct report_job *rj)
{
	return rj->error && rj->continue_on_error && !rj->st.error &&
	       rj->st.first_io_error;
}

/* fio's latency_target figures (latency_depth and the rest) come from
 * its I/O loop; a job that never started (pid 0: its setup failed) or a
 * writing verify_only job, which only replays its writes (do_dry_run),
 * never enters it, and fio's reports leave them out. */
static inline bool report_job_has_lat_target(const struct report_job *rj)
{
	return rj->pid && !(rj->job && rj->job->verify_only &&
			    rw_has_write(rj->job->rw));
}

/* The totals of group @id, NULL when the report has none. */
static inline const struct report_group *report_find_group(const struct report *r, int id)
{
	for (size_t i = 0; i < r->nr_groups; i++)
		if (r->groups[i].id == id)
			return &r->groups[i];
	return NULL;
}

/* report_series.c: iodig.series, each job's and direction's intervals as
 * one array per field (docs/trace-file.md); NULL when out of memory. */
struct json_object *report_series_json(const struct series_set *set);

/* fio's layout and field names; the kernel section follows. */
int report_text(const struct report *r, FILE *out);
/* fio's terse v3 lines, one per entry that did I/O; 0 or -errno. */
int report_terse(const struct report *r, FILE *out);
/* fio's JSON keys and nesting plus an "iodig" object: built once as a
 * tree, which --output-format=json and the trace file both render. */
int report_json_tree(const struct report *r, struct json_object **out);
/* report_json_tree, with fio's json+ "bins" when @plus. */
int report_json_tree_fmt(const struct report *r, bool plus, struct json_object **out);
/* The tree as iodig prints JSON (pretty, spaced, '/' unescaped); NULL
 * when out of memory.  The text belongs to @tree. */
const char *report_json_text(struct json_object *tree);
/* report_json_text, then a newline, to @out; 0 or -errno. */
int report_json_print(struct json_object *tree, FILE *out);
/* report_json_tree and report_json_print in one. */
int report_json(const struct report *r, FILE *out);
/* The workload's figures (iops, bw_kib, {slat,clat,lat}_{mean,p50,p99,
 * p99.9}_ns, usr/sys cpu, ctx_per_io, ios) over the jobs of group @group,
 * or of the whole run for -1, into @out.  0 or -ENOMEM. */
int report_figures(const struct report *r, int group, struct figure_set *out);
/* Every figure of the run, sorted: the workload's, then the kernel
 * sections'; with several groups the whole run's workload figures, then
 * each group's workload and kernel figures under "g<ID>/". */
int report_run_figures(const struct report *r, struct figure_set *out);

#endif /* IODIG_REPORT_H */
