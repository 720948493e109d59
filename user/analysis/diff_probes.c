// SPDX-License-Identifier: GPL-2.0
/*
 * iodig's own cost, kept apart from the kernel's functions: the sampled
 * stacks of a traced submission also catch iodig's BPF programs and the
 * kernel code that runs them (trampolines, tracepoint glue, the maps they
 * update, the stack walks of bpf_get_stackid).  A diff that ranked those
 * among the kernel's I/O path would blame the kernel for the tracer; they
 * are summed into one labelled row instead.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "probes/blocking_frame.h"

/* Name prefixes of the tracing machinery, as kallsyms spells them. */
static const char *const probe_prefixes[] = {
	"bpf_", "__bpf_", "iodig_", "htab_", "__htab_", "alloc_htab_elem", "lookup_nulls_elem_raw",
	"lookup_elem_raw", "pcpu_freelist_", "__pcpu_freelist_", "trace_call_bpf",
	"perf_trace_run_bpf_submit", "__traceiter_", "get_perf_callchain", "perf_callchain_kernel",
	"__unwind_start", "unwind_next_frame", "unwind_get_return_address",
	BLOCKING_IN_BPF, /* the sched family's name for them */
	"[bpf: unlisted]", /* JIT code (trampolines, programs) loaded after kallsyms was read */
};

/*
 * Where the kernel hands a hook over to BPF.  The sampled times are
 * inclusive (a sample counts for every frame on its stack), so the
 * programs, maps and helpers below these are inside them: the row sums
 * only these, one per hook hit, never nested in each other.
 */
static const char *const entry_prefixes[] = {
	"bpf_trace_run", "__bpf_prog_enter", "trace_call_bpf",
};

static bool has_prefix(const char *fn, const char *const *prefixes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(fn, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

bool diff_is_probe_fn(const char *fn)
{
	return has_prefix(fn, probe_prefixes, sizeof(probe_prefixes) / sizeof(probe_prefixes[0]));
}

/* Adds the whole run's sampled time per I/O in iodig's entry frames in
 * @tf into @sum, one value per repeat; whether the file has sampled
 * functions. */
static bool sum_probe_time(const struct tracefile *tf, double *sum)
{
	char role[32], name[256], measure[32];
	bool sampled = false;
	int group;

	for (size_t m = 0; m < tf->nr_metrics; m++) {
		const struct tf_metric *met = &tf->metrics[m];
		const char *key = figure_base_key(met->key, &group);

		if (group >= 0 || figure_split_fn(key, role, sizeof(role), name, sizeof(name),
						  measure, sizeof(measure)) ||
		    strcmp(measure, "ns_per_io"))
			continue;
		sampled |= !strcmp(role, "slat");
		if (strcmp(role, "slat") ||
		    !has_prefix(name, entry_prefixes, sizeof(entry_prefixes) / sizeof(entry_prefixes[0])))
			continue;
		for (size_t i = 0; i < met->n && i < tf->nr_repeats; i++)
			sum[i] += met->v[i];
	}
	return sampled;
}

int diff_add_probes_row(struct diff *d)
{
	struct diff_row *r;
	size_t most = 0;

	d->probes_row = -1;
	for (size_t f = 0; f < d->nr_files; f++)
		if (d->tf[f]->nr_repeats > most)
			most = d->tf[f]->nr_repeats;
	r = diff_row_new(d, "iodig's probes", "iodig's probes: sampled time/IO in the hooks' "
			 "BPF entry (bpf_trace_run*, __bpf_prog_enter*)", "ns/IO");
	if (!r || !(r->own = calloc(d->nr_files * (most ? most : 1), sizeof(double))))
		return -ENOMEM;
	r->kind = ROW_PROBES;
	r->better = FIGURE_LOWER;
	for (size_t f = 0; f < d->nr_files; f++) {
		struct diff_cell *c = &r->cells[f];
		double *v = r->own + f * most;

		c->present = sum_probe_time(d->tf[f], v);
		c->sig = SIG_NONE;
		if (!c->present)
			continue;
		c->v = v;
		sample_summarize(v, d->tf[f]->nr_repeats, &c->s);
	}
	for (size_t f = 0; f < d->nr_files; f++)
		if (r->cells[f].present)
			d->probes_row = (long)(r - d->rows);
	if (d->probes_row < 0) {       /* nothing sampled: no row */
		free(r->cells);
		free(r->own);
		d->nr_rows--;
	}
	return 0;
}
