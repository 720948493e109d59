// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's show_block_infos and the "block" object of its JSON
 * (stat.c), from the blocks a worker kept (workload/block_life.h).
 */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "report/percentiles.h"
#include "report/report_block_life.h"

#define LINE_LENGTH 75 /* fio's wrap of the percentile line */

void report_block_life_text(FILE *out, const struct block_life *bl,
			    const struct job *job)
{
	uint32_t trims[JOB_PERCENTILES_MAX], counts[BLOCK_STATES];
	struct pct_list pl;
	unsigned int n, pos = 0;

	if (!bl->nr)
		return;
	pct_list_of(job, &pl);
	n = block_life_percentiles(bl, pl.v, pl.n, trims, counts);
	fputs("  block lifetime percentiles :\n   |", out);
	for (unsigned int i = 0; i < n; i++) {
		char s[LINE_LENGTH];
		int len = snprintf(s, sizeof(s), " %3.2fth=%u%c", pl.v[i], trims[i],
				   i == n - 1 ? '\n' : ',');

		if (pos + (unsigned int)len > LINE_LENGTH) {
			pos = 0;
			fputs("\n   |", out);
		}
		fputs(s, out);
		pos += (unsigned int)len;
	}
	fputs("        states               :", out);
	for (unsigned int st = 0; st < BLOCK_STATES; st++)
		fprintf(out, " %s=%u%c", block_state_names[st], counts[st],
			st == BLOCK_STATES - 1 ? '\n' : ',');
}

/* Adds @val as @key; counts a failure in @bad. */
static void put(struct json_object *o, const char *key, struct json_object *val,
		int *bad)
{
	if (!o || !val || json_object_object_add(o, key, val)) {
		json_object_put(val);
		(*bad)++;
	}
}

int report_block_life_json(struct json_object *parent, const struct block_life *bl,
			   const struct job *job)
{
	uint32_t trims[JOB_PERCENTILES_MAX], counts[BLOCK_STATES];
	struct json_object *block, *pcts, *states;
	struct pct_list pl;
	unsigned int n;
	int bad = 0;

	if (!bl->nr)
		return 0;
	pct_list_of(job, &pl);
	n = block_life_percentiles(bl, pl.v, pl.n, trims, counts);
	if (!n)
		return 0;
	block = json_object_new_object();
	pcts = json_object_new_object();
	states = json_object_new_object();
	for (unsigned int i = 0; i < n; i++) {
		char key[32];

		snprintf(key, sizeof(key), "%f", pl.v[i]);
		put(pcts, key, json_object_new_int64(trims[i]), &bad);
	}
	for (unsigned int st = 0; st < BLOCK_STATES; st++)
		put(states, block_state_names[st], json_object_new_int64(counts[st]), &bad);
	put(block, "percentiles", pcts, &bad);
	put(block, "states", states, &bad);
	put(parent, "block", block, &bad);
	return bad ? -ENOMEM : 0;
}
