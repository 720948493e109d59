// SPDX-License-Identifier: GPL-2.0
/*
 * The table-driven parser: each argument is looked up in cli_options[] for
 * its subcommand, its value checked by the entry's kind and range and
 * stored at the entry's offset.  "--opt=value" and "--opt value" both work.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "job/options.h"

#define NSEC_PER_SEC 1000000000ull

const struct cli_option *cli_option_find(enum cli_cmd cmd, const char *name)
{
	for (size_t i = 0; i < cli_nr_options; i++)
		if ((cli_options[i].cmds & IN(cmd)) && !strcmp(cli_options[i].name, name))
			return &cli_options[i];
	return NULL;
}

void cli_opts_init(struct cli_opts *o, const struct run_opts *run)
{
	memset(o, 0, sizeof(*o));
	if (run)
		o->run = *run;
	o->repeat.count = 1;
	o->diff.format = DIFF_TEXT;
	o->diff.alpha = DIFF_DEFAULT_ALPHA;
	o->diff.min_change = DIFF_DEFAULT_MIN_CHANGE;
}

/* "1m" for 1 MiB: sizes as the options take them. */
static void size_words(double bytes, char *buf, size_t len)
{
	static const char suffix[] = "kmgt";
	unsigned long long n = (unsigned long long)bytes;
	int i = -1;

	while (i < 3 && n && !(n & 1023)) {
		n >>= 10;
		i++;
	}
	snprintf(buf, len, "%llu%.*s", n, i >= 0, i >= 0 ? &suffix[i] : "");
}

/* "a comma list of normal, json" from "normal json". */
static void words_phrase(const char *lead, const char *words, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "%s ", lead);

	for (const char *p = words; *p && off < len;) {
		size_t n = strcspn(p, " ");

		off += (size_t)snprintf(buf + off, len - off, "%s%.*s",
					p == words ? "" : ", ", (int)n, p);
		p += n + (p[n] == ' ');
	}
}

void cli_value_phrase(const struct cli_option *opt, char *buf, size_t len)
{
	char size[32];

	buf[0] = 0;
	switch (opt->kind) {
	case ARG_UINT:
		snprintf(buf, len, "a number from %.0f to %.0f", opt->min, opt->max);
		return;
	case ARG_MS:
		snprintf(buf, len, "a number of milliseconds from %.0f to %.0f",
			 opt->min, opt->max);
		return;
	case ARG_POW2:
		snprintf(buf, len, "a power of two from %.0f to %.0f", opt->min, opt->max);
		return;
	case ARG_SIZE:
		size_words(opt->min, size, sizeof(size));
		snprintf(buf, len, "a size of at least %s", size);
		return;
	case ARG_TIME:
		snprintf(buf, len, "a time (e.g. 5, 2s, 500ms)");
		return;
	case ARG_PROB:
		snprintf(buf, len, "a probability between %g and %g", opt->min, opt->max);
		return;
	case ARG_REFUSED:
		snprintf(buf, len, "iodig refuses it");
		return;
	default:
		break;
	}
	if (opt->values)
		words_phrase(opt->complete == COMPLETE_LIST ? "a comma list of" : "one of",
			     opt->values, buf, len);
}

/* Whether @val is a whole decimal number from @lo to @hi (strtoull alone
 * takes "-1" for ULLONG_MAX and "" for 0). */
static bool parse_bounded(const char *val, double lo, double hi, unsigned long long *out)
{
	char *end;

	if (!*val || *val == '-')
		return false;
	errno = 0;
	*out = strtoull(val, &end, 10);
	return !*end && !errno && *out >= lo && *out <= hi;
}

/* Whether @word is one of the space-separated @words. */
static bool has_word(const char *words, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = words; *p; p += strcspn(p, " "), p += *p == ' ')
		if (len && strcspn(p, " ") == len && !strncmp(p, word, len))
			return true;
	return false;
}

/* Stores @v in an integer or bool field of @size bytes. */
static void store_uint(void *field, size_t size, unsigned long long v)
{
	if (size == sizeof(bool))
		*(bool *)field = v != 0;
	else if (size == sizeof(unsigned int))
		*(unsigned int *)field = (unsigned int)v;
	else
		*(uint64_t *)field = v;
}

static bool parse_number(const struct cli_option *opt, const char *val, void *field)
{
	unsigned long long n;
	uint64_t u64;
	double d;
	char *end;

	switch (opt->kind) {
	case ARG_UINT:
	case ARG_MS:
	case ARG_POW2:
		if (!parse_bounded(val, opt->min, opt->max, &n) ||
		    (opt->kind == ARG_POW2 && (n & (n - 1))))
			return false;
		store_uint(field, opt->size, n);
		return true;
	case ARG_SIZE:
		if (parse_size(val, &u64) || u64 < opt->min)
			return false;
		*(uint64_t *)field = u64;
		return true;
	case ARG_TIME:
		if (parse_time_ns(val, NSEC_PER_SEC, &u64))
			return false;
		*(uint64_t *)field = u64;
		return true;
	default:   /* ARG_PROB */
		d = strtod(val, &end);
		if (!*val || *end || !(d > opt->min && d < opt->max))
			return false;
		*(double *)field = d;
		return true;
	}
}

/* Checks @val (NULL when the option takes none) and stores it in @o. */
static int apply(const struct cli_option *opt, const char *val, struct cli_opts *o,
		 struct errbuf *err)
{
	void *field = (char *)o + opt->offset;
	char what[256];

	switch (opt->kind) {
	case ARG_TRUE:
	case ARG_FALSE:
		store_uint(field, opt->size, opt->kind == ARG_TRUE);
		return 0;
	case ARG_STRING:
		*(const char **)field = val;
		return 0;
	case ARG_CUSTOM:
		return opt->parse(field, val, err);
	case ARG_WORD:
		if (!has_word(opt->values, val))
			break;
		*(const char **)field = val;
		return 0;
	default:
		if (parse_number(opt, val, field))
			return 0;
		break;
	}
	cli_value_phrase(opt, what, sizeof(what));
	return err_set(err, EINVAL, "option --%s: '%s' is not %s", opt->name, val, what);
}

/* The option in argv[*i] with its value, which may be the next argument. */
static int parse_option(const struct cli_option *opt, int argc, char **argv, int *i,
			struct cli_opts *o, struct errbuf *err)
{
	const char *val = strchr(argv[*i], '=');

	if (opt->kind == ARG_REFUSED)
		return err_set(err, ENOTSUP, "option --%s is refused: %s", opt->name, opt->help);
	if (!opt->arg && val)
		return err_set(err, EINVAL, "option --%s takes no value", opt->name);
	if (opt->arg && val)
		val++;
	else if (opt->arg && *i + 1 < argc)
		val = argv[++*i];
	else if (opt->arg)
		return err_set(err, EINVAL, "option --%s needs a value", opt->name);
	return apply(opt, val, o, err);
}

int cli_parse(enum cli_cmd cmd, int argc, char **argv, struct cli_opts *o,
	      bool (*is_extra)(const char *key), struct cli_args *rest,
	      struct errbuf *err)
{
	memset(rest, 0, sizeof(*rest));
	rest->words = calloc((size_t)argc + 1, sizeof(char *));
	rest->extra = calloc((size_t)argc + 1, sizeof(char *));
	if (!rest->words || !rest->extra)
		return err_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		const struct cli_option *opt;
		char key[128];
		int ret;

		/* "-x" and a lone "--" are words, as they always were */
		if (strncmp(arg, "--", 2) || !arg[2]) {
			rest->words[rest->nr_words++] = argv[i];
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
		opt = cli_option_find(cmd, key);
		if (opt) {
			ret = parse_option(opt, argc, argv, &i, o, err);
			if (ret)
				return ret;
		} else if (is_extra && is_extra(key)) {
			rest->extra[rest->nr_extra++] = argv[i];
		} else {
			return err_set(err, EINVAL, "unknown option '--%s' (see iodig %s --help)",
				       key, cli_commands[cmd].name);
		}
	}
	return 0;
}

void cli_args_free(struct cli_args *rest)
{
	free(rest->words);
	free(rest->extra);
	memset(rest, 0, sizeof(*rest));
}

int cli_parse_options_only(enum cli_cmd cmd, int argc, char **argv,
			   struct cli_opts *o, struct errbuf *err)
{
	struct cli_args rest;
	int ret;

	cli_opts_init(o, NULL);
	ret = cli_parse(cmd, argc, argv, o, NULL, &rest, err);
	if (!ret && rest.nr_words)
		ret = err_set(err, EINVAL, "%s: unknown argument '%s'",
			      cli_commands[cmd].name, rest.words[0]);
	cli_args_free(&rest);
	return ret;
}
