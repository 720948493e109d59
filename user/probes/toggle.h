/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --probe-toggle=MS: what tracing costs this job, measured on the job
 * itself.  While it runs, the probes are detached and attached again so
 * that phases of MS ms go traced and untraced in the order T U U T T U ...
 * Phases 2k and 2k+1 make pair k (TU, UT, TU, ...), so a drift in
 * throughput weighs on both kinds alike; each pair gives the ratio of its
 * traced to its untraced IOPS, and the report shows their geometric mean
 * with a 95% confidence interval.  A phase is timed from the end of one
 * switch to the start of the next, so switching falls in neither kind;
 * after a switch the job is left to settle for settle_ms before the next
 * phase is timed, because detaching and attaching disturb it for a while
 * (attaching more; half the pairs start right after a switch, so the
 * after-effect biases the ratio: docs/overhead.md, make bench part (c)).
 * The report checks for what is left of that effect: the first
 * phase after a switch against the next one, of the same kind.
 * On a noisy machine this is far tighter than separate traced and
 * untraced runs: neighbouring phases share the machine's state, and no
 * run pays process start-up or probe loading.
 */
#ifndef IODIG_TOGGLE_H
#define IODIG_TOGGLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

/* Settle time after a switch unless --probe-toggle-settle says otherwise:
 * long enough for the after-effect measured in docs/overhead.md (part
 * (c)), and a quarter of a 4-phase cycle of 50 ms phases. */
#define TOGGLE_SETTLE_DEFAULT_MS 25

struct toggle_phase {
	uint64_t index;            /* its place in the T U U T ... order */
	uint64_t ios, ns;
};

struct probe_toggle {
	unsigned int phase_ms;     /* 0: not toggling */
	unsigned int settle_ms;    /* unmeasured time after each switch */
	struct toggle_phase *phases; /* the phases measured, by index */
	size_t nr, cap;
	uint64_t index;            /* the current phase's */
	bool begun;                /* phase 0 has begun */
	bool timing;               /* the current phase is being measured */
	bool settling;             /* a switch's settle time is running */
	uint64_t start_ns, start_ios;
	uint64_t switches, switch_ns; /* detaches and attaches, their time */
	int switch_err;            /* the first error: a switch's, or -ENOMEM
				    * when a phase could not be kept */
	char fixed[128];           /* families that cannot detach, stay on */
};

struct toggle_result {
	size_t pairs;              /* used: both phases measured, not the first */
	double iops_traced;        /* over the paired phases */
	double iops_untraced;
	double ratio;              /* geometric mean of the pairs' ratios */
	double ratio_of_medians;   /* median traced / median untraced phase
				    * IOPS, as tests/bench/overhead.sh (b) */
	double ci_lo, ci_hi;       /* its 95% CI; 0 with fewer than 2 pairs */
	/* The settle check: the first phase after a switch (odd index) over
	 * the next, of the same kind, as a geometric mean with its 95% CI;
	 * 1 when switching leaves no after-effect in the phases. */
	struct toggle_check {
		size_t n;
		double ratio, ci_lo, ci_hi;   /* ci: 0 when n < 2 */
	} after_attach, after_detach;
	/* Half the pairs have their traced phase first after a switch, half
	 * their untraced one, so the ratio carries sqrt(after_attach /
	 * after_detach) of the switches' after-effects: that factor. */
	double bias, bias_ci_lo, bias_ci_hi; /* 0 unless both checks have n >= 2 */
};

/* Whether phase @index is traced: T U U T T U U T ... */
bool toggle_traced(uint64_t index);
/* Whether phase @index begins right after a switch (1, 3, 5, ...). */
bool toggle_after_switch(uint64_t index);
/* Appends a measured phase; -ENOMEM when it cannot. */
int toggle_record(struct probe_toggle *t, uint64_t index, uint64_t ios, uint64_t ns);
/* The pairs' figures; pair 0 is left out (the workers are starting). */
void toggle_result(const struct probe_toggle *t, struct toggle_result *r);
void toggle_render_text(const struct probe_toggle *t, FILE *out);
/* Adds "probe_toggle" to @iodig. */
void toggle_render_json(const struct probe_toggle *t, struct json_object *iodig);
void toggle_free(struct probe_toggle *t);

#endif /* IODIG_TOGGLE_H */
