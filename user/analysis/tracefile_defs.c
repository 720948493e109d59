// SPDX-License-Identifier: GPL-2.0
/*
 * Figure definitions in trace files: written from the definitions the
 * figures' owners declared (so `iodig diff` labels a figure it has never
 * heard of), read back with every field checked, and, for files older
 * than version 1.1 that carry none, the table those files were written
 * with.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/tracefile.h"
#include "probes/figures.h"
#include "run/repeat.h"

static const char *const kind_names[] = {
	[FIGURE_WORKLOAD] = "workload",
	[FIGURE_KERNEL] = "kernel",
	[FIGURE_FUNCTION] = "function",
};
#define NR_KINDS (sizeof(kind_names) / sizeof(kind_names[0]))

/*
 * Only for trace files written before version 1.1, which stored no
 * definitions: the labels and units iodig 1.0 showed for their figures.
 * Figures added since declare their definitions where they are computed
 * and travel in the file; nothing is ever added here.
 */
#define OLD(kind, key, label, measure, unit) { kind, key, label, measure, unit, FIGURE_NO_DIRECTION, 0 }
#define OLD_LATENCY(name) \
	OLD(FIGURE_WORKLOAD, name "_mean_ns", name " avg", NULL, "ns"), \
	OLD(FIGURE_WORKLOAD, name "_p50_ns", name " p50", NULL, "ns"), \
	OLD(FIGURE_WORKLOAD, name "_p99_ns", name " p99", NULL, "ns"), \
	OLD(FIGURE_WORKLOAD, name "_p99.9_ns", name " p99.9", NULL, "ns")
static const struct figure_def defs_before_1_1[] = {
	OLD(FIGURE_WORKLOAD, "iops", "IOPS", NULL, ""),
	OLD(FIGURE_WORKLOAD, "bw_kib", "bandwidth", NULL, "KiB/s"),
	OLD_LATENCY("slat"),
	OLD_LATENCY("clat"),
	OLD_LATENCY("lat"),
	OLD(FIGURE_WORKLOAD, "usr_cpu_pct", "cpu usr", NULL, "%"),
	OLD(FIGURE_WORKLOAD, "sys_cpu_pct", "cpu sys", NULL, "%"),
	OLD(FIGURE_WORKLOAD, "ctx_per_io", "context switches per I/O", NULL, ""),
	OLD(FIGURE_KERNEL, "kernel.punt_ratio", "io_uring punt ratio (io-wq)", NULL, ""),
	OLD(FIGURE_KERNEL, "kernel.switches_per_io", "sched switches per I/O", NULL, ""),
	OLD(FIGURE_KERNEL, "kernel.iowq_switches_per_io", "io-wq worker switches per I/O", NULL, ""),
	OLD(FIGURE_KERNEL, "kernel.tag_waits_per_io", "tag waits per I/O (blk_mq_get_tag)", NULL, ""),
	OLD(FIGURE_KERNEL, "kernel.faults_per_io", "user faults per I/O", NULL, ""),
	OLD(FIGURE_KERNEL, "kernel.requests_per_io", "block requests per I/O", NULL, ""),
	OLD(FIGURE_FUNCTION, "fn|slat|*|ns_per_io", "slat (sampled)", "time/IO", "ns/IO"),
	OLD(FIGURE_FUNCTION, "fn|sched|*|calls_per_io", "blocks in", "switches/IO", "calls/IO"),
	OLD(FIGURE_FUNCTION, "fn|sched|*|ns_per_io", "blocks in", "off-CPU time/IO", "ns/IO"),
	OLD(FIGURE_FUNCTION, "fn|syscall|*|calls_per_io", "syscall", "calls/IO", "calls/IO"),
	OLD(FIGURE_FUNCTION, "fn|syscall|*|ns_per_io", "syscall", "time/IO", "ns/IO"),
};

/* ---- writing ---- */

static bool def_listed(struct json_object *arr, const char *key)
{
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *k = NULL;

		json_object_object_get_ex(json_object_array_get_idx(arr, i), "key", &k);
		if (k && !strcmp(json_object_get_string(k), key))
			return true;
	}
	return false;
}

static struct json_object *def_json(const struct figure_def *d)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "key", json_object_new_string(d->key));
	json_object_object_add(o, "kind", json_object_new_string(kind_names[d->kind]));
	json_object_object_add(o, "label", json_object_new_string(d->label));
	if (d->measure)
		json_object_object_add(o, "measure", json_object_new_string(d->measure));
	json_object_object_add(o, "unit", json_object_new_string(d->unit));
	json_object_object_add(o, "better", json_object_new_string(figure_better_name(d->better)));
	return o;
}

struct json_object *tracefile_defs_json(const struct repeat_result *res)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned int r = 0; arr && r < res->done; r++) {
		for (size_t i = 0; i < res->figures[r].n; i++) {
			const struct figure_def *d = res->figures[r].v[i].def;

			if (d->label && !def_listed(arr, d->key))
				json_object_array_add(arr, def_json(d));
		}
	}
	return arr;
}

/* ---- reading ---- */

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int kind_parse(const char *name)
{
	for (size_t i = 0; name && i < NR_KINDS; i++)
		if (!strcmp(name, kind_names[i]))
			return (int)i;
	return -1;
}

/* One entry of iodig.figure_definitions; its strings stay in the doc. */
static int parse_def(const struct tracefile *tf, struct json_object *o, size_t i,
		     struct figure_def *d, struct errbuf *err)
{
	char role[64], name[8], measure[64];
	int kind, better;

	if (!o || !json_object_is_type(o, json_type_object))
		return err_set(err, EINVAL, "%s: iodig.figure_definitions[%zu] is not an object",
			       tf->name, i);
	d->key = str_of(o, "key");
	d->label = str_of(o, "label");
	d->measure = str_of(o, "measure");
	d->unit = str_of(o, "unit");
	kind = kind_parse(str_of(o, "kind"));
	better = figure_better_parse(str_of(o, "better"));
	if (!d->key || !d->key[0] || !d->label || !d->unit || kind < 0 || better < 0)
		return err_set(err, EINVAL, "%s: iodig.figure_definitions[%zu] needs the strings key, kind (workload, kernel, function), label, unit and better (higher, lower, none)",
			       tf->name, i);
	d->kind = (enum figure_kind)kind;
	d->better = (enum figure_better)better;
	d->rank = (int)i;
	if (d->kind == FIGURE_FUNCTION &&
	    (!d->measure || figure_split_fn(d->key, role, sizeof(role), name, sizeof(name),
					    measure, sizeof(measure)) || strcmp(name, "*")))
		return err_set(err, EINVAL, "%s: iodig.figure_definitions[%zu]: a function row needs a key \"fn|ROLE|*|MEASURE\" and a measure",
			       tf->name, i);
	return 0;
}

int tracefile_parse_defs(struct tracefile *tf, struct json_object *iodig, struct errbuf *err)
{
	struct json_object *arr = NULL;
	size_t n;

	json_object_object_get_ex(iodig, "figure_definitions", &arr);
	if (!arr && (tf->major > 1 || tf->minor >= 1))
		return err_set(err, EINVAL, "%s: iodig.figure_definitions is missing (trace files since version 1.1 have it)",
			       tf->name);
	if (!arr) {
		n = sizeof(defs_before_1_1) / sizeof(defs_before_1_1[0]);
		tf->defs = malloc(sizeof(defs_before_1_1));
		if (!tf->defs)
			return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
		memcpy(tf->defs, defs_before_1_1, sizeof(defs_before_1_1));
		for (size_t i = 0; i < n; i++)
			tf->defs[i].rank = (int)i;
		tf->nr_defs = n;
		return 0;
	}
	if (!json_object_is_type(arr, json_type_array))
		return err_set(err, EINVAL, "%s: iodig.figure_definitions is not an array", tf->name);
	n = json_object_array_length(arr);
	tf->defs = calloc(n ? n : 1, sizeof(*tf->defs));
	if (!tf->defs)
		return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
	for (size_t i = 0; i < n; i++) {
		int ret = parse_def(tf, json_object_array_get_idx(arr, i), i, &tf->defs[i], err);

		if (ret)
			return ret;
		tf->nr_defs++;
	}
	return 0;
}

const struct figure_def *tracefile_def(const struct tracefile *tf, const char *key)
{
	char role[64], name[256], measure[64], pattern[160];
	int group;

	key = figure_base_key(key, &group);
	if (!figure_split_fn(key, role, sizeof(role), name, sizeof(name), measure, sizeof(measure))) {
		snprintf(pattern, sizeof(pattern), "fn|%s|*|%s", role, measure);
		key = pattern;
	}
	for (size_t i = 0; i < tf->nr_defs; i++)
		if (!strcmp(tf->defs[i].key, key))
			return &tf->defs[i];
	return NULL;
}
