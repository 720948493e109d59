// SPDX-License-Identifier: GPL-2.0
/*
 * Per-I/O priorities (cmdprio*), after fio's engines/cmdprio.c and
 * options.c's split_parse_prio_ddir: the same entries, the same draw (one
 * number 0-99 per I/O against the block size's percentages, in order).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/engines/cmdprio.h"
#include "workload/prio_stats.h"
#include "workload/worker.h"

#define VAL "'%.64s'"
/* The kernel's IOPRIO_CLASS_RT, fio's default cmdprio_class. */
#define CMDPRIO_CLASS_RT 1u

/* "BS/PERC[/CLASS/LEVEL[/HINT]]": fio caps each number at its maximum
 * and takes the option's class and level without the last three. */
static int parse_entry(char *text, const struct cmdprio_opts *o, enum ddir d,
		       unsigned int kb_base, struct cmdprio_entry *e)
{
	unsigned int n[4] = { 0 };
	char *slash = strchr(text, '/');
	uint64_t bs;
	int got = 0;

	if (slash) {
		*slash = '\0';
		got = sscanf(slash + 1, "%u/%u/%u/%u", &n[0], &n[1], &n[2], &n[3]);
		if (got < 1 || got == 2)
			return -EINVAL;
	}
	if (parse_size_kb(text, kb_base, &bs) || !bs || bs > UINT32_MAX)
		return -EINVAL;
	e->bs = (uint32_t)bs;
	e->perc = n[0] > 100 ? 100 : n[0];
	if (got >= 3)
		e->ioprio = cmdprio_value(n[1] > 3 ? 3 : n[1], n[2] > 7 ? 7 : n[2],
					  n[3] > 1023 ? 1023 : n[3]);
	else
		e->ioprio = cmdprio_value(o->cls[d] ? o->cls[d] : CMDPRIO_CLASS_RT,
					  o->level[d], o->hint[d]);
	return 0;
}

static int cmp_bs(const void *a, const void *b)
{
	const struct cmdprio_entry *x = a, *y = b;

	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* One direction's entries; those of 0 percent are dropped, as fio does,
 * and the rest sorted by block size. */
static int parse_dir(char *part, const struct cmdprio_opts *o, enum ddir d,
		     unsigned int kb_base, struct cmdprio *cp)
{
	char *entry;

	cp->nr[d] = 0;
	while ((entry = strsep(&part, ":")) && entry[0]) {
		struct cmdprio_entry *e = &cp->e[d][cp->nr[d]];

		if (cp->nr[d] == CMDPRIO_ENTRIES_MAX ||
		    parse_entry(entry, o, d, kb_base, e))
			return -EINVAL;
		if (e->perc)
			cp->nr[d]++;
	}
	qsort(cp->e[d], cp->nr[d], sizeof(cp->e[d][0]), cmp_bs);
	return 0;
}

/* Distinct priorities among @d's entries. */
static unsigned int nr_distinct(const struct cmdprio *cp, int d)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < cp->nr[d]; i++) {
		unsigned int j = 0;

		while (j < i && cp->e[d][j].ioprio != cp->e[d][i].ioprio)
			j++;
		n += j == i;
	}
	return n;
}

/* fio refuses a block size whose percentages add to more than 100;
 * iodig keeps the latency of PRIO_STATS_MAX priorities per direction. */
static int check_sums(const struct cmdprio *cp, char *why, size_t len)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		for (unsigned int i = 0, sum = 0; i < cp->nr[d]; i++) {
			if (i && cp->e[d][i].bs != cp->e[d][i - 1].bs)
				sum = 0;
			sum += cp->e[d][i].perc;
			if (sum > 100) {
				snprintf(why, len, "the percentages of block size "
					 "%u add to more than 100", cp->e[d][i].bs);
				return -EINVAL;
			}
		}
		if (nr_distinct(cp, d) >= PRIO_STATS_MAX) {
			snprintf(why, len, "more than %d distinct priorities for "
				 "%s (iodig keeps the latency of each)",
				 PRIO_STATS_MAX - 1, ddir_name((enum ddir)d));
			return -EINVAL;
		}
	}
	return 0;
}

/* "read part[,write part[,trim part]]"; one part serves both. */
static int parse_bssplit(const char *value, const struct cmdprio_opts *o,
			 unsigned int kb_base, struct cmdprio *cp, char *why,
			 size_t len)
{
	char buf[CMDPRIO_BSSPLIT_MAX], both[CMDPRIO_BSSPLIT_MAX], *write;
	int ret;

	snprintf(buf, sizeof(buf), "%s", value);
	write = strchr(buf, ',');
	if (write)
		*write++ = '\0';
	if (write && strchr(write, ','))
		*strchr(write, ',') = '\0'; /* trims: iodig issues none */
	/* one part serves both directions; parsing consumes it */
	snprintf(both, sizeof(both), "%s", buf);
	ret = parse_dir(buf, o, DDIR_READ, kb_base, cp);
	if (!ret)
		ret = parse_dir(write ? write : both, o, DDIR_WRITE, kb_base, cp);
	if (ret) {
		snprintf(why, len, "an entry is not BS/PERC[/CLASS/LEVEL[/HINT]] "
			 "(at most %d per direction)", CMDPRIO_ENTRIES_MAX);
		return ret;
	}
	return check_sums(cp, why, len);
}

int cmdprio_set_bssplit(void *base, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err)
{
	struct cmdprio_opts dflt = { .perc = { 0 } };
	struct cmdprio *cp = calloc(1, sizeof(*cp));
	char why[128];
	int ret;

	if (!cp)
		return err_set(err, ENOMEM, "%s: out of memory", where);
	if (strlen(value) >= CMDPRIO_BSSPLIT_MAX)
		ret = err_set(err, ENAMETOOLONG, "%s: option '%s': the value is "
			      "longer than %d bytes", where, o->name,
			      CMDPRIO_BSSPLIT_MAX - 1);
	else if (parse_bssplit(value, &dflt, KB_BASE_DEFAULT, cp, why, sizeof(why)))
		ret = err_set(err, EINVAL, "%s: option '%s': " VAL ": %s", where,
			      o->name, value, why);
	else
		ret = 0;
	if (!ret)
		strcpy((char *)base + o->offset, value);
	free(cp);
	return ret;
}

int cmdprio_check(const struct cmdprio_opts *o, const char *where,
		  struct errbuf *err)
{
	if (o->bssplit[0] && (o->perc[DDIR_READ] || o->perc[DDIR_WRITE]))
		return err_set(err, EINVAL, "%s: cmdprio_percentage and "
			       "cmdprio_bssplit exclude each other (fio's rule): "
			       "give one", where);
	return 0;
}

int cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o,
		 const struct job *job, uint64_t seed, struct errbuf *err)
{
	char why[128];

	memset(cp, 0, sizeof(*cp));
	rng_seed(&cp->rng, seed);
	if (o->bssplit[0]) {
		if (parse_bssplit(o->bssplit, o, job->kb_base, cp, why, sizeof(why)))
			return err_set(err, EINVAL, "job '%s': cmdprio_bssplit: %s",
				       job->name, why);
	} else {
		for (int d = 0; d < DDIR_COUNT; d++) {
			if (!o->perc[d])
				continue;
			cp->nr[d] = 1;
			cp->e[d][0].perc = o->perc[d];
			cp->e[d][0].ioprio = cmdprio_value(o->cls[d] ? o->cls[d] :
							   CMDPRIO_CLASS_RT,
							   o->level[d], o->hint[d]);
		}
	}
	cp->on = cp->nr[DDIR_READ] || cp->nr[DDIR_WRITE];
	return 0;
}

const struct cmdprio_entry *cmdprio_pick(struct cmdprio *cp, enum ddir ddir,
					 uint32_t len)
{
	unsigned int draw, sum = 0;

	if (!cp->on || (unsigned int)ddir >= DDIR_COUNT || !cp->nr[ddir])
		return NULL;
	draw = (unsigned int)rng_below(&cp->rng, 100);
	for (unsigned int i = 0; i < cp->nr[ddir]; i++) {
		const struct cmdprio_entry *e = &cp->e[ddir][i];

		if (e->bs && e->bs != len)
			continue;
		sum += e->perc;
		if (draw < sum)
			return e;
	}
	return NULL;
}

/* fio's clat_prio list of each direction the job does: its own priority
 * first, then each entry's, and the entry's place in it. */
static int list_prios(struct cmdprio *cp, struct prio_stats *ps,
		      const struct job *job, struct errbuf *err)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!cp->nr[d] || !rw_has_dir(job->rw, (enum ddir)d))
			continue;
		prio_stats_begin(ps, job, (enum ddir)d);
		for (unsigned int i = 0; i < cp->nr[d]; i++) {
			int idx = prio_stats_index(ps, (enum ddir)d, cp->e[d][i].ioprio);

			if (idx < 0)
				return err_set(err, -idx, "job '%s': more than %d "
					       "priorities for %s", job->name,
					       PRIO_STATS_MAX, ddir_name((enum ddir)d));
			cp->e[d][i].stat_index = (uint8_t)idx;
		}
	}
	return 0;
}

int engine_cmdprio_init(const struct worker *w, struct cmdprio *cp,
			const struct cmdprio_opts *o, struct errbuf *err)
{
	uint64_t seed = w->job->randseed ^ 0x7072696fULL; /* "prio" */
	int ret = cmdprio_init(cp, o, w->job, seed + w->thread_number, err);

	if (!ret && cp->on && w->prio)
		ret = list_prios(cp, w->prio, w->job, err);
	return ret;
}

bool engine_cmdprio_pick(struct cmdprio *cp, struct io_unit *u)
{
	const struct cmdprio_entry *e = cmdprio_pick(cp, u->ddir, u->len);

	u->ioprio = e ? e->ioprio : 0;
	u->prio_index = e ? e->stat_index : 0;
	return e != NULL;
}
