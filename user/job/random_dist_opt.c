// SPDX-License-Identifier: GPL-2.0
/* random_distribution parsing (job/random_dist_opt.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/option.h"
#include "job/random_dist_opt.h"

#define MISSING UINT64_MAX
#define PART_MAX 2048

/* One zone "ACCESS/SIZE": percentages, or with @absolute a size in
 * bytes; a missing part is shared out later, as fio does. */
static int parse_zone(char *entry, bool absolute, unsigned int kb_base,
		      struct zone_split *z, uint64_t *access, char *why,
		      size_t why_len)
{
	char *slash = strchr(entry, '/');
	char *end;

	*access = MISSING;
	z->size = absolute ? 0 : MISSING; /* fio: no size is 0 bytes */
	if (slash) {
		*slash = '\0';
		if (absolute ? parse_size_kb(slash + 1, kb_base, &z->size) != 0 :
			       (z->size = strtoull(slash + 1, &end, 10), *end != '\0')) {
			snprintf(why, why_len, "'%.32s' is not a zone size", slash + 1);
			return -EINVAL;
		}
		if (!absolute && !z->size)
			z->size = MISSING;
	}
	*access = strtoull(entry, &end, 10);
	if (*end || end == entry || *access > 100) {
		snprintf(why, why_len, "'%.32s' is not an access percentage", entry);
		return -EINVAL;
	}
	return 0;
}

static void share_missing(struct zone_split *z, unsigned int nr, bool sizes,
			  uint64_t total)
{
	unsigned int missing = 0;

	for (unsigned int i = 0; i < nr; i++)
		missing += (sizes ? z[i].size : z[i].access_perc) == MISSING;
	if (missing == 1 && nr == 1)
		total = 100;
	for (unsigned int i = 0; i < nr; i++) {
		if (sizes && z[i].size == MISSING)
			z[i].size = (100 - total) / missing;
		if (!sizes && z[i].access_perc == (unsigned int)MISSING)
			z[i].access_perc = (unsigned int)((100 - total) / missing);
	}
}

static int parse_zone_dir(char *part, bool absolute, unsigned int kb_base,
			  struct rand_dist_opts *out, int d, char *why,
			  size_t why_len)
{
	struct zone_split *z = out->zones[d];
	uint64_t perc = 0, sperc = 0, access;
	unsigned int nr = 0;
	char *entry;

	while ((entry = strsep(&part, ":")) && entry[0] && nr < ZONES_MAX) {
		if (parse_zone(entry, absolute, kb_base, &z[nr], &access, why, why_len))
			return -EINVAL;
		z[nr].access_perc = (unsigned int)access;
		perc += access == MISSING ? 0 : access;
		if (!absolute && z[nr].size != MISSING)
			sperc += z[nr].size;
		nr++;
	}
	if (perc > 100 || sperc > 100) {
		snprintf(why, why_len, "the zone percentages add to more than 100%%");
		return -EINVAL;
	}
	if (perc < 100) {
		snprintf(why, why_len, "the access percentages add to %llu, not 100",
			 (unsigned long long)perc);
		return -EINVAL;
	}
	share_missing(z, nr, false, perc);
	if (!absolute)
		share_missing(z, nr, true, sperc);
	out->nr[d] = nr;
	return 0;
}

static int parse_zoned(const char *spec, bool absolute, unsigned int kb_base,
		       struct rand_dist_opts *out, char *why, size_t why_len)
{
	char buf[PART_MAX], *part[DDIR_COUNT] = { buf, NULL, NULL };
	int ret = 0, d;

	if (strlen(spec) >= sizeof(buf)) {
		snprintf(why, why_len, "the value is too long");
		return -EINVAL;
	}
	strcpy(buf, spec);
	for (d = 1; d < DDIR_COUNT && (part[d] = strchr(part[d - 1], ',')); d++)
		*part[d]++ = '\0';
	if (d == DDIR_COUNT && strchr(part[d - 1], ','))
		*strchr(part[d - 1], ',') = '\0'; /* more parts than fio's three */
	for (d = 0; d < DDIR_COUNT && !ret; d++) {
		if (part[d]) {
			ret = parse_zone_dir(part[d], absolute, kb_base, out,
					     (enum ddir)d, why, why_len);
			continue;
		}
		/* fio: the last part given serves the directions after it */
		memcpy(out->zones[d], out->zones[d - 1], sizeof(out->zones[0]));
		out->nr[d] = out->nr[d - 1];
	}
	return ret;
}

/* zipf, pareto, normal and their value, checked as fio checks it. */
static int parse_skewed(const char *value, struct rand_dist_opts *out,
			char *why, size_t why_len)
{
	static const struct { const char *name; enum rand_dist kind; double def; }
	kinds[] = { { "zipf", DIST_ZIPF, 1.1 }, { "pareto", DIST_PARETO, 0.2 },
		    { "normal", DIST_NORMAL, 0.0 } };
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	char *end;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) != len || strncmp(value, kinds[i].name, len))
			continue;
		out->kind = kinds[i].kind;
		out->value = colon ? strtod(colon + 1, &end) : kinds[i].def;
		if (colon && *end == ':' && end != colon + 1) {
			/* fio's split_parse_distr: VALUE:CENTER */
			const char *c = end + 1;

			out->centered = true;
			out->center = strtod(c, &end);
			if (end == c || *end) {
				snprintf(why, why_len, "'%.32s' is not a center", c);
				return -EINVAL;
			}
		}
		if (colon && (*end || end == colon + 1)) {
			snprintf(why, why_len, "'%.32s' is not a number", colon + 1);
			return -EINVAL;
		}
		if (out->centered && (out->center < 0 || out->center > 1))
			snprintf(why, why_len, "the center must be 0 to 1");
		else if (out->kind == DIST_ZIPF && out->value == 1.0)
			snprintf(why, why_len, "zipf theta must be other than 1.0");
		else if (out->kind == DIST_PARETO && (out->value <= 0 || out->value >= 1))
			snprintf(why, why_len, "pareto h must be above 0 and below 1");
		else if (out->kind == DIST_NORMAL && (out->value < 0 || out->value >= 100))
			snprintf(why, why_len, "normal deviation must be 0 to below 100");
		else
			return 0;
		return -EINVAL;
	}
	snprintf(why, why_len, "not one of random, zipf, pareto, normal, zoned, "
		 "zoned_abs, sequence");
	return -EINVAL;
}

/* sequence:a,b,...: up to fio's 64 block indices, digits only between
 * blanks (fio refuses a sign or an empty element). */
static int parse_sequence(const char *list, struct rand_dist_opts *out,
			  char *why, size_t why_len)
{
	const char *p = list;

	out->kind = DIST_SEQUENCE;
	for (;;) {
		size_t len = strcspn(p, ","), lead = strspn(p, " \t");
		size_t digits = strspn(p + lead, "0123456789");
		unsigned long v = strtoul(p + lead, NULL, 10);

		if (!digits || lead + digits + strspn(p + lead + digits, " \t") != len ||
		    v > UINT_MAX) {
			snprintf(why, why_len, "'%.*s' is not a block index",
				 (int)(len < 32 ? len : 32), p);
			return -EINVAL;
		}
		if (out->seq_nr == SEQUENCE_MAX) {
			snprintf(why, why_len, "more than %d block indices",
				 SEQUENCE_MAX);
			return -EINVAL;
		}
		out->seq[out->seq_nr++] = (unsigned int)v;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int random_dist_parse(const char *value, unsigned int kb_base,
		      struct rand_dist_opts *out, char *why, size_t why_len)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(value, "random"))
		return 0;
	if (!strncmp(value, "zoned:", 6)) {
		out->kind = DIST_ZONED;
		return parse_zoned(value + 6, false, kb_base, out, why, why_len);
	}
	if (!strncmp(value, "zoned_abs:", 10)) {
		out->kind = DIST_ZONED_ABS;
		return parse_zoned(value + 10, true, kb_base, out, why, why_len);
	}
	if (!strncmp(value, "sequence:", 9))
		return parse_sequence(value + 9, out, why, why_len);
	return parse_skewed(value, out, why, why_len);
}
