// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "workload/log_sample.h"

/* fio's flags in the ddir word of a record (its iolog.h) */
#define SAMPLE_OFFSET_BIT 0x80000000u
#define SAMPLE_PRIO_BIT   0x40000000u
#define FIO_SAMPLE_BYTES  32

struct log_columns log_columns_of(const struct job_log_opts *o, bool latency)
{
	return (struct log_columns){
		.max = o->window_value == LOG_WINDOW_BOTH,
		.offset = o->offset,
		.prio_value = o->prio,
		.issue = o->issue_time && latency,
	};
}

void log_line_print(FILE *out, const struct log_columns *c, const struct log_line *l)
{
	fprintf(out, "%llu, %llu", (unsigned long long)l->ms, (unsigned long long)l->value);
	if (c->max)
		fprintf(out, ", %llu", (unsigned long long)l->max);
	fprintf(out, ", %u, %llu", (unsigned int)l->d, (unsigned long long)l->bs);
	if (c->offset)
		fprintf(out, ", %llu", (unsigned long long)l->offset);
	/* fio's flag without log_prio: the priority is of the realtime class */
	if (c->prio_value)
		fprintf(out, ", 0x%04x", l->ioprio);
	else
		fprintf(out, ", %u", (l->ioprio >> 13) == 1);
	if (c->issue)
		fprintf(out, ", %llu", (unsigned long long)l->issue_ns);
	fputc('\n', out);
}

size_t log_sample_size(const struct log_columns *c)
{
	return FIO_SAMPLE_BYTES + 8 * (c->offset + c->max + c->issue);
}

/* The fields after fio's 32 bytes, in this order: offset, max, issue. */
void log_sample_pack(const struct log_columns *c, const struct log_line *l, unsigned char *buf)
{
	uint32_t ddir = (uint32_t)l->d | (c->offset ? SAMPLE_OFFSET_BIT : 0) |
			(c->prio_value ? SAMPLE_PRIO_BIT : 0);
	uint16_t zero = 0;
	size_t at = FIO_SAMPLE_BYTES;

	memcpy(buf, &l->ms, 8);
	memcpy(buf + 8, &l->value, 8);
	memcpy(buf + 16, &ddir, 4);
	memcpy(buf + 20, &l->ioprio, 2);
	memcpy(buf + 22, &zero, 2);
	memcpy(buf + 24, &l->bs, 8);
	if (c->offset) {
		memcpy(buf + at, &l->offset, 8);
		at += 8;
	}
	if (c->max) {
		memcpy(buf + at, &l->max, 8);
		at += 8;
	}
	if (c->issue)
		memcpy(buf + at, &l->issue_ns, 8);
}

void log_sample_unpack(const struct log_columns *c, const unsigned char *buf,
		       struct log_line *l)
{
	uint32_t ddir;
	size_t at = FIO_SAMPLE_BYTES;

	memset(l, 0, sizeof(*l));
	memcpy(&l->ms, buf, 8);
	memcpy(&l->value, buf + 8, 8);
	memcpy(&ddir, buf + 16, 4);
	l->d = (enum ddir)(ddir & ~(SAMPLE_OFFSET_BIT | SAMPLE_PRIO_BIT));
	memcpy(&l->ioprio, buf + 20, 2);
	memcpy(&l->bs, buf + 24, 8);
	if (c->offset) {
		memcpy(&l->offset, buf + at, 8);
		at += 8;
	}
	if (c->max) {
		memcpy(&l->max, buf + at, 8);
		at += 8;
	}
	if (c->issue)
		memcpy(&l->issue_ns, buf + at, 8);
}
