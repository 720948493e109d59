// SPDX-License-Identifier: GPL-2.0
/* The figure set: figures in the order their owners put them, found by key. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/mem.h"
#include "probes/figures.h"

static const char *const better_names[] = {
	[FIGURE_NO_DIRECTION] = "none",
	[FIGURE_HIGHER] = "higher",
	[FIGURE_LOWER] = "lower",
};

const char *figure_better_name(enum figure_better b)
{
	return (unsigned int)b < sizeof(better_names) / sizeof(better_names[0]) ?
	       better_names[b] : "none";
}

int figure_better_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(better_names) / sizeof(better_names[0]); i++)
		if (name && !strcmp(name, better_names[i]))
			return (int)i;
	return -1;
}

const struct figure *figure_find(const struct figure_set *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].key, key))
			return &s->v[i];
	return NULL;
}

/* Takes @key (allocated) in every case. */
static void put_key(struct figure_set *s, const struct figure_def *def, char *key,
		    double value)
{
	struct figure *f, *v;

	if (!key) {
		s->err = -ENOMEM;
		return;
	}
	f = (struct figure *)figure_find(s, key);
	if (f) {
		f->value = value;
		free(key);
		return;
	}
	v = grow_for_one(s->v, &s->cap, s->n, sizeof(*v), 64);
	if (!v) {
		s->err = -ENOMEM;
		free(key);
		return;
	}
	s->v = v;
	s->v[s->n++] = (struct figure){ .def = def, .key = key, .value = value };
}

void figure_put_key(struct figure_set *s, const struct figure_def *def, const char *key,
		    double value)
{
	char *full = NULL;

	if (!isfinite(value))
		return;
	if (asprintf(&full, "%s%s", s->prefix, key) < 0)
		full = NULL;
	put_key(s, def, full, value);
}

void figure_put(struct figure_set *s, const struct figure_def *def, double value)
{
	figure_put_key(s, def, def->key, value);
}

void figure_put_fn(struct figure_set *s, const struct figure_def *def,
		   const char *function, double value)
{
	const char *star = strchr(def->key, '*');
	char *key = NULL;

	if (!isfinite(value) || !star)
		return;
	if (asprintf(&key, "%s%.*s%s%s", s->prefix, (int)(star - def->key), def->key,
		     function, star + 1) < 0)
		key = NULL;
	put_key(s, def, key, value);
}

void figure_put_fn_per_io(struct figure_set *s, const struct figure_def defs[2],
			  const char *function, uint64_t calls, uint64_t ns,
			  uint64_t ios)
{
	figure_put_fn(s, &defs[0], function, figure_ratio((double)calls, (double)ios));
	figure_put_fn(s, &defs[1], function, figure_ratio((double)ns, (double)ios));
}

void figure_put_stack(struct figure_set *s, enum figure_stack_kind kind,
		      const char *stack, uint64_t count)
{
	char *copy = strdup(stack);
	struct figure_stack *stacks = NULL;

	if (copy)
		stacks = grow_for_one(s->stacks, &s->cap_stacks, s->nr_stacks,
				      sizeof(*stacks), 32);
	if (!stacks) {
		free(copy);
		s->err = -ENOMEM;
		return;
	}
	s->stacks = stacks;
	s->stacks[s->nr_stacks++] = (struct figure_stack){ kind, copy, count };
}

double figure_ratio(double part, double whole)
{
	return whole > 0 ? part / whole : 0.0;
}

/* Insertion sort: stable, and the sets are a few hundred figures. */
void figure_set_sort(struct figure_set *s, size_t from)
{
	for (size_t i = from + 1; i < s->n; i++) {
		struct figure f = s->v[i];
		size_t j = i;

		while (j > from && (s->v[j - 1].def->kind > f.def->kind ||
				    (s->v[j - 1].def->kind == f.def->kind &&
				     s->v[j - 1].def->rank > f.def->rank))) {
			s->v[j] = s->v[j - 1];
			j--;
		}
		s->v[j] = f;
	}
}

void figure_set_free(struct figure_set *s)
{
	if (!s)
		return;
	FREE_EACH(s->v, s->n, key);
	FREE_EACH(s->stacks, s->nr_stacks, stack);
	memset(s, 0, sizeof(*s));
}

const char *figure_base_key(const char *key, int *group)
{
	const char *p = key;
	long id = 0;

	*group = -1;
	if (*p++ != 'g' || *p < '0' || *p > '9')
		return key;
	while (*p >= '0' && *p <= '9' && id < 1000000)
		id = id * 10 + (*p++ - '0');
	if (*p != '/')
		return key;
	*group = (int)id;
	return p + 1;
}

int figure_split_fn(const char *key, char *role, size_t role_size,
		    char *name, size_t name_size, char *measure, size_t measure_size)
{
	const char *a, *b, *c;

	if (strncmp(key, "fn|", 3))
		return -1;
	a = key + 3;
	b = strchr(a, '|');
	c = b ? strrchr(b + 1, '|') : NULL;
	if (!b || !c)
		return -1;
	snprintf(role, role_size, "%.*s", (int)(b - a), a);
	snprintf(name, name_size, "%.*s", (int)(c - b - 1), b + 1);
	snprintf(measure, measure_size, "%s", c + 1);
	return 0;
}
