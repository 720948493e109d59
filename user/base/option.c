// SPDX-License-Identifier: GPL-2.0
/*
 * The option machinery: the per-type setters that store into a table's
 * storage by offset, and defaults.  Values are read by
 * base/option_parse.c (fio's units); the echo of a value and the --help
 * lines are base/option_help.c.  Names, units and defaults follow fio.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/option_internal.h"

/* Values echoed in messages are cut: a fuzzed 8 KiB value helps nobody. */
#define VAL "'%.64s'"

const struct opt_desc *opt_find(const struct opt_desc *table, const char *key)
{
	for (const struct opt_desc *o = table; o && o->name; o++) {
		if (!strcmp(o->name, key) || (o->alias && !strcmp(o->alias, key)))
			return o;
	}
	return NULL;
}

static void *field_of(void *base, const struct opt_desc *o)
{
	return (char *)base + o->offset;
}

static int store_uint(void *p, size_t size, uint64_t v)
{
	if (size == sizeof(uint64_t)) {
		memcpy(p, &v, sizeof(uint64_t));
		return 0;
	}
	if (size == sizeof(unsigned int) && v <= UINT_MAX) {
		unsigned int u = (unsigned int)v;

		memcpy(p, &u, sizeof(u));
		return 0;
	}
	return -ERANGE;
}

/* What fio 3.33 makes of a value parse_size_fio or parse_time_fio
 * refused with -EILSEQ: its leading number, the rest ignored. */
static void fio_misreading(const char *value, bool time, char *buf,
			   size_t len)
{
	bool hex = strstr(value, "0x") || strstr(value, "0X");
	char *rest;
	long long v = strtoll(value, &rest, hex ? 16 : 10);

	if (time && (hex || isalpha((unsigned char)*rest)))
		snprintf(buf, len, "fio 3.33 reads it as %lld microseconds "
			 "(its units: us, ms, s, m, h, d)", v);
	else
		snprintf(buf, len, "fio 3.33 reads it as %lld%s, ignoring "
			 "'%.16s'", v, time ? " (in the option's unit)" : "",
			 rest);
}

int opt_value_error(const char *where, const char *key, const char *value,
		    int ret, bool time, struct errbuf *err)
{
	const char *why = time ? "is not a time (a whole number with an "
				 "optional us, ms, s, m, h or d suffix)"
			       : "is not a size (a number with an optional "
				 "k, m, g, t or p suffix)";
	char misread[128];

	if (ret == -ERANGE)
		why = time ? "is too long" : "is too large";
	else if (value[0] == '-')
		why = "is negative";
	else if (ret == -EILSEQ) {
		fio_misreading(value, time, misread, sizeof(misread));
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not "
			       "%s: %s", where, key, value,
			       time ? "a time" : "a size", misread);
	} else if (ret == -EDOM || strchr(value, '%'))
		why = "is a percentage, which iodig does not take for this "
		      "option";
	else if (strpbrk(value, ",:-/"))
		why = "holds several values (fio 3.33 splits it at ',', ':' "
		      "or '-' and keeps one of them); give one";
	return err_set(err, ret == -ERANGE ? ERANGE : EINVAL,
		       "%s: option '%s': " VAL " %s", where, key, value, why);
}

int opt_size_error(const char *where, const char *key, const char *value,
		   int ret, struct errbuf *err)
{
	return opt_value_error(where, key, value, ret, false, err);
}

/*
 * fio 3.33's handle_option on a value per direction (bs=, rate=): its
 * parts end at its first ',', or when it has none at its first ':' or
 * '-', and so on from each part's end; each part is read as a size (a
 * time with the row's unit_ns) up to its own next separator, so of
 * "4k-8k,16k" reads take 4k and writes 16k, and "4k-16k" is 4k,16k.  A
 * trailing comma ends the list with an empty part, which keeps its
 * direction.  @joined gets "R,W[,T]" in the parts' own text.  A negative
 * part, which fio stores as a huge number, is refused, as is a fourth
 * part, which fio ignores.
 */
int opt_fio_dir_parts(const struct opt_desc *o, const char *value,
		      unsigned int kb_base, char *joined, size_t len,
		      const char *where, struct errbuf *err)
{
	const char *p = value;
	size_t used = 0;
	int n = 0;

	if (value[0] == '-' || strstr(value, ",-") || strstr(value, ":-") ||
	    strstr(value, "--"))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is "
			       "negative", where, o->name, value);
	for (;;) {
		const char *sep = strchr(p, ','), *end = p;
		uint64_t v;
		int ret = 0;

		if (!sep)
			sep = strchr(p, ':');
		if (!sep)
			sep = strchr(p, '-');
		if (n == 3)
			return err_set(err, EINVAL, "%s: option '%s': " VAL " has "
				       "more than three (read, write, trim) "
				       "parts (fio 3.33 ignores the fourth)",
				       where, o->name, value);
		if (*p && !fio_separator(*p))
			ret = o->unit_ns ? parse_time_fio(p, o->unit_ns, &v, &end)
					 : parse_size_fio(p, kb_base, &v, &end);
		if (ret && ret != -ERANGE)
			return opt_value_error(where, o->name, p, ret,
					       o->unit_ns != 0, err);
		if (ret)
			end = p + strcspn(p, ",:-/");
		if (used + (size_t)(end - p) + 2 > len)
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is "
				       "too long", where, o->name, value);
		used += (size_t)snprintf(joined + used, len - used, "%s%.*s",
					 n ? "," : "", (int)(end - p), p);
		n++;
		if (!sep)
			return 0;
		p = sep + 1;
	}
}

/* OPT_FILENAME: fio's "a:b:c" is stored as "a\0b\0c\0\0", so the field
 * read as a string is the first file; '\:' is a literal colon and empty
 * names ("a::b") are skipped. */
static int set_str(void *base, const struct opt_desc *o, const char *value,
		   const char *where, struct errbuf *err)
{
	char *dst = field_of(base, o);
	bool list = o->flags & OPT_FILENAME;
	size_t n = 0;

	for (const char *p = value; *p; p++) {
		char c = *p;

		if (list && c == '\\' && p[1] == ':') {
			c = ':';
			p++;
		} else if (list && c == ':') {
			c = '\0';
			if (!n || !dst[n - 1])
				continue;
		}
		if (n + 1 + list >= o->field_size)
			return err_set(err, ENAMETOOLONG,
				       "%s: option '%s': value is longer than "
				       "%zu bytes", where, o->name,
				       o->field_size - 1 - list);
		dst[n++] = c;
	}
	dst[n] = '\0';
	if (list && n)
		dst[n + 1] = '\0';
	return 0;
}

static int set_enum(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	char allowed[256] = "";
	size_t used = 0;

	for (const struct opt_value *v = o->values; v->name; v++) {
		if (strcmp(v->name, value))
			continue;
		if (v->unsupported)
			return err_set(err, ENOTSUP, "%s: option '%s': " VAL
				       " is not supported (%s)", where,
				       o->name, value, v->unsupported);
		return store_uint(field_of(base, o), o->field_size,
				  (uint64_t)v->value);
	}
	/* fio matches a word up to a ':' and, unless the option reads
	 * what follows (rw=randread:8), drops the rest */
	for (const struct opt_value *v = o->values; v->name; v++) {
		size_t len = strlen(v->name);

		if (!strncmp(v->name, value, len) && value[len] == ':')
			return err_set(err, EINVAL, "%s: option '%s': " VAL
				       ": '%s' takes nothing after a ':' "
				       "(fio 3.33 ignores '%.32s')", where,
				       o->name, value, v->name, value + len);
	}
	for (const struct opt_value *v = o->values; v->name; v++) {
		if (!v->unsupported && used < sizeof(allowed))
			used += snprintf(allowed + used, sizeof(allowed) - used,
					 "%s%s", used ? ", " : "", v->name);
	}
	return err_set(err, EINVAL, "%s: option '%s': " VAL " is not one of "
		       "%s", where, o->name, value, allowed);
}

/* fio reads an integer option as a size (check_str_bytes): "1k" is
 * 1024 and "0x10" 16, in the job's kb_base. */
static int set_uint(void *base, const struct opt_desc *o, const char *value,
		    unsigned int kb_base, const char *where, struct errbuf *err)
{
	uint64_t v;
	int ret = parse_size_kb(value, kb_base, &v);

	if (ret == -EINVAL && value[0] != '-' && !strpbrk(value, ",:-/"))
		return err_set(err, EINVAL, "%s: option '%s': " VAL
			       " is not a whole number", where, o->name, value);
	if (ret == -EILSEQ && strchr(value, '.'))
		return err_set(err, EINVAL, "%s: option '%s': " VAL
			       " is not a whole number (fio 3.33 reads it as "
			       "%lld)", where, o->name, value,
			       strtoll(value, NULL, 10));
	if (ret && ret != -ERANGE)
		return opt_value_error(where, o->name, value, ret, false, err);
	if (ret || v < o->min || v > o->max)
		return err_set(err, ERANGE, "%s: option '%s': %.64s is out of "
			       "range %llu-%llu", where, o->name, value,
			       (unsigned long long)o->min,
			       (unsigned long long)o->max);
	if (o->flags & OPT_NEGATE)
		v = o->max - v;
	return store_uint(field_of(base, o), o->field_size, v);
}

/*
 * A boolean as fio 3.33's check_int reads one: a number, 0x for hex.  A
 * plain fio boolean is 0 or 1; one that fio also takes bare (OPT_BARE,
 * its FIO_OPT_STR_SET: time_based) is any number, on when not 0.  fio
 * refuses words (true, yes, on), so iodig does too.
 */
int opt_read_bool(const struct opt_desc *o, const char *value, bool *out,
		  const char *where, struct errbuf *err)
{
	bool hex = value && (strstr(value, "0x") || strstr(value, "0X"));
	const char *end;
	uint64_t v = 1;

	if (!value && !(o->flags & OPT_BARE))
		return err_set(err, EINVAL, "%s: option '%s' needs a value, "
			       "0 or 1 (fio 3.33 refuses it bare)", where,
			       o->name);
	if (value && (value[0] == '-' || strpbrk(value, ",:-/")))
		return opt_value_error(where, o->name, value, -EINVAL, false,
				       err);
	if (value && (parse_digits(value, hex, &v, &end) || *end ||
		      (!(o->flags & OPT_BARE) && v > 1)))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not "
			       "%s", where, o->name, value,
			       o->flags & OPT_BARE ? "a number (0 is off, "
			       "any other on; fio 3.33 takes no words)" :
			       "0 or 1 (fio 3.33 takes no words)");
	*out = v != 0;
	return 0;
}

static int set_bool(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	bool b;
	int ret = opt_read_bool(o, value, &b, where, err);

	if (!ret)
		*(bool *)field_of(base, o) = (o->flags & OPT_NEGATE) ? !b : b;
	return ret;
}

/* fio's 'Nz': a whole number of zones, only where OPT_ZONES allows it;
 * 1 when @value is not of that shape. */
static int set_zone_count(void *base, const struct opt_desc *o,
			  const char *value, const char *where,
			  struct errbuf *err)
{
	size_t len = strlen(value);
	const char *end;
	uint64_t n;

	if (!len || tolower((unsigned char)value[len - 1]) != 'z')
		return 1;
	if (!(o->flags & OPT_ZONES))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " counts "
			       "zones, which only size, io_size, offset, "
			       "offset_increment and zoneskip take", where,
			       o->name, value);
	if (parse_digits(value, false, &n, &end) || end != value + len - 1)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not "
			       "a whole number of zones", where, o->name, value);
	memcpy((char *)base + o->zones_offset, &n, sizeof(n));
	return store_uint(field_of(base, o), o->field_size, 0);
}

static int set_size(void *base, const struct opt_desc *o, const char *value,
		    unsigned int kb_base, const char *where, struct errbuf *err)
{
	static const uint64_t no_zones;
	uint64_t v;
	int ret = set_zone_count(base, o, value, where, err);

	if (ret <= 0)
		return ret;
	ret = parse_size_kb(value, kb_base, &v);
	if (ret)
		return opt_value_error(where, o->name, value, ret, false, err);
	/* fio's minval; a row's default (verify_interval's 0: unset) is
	 * not an explicit value, which fio checks */
	if (v < o->min && strcmp(where, "default"))
		return err_set(err, ERANGE, "%s: option '%s': %.64s is below "
			       "%llu, fio 3.33's minimum", where, o->name,
			       value, (unsigned long long)o->min);
	if (o->flags & OPT_ZONES)
		memcpy((char *)base + o->zones_offset, &no_zones,
		       sizeof(no_zones));
	return store_uint(field_of(base, o), o->field_size, v);
}

static int set_typed(void *base, const struct opt_desc *o, const char *value,
		     unsigned int kb_base, const char *where, struct errbuf *err)
{
	const char *comma = strchr(value, ','), *end;
	char one[160];
	uint64_t v;
	int ret;

	/* fio drops a number's comma when it is the value's last character
	 * and its first ("iodepth=4,") */
	if (comma && !comma[1] && comma != value && o->type != OPT_STR &&
	    o->type != OPT_ENUM && (size_t)(comma - value) < sizeof(one)) {
		snprintf(one, sizeof(one), "%.*s", (int)(comma - value), value);
		value = one;
	}
	switch (o->type) {
	case OPT_STR:
		return set_str(base, o, value, where, err);
	case OPT_SIZE:
		return set_size(base, o, value, kb_base, where, err);
	case OPT_TIME:
		ret = parse_time_fio(value, o->unit_ns, &v, &end);
		if (!ret && *end)
			ret = -EINVAL;
		if (ret)
			return opt_value_error(where, o->name, value, ret, true,
					       err);
		return store_uint(field_of(base, o), o->field_size, v);
	case OPT_UINT:
		return set_uint(base, o, value, kb_base, where, err);
	case OPT_BOOL:
		return set_bool(base, o, value, where, err);
	case OPT_ENUM:
		return set_enum(base, o, value, where, err);
	case OPT_CUSTOM:
		break;
	}
	return err_set(err, EINVAL, "%s: option '%s' has no parser", where,
		       o->name);
}

int opt_set_typed(void *base, const struct opt_desc *o, const char *value,
		  const char *where, struct errbuf *err)
{
	return set_typed(base, o, value, KB_BASE_DEFAULT, where, err);
}

static int set_value(void *base, const struct opt_desc *o, const char *value,
		     unsigned int kb_base, const char *where,
		     struct errbuf *err)
{
	if (o->set)
		return o->set(base, o, value, where, err);
	return set_typed(base, o, value, kb_base, where, err);
}

int opt_set(void *base, const struct opt_desc *o, const char *value,
	    const char *where, struct errbuf *err)
{
	return opt_set_kb(base, o, value, KB_BASE_DEFAULT, where, err);
}

static bool reads_number(const struct opt_desc *o)
{
	return o->type == OPT_SIZE || o->type == OPT_UINT ||
	       o->type == OPT_TIME || o->type == OPT_BOOL ||
	       (o->flags & OPT_NUMBER);
}

/*
 * fio 3.33 keeps the blanks between '=' and a value.  Its number readers
 * skip them but then look for the unit right after the digits' start, so
 * "bs= 8k" is 8 bytes and "runtime= 2m" 2 seconds; its word options
 * ("rw= read") match nothing.  A value read the same without them is
 * taken without them.
 */
static int opt_set_stripped(void *base, const struct opt_desc *o,
			    const char *value, unsigned int kb_base,
			    const char *where, struct errbuf *err);

static int leading_blank(const struct opt_desc *o, const char *value,
			 const char *where, struct errbuf *err)
{
	const char *v = value;
	bool number = reads_number(o) && o->type != OPT_BOOL;

	while (isspace((unsigned char)*v))
		v++;
	if (o->type == OPT_ENUM)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " starts "
			       "with a blank, which fio 3.33 refuses", where,
			       o->name, value);
	for (const char *c = v; number && *c; c++)
		if (isalpha((unsigned char)*c) || *c == '%')
			return err_set(err, EINVAL, "%s: option '%s': " VAL
				       " starts with a blank: fio 3.33 then "
				       "ignores its unit (reads it as %lld); "
				       "write it without", where, o->name,
				       value, strtoll(v, NULL, 10));
	return 0;
}

/*
 * fio 3.33's job files end a line at ';' or '#' only, so in
 * "direct=0 // note" the option gets "0 // note"; its number readers
 * stop at the blank and read 0.  A number option's value followed by
 * blanks and "//" is cut there into @buf, as fio reads it; a word or
 * path keeps the text (fio's filename= does, its rw= refuses it).
 */
static const char *cut_slash_comment(const struct opt_desc *o,
				     const char *value, char *buf, size_t len)
{
	const char *c = value ? strstr(value, "//") : NULL;
	const char *end = c;

	if (!c || !reads_number(o))
		return value;
	while (end > value && isblank((unsigned char)end[-1]))
		end--;
	if (end == c || end == value || (size_t)(end - value) >= len)
		return value;
	snprintf(buf, len, "%.*s", (int)(end - value), value);
	return buf;
}

int opt_set_kb(void *base, const struct opt_desc *o, const char *value,
	       unsigned int kb_base, const char *where, struct errbuf *err)
{
	char cut[160];

	value = cut_slash_comment(o, value, cut, sizeof(cut));
	if (value && isspace((unsigned char)value[0])) {
		int ret = leading_blank(o, value, where, err);

		if (ret)
			return ret;
		while (isspace((unsigned char)*value))
			value++;
	}
	return opt_set_stripped(base, o, value, kb_base, where, err);
}

static int opt_set_stripped(void *base, const struct opt_desc *o,
			    const char *value, unsigned int kb_base,
			    const char *where, struct errbuf *err)
{
	if (!value && o->type == OPT_BOOL && !o->set)
		return set_bool(base, o, value, where, err);
	if (!value && o->type != OPT_BOOL)
		return err_set(err, EINVAL, "%s: option '%s' needs a value",
			       where, o->name);
	if (value && !value[0]) {
		if (!(o->flags & OPT_EMPTY_OK))
			return err_set(err, EINVAL, "%s: option '%s' needs a "
				       "value", where, o->name);
		if (o->set) /* the row says what fio makes of "" */
			return o->set(base, o, value, where, err);
		*(char *)field_of(base, o) = '\0';
		return 0;
	}
	return set_value(base, o, value, kb_base, where, err);
}

void opt_set_defaults(void *base, const struct opt_desc *table)
{
	for (const struct opt_desc *o = table; o && o->name; o++) {
		if (o->def)
			set_value(base, o, o->def, KB_BASE_DEFAULT, "default",
				  NULL);
	}
}

int opt_refuse(void *base, const struct opt_desc *o, const char *value,
	       const char *where, struct errbuf *err)
{
	(void)base;
	(void)value;
	return err_set(err, ENOTSUP, "%s: option '%s' is not supported: %s",
		       where, o->name, o->hint);
}

int opt_set_uint_pair(void *base, const struct opt_desc *o, const char *value,
		      const char *where, struct errbuf *err)
{
	unsigned int *field = (unsigned int *)((char *)base + o->offset);
	unsigned long v[2];
	const char *p = value;
	char *end;

	for (int d = 0; d < 2; d++) {
		v[d] = strtoul(p, &end, 10);
		if (end == p || v[d] < o->min || v[d] > o->max ||
		    (*end && *end != ','))
			return err_set(err, EINVAL, "%s: option '%s': " VAL " is "
				       "not a number %llu-%llu (or two: "
				       "reads,writes)", where, o->name, value,
				       (unsigned long long)o->min,
				       (unsigned long long)o->max);
		if (!*end) {
			if (!d)
				v[1] = v[0];
			break;
		}
		p = end + 1;
	}
	for (int d = 0; d < 2; d++)
		field[d] = (unsigned int)v[d];
	return 0;
}
