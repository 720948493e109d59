/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe families: each is one bpf/<family>.bpf.c with its own skeleton and
 * one user/probes/<family>.c.  A family that cannot load on this kernel is
 * recorded with the reason and skipped; it never aborts a run.
 */
#ifndef IODIG_PROBE_H
#define IODIG_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/errbuf.h"

struct json_object;
struct bpf_object;
struct figure_set;

/* What the probes are pointed at, known before the workload starts. */
struct probe_env {
	pid_t runner_tgid;         /* iodig itself (thread workers) */
	pid_t supervisor_tid;      /* its thread that waits for the workers:
				    * not traced (iodig_thread_slot()), 0 = none */
	dev_t target_dev;          /* whole-disk dev_t carrying the I/O, 0 = any */
	char target_disk[64];      /* its /sys/block name, "" when none */
	const char *force_mechanism; /* --mechanism=, NULL = best available */
	const char *disabled;      /* comma list of families or mechanisms to
				    * treat as unavailable (IODIG_DISABLE) */
	const char *btf_path;      /* the kernel's BTF for CO-RE relocations,
				    * NULL = /sys/kernel/btf/vmlinux (IODIG_BTF) */
	bool bpf_stats;            /* measure each program's run time */
	unsigned int sample_hz;    /* --sample-freq: sampling family's rate,
				    * 0 = its default */
	bool detail;               /* --detail: the opt-in families and the
				    * hooks that cost program runs per I/O for
				    * a finer split (block issue and stages,
				    * io_uring submit), sampling at 999 Hz */
	unsigned int stacks;       /* --stacks=N: full stacks to print */
	unsigned int sched_stack_period; /* sched: 1 in N switch-outs takes
				    * its kernel stack; 0 = the default */
	unsigned int block_time_stride; /* block: time a random 1 in N
				    * completions (a power of two, at most
				    * BLOCK_STRIDE_MAX); 0 = set from the
				    * completion rate, --detail = 1 */
	/* The job, for maps whose need grows with it (sized before load,
	 * within bounds); 0 = unknown: the defaults of include/iodig/. */
	unsigned int threads;      /* workers over all jobs: sum of numjobs */
	uint64_t inflight;         /* I/Os in flight at most: sum of
				    * numjobs x iodepth */
	unsigned int runtime_s;    /* the run lasts at most this long (sum of
				    * startdelay + ramp + runtime), 0 = no
				    * bound (a job runs until its size is done) */
};

enum probe_state {
	PROBE_OFF,       /* not requested */
	PROBE_ACTIVE,    /* loaded and attached */
	PROBE_DEGRADED,  /* attached with a lesser mechanism */
	PROBE_MISSING,   /* no mechanism works on this kernel */
};

struct probe_status {
	enum probe_state state;
	char mechanism[32];       /* "tp_btf", "raw_tp", "tracepoint", ... */
	char reason[256];         /* why better mechanisms were not used */
};

/* The workload's own figures, given to families before collect() so they
 * can report per-I/O ratios and share of slat, and cross-check counts. */
struct probe_workload {
	uint64_t ios;              /* completed I/Os, all workers */
	uint64_t slat_ns;          /* sum of slat over those I/Os (0 for sync) */
	uint64_t clat_ns;          /* sum of clat */
	uint64_t submit_calls;     /* submitting calls (io_submit, enter, pread) */
	uint64_t reap_calls;
	uint64_t ctx_vol, ctx_invol; /* getrusage of the workers */
	uint64_t majf, minf;
	uint64_t runtime_ns;       /* longest worker runtime */
	bool sync_engine;          /* I/O done inside the submitting call */
};

/*
 * Figures one family finds and another reports: after every collect(),
 * each family's share_out() fills what it knows, then share_in() lets the
 * others read it (the block section shows the tag waits sched saw).
 */
struct probe_shared {
	bool tag_waits_known;      /* a family watched for them */
	const char *tag_wait_source; /* "sched" */
	uint64_t tag_waits;        /* switch-outs blocked in blk_mq_get_tag */
	uint64_t tag_wait_ns;      /* their off-CPU time */
	uint64_t tag_wait_timed;   /* returns behind tag_wait_ns */
	uint64_t tag_wait_sampled; /* stacks the estimate rests on */
	unsigned int tag_wait_period; /* counts scaled by this; 1 = exact */
};

struct probe_family {
	const char *name;          /* "block": --probes and `iodig probe` */
	/* The family's object in the JSON report, "iodig.kernel.<json_name>";
	 * NULL = @name.  Read it through probe_json_name(). */
	const char *json_name;
	const char *summary;       /* one line for `iodig probe` */
	/* Not in the default set (it costs more per I/O than it tells most
	 * runs): loaded when named in --probes, by "all" or by --detail. */
	bool opt_in;
	/* Loads and attaches; on failure fills @st and returns -errno.  Must
	 * leave nothing loaded when it fails. */
	int (*open)(const struct probe_env *env, void **state,
		    struct probe_status *st);
	/* Optional: a workload process forked after open() (fio's process
	 * workers); its threads, io-wq workers included, are traced from now
	 * on.  Thread workers share runner_tgid and need no call. */
	int (*track_tgid)(void *state, pid_t tgid);
	/* Optional: called every ~200 ms while the workload runs, from the
	 * supervising thread (e.g. to attach a hook once it is needed). */
	void (*tick)(void *state);
	/* Optional: detaches every hook (@on false) or attaches them again,
	 * keeping maps and counts, for --probe-toggle.  A family without it
	 * stays attached throughout.  Returns 0 or -errno. */
	int (*set_attached)(void *state, bool on);
	/* Optional: the workload's figures, called just before collect(). */
	void (*set_workload)(void *state, const struct probe_workload *wl);
	/* Called once after the workload; reads maps into the state. */
	int (*collect)(void *state, uint64_t workload_ios);
	/* Optional, after every collect(): see struct probe_shared. */
	void (*share_out)(const void *state, struct probe_shared *sh);
	void (*share_in)(void *state, const struct probe_shared *sh);
	void (*render_text)(const void *state, FILE *out);
	/* Adds the family's object to @kernel ("iodig.kernel") under
	 * probe_json_name(). */
	void (*render_json)(const void *state, struct json_object *kernel);
	/* Optional: the family's figures (probes/figures.h), declared in its
	 * own file, from what collect() read; per-I/O figures divide by
	 * @wl->ios, the workload collect() was given. */
	void (*figures)(const void *state, const struct probe_workload *wl,
			struct figure_set *out);
	/* The family's loaded BPF object, so the set can read each
	 * program's run time and count (kernel.bpf_stats_enabled). */
	struct bpf_object *(*object)(const void *state);
	/* Detaches and frees; accepts NULL. */
	void (*destroy)(void *state);
};

/* Every family, from probes/probe_list.h. */
#define PROBE(n) extern const struct probe_family n##_probe;
#include "probes/probe_list.h"
#undef PROBE

static inline const char *probe_json_name(const struct probe_family *f)
{
	return f->json_name ? f->json_name : f->name;
}

struct probe_set;

/* Opens the families @spec selects: NULL = the default ones (all but the
 * opt-in ones; every family when env->detail), "all", a comma list of
 * names ("block,sched": exactly those), or changes to the default set
 * ("+syscalls,-sampling").  Never fails because a family is missing. */
int probes_open(const struct probe_env *env, const char *only,
		struct probe_set **out, struct errbuf *err);
/* IODIG_DISABLE and IODIG_BTF (empty = unset) into @env. */
void probes_env_from_environment(struct probe_env *env);
/* Checks a --probes SPEC (see probes_open) without loading anything. */
int probes_check_spec(const char *spec, struct errbuf *err);
int probes_track_tgid(struct probe_set *set, pid_t tgid);
void probes_tick(struct probe_set *set);
/* Detaches (@on false) or re-attaches every running family that can;
 * the names of those that cannot (they stay attached) go into @fixed
 * as a comma list.  Returns the first error, after trying them all. */
int probes_set_attached(struct probe_set *set, bool on, char *fixed, size_t size);
int probes_collect(struct probe_set *set, const struct probe_workload *wl);
/* The "Kernel:" section: heading, then probes_render_text_body(). */
void probes_render_text(const struct probe_set *set, FILE *out);
void probes_render_text_body(const struct probe_set *set, FILE *out);
/* Adds probes_json() to @iodig as "kernel". */
void probes_render_json(const struct probe_set *set, struct json_object *iodig);
/* The "kernel" object: probes, overhead and each family's; NULL on
 * NULL or out of memory. */
struct json_object *probes_json(const struct probe_set *set);
/* Every collected family's figures and stacks, into @out. */
void probes_figures(const struct probe_set *set, struct figure_set *out);
/* `iodig probe`: family, mechanism, status, reason. */
void probes_print_table(const struct probe_set *set, FILE *out);
void probes_destroy(struct probe_set *set);

#endif /* IODIG_PROBE_H */
