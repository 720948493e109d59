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
#include "base/phase_log.h"
#include "workload/counters.h"

struct json_object;
struct figure_set;
struct probe_cache;

/* What the probes are pointed at, known before the workload starts. */
struct probe_env {
	pid_t runner_tgid;         /* iodig itself (thread workers); probes_open()
				    * adds it once every family is open */
	pid_t supervisor_tid;      /* its thread that waits for the workers:
				    * not traced (iodig_thread_slot()), 0 = none */
	dev_t target_dev;          /* whole-disk dev_t carrying the I/O, 0 = any */
	char target_disk[64];      /* its /sys/block name, "" when none */
	const char *force_mechanism; /* --mechanism=, NULL = best available */
	const char *disabled;      /* comma list of families or mechanisms to
				    * treat as unavailable (IODIG_DISABLE) */
	const char *btf_path;      /* the kernel's BTF for CO-RE relocations,
				    * NULL = /sys/kernel/btf/vmlinux (IODIG_BTF) */
	const char *sys_root;      /* where sysfs is, for the devices that
				    * decide which hooks can fire (faults'
				    * fs_dax); NULL = /sys (tests: a tree) */
	/* The kernel's BTF and symbols, parsed once and shared by every
	 * family, group and repeat (probes/probe_cache.h); NULL = each family
	 * parses its own. */
	struct probe_cache *cache;
	struct phase_log *phases;  /* IODIG_TIMING's marks, NULL = none */
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
	bool sched_no_fingerprint; /* sched: walk every sampled stack, none
				    * found by fingerprint (IODIG_SCHED_STACK_FP=0) */
	bool sched_fp_verify;      /* sched: walk stacks found by fingerprint
				    * too, counting differences
				    * (IODIG_SCHED_STACK_VERIFY=1) */
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
	struct counter_values counters; /* the workers' event counters */
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

struct family_drop_def;

/*
 * A probe family, as its file describes it; the family base
 * (probes/family.h) runs it: opening, the workload filter, loading and
 * attaching, --probe-toggle, the workload's figures, the drops, the costs
 * and destroying are the base's, the same for every family.
 */
struct probe_family {
	const char *name;          /* "block": --probes and `iodig probe` */
	/* The family's object in the JSON report, "iodig.kernel.<json_name>";
	 * NULL = @name.  Read it through probe_json_name(). */
	const char *json_name;
	const char *summary;       /* one line for `iodig probe` */
	/* Not in the default set (it costs more per I/O than it tells most
	 * runs): loaded when named in --probes, by "all" or by --detail. */
	bool opt_in;
	/* --probe-toggle leaves it attached. */
	bool stays_attached;
	/* Loads no BPF object: what it reports comes from the workload's
	 * figures (set_workload), its load() only checks they can be had. */
	bool no_bpf;
	/* How it can hook the kernel, best first (probes/selection.h). */
	const char *const *mechs;
	size_t nr_mechs;
	/* Optional: the classic tracepoints (@classic_category/<event>) its
	 * tracepoint mechanism needs, which the base looks for in tracefs
	 * before load() (FAMILY_CLASSIC()). */
	const char *classic_category;
	const char *const *classic_events;
	size_t nr_classic_events;
	/* Its state, which starts with FAMILY_BASE (FAMILY_STATE_SIZE()). */
	size_t state_size;
	/* What it lost by cause: counters of its state; the base adds
	 * "recursion" (FAMILY_DROPS()). */
	const struct family_drop_def *drops;
	size_t nr_drops;

	/* Optional: before any mechanism is tried, what the family takes
	 * from the environment (the base's env member). */
	void (*prepare)(void *state);
	/* Loads and attaches with mechs[@mech], or leaves nothing loaded and
	 * returns -errno, @why saying more than the errno where it can.
	 * Most open their skeleton with FAMILY_OPEN(), set it up and end
	 * with family_load(). */
	int (*load)(void *state, size_t mech, struct errbuf *why);
	/* Optional: attaches what family_load() loaded, keeping its links
	 * (family_keep_link()); default: the skeleton's SEC names.  Also
	 * what --probe-toggle attaches again with. */
	int (*attach)(void *state, struct errbuf *why);
	/* Optional: after the mechanisms were tried (@err: 0 or why none
	 * worked), adds to @st what only the family can tell. */
	void (*note_status)(void *state, int err, struct probe_status *st);
	/* Optional: called every ~200 ms while the workload runs, from the
	 * supervising thread (e.g. to attach a hook once it is needed). */
	void (*tick)(void *state);
	/* Optional: --probe-toggle's detach (@on false) and re-attach, in
	 * place of the base's (family_relink()).  Returns 0 or -errno. */
	int (*set_attached)(void *state, bool on);
	/* Optional: reads what must be read the moment the workload ends,
	 * before other families' collect() work in iodig's own process;
	 * collect() reads it then when this failed.  0 or -errno. */
	int (*read_at_end)(void *state);
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
	/* Optional: frees what the family allocated in its state; the base
	 * has destroyed links and skeleton and frees the state. */
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
/* Family @name is loaded and running in @set (NULL: no set). */
bool probes_family_running(const struct probe_set *set, const char *name);
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

/*
 * probes_destroy() in a thread of its own, so that detaching (the kernel
 * patching each tracepoint's call sites, waiting on the other CPUs) runs
 * while the caller writes its report.  Call once @set's figures are taken:
 * its programs run until their links go.  Returns the teardown for
 * probes_teardown_wait(), or NULL when @set was destroyed here (NULL set,
 * no thread).  IODIG_TIMING's destroy marks reach @set's log at the wait.
 */
struct probe_teardown *probes_destroy_async(struct probe_set *set);
/* Waits until the teardown is done and frees it.  Accepts NULL. */
void probes_teardown_wait(struct probe_teardown *t);

#endif /* IODIG_PROBE_H */
