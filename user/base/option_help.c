// SPDX-License-Identifier: GPL-2.0
/*
 * The option machinery's output: the echo of a stored value as fio
 * spells it, the description and --help lines of an option, and the
 * distance that finds the option a misspelt name meant.  The setters are
 * base/option.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/option.h"

static const void *cfield_of(const void *base, const struct opt_desc *o)
{
	return (const char *)base + o->offset;
}

static uint64_t load_uint(const void *p, size_t size)
{
	uint64_t v = 0;
	unsigned int u;

	if (size == sizeof(uint64_t)) {
		memcpy(&v, p, sizeof(v));
	} else if (size == sizeof(unsigned int)) {
		memcpy(&u, p, sizeof(u));
		v = u;
	}
	return v;
}

static void format_time(uint64_t ns, uint64_t unit_ns, char *buf, size_t len)
{
	if (unit_ns && ns % unit_ns == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(ns / unit_ns));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000));
}

/* A filename list ("a\0b\0\0") as fio writes it, "a:b". */
static void join_file_list(const char *list, size_t size, char *buf,
			   size_t len)
{
	size_t n = strlen(buf);

	for (size_t i = n + 1; i < size && list[i] && n + 1 < len; i++) {
		buf[n++] = ':';
		for (; i < size && list[i] && n + 1 < len; i++)
			buf[n++] = list[i];
	}
	if (len)
		buf[n < len ? n : len - 1] = '\0';
}

void opt_format(const void *base, const struct opt_desc *o, char *buf,
		size_t len)
{
	const void *p = cfield_of(base, o);
	uint64_t v = 0;

	if (o->type != OPT_STR && o->type != OPT_BOOL)
		v = load_uint(p, o->field_size);
	if (len)
		buf[0] = '\0';
	switch (o->type) {
	case OPT_STR:
		snprintf(buf, len, "%.*s", (int)o->field_size, (const char *)p);
		if (o->flags & OPT_FILENAME)
			join_file_list(p, o->field_size, buf, len);
		break;
	case OPT_BOOL:
		snprintf(buf, len, "%d", *(const bool *)p ^
			 !!(o->flags & OPT_NEGATE));
		break;
	case OPT_SIZE:
	case OPT_UINT:
		if (o->flags & OPT_NEGATE)
			v = o->max - v;
		snprintf(buf, len, "%llu", (unsigned long long)v);
		break;
	case OPT_TIME:
		format_time(v, o->unit_ns, buf, len);
		break;
	case OPT_ENUM:
		for (const struct opt_value *e = o->values; e->name; e++) {
			if (!e->unsupported && (uint64_t)e->value == v) {
				snprintf(buf, len, "%s", e->name);
				break;
			}
		}
		break;
	case OPT_CUSTOM:
		break;
	}
}

size_t opt_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0], cost;

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];

			cost = diag + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < cost)
				cost = row[j] + 1;
			if (row[j - 1] + 1 < cost)
				cost = row[j - 1] + 1;
			row[j] = cost;
			diag = up;
		}
	}
	return row[lb];
}

static const char *type_hint(const struct opt_desc *o)
{
	switch (o->type) {
	case OPT_STR:    return "STR";
	case OPT_SIZE:   return "SIZE";
	case OPT_UINT:   return "INT";
	case OPT_BOOL:   return "BOOL";
	case OPT_TIME:   return "TIME";
	case OPT_ENUM:   return "WORD";
	case OPT_CUSTOM: return o->hint ? o->hint : "VALUE";
	}
	return "?";
}

void opt_describe(const struct opt_desc *o, struct opt_doc *d)
{
	size_t len = 0;

	*d = (struct opt_doc){
		.name = o->name, .alias = o->alias, .arg = type_hint(o),
		.help = o->help, .def = o->def, .min = o->min, .max = o->max,
		.has_range = o->type == OPT_UINT && o->max != UINT64_MAX,
	};
	if (o->values_list)
		snprintf(d->values, sizeof(d->values), "%s", o->values_list());
	for (const struct opt_value *v = o->values; v && v->name; v++) {
		if (!v->unsupported && len < sizeof(d->values))
			len += (size_t)snprintf(d->values + len, sizeof(d->values) - len,
						"%s%s", len ? ", " : "", v->name);
	}
}

/* The second line: default, alias, range, values. */
static void print_details(FILE *out, const struct opt_desc *o)
{
	const char *sep = "";

	fprintf(out, "  %-30s   ", "");
	if (o->def) {
		fprintf(out, "default %s", o->def);
		sep = "; ";
	}
	if (o->alias) {
		fprintf(out, "%salias %s", sep, o->alias);
		sep = "; ";
	}
	if (o->type == OPT_UINT && o->max != UINT64_MAX) {
		fprintf(out, "%srange %llu-%llu", sep,
			(unsigned long long)o->min, (unsigned long long)o->max);
		sep = "; ";
	}
	if (o->values_list)
		fprintf(out, "%svalues %s", sep, o->values_list());
	if (o->values) {
		fprintf(out, "%svalues", sep);
		for (const struct opt_value *v = o->values; v->name; v++) {
			if (!v->unsupported)
				fprintf(out, " %s", v->name);
		}
	}
	fputc('\n', out);
}

void opt_print_help(FILE *out, const struct opt_desc *table)
{
	for (const struct opt_desc *o = table; o && o->name; o++) {
		char key[64];

		snprintf(key, sizeof(key), "%s=%s", o->name, type_hint(o));
		fprintf(out, "  %-30s %s\n", key, o->help);
		if (o->alias || o->def || o->values || o->values_list)
			print_details(out, o);
	}
}
