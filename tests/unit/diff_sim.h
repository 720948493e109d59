/* SPDX-License-Identifier: GPL-2.0 */
/* Trace files made up in memory for the diff tests: version 1.1 with the
 * definitions of the figures they carry, one figure map per repeat; and
 * a renderer's output as a string. */
#ifndef IODIG_TEST_DIFF_SIM_H
#define IODIG_TEST_DIFF_SIM_H

#include <stdio.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "tests/lib/check.h"

static const char sim_defs[] =
	"{\"key\": \"iops\", \"kind\": \"workload\", \"label\": \"IOPS\", \"unit\": \"\", \"better\": \"higher\"},"
	"{\"key\": \"lat_mean_ns\", \"kind\": \"workload\", \"label\": \"lat avg\", \"unit\": \"ns\", \"better\": \"lower\"},"
	"{\"key\": \"slat_mean_ns\", \"kind\": \"workload\", \"label\": \"slat avg\", \"unit\": \"ns\", \"better\": \"lower\"},"
	"{\"key\": \"lat_p99_ns\", \"kind\": \"workload\", \"label\": \"lat p99\", \"unit\": \"ns\", \"better\": \"lower\"},"
	"{\"key\": \"kernel.punt_ratio\", \"kind\": \"kernel\", \"label\": \"io_uring punt ratio (io-wq)\", \"unit\": \"\", \"better\": \"lower\"},"
	"{\"key\": \"kernel.punt_ns_per_io\", \"kind\": \"kernel\", \"label\": \"io_uring time punted to io-wq per I/O\", \"unit\": \"ns/IO\", \"better\": \"lower\"},"
	"{\"key\": \"kernel.faults_per_io\", \"kind\": \"kernel\", \"label\": \"user faults per I/O\", \"unit\": \"\", \"better\": \"lower\"},"
	"{\"key\": \"fn|slat|*|ns_per_io\", \"kind\": \"function\", \"label\": \"slat (sampled)\", \"measure\": \"time/IO\", \"unit\": \"ns/IO\", \"better\": \"lower\"},"
	"{\"key\": \"fn|sched|*|calls_per_io\", \"kind\": \"function\", \"label\": \"blocks in\", \"measure\": \"switches/IO\", \"unit\": \"calls/IO\", \"better\": \"lower\"},"
	"{\"key\": \"fn|sched|*|ns_per_io\", \"kind\": \"function\", \"label\": \"blocks in\", \"measure\": \"off-CPU time/IO\", \"unit\": \"ns/IO\", \"better\": \"lower\"},"
	"{\"key\": \"fn|exact|*|ns_per_io\", \"kind\": \"function\", \"label\": \"exact\", \"measure\": \"time/IO\", \"unit\": \"ns/IO\", \"better\": \"lower\"}";

/* @v[r * nkeys + k]: repeat r's value of @keys[k]; NAN leaves it out.
 * @kernel: the iodig.kernel section's members ("\"sampling\": {...}"), or
 * NULL; @extra[r]: members added to run r's object (", \"series\": []"),
 * or NULL; @version: the file's. */
static inline struct tracefile *sim_file_runs(const char *name, const char *version,
					      const char *const *keys, size_t nkeys,
					      const double *v, size_t nrep, const char *kernel,
					      const char *const *extra, struct errbuf *err)
{
	static char doc[1 << 16];
	struct tracefile *tf = NULL;
	size_t off;

	off = (size_t)snprintf(doc, sizeof(doc),
			       "{\"iodig_trace_version\": \"%s\", \"jobs\": [], \"iodig\": {"
			       "\"environment\": {\"kernel\": {\"release\": \"6.18\"},"
			       " \"devices\": [{\"name\": \"loop0\"}]},"
			       "\"kernel\": {%s}, \"figure_definitions\": [%s], \"repeats\": {\"runs\": [",
			       version, kernel ? kernel : "", sim_defs);
	for (size_t r = 0; r < nrep && off < sizeof(doc); r++) {
		bool first = true;

		off += (size_t)snprintf(doc + off, sizeof(doc) - off, "%s{\"figures\": {", r ? "," : "");
		for (size_t k = 0; k < nkeys && off < sizeof(doc); k++) {
			if (v[r * nkeys + k] != v[r * nkeys + k])
				continue;
			off += (size_t)snprintf(doc + off, sizeof(doc) - off, "%s\"%s\": %.17g",
						first ? "" : ", ", keys[k], v[r * nkeys + k]);
			first = false;
		}
		if (off < sizeof(doc))
			off += (size_t)snprintf(doc + off, sizeof(doc) - off, "}%s}",
						extra && extra[r] ? extra[r] : "");
	}
	if (off < sizeof(doc))
		snprintf(doc + off, sizeof(doc) - off, "]}}}");
	tracefile_parse_buffer(name, doc, strlen(doc), &tf, err);
	return tf;
}

/* A 1.1 file of those figures; a parse error is printed. */
static inline struct tracefile *sim_file_kernel(const char *name, const char *const *keys,
						size_t nkeys, const double *v, size_t nrep,
						const char *kernel)
{
	struct errbuf err = { "" };
	struct tracefile *tf = sim_file_runs(name, "1.1", keys, nkeys, v, nrep, kernel, NULL, &err);

	if (!tf)
		fprintf(stderr, "%s: %s\n", name, err.msg);
	return tf;
}

static inline struct tracefile *sim_file(const char *name, const char *const *keys, size_t nkeys,
					 const double *v, size_t nrep)
{
	return sim_file_kernel(name, keys, nkeys, v, nrep, NULL);
}

/* What @fn renders of @d, malloc'ed. */
static inline char *render(const struct diff *d, int (*fn)(const struct diff *, FILE *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f && fn(d, f) == 0);
	if (f)
		fclose(f);
	return text;
}

#endif /* IODIG_TEST_DIFF_SIM_H */
