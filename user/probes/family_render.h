/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every family's report writes the same way: counters as JSON
 * numbers, latencies in fio's unit, and the events it lost.
 */
#ifndef IODIG_PROBES_FAMILY_RENDER_H
#define IODIG_PROBES_FAMILY_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

/* A counter as a JSON integer: json-c's are signed 64-bit, so a value
 * above INT64_MAX is written as INT64_MAX. */
struct json_object *json_u64(uint64_t v);

/* The unit fio prints a latency of mean @ns in, the one that keeps it
 * readable: "nsec", "usec" or "msec", and what to divide by. */
void latency_unit(double ns, const char **unit, double *div);

struct hist;
/* "@what (unit): avg=A, p50=B, p99=C, max=D" without a newline, in the
 * unit latency_unit picks for @mean_ns; returns that unit's divisor. */
double latency_text(FILE *out, const char *what, const struct hist *h, double mean_ns,
		    uint64_t max_ns);
/* @h's percentiles as "p50", "p90" and "p99" of @o. */
void json_add_percentiles(struct json_object *o, const struct hist *h);

/*
 * A family's numbers that go to its JSON object as they are, in a table
 * walked by json_add_fields(): each row a key and where its value lives
 * in the struct the table describes, a 64-bit counter (JSON_U64) or a
 * double (JSON_DOUBLE).  The keys are written in the table's order.
 */
struct json_field {
	const char *key;
	size_t offset;
	bool is_double;
};

/* The build fails when @member is not 64 bits wide (JSON_U64) or not a
 * double (JSON_DOUBLE). */
#define JSON_U64(key, type, member)					\
	{ (key), offsetof(type, member) +				\
		 0 * sizeof(char[sizeof(((type *)0)->member) == 8 ? 1 : -1]), false }
#define JSON_DOUBLE(key, type, member)					\
	{ (key), _Generic(((type *)0)->member, double: offsetof(type, member)), true }
#define JSON_FIELDS(o, base, table) \
	json_add_fields((o), (base), (table), sizeof(table) / sizeof((table)[0]))

void json_add_fields(struct json_object *o, const void *base, const struct json_field *fields,
		     size_t nr);

/*
 * Events a family lost, by cause.  Every family reports them the same
 * way: JSON "drops": {"<cause>": N, ...} with each of its causes (zeros
 * included, so the keys do not come and go), and the text line
 * "    drops: <cause>=N, ..." listing the non-zero ones, only when there
 * are some.  Causes shared by families:
 *   recursion     program runs the kernel skipped (recursion_misses)
 *   stack         a kernel stack could not be taken or stored
 *   agg_full      the aggregation hash was full: a new key not counted
 *   threads_full  the io thread hash was full: a thread not counted
 *   thread_state  a thread's record could not be had: its slot was
 *                 taken by another traced thread, or task storage refused
 */
struct family_drop {
	const char *cause;
	uint64_t n;
};

void drops_text(FILE *out, const struct family_drop *drops, size_t nr);
struct json_object *drops_json(const struct family_drop *drops, size_t nr);

#endif /* IODIG_PROBES_FAMILY_RENDER_H */
