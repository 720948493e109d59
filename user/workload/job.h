/* SPDX-License-Identifier: GPL-2.0 */
/* One fio-style job: every option iodig understands, already validated. */
#ifndef IODIG_JOB_H
#define IODIG_JOB_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/pattern.h"
#include "workload/steady.h"

/* fio's data directions (DDIR_RWDIR_CNT of them): trims are discards. */
enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_COUNT = 3 };

enum rw_mode {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,       /* "rw" and "readwrite": sequential mix */
	RW_RANDRW,
	RW_TRIM,
	RW_RANDTRIM,
	RW_TRIMWRITE,     /* each block trimmed, then written */
	RW_RANDTRIMWRITE,
};

/* verify= methods, numbered as fio 3.33 numbers them: the number goes
 * into every block header, so fio and iodig read each other's blocks. */
enum verify_mode {
	VERIFY_NONE = 0,
	VERIFY_META = 1,           /* header only (fio's VERIFY_HDR_ONLY) */
	VERIFY_MD5 = 2,
	VERIFY_CRC64 = 3,
	VERIFY_CRC32 = 4,
	VERIFY_CRC32C = 5,
	VERIFY_CRC32C_INTEL = 6,   /* read only: fio writes crc32c-intel as 5 */
	VERIFY_CRC16 = 7,
	VERIFY_CRC7 = 8,
	VERIFY_SHA256 = 9,
	VERIFY_SHA512 = 10,
	VERIFY_SHA3_224 = 11,
	VERIFY_SHA3_256 = 12,
	VERIFY_SHA3_384 = 13,
	VERIFY_SHA3_512 = 14,
	VERIFY_XXHASH = 15,
	VERIFY_SHA1 = 16,
	VERIFY_PATTERN = 17,       /* header and verify_pattern */
	VERIFY_PATTERN_NO_HDR = 18, /* verify=pattern: the pattern alone */
	VERIFY_NULL = 19,          /* pretend */
};

/* fio's file_service_type: how the next I/O's file is chosen. */
enum file_service {
	FILE_SERVICE_ROUNDROBIN,
	FILE_SERVICE_SEQUENTIAL,
	FILE_SERVICE_RANDOM,
	FILE_SERVICE_ZIPF,
	FILE_SERVICE_PARETO,
	FILE_SERVICE_GAUSS,
};

/* fio's fallocate: how a writing job's new file is given its size. */
enum fallocate_mode {
	FALLOCATE_NONE,      /* left empty: the writes make it grow */
	FALLOCATE_NATIVE,    /* fallocate(2) */
	FALLOCATE_POSIX,     /* posix_fallocate(3) */
	FALLOCATE_KEEP,      /* fallocate(2) with FALLOC_FL_KEEP_SIZE */
	FALLOCATE_TRUNCATE,  /* ftruncate(2): sized, no blocks */
};

/* fio's fadvise_hint: the advice given on each open of a job's file. */
enum fadvise_hint {
	FADVISE_NONE,        /* 0: none, the kernel's normal readahead */
	FADVISE_TYPE,        /* 1: random or sequential, as the job's rw */
	FADVISE_RANDOM,      /* POSIX_FADV_RANDOM: no readahead */
	FADVISE_SEQUENTIAL,  /* POSIX_FADV_SEQUENTIAL: twice the window */
};

/* fio's mem=: what backs the job's I/O buffers. */
enum io_mem_type {
	IOMEM_MALLOC,        /* malloc(3), fio's default */
	IOMEM_SHM,           /* a System V shared memory segment */
	IOMEM_SHMHUGE,       /* the same in huge pages (SHM_HUGETLB) */
	IOMEM_MMAP,          /* a private mapping, anonymous or of mem_file */
	IOMEM_MMAPSHARED,    /* a shared mapping of mem_file (else as mmap) */
	IOMEM_MMAPHUGE,      /* anonymous huge pages, or a hugetlbfs file */
};

/* fio's lockfile: how an I/O locks its file (workload/file_lock.h). */
enum lockfile_mode {
	LOCKFILE_NONE,
	LOCKFILE_EXCLUSIVE,  /* each I/O alone */
	LOCKFILE_READWRITE,  /* reads together, a write or trim alone */
};

/* fio's continue_on_error classes (ERROR_TYPE_*). */
#define CONTINUE_READ   (1u << 0)
#define CONTINUE_WRITE  (1u << 1)
#define CONTINUE_VERIFY (1u << 2)

/* fio's exit_what: which jobs exitall stops. */
#define EXIT_WHAT_GROUP 1
#define EXIT_WHAT_STONEWALL 2
#define EXIT_WHAT_ALL 3

#define JOB_IGNORE_ERRORS 16

/* fio's zonemode. */
#define ZONEMODE_NONE 0
#define ZONEMODE_STRIDED 1
#define ZONEMODE_ZBD 2

#define JOB_NAME_MAX 128
#define JOB_DESCRIPTION_MAX 256

/* fio's cpus_allowed_policy: every worker gets the whole set, or each
 * one CPU of it, round robin in worker order. */
enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };

/* A CPU set (cpus_allowed=, cpumask=), bit N = CPU N; the size of glibc's
 * cpu_set_t, without needing _GNU_SOURCE in every includer. */
#define JOB_CPUS_MAX 1024
struct job_cpus {
	uint64_t bits[JOB_CPUS_MAX / 64];
};

/* A boolean option whose meaning depends on whether it was given at all
 * (fio's fio_option_is_set), such as zero_buffers turning off the default
 * scramble_buffers only when given. */
struct opt_flag {
	bool on;
	bool given;
};

/* Room for the options of the job's engine: each engine lays out its own
 * struct there and asserts it fits (ENGINE_OPTS_FIT in engine.h). */
#define JOB_ENGINE_OPTS_SIZE 384
/* Engine options a job can be given before its engine is known: at least
 * the number of distinct engine option names (engines_check checks). */
#define JOB_ENGINE_OPTS_GIVEN 48
#define JOB_ENGINE_OPT_VALUE_MAX 128

struct engine_ops;

/* fio's latency measurement and percentile options (job/stat_opts.c):
 * what the workers time and which percentiles the reports print. */
#define JOB_PERCENTILES_MAX 20   /* fio's FIO_IO_U_LIST_MAX_LEN */
struct job_stat_opts {
	bool disable_lat;        /* no total latency (lat) */
	bool disable_clat;       /* no completion latency, nor its buckets */
	bool disable_slat;       /* no submission latency */
	bool disable_bw;         /* disable_bw_measurement: no bw/iops samples */
	bool clat_percentiles;   /* default 1 */
	bool lat_percentiles;
	bool slat_percentiles;
	unsigned int nr_percentiles;   /* 0: fio's default list */
	unsigned int precision;        /* decimals of "N.NNth" in text */
	bool block_error_hist;         /* block_error_percentiles */
	bool disk_util;                /* default 1: report the job's disk */
	unsigned int sig_figs;         /* significant_figures: 1-10, default 4 */
	/* clocksource: fio's timer, one for the whole run (CLOCKSOURCE_*) */
	unsigned int clocksource;
	unsigned int unified_rw;       /* unified_rw_reporting: UNIFIED_* */
	double percentiles[JOB_PERCENTILES_MAX]; /* sorted, as fio sorts */
	/* bwavgtime, iopsavgtime: the window of each bandwidth and IOPS
	 * sample, ms; resolved by stat_opts_resolve with the logs as fio
	 * does (a write_bw_log without bwavgtime takes log_avg_msec) */
	uint64_t bw_avg_msec, iops_avg_msec;
	bool bw_avg_given, iops_avg_given;
	/* resolved: a write_*_log without averaging makes fio take one
	 * sample per I/O instead of per window */
	bool bw_per_io, iops_per_io;
};
/* fio's unified_rw_reporting: each direction apart (none), the directions
 * summed as one "mixed" (mixed), or both, the sum after the directions. */
enum { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };
/* fio's clocksource: gettimeofday's whole microseconds, or a clock of
 * nanoseconds (clock_gettime, or cpu: fio's TSC) */
enum { CLOCKSOURCE_CLOCK_GETTIME, CLOCKSOURCE_GETTIMEOFDAY, CLOCKSOURCE_CPU };

/* fio's log files (write_*_log, log_*; workload/iolog_writer.c): an
 * empty prefix with the log on means the job's name. */
#define JOB_LOG_PREFIX_MAX 256
enum job_log_kind { JOB_LOG_LAT, JOB_LOG_BW, JOB_LOG_IOPS, JOB_LOG_HIST,
		    JOB_LOG_KINDS };
struct job_log_opts {
	bool on[JOB_LOG_KINDS];
	char prefix[JOB_LOG_KINDS][JOB_LOG_PREFIX_MAX];
	uint64_t avg_msec;       /* 0: one line per I/O */
	uint64_t hist_msec;      /* write_hist_log's interval */
	unsigned int window_value; /* LOG_WINDOW_*: what a window's line holds */
	bool offset;             /* an offset column */
	bool unix_epoch;         /* times since 1970, not since the job began */
	bool alternate_epoch;    /* times since the epoch of epoch_clock */
	unsigned int epoch_clock; /* log_alternate_epoch_clock_id: a clockid_t */
	unsigned int hist_coarseness; /* write_hist_log: 2^N of fio's bins summed */
	unsigned int entries;    /* log_entries: fio's first buffer; ours grow */
	bool per_job;            /* default 1: NAME_bw.N.log per clone */
	bool prio;               /* log_prio: the I/O priority, not a 0/1 flag */
	bool issue_time;         /* log_issue_time: a last column, the issue time */
	uint64_t compress;       /* log_compression: bytes per zlib chunk; 0: none */
	bool store_compressed;   /* log_store_compressed: fio's .fz files */
};
/* fio's log_window_value (3.37; log_max_value=1 is max). */
enum { LOG_WINDOW_AVG, LOG_WINDOW_MAX, LOG_WINDOW_BOTH };

/* fio's read_iolog replay (job/replay_opts.c, workload/replay_log.h). */
#define REPLAY_SKIP_READ  (1u << 0)
#define REPLAY_SKIP_WRITE (1u << 1)
#define REPLAY_SKIP_TRIM  (1u << 2)
#define REPLAY_SKIP_SYNC  (1u << 3)
struct job_replay_opts {
	char log[PATH_MAX];      /* read_iolog; "": the job is not a replay */
	char redirect[PATH_MAX]; /* replay_redirect: every I/O onto this file */
	bool no_stall;           /* replay_no_stall: no waits between I/Os */
	bool chunked;            /* read_iolog_chunked: same replay here */
	uint64_t align;          /* replay_align: offsets masked down to it */
	uint64_t scale;          /* replay_scale: offsets divided by it (1) */
	unsigned int time_scale; /* replay_time_scale: percent of the log's pace */
	unsigned int skip;       /* replay_skip: REPLAY_SKIP_* */
};

/* An engine option as the job file or command line gave it, kept until
 * the job's engine is known: ioengine may come on a later line, in the
 * job's section after [global], or on the command line.  Copied with the
 * job, as every option is. */
struct engine_opt_given {
	const char *name;    /* as an engine declares it; NULL: a free slot */
	bool bare;           /* "hipri" without "=value" */
	char value[JOB_ENGINE_OPT_VALUE_MAX];
	int line;            /* > 0: the line of job->source that gave it */
	bool engine_took;    /* the ioengine set when it was given takes it */
	char where[48];      /* line 0: where it was given ("command line") */
};

/* ---- the I/O stream's shape (fio's loops, bssplit, rw=:N ...) ---- */

/* fio's io_submit_mode: the worker submits its own I/O (inline) or hands
 * it to submit threads (offload, workload/offload.h). */
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };

/* fio's rw_sequencer: what rw=randX:N does between its random offsets. */
enum rw_sequencer { SEQ_SEQUENTIAL, SEQ_IDENTICAL };

/* bssplit=4k/10:64k/90 (fio's limit of 64 sizes per direction), kept
 * sorted by percentage, as fio sorts it for the lookup. */
#define BSSPLIT_MAX 64
struct bssplit_entry {
	uint32_t bs;
	unsigned int perc;
};
struct bssplit {
	unsigned int nr;                 /* 0: no bssplit */
	struct bssplit_entry e[BSSPLIT_MAX];
};

/* fio's random_distribution, random_generator (workload/random_dist.c). */
enum rand_dist { DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL,
		 DIST_ZONED, DIST_ZONED_ABS, DIST_SEQUENCE };
enum rand_gen { RGEN_TAUSWORTHE, RGEN_TAUSWORTHE64, RGEN_LFSR };
enum { RATE_LINEAR, RATE_POISSON };
enum { THINK_ON_COMPLETE, THINK_ON_ISSUE };
#define ZONES_MAX 64
#define SEQUENCE_MAX 64           /* fio's FIO_SEQ_MAX */
struct zone_split {
	unsigned int access_perc;
	uint64_t size;            /* percent (zoned) or bytes (zoned_abs) */
};
struct rand_dist_opts {
	enum rand_dist kind;
	double value;             /* zipf theta, pareto h, normal deviation */
	/* zipf:θ:c, pareto:h:c, normal:σ:c: where in the region (0 to 1)
	 * the hot spot is, instead of a place drawn from the seed */
	bool centered;
	double center;
	unsigned int nr[DDIR_COUNT];
	struct zone_split zones[DDIR_COUNT][ZONES_MAX];
	/* sequence:a,b,...: the blocks in order, again and again; with
	 * stride each round moves on by the sequence's length */
	unsigned int seq_nr;
	unsigned int seq[SEQUENCE_MAX];
};
/* fio's sprandom (after 3.33): writes that leave an SSD with the valid
 * data of its steady state (workload/sprandom.c). */
struct sprandom_opts {
	bool on;
	double op;                /* spr_op: the device's over-provisioning */
	unsigned int regions;     /* spr_num_regions */
};

/* uid=/gid= not given (fio's -1U). */
#define JOB_ID_NONE 4294967295u

struct job {
	char name[JOB_NAME_MAX];
	char filename[PATH_MAX];   /* empty: derived from directory + name */
	char directory[PATH_MAX];
	/* fio's opendir: every regular file under it joins filename='s list
	 * once the job is parsed (job/opendir_opt.c). */
	char opendir[PATH_MAX];
	enum lockfile_mode lockfile;
	char ioengine[32];
	const struct engine_ops *engine; /* resolved from ioengine */

	uint64_t size;          /* bytes of the target region; 0 = whole file/device */
	uint64_t io_size;       /* bytes to transfer; 0 = size */
	/* io_size was given, not copied from size by the job checks: only
	 * a size= of its own is capped at the files' total, as fio's
	 * setup_files lowers size and never io_size. */
	bool io_size_given;
	uint64_t offset;        /* start of the region */
	/* offset=N%, size=N% and offset_increment=N% (fio's
	 * start_offset_percent, size_percent, offset_increment_percent): of
	 * the target's size, once known (run/prepare.c); 0: not given. */
	unsigned int offset_percent, size_percent, offset_increment_percent;
	/* io_size=N% (fio's io_size_percent): of the clone's region, the
	 * size the job resolved (run/runner.c); 0: not given. */
	unsigned int io_size_percent;
	uint64_t offset_align;  /* a percentage offset's alignment; 0: min bs */
	/* Files of each clone, named fio's way (workload/files.h), the I/O
	 * spread over them by file_service_type (workload/file_service.c);
	 * ignored, as by fio, when filename= is given. */
	unsigned int nrfiles;
	uint64_t filesize;      /* bytes of each file; 0 = size / nrfiles */
	/* filesize=LOW-HIGH: each file a random size from filesize to this
	 * (run/filesize_range.c); 0: every file filesize bytes. */
	uint64_t filesize_high;
	uint32_t bs[DDIR_COUNT];     /* "bs=4k" or "bs=4k,8k[,16k]" (read,write,trim) */
	uint32_t bs_min[DDIR_COUNT]; /* "bsrange=4k-16k": bs_min..bs_max, */
	uint32_t bs_max[DDIR_COUNT]; /* multiples of bs_min; equal to bs otherwise */
	bool bs_unaligned;           /* a range's sizes need not be multiples */
	/* fio's bs_is_seq_rand: the read sizes are those of sequential
	 * I/Os, the write ones those of random I/Os, whatever the direction */
	bool bs_is_seq_rand;

	enum rw_mode rw;
	unsigned int rwmixread;  /* percent of reads for rw/randrw, default 50 */

	unsigned int iodepth;
	unsigned int iodepth_batch_submit;       /* default 1: submit each I/O */
	unsigned int iodepth_batch_complete_min; /* default 1: wait for one */
	unsigned int numjobs;
	bool thread;             /* workers are threads, not processes */

	bool direct;             /* O_DIRECT (buffered=0 is the same) */
	uint64_t runtime_ns;     /* 0 = until io_size is done */
	bool time_based;
	uint64_t ramp_time_ns;
	uint64_t startdelay_ns;
	/* startdelay=A-B: B (startdelay_ns is A); 0: one delay */
	uint64_t startdelay_high_ns;

	bool group_reporting;
	bool stonewall;
	bool randrepeat;         /* default true: same offsets every run */
	uint64_t randseed;
	bool randseed_set;       /* given: repeatable even without randrepeat */
	bool allrandrepeat;      /* every generator seeded from FIO_RANDSEED */
	bool norandommap;

	/* The I/O stream's shape (job/stream_options.c parses, the worker
	 * and workload/offsets.c, buflen.c follow it). */
	unsigned int loops;          /* passes over the job's I/O, default 1 */
	enum submit_mode io_submit_mode;
	bool serialize_overlap;      /* no two overlapping I/Os in flight */
	unsigned int iodepth_low;    /* refill once depth falls to it; 0 = iodepth */
	unsigned int iodepth_batch_complete_max; /* 0 = iodepth */
	uint64_t number_ios;         /* stop after this many I/Os; 0 = no limit */
	struct bssplit bssplit[DDIR_COUNT];
	uint32_t blockalign[DDIR_COUNT]; /* random offsets' alignment; 0 = min bs */
	int64_t rw_seq_add;          /* rw=read:8k: skip (or back up) after each I/O */
	unsigned int rw_seq_nr;      /* rw=randread:N: a new random offset every N I/Os */
	enum rw_sequencer rw_sequencer;
	struct rand_dist_opts random_distribution;
	bool random_sequence_stride; /* sequence: each round a group further */
	enum rand_gen random_generator;
	struct sprandom_opts sprandom;
	unsigned int percentage_random[DDIR_COUNT]; /* default 100 */
	bool atomic;                 /* RWF_ATOMIC writes (implies direct) */
	uint64_t offset_increment;   /* clone N starts N times this further */
	/* Pacing (workload/pacing.c): fio's rate and thinktime options. */
	uint64_t rate[DDIR_COUNT];        /* bytes/s; 0 = unlimited */
	uint64_t rate_iops[DDIR_COUNT];
	uint64_t rate_min[DDIR_COUNT];    /* fail below it, each rate_cycle */
	uint64_t rate_iops_min[DDIR_COUNT];
	unsigned int rate_process;        /* RATE_LINEAR, RATE_POISSON */
	uint64_t rate_cycle_ns;           /* default 1 s */
	uint64_t thinktime_ns;            /* pause every thinktime_blocks */
	uint64_t thinktime_spin_ns;       /* of it, spent spinning */
	unsigned int thinktime_blocks;    /* default 1 */
	unsigned int thinktime_blocks_type; /* THINK_ON_COMPLETE, THINK_ON_ISSUE */
	/* think after this much time since the last think (or the start);
	 * with it, thinktime_blocks counts only when given (fio's rule) */
	uint64_t thinktime_iotime_ns;
	bool thinktime_blocks_given;
	/* fio's rate_ignore_thinktime: a think's time counts as issued at
	 * the rate, so the job does not catch up after it */
	bool rate_ignore_thinktime;
	/* fio's queue depth search (workload/lat_target.c). */
	uint64_t latency_target_ns;       /* 0: none */
	/* max_latency: a total latency above it ends the job with ETIMEDOUT,
	 * per direction; 0: none */
	uint64_t max_latency_ns[DDIR_COUNT];
	uint64_t latency_window_ns;
	double latency_percentile;        /* of a window's I/Os, default 100 */
	bool latency_run;                 /* keep adjusting to the end */

	/* Options of the engine: as given, then (job_list_finalize, once the
	 * engine is known) parsed into the engine's own struct. */
	struct engine_opt_given engine_given[JOB_ENGINE_OPTS_GIVEN];
	_Alignas(max_align_t) unsigned char engine_opts[JOB_ENGINE_OPTS_SIZE];

	/* Data verification and buffer contents (fio's verify* and buffer
	 * options; workload/verify_opts.c resolves them). */
	enum verify_mode verify;
	bool verify_set;          /* verify= given: verify_pattern keeps it */
	bool do_verify;           /* default 1 */
	bool verify_only;
	bool verify_fatal;
	bool verify_dump;
	bool verify_state_save;   /* default 1 */
	bool verify_state_load;
	uint64_t verify_backlog;  /* verify after this many writes; 0 = at end */
	uint64_t verify_backlog_batch; /* blocks per backlog verify; 0 = backlog */
	uint64_t verify_interval; /* header every N bytes; 0 = min write bs */
	uint64_t verify_offset;   /* header moved to this offset in a block */
	/* fio's verify_async threads and experimental_verify: iodig checks
	 * each block in the worker that read it, from its log of the writes,
	 * with the same blocks checked and the same failures found. */
	unsigned int verify_async;
	struct job_cpus verify_async_cpus;
	bool experimental_verify;
	/* fio's verify_write_sequence (newer than 3.33): check each header's
	 * write number; default 1, off by default with verify_only, or with
	 * norandommap at depth > 1 on an asynchronous engine */
	struct opt_flag verify_write_sequence;
	struct pattern verify_pattern;
	struct pattern buffer_pattern;
	struct opt_flag zero_buffers;
	struct opt_flag refill_buffers;
	struct opt_flag scramble_buffers; /* default 1 */
	unsigned int buffer_compress_percentage;
	uint64_t buffer_compress_chunk;   /* default 512 */
	unsigned int dedupe_percentage;
	/* How a repeated buffer is made (job/dedupe_opts.c): */
	enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET } dedupe_mode;
	unsigned int dedupe_working_set_percentage; /* of size; default 5 */
	bool dedupe_global;     /* the working set spans every job's data */
	/* The buffers' memory (fio's mem, iomem_align, hugepage-size and
	 * lockmem; workload/io_mem.c, workload/mem_lock.c). */
	enum io_mem_type mem_type;
	char mem_file[PATH_MAX];  /* mem=mmap:FILE ...; "": anonymous */
	uint64_t mem_align;       /* the first buffer this far past a page */
	uint64_t hugepage_size;   /* default 2 MiB: huge kinds round to it */
	uint64_t lockmem;         /* bytes the worker mlocks while it runs */

	/* Job-file syntax and process options (fio's), set by job/options.c
	 * and applied by each worker to itself (workload/worker.c). */
	char description[JOB_DESCRIPTION_MAX];
	unsigned int kb_base;    /* 1024 (fio's default) or 1000: what k, m ... mean */
	unsigned int unit_base;  /* report bandwidth in bytes (0, 8) or bits (1) */
	struct job_cpus cpus;    /* cpus_allowed= or cpumask= */
	bool cpus_set;           /* else the worker keeps iodig's affinity */
	enum cpus_policy cpus_policy;
	int nice;                /* added to the worker's nice value, as nice(2) */
	bool ioprio_set;         /* prio= or prioclass= given */
	unsigned int ioprio;     /* 0 (highest) - 7 */
	unsigned int ioprio_class; /* 0 none (fio: best effort), 1 rt, 2 be, 3 idle */
	/* fio's uid and gid: what the worker's I/O runs as; JOB_ID_NONE
	 * (fio's -1): iodig's own */
	unsigned int uid, gid;
	/* fio's cgroup, cgroup_weight (100-1000, 0: none) and cgroup_nodelete:
	 * the control group the workers run in (run/cgroup_jobs.c) */
	char cgroup[256];
	unsigned int cgroup_weight;
	bool cgroup_nodelete;
	/* fio's ioscheduler: the job's disk's I/O scheduler while it runs
	 * (run/io_sched_jobs.c); "": the one it has */
	char ioscheduler[64];
	/* fio's exec_prerun and exec_postrun: shell commands the worker runs
	 * before and after its I/O (workload/job_commands.c); "": none */
	char exec_prerun[PATH_MAX];
	char exec_postrun[PATH_MAX];
	bool pre_read;           /* fio's: the region read into the page cache
				  * before the I/O (workload/pre_read.c) */

	struct job_stat_opts stat;
	struct job_log_opts logs;
	char write_iolog[PATH_MAX]; /* fio's iolog of the I/O issued; "": none */
	struct job_replay_opts replay;

	/* The options as given, "key=value\n" each, in order: the [global]
	 * section's (and those before the first --name) first, then the
	 * job's own from given_global on; fio's "job options" echo. */
	char given[4096];
	size_t given_global;
	/* fio's file options (job/file_opts.c, workload/files.c). */
	char filename_format[PATH_MAX]; /* $jobname.$jobnum.$filenum */
	bool unique_filename;    /* fio's client/server only: no effect here */
	enum file_service file_service;
	unsigned int file_service_nr;   /* I/Os per file before switching */
	double file_service_theta;      /* zipf/pareto/gauss parameter */
	bool create_on_open;     /* no layout before the job starts */
	bool unlink;             /* remove the job's files when it ends */
	bool unlink_each_loop;
	bool allow_file_create;  /* default 1 */
	bool overwrite;          /* write jobs lay their files out first */
	bool create_serialize;   /* default 1: iodig lays out in job order */
	bool create_fsync;       /* default 1: fsync a file written out */
	bool fill_device;        /* write until ENOSPC */
	unsigned int openfiles;  /* 0: all files open */
	bool create_only;        /* lay the files out, do no I/O */
	bool invalidate;         /* default 1: drop the page cache first */
	enum fadvise_hint fadvise_hint; /* default FADVISE_TYPE */
	unsigned int sync_flags; /* fio's sync=: 0, O_SYNC or O_DSYNC at open */
	/* fio's write_hint: the RWH_WRITE_LIFE_* hint of each file opened;
	 * 0 (RWH_WRITE_LIFE_NOT_SET): none given, none set */
	unsigned int write_hint;
	/* fio's fsync=, fdatasync=: a sync after every N writes (0: none);
	 * end_fsync, fsync_on_close: a sync of each file at the end */
	unsigned int fsync_blocks, fdatasync_blocks;
	/* fio's sync_file_range=FLAGS:N: sync_file_range(2) of the range
	 * written since the last sync, with these SYNC_FILE_RANGE_* flags,
	 * after every N writes (0: none) */
	unsigned int sync_file_range_flags, sync_file_range_nr;
	/* fio's write_barrier=N: every Nth write a barrier, for an engine
	 * with FIO_BARRIER, which no fio 3.33 engine has: kept, unused */
	unsigned int write_barrier;
	bool end_fsync, fsync_on_close;
	bool file_append;        /* offsets past the file's end */
	bool allow_mounted_write; /* the write guard's override, per job */
	enum fallocate_mode fallocate;

	/* fio's job control (job/control_opts.c). */
	unsigned int continue_on_error; /* CONTINUE_* bits */
	bool exitall;            /* one job ending stops the others */
	bool exitall_on_error;
	unsigned int exit_what;  /* EXIT_WHAT_* */
	bool stats;              /* default 1: 0 leaves the job out */
	bool new_group;          /* a report group without a stonewall */
	char wait_for[JOB_NAME_MAX]; /* fio's: start once that job finished */
	unsigned int flow;       /* weight in flow control; 0: none */
	unsigned int flow_id;    /* the jobs sharing one flow */
	unsigned int flow_sleep_us; /* sleep when held back by the flow */
	/* ignore_error: per class (read, write, verify) the errnos that
	 * continue_on_error continues after; none given: EIO, EILSEQ */
	int ignore_error[3][JOB_IGNORE_ERRORS];
	unsigned int ignore_error_nr[3];
	bool error_dump;         /* fio: print tolerated errors too (default 1) */
	bool numa_nodes_set;     /* numa_cpu_nodes: folded into cpus */
	unsigned int zonemode;   /* ZONEMODE_* */
	struct job_zones {       /* zonemode's options, as given */
		uint64_t size, range, skip, capacity;
		unsigned int max_open, job_max_open;
		bool ignore_limits, read_beyond_wp;
		double reset_threshold, reset_frequency;
	} zones;
	struct steady_opts steady; /* fio's steadystate (job/steady_opts.c) */
	/* fio's 'Nz' values: N zones, turned into bytes (and cleared) once
	 * the zone size is known (job/zone_opts.c); 0: given in bytes */
	struct job_zone_counts {
		uint64_t size, io_size, offset, offset_increment, skip;
	} zone_counts;

	/* Where the job was defined, for error messages. */
	char source[PATH_MAX];   /* job file path, or "command line" */
	int source_line;         /* line of the [section] header, 0 for cli */

	/* Filled by the job list builder. */
	int group_id;            /* fio's reporting group (stonewall, new_group) */
	int run_group;           /* jobs between stonewalls run together */
};

/* fio 3.33's add_job makes a job's clones after it counting down
 * (numjobs-1 .. 1), so its threads hold clones 0, N-1, ..., 1: the clone
 * at position @i of the job's threads, and the position of clone @i (the
 * map is its own inverse). */
static inline unsigned int job_clone_at(unsigned int numjobs, unsigned int i)
{
	return i ? numjobs - i : 0;
}

/* The longest startdelay may wait (the end of a range A-B). */
static inline uint64_t job_startdelay_max_ns(const struct job *job)
{
	return job->startdelay_high_ns ? job->startdelay_high_ns : job->startdelay_ns;
}

static inline bool rw_is_random(enum rw_mode rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW ||
	       rw == RW_RANDTRIM || rw == RW_RANDTRIMWRITE;
}

static inline bool rw_has_read(enum rw_mode rw)
{
	return rw == RW_READ || rw == RW_RANDREAD || rw == RW_RW ||
	       rw == RW_RANDRW;
}

static inline bool rw_has_trim(enum rw_mode rw)
{
	return rw == RW_TRIM || rw == RW_RANDTRIM || rw == RW_TRIMWRITE ||
	       rw == RW_RANDTRIMWRITE;
}

/* fio's trimwrite and randtrimwrite: a trim, then a write of its block. */
static inline bool rw_is_trimwrite(enum rw_mode rw)
{
	return rw == RW_TRIMWRITE || rw == RW_RANDTRIMWRITE;
}

static inline bool rw_has_write(enum rw_mode rw)
{
	return rw == RW_WRITE || rw == RW_RANDWRITE || rw == RW_RW ||
	       rw == RW_RANDRW || rw_is_trimwrite(rw);
}

/* rw, readwrite, randrw: reads and writes, mixed by rwmixread. */
static inline bool rw_is_mixed(enum rw_mode rw)
{
	return rw_has_read(rw) && rw_has_write(rw);
}

/* The job does I/O in direction @d. */
static inline bool rw_has_dir(enum rw_mode rw, enum ddir d)
{
	return d == DDIR_READ ? rw_has_read(rw) :
	       d == DDIR_WRITE ? rw_has_write(rw) : rw_has_trim(rw);
}

/* Writes or trims: the job changes what its target holds. */
static inline bool rw_modifies(enum rw_mode rw)
{
	return rw_has_write(rw) || rw_has_trim(rw);
}

static inline bool job_cpus_has(const struct job_cpus *c, unsigned int cpu)
{
	return cpu < JOB_CPUS_MAX && (c->bits[cpu / 64] >> (cpu % 64) & 1);
}

/* fio's td_non_fatal_error: an error of class @cls (0 read, 1 write, 2
 * verify) lets the job go on when continue_on_error covers the class and
 * the errno is in ignore_error's list for it (EIO, EILSEQ when none). */
static inline bool job_error_is_non_fatal(const struct job *job,
					  unsigned int cls, int err)
{
	if (cls > 2 || !(job->continue_on_error & (1u << cls)))
		return false;
	if (!job->ignore_error_nr[cls])
		return err == EIO || err == EILSEQ;
	for (unsigned int i = 0; i < job->ignore_error_nr[cls]; i++)
		if (job->ignore_error[cls][i] == err)
			return true;
	return false;
}

const char *rw_mode_name(enum rw_mode rw);
/* "read", "write", "trim", as fio names them. */
const char *ddir_name(enum ddir d);

#endif /* IODIG_JOB_H */
