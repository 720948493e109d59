/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option descriptors and the value parsers behind them: one machinery for
 * the job option table (job/options.c) and for each engine's own options
 * (workload/engines/<name>.c).  A table describes fields of one storage (a
 * struct job, an engine's options struct) by offset, as fio's fio_option
 * describes thread_options or an engine's td->eo.
 */
#ifndef IODIG_OPTION_H
#define IODIG_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/errbuf.h"

enum opt_type {
	OPT_STR,     /* copied into a char array */
	OPT_SIZE,    /* uint64_t bytes, fio size suffixes */
	OPT_UINT,    /* unsigned int or uint64_t, decimal or 0x hex */
	OPT_BOOL,    /* bool; a bare key means true */
	OPT_TIME,    /* uint64_t ns; a bare number is in unit_ns */
	OPT_ENUM,    /* one of values[] */
	OPT_CUSTOM,  /* parsed and stored by the descriptor's set() */
};

/* bool stored inverted (buffered -> direct); percent stored as 100 - N
 * (rwmixwrite -> rwmixread). */
#define OPT_NEGATE   (1u << 0)
/* An empty value is allowed: a row with .set reads it (write_bw_log=: the
 * job's name), any other has its string cleared (io_uring_cmd's pi_chk=). */
#define OPT_EMPTY_OK (1u << 1)
/* fio's filename syntax: ':' separates files, '\:' is a literal colon;
 * stored as names each ended by NUL, the last by two. */
#define OPT_FILENAME (1u << 2)
/* OPT_SIZE that also takes fio's 'Nz' (N zones): N goes to the uint64_t
 * at .zones_offset and the byte field to 0; a byte value clears N. */
#define OPT_ZONES    (1u << 3)
/* OPT_BOOL that fio (FIO_OPT_STR_SET) also takes bare ("time_based") and
 * as any number; a plain fio boolean needs 0 or 1. */
#define OPT_BARE     (1u << 4)
/* OPT_CUSTOM whose value is fio numbers (bs=): the rules of a leading
 * blank for sizes apply to it (see opt_set_kb). */
#define OPT_NUMBER   (1u << 5)

struct opt_value {
	const char *name;
	int value;
	const char *unsupported; /* non-NULL: fio knows it, iodig refuses */
};

/* A value list @name: its rows, OPT_VAL("word", VALUE) or, for a word
 * iodig refuses, { "word", VALUE, "why" }; the end row is added here, so
 * no list can lack it. */
#define OPT_VAL(word, v) { .name = (word), .value = (v) }
#define OPT_VALUES(name, ...) \
	static const struct opt_value name[] = { __VA_ARGS__, { NULL, 0, NULL } }

struct opt_desc;

/* Parses @value and stores it in @base; errors start with @where.  A
 * setter is declared by this type: `opt_setter set_nice;`. */
typedef int opt_setter(void *base, const struct opt_desc *o, const char *value,
		       const char *where, struct errbuf *err);
typedef opt_setter *opt_set_fn;

struct opt_desc {
	const char *name;  /* NULL ends a table */
	const char *alias;
	enum opt_type type;
	size_t offset;     /* of the field in the table's storage */
	size_t field_size;
	const char *def;   /* applied by opt_set_defaults(); NULL = zero */
	const char *help;
	const struct opt_value *values; /* OPT_ENUM */
	uint64_t min, max; /* OPT_UINT range, inclusive */
	uint64_t unit_ns;  /* OPT_TIME: unit of a bare number */
	unsigned int flags;
	size_t zones_offset; /* OPT_ZONES: the zone count's field */
	/* Optional: replaces the type's parser (OPT_CUSTOM needs one), e.g.
	 * to check more than the type can say. */
	opt_set_fn set;
	const char *hint;  /* OPT_CUSTOM: the value's shape in --help */
	/* Optional: the words the value may be, for --help. */
	const char *(*values_list)(void);
};

/* Fills .offset and .field_size for @field of @type. */
#define OPT_FIELD(type, field) .offset = offsetof(type, field), \
	.field_size = sizeof(((type *)0)->field)

/*
 * Rows of the common kinds, so that a row reads as the option: name,
 * field (the table's OPT_FIELD, e.g. its FIELD(f)), default as a job file
 * writes it (NULL: zero), then help.  Any other member (.alias, .set,
 * .flags, ZONES(f) ...) may follow the help.
 */
#define OPT_ROW_(n, t, d, h, ...) \
	{ .name = (n), .type = (t), .def = (d), .help = (h), __VA_ARGS__ }
#define BOOL_OPT(n, fld, d, h, ...) OPT_ROW_(n, OPT_BOOL, d, h, fld, __VA_ARGS__)
#define SIZE_OPT(n, fld, d, h, ...) OPT_ROW_(n, OPT_SIZE, d, h, fld, __VA_ARGS__)
#define STR_OPT(n, fld, d, h, ...) OPT_ROW_(n, OPT_STR, d, h, fld, __VA_ARGS__)
/* An OPT_UINT taking @lo to @hi. */
#define UINT_OPT(n, fld, d, lo, hi, h, ...) \
	OPT_ROW_(n, OPT_UINT, d, h, fld, .min = (lo), .max = (hi), __VA_ARGS__)
/* An OPT_ENUM taking the words of @vals (an OPT_VALUES list). */
#define ENUM_OPT(n, fld, vals, d, h, ...) \
	OPT_ROW_(n, OPT_ENUM, d, h, fld, .values = (vals), __VA_ARGS__)
/* An OPT_TIME whose bare number counts @unit nanoseconds. */
#define TIME_OPT(n, fld, unit, d, h, ...) \
	OPT_ROW_(n, OPT_TIME, d, h, fld, .unit_ns = (unit), __VA_ARGS__)

/* The entry of @table (ended by a NULL name) whose name or alias is @key;
 * NULL when none is. */
const struct opt_desc *opt_find(const struct opt_desc *table, const char *key);

/* Applies @value (NULL: a bare key, which only OPT_BOOL takes) to @base,
 * refusing an empty value unless OPT_EMPTY_OK.  A rejected value leaves
 * the field alone. */
int opt_set(void *base, const struct opt_desc *o, const char *value,
	    const char *where, struct errbuf *err);
/* opt_set, with SIZE values read in fio's kb_base (1024 or 1000; see
 * parse_size_kb): a job's own kb_base option. */
int opt_set_kb(void *base, const struct opt_desc *o, const char *value,
	       unsigned int kb_base, const char *where, struct errbuf *err);
/* The type's own parser, ignoring o->set: for a set() that checks first. */
int opt_set_typed(void *base, const struct opt_desc *o, const char *value,
		  const char *where, struct errbuf *err);

/* The message for a value parse_size() refused with @ret. */
/* The message for a size (or, @time, a time) value refused with @ret by
 * the readers below, saying what fio 3.33 would make of it. */
int opt_value_error(const char *where, const char *key, const char *value,
		    int ret, bool time, struct errbuf *err);
int opt_size_error(const char *where, const char *key, const char *value,
		   int ret, struct errbuf *err);

/* Applies every default of @table to @base (not cleared first). */
void opt_set_defaults(void *base, const struct opt_desc *table);

/* The value of @o in @base as fio spells it ("1" for a true bool), for
 * echoing what a job was given. */
void opt_format(const void *base, const struct opt_desc *o, char *buf,
		size_t len);

/* Levenshtein distance, capped: SIZE_MAX when either is over 64 bytes. */
size_t opt_edit_distance(const char *a, const char *b);

/* One option as --help, the man page and shell completion show it. */
struct opt_doc {
	const char *name;
	const char *alias;        /* NULL: none */
	const char *arg;          /* value kind: STR, SIZE, INT, BOOL, TIME ... */
	const char *help;
	const char *def;          /* default, as a job file writes it; NULL: none */
	bool has_range;           /* INT: min and max bound it */
	uint64_t min, max;
	char values[512];         /* the words it takes, ", " between; "" any */
	char engines[128];        /* an engine's option: the engines taking it
				   * ("io_uring or psync"); "" for any job */
};
void opt_describe(const struct opt_desc *o, struct opt_doc *d);

/* One or two lines per option of @table: "name=TYPE  help", then default,
 * alias, range and values. */
void opt_print_help(FILE *out, const struct opt_desc *table);

/* iodig's own sizes: k/K/KiB = 1024 ..., p; plain number = bytes. */
int parse_size(const char *s, uint64_t *out);
/* A size as fio reads a job option: k, kb, ki (m, g, t, p likewise) are
 * powers of @kb_base (1024 or 1000; 0 is 1024), kib, mib ... powers of
 * the other one, so with fio's default 1024 "1KiB" is 1000 (HOWTO, "int").
 * A suffix is case-insensitive; b alone means bytes. */
#define KB_BASE_DEFAULT 1024u
int parse_size_kb(const char *s, unsigned int kb_base, uint64_t *out);
/* fio's separators between the parts of a value: , : - / */
bool fio_separator(char c);
/* One part of a fio value: a size read up to fio's next separator
 * (*@end); -EILSEQ where fio would ignore what follows the number,
 * -EDOM for N%. */
int parse_size_fio(const char *s, unsigned int kb_base, uint64_t *out,
		   const char **end);
/* A job option's time as fio reads it; *@end as parse_size_fio. */
int parse_time_fio(const char *s, uint64_t unit_ns, uint64_t *out,
		   const char **end);
/* Time with fio's suffixes us/ms/s/m/h/d; a bare number is in @unit_ns. */
int parse_time_ns(const char *s, uint64_t unit_ns, uint64_t *out);
int parse_bool(const char *s, bool *out);
/* A job option's boolean as fio 3.33 reads it (check_int): 0 or 1, or,
 * for an OPT_BARE one, bare (on) or any number; words are refused. */
int opt_read_bool(const struct opt_desc *o, const char *value, bool *out,
		  const char *where, struct errbuf *err);

/* A value per direction as fio 3.33 splits it ("4k-8k,16k" is 4k,16k):
 * @joined gets the parts, comma-separated, each as fio reads it. */
int opt_fio_dir_parts(const struct opt_desc *o, const char *value,
		      unsigned int kb_base, char *joined, size_t len,
		      const char *where, struct errbuf *err);

/* set() of "N" (reads and writes) or "N,M" (reads, writes) into an
 * unsigned int[2], each in the descriptor's min-max. */
opt_setter opt_set_uint_pair;

/* set() of an option iodig knows but does not do: -ENOTSUP, saying why
 * (the descriptor's hint). */
int opt_refuse(void *base, const struct opt_desc *o, const char *value,
	       const char *where, struct errbuf *err);
/* Its row; OPT_BOOL so that a bare key is refused for its reason too. */
#define REFUSED(opt, why) { .name = opt, .type = OPT_BOOL, .set = opt_refuse, \
	.hint = why, .help = "Not supported: " why }

#endif /* IODIG_OPTION_H */
