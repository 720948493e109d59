// SPDX-License-Identifier: GPL-2.0
/*
 * bssplit parsing, after fio 3.33's bssplit_ddir and split_parse_ddir:
 * the unsigned arithmetic of the percentages is fio's, so a job file
 * whose percentages add to more than 100 means here what it means there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/option.h"
#include "job/bssplit.h"
#include "job/options.h"

#define PERC_MISSING (-1U)
#define PART_MAX 4096
/* fio's limit on a block size (its bs option's maximum). */

static int parse_entry(char *entry, unsigned int kb_base,
		       struct bssplit_entry *e, char *why, size_t why_len)
{
	char *slash = strchr(entry, '/');
	uint64_t bs;
	long perc;

	e->perc = PERC_MISSING;
	if (slash) {
		*slash = '\0';
		/* fio: atoi into an unsigned, so over 100 and negative are
		 * 100; 0 is no percentage */
		perc = atol(slash + 1);
		if (perc > 100 || perc < 0)
			perc = 100;
		e->perc = perc ? (unsigned int)perc : PERC_MISSING;
	}
	if (parse_size_kb(entry, kb_base, &bs) || !bs || bs > JOB_BS_MAX) {
		snprintf(why, why_len, "'%.32s' is not a block size of 1 byte to "
			 "1 GiB", entry);
		return -EINVAL;
	}
	e->bs = (uint32_t)bs;
	return 0;
}

static int cmp_perc(const void *a, const void *b)
{
	const struct bssplit_entry *x = a, *y = b;

	return (int)x->perc - (int)y->perc; /* fio's bs_cmp */
}

/* fio: the percentages given are summed; sizes without one share what
 * is left of 100 equally. */
static int fill_missing(struct bssplit *s, char *why, size_t why_len)
{
	unsigned int perc = 0, missing = 0;

	for (unsigned int i = 0; i < s->nr; i++) {
		if (s->e[i].perc == PERC_MISSING)
			missing++;
		else
			perc += s->e[i].perc;
	}
	if (perc > 100 && missing > 1) {
		snprintf(why, why_len, "the percentages add to more than 100%%");
		return -EINVAL;
	}
	if (missing == 1 && s->nr == 1)
		perc = 100;
	for (unsigned int i = 0; missing && i < s->nr; i++)
		if (s->e[i].perc == PERC_MISSING)
			s->e[i].perc = (100 - perc) / missing;
	qsort(s->e, s->nr, sizeof(s->e[0]), cmp_perc);
	return 0;
}

/* One direction's "4k/10:64k/90"; fio stops at an empty entry and at
 * its 64th. */
static int parse_dir(char *part, unsigned int kb_base, struct bssplit *s,
		     char *why, size_t why_len)
{
	char *entry;
	int ret;

	memset(s, 0, sizeof(*s));
	while ((entry = strsep(&part, ":")) && entry[0] && s->nr < BSSPLIT_MAX) {
		ret = parse_entry(entry, kb_base, &s->e[s->nr], why, why_len);
		if (ret)
			return ret;
		s->nr++;
	}
	if (!s->nr) {
		snprintf(why, why_len, "a direction has no block size");
		return -EINVAL;
	}
	return fill_missing(s, why, why_len);
}

int bssplit_parse(const char *value, unsigned int kb_base,
		  struct bssplit out[DDIR_COUNT], char *why, size_t why_len)
{
	char buf[PART_MAX], *parts[3] = { buf, NULL, NULL };
	int ret;

	if (strlen(value) >= sizeof(buf)) {
		snprintf(why, why_len, "the value is too long");
		return -EINVAL;
	}
	strcpy(buf, value);
	for (int i = 1; i < 3; i++) {
		parts[i] = parts[i - 1] ? strchr(parts[i - 1], ',') : NULL;
		if (parts[i])
			*parts[i]++ = '\0';
	}
	if (parts[2] && strchr(parts[2], ',')) {
		snprintf(why, why_len, "it has more than three (read, write, "
			 "trim) parts");
		return -EINVAL;
	}
	ret = parse_dir(buf, kb_base, &out[DDIR_READ], why, why_len);
	if (!ret && parts[1])
		ret = parse_dir(parts[1], kb_base, &out[DDIR_WRITE], why, why_len);
	else if (!ret)
		out[DDIR_WRITE] = out[DDIR_READ];
	/* fio: trims take the third part, else the writes' */
	if (!ret && parts[2])
		ret = parse_dir(parts[2], kb_base, &out[DDIR_TRIM], why, why_len);
	else if (!ret)
		out[DDIR_TRIM] = out[DDIR_WRITE];
	return ret;
}

void bssplit_range(const struct bssplit *s, uint32_t *min, uint32_t *max)
{
	*min = UINT32_MAX;
	*max = 0;
	for (unsigned int i = 0; i < s->nr; i++) {
		if (s->e[i].bs < *min)
			*min = s->e[i].bs;
		if (s->e[i].bs > *max)
			*max = s->e[i].bs;
	}
}
