// The command-line option table and its parser: every entry is complete, every option of every subcommand takes "--opt=value" and "--opt value" alike, unknown options, missing, extra and out-of-range values fail naming the option, and job options go through to run.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "job/options.h"
#include "tests/lib/check.h"

static bool size_fits(const struct cli_option *opt)
{
	switch (opt->kind) {
	case ARG_TRUE:
	case ARG_FALSE:
		return opt->size == sizeof(bool) || opt->size == sizeof(int);
	case ARG_STRING:
	case ARG_WORD:
		return opt->size == sizeof(const char *);
	case ARG_UINT:
	case ARG_MS:
	case ARG_POW2:
		return opt->size == sizeof(unsigned int);
	case ARG_SIZE:
	case ARG_TIME:
		return opt->size == sizeof(uint64_t);
	case ARG_PROB:
		return opt->size == sizeof(double);
	case ARG_CUSTOM:
		return opt->parse != NULL;
	case ARG_REFUSED:
		return opt->size == 0;
	}
	return false;
}

/* Every entry: help, a value name exactly when it takes a value, a field
 * that fits its kind, words where completion offers words. */
static void test_table_complete(void)
{
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];
		bool flag = o->kind == ARG_TRUE || o->kind == ARG_FALSE ||
			    o->kind == ARG_REFUSED;

		CHECK_MSG(o->name && o->name[0] && strncmp(o->name, "-", 1), "entry %zu", i);
		CHECK_MSG(o->help && strlen(o->help) > 8, "--%s has no help", o->name);
		CHECK_MSG(o->cmds && !(o->cmds & ~IN_ALL), "--%s: subcommands %#x", o->name, o->cmds);
		CHECK_MSG(flag == !o->arg, "--%s: value name '%s' with kind %d", o->name,
			  o->arg ? o->arg : "", o->kind);
		CHECK_MSG(size_fits(o), "--%s: field of %zu bytes for kind %d", o->name, o->size,
			  o->kind);
		CHECK_MSG(o->offset + o->size <= sizeof(struct cli_opts), "--%s: field", o->name);
		CHECK_MSG((o->complete == COMPLETE_WORD || o->complete == COMPLETE_LIST) ==
			  (o->values != NULL), "--%s: words and completion disagree", o->name);
		if (o->kind >= ARG_UINT && o->kind <= ARG_PROB && o->kind != ARG_TIME)
			CHECK_MSG(o->min <= o->max || o->kind == ARG_SIZE, "--%s: range", o->name);
	}
	for (int c = 0; c < CMD_NR; c++) {
		CHECK(cli_commands[c].name && cli_commands[c].summary &&
		      cli_commands[c].description && cli_commands[c].main &&
		      cli_commands[c].synopsis[0]);
		CHECK_MSG(cli_option_find(c, "help"), "iodig %s --help", cli_commands[c].name);
	}
}

/* No name twice within one subcommand; the same name may serve several. */
static void test_names_unique_per_command(void)
{
	for (size_t i = 0; i < cli_nr_options; i++)
		for (size_t j = i + 1; j < cli_nr_options; j++)
			CHECK_MSG(strcmp(cli_options[i].name, cli_options[j].name) ||
				  !(cli_options[i].cmds & cli_options[j].cmds),
				  "--%s twice in one subcommand", cli_options[i].name);
}

static int parse(enum cli_cmd cmd, struct cli_opts *o, struct errbuf *err, int argc,
		 char **argv)
{
	struct cli_args rest;
	int ret;

	cli_opts_init(o, NULL);
	err->msg[0] = 0;
	ret = cli_parse(cmd, argc, argv, o, NULL, &rest, err);
	cli_args_free(&rest);
	return ret;
}

#define PARSE(cmd, o, err, ...) \
	parse(cmd, o, err, sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *), \
	      (char *[]){ __VA_ARGS__ })

/* A value @o takes that is not its default: its last word, or one just
 * above the low end of its range. */
static void valid_value(const struct cli_option *o, char *buf, size_t len)
{
	switch (o->kind) {
	case ARG_UINT:
	case ARG_MS:
	case ARG_POW2:
	case ARG_SIZE:
		snprintf(buf, len, "%.0f", o->kind == ARG_POW2 ? 2 * o->min : o->min + 1);
		return;
	case ARG_TIME:
		snprintf(buf, len, "2s");
		return;
	case ARG_PROB:
		snprintf(buf, len, "%g", (o->min + o->max) / 2);
		return;
	default:
		/* a custom option taking a percentage */
		if (o->arg && !strcmp(o->arg, "PCT")) {
			snprintf(buf, len, "5%%");
			return;
		}
		/* one taking a count (or a word) */
		if (o->arg && !strncmp(o->arg, "N|", 2)) {
			snprintf(buf, len, "3");
			return;
		}
		snprintf(buf, len, "%s", !o->values ? "path" :
			 strrchr(o->values, ' ') ? strrchr(o->values, ' ') + 1 : o->values);
	}
}

/* Whether @a and @b hold the same options: strings equal, not the same
 * pointer (each form has its own argv).  Clears the strings of @opt.  A
 * custom option keeps a string when @b's field is @value itself (the
 * separate form's argv), else a value of its own (a percentage). */
static bool same_opts(const struct cli_option *opt, struct cli_opts *a, struct cli_opts *b,
		      const char *value)
{
	char *field = NULL;
	bool custom_string;

	/* a custom option's field may be a number of any size and alignment */
	if (opt->size == sizeof(char *))
		memcpy(&field, (char *)b + opt->offset, sizeof(field));
	custom_string = opt->kind == ARG_CUSTOM && field == value;

	if (!strcmp(opt->name, "section")) {
		if (strcmp(a->fio.select.sections[0], b->fio.select.sections[0]))
			return false;
		a->fio.select.sections[0] = b->fio.select.sections[0] = NULL;
	}
	if (opt->size == sizeof(char *) && (opt->kind == ARG_STRING || opt->kind == ARG_WORD ||
					     custom_string)) {
		char **sa = (char **)((char *)a + opt->offset);
		char **sb = (char **)((char *)b + opt->offset);

		if (!*sa || !*sb || strcmp(*sa, *sb))
			return false;
		*sa = *sb = NULL;
	}
	return !memcmp(a, b, sizeof(*a));
}

/* Both forms give the same options, for every option of every subcommand. */
static void test_both_forms(void)
{
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];
		char joined[256], flag[128], value[64];
		struct cli_opts a, b, none;
		struct errbuf err;

		if (!o->arg)
			continue;
		valid_value(o, value, sizeof(value));
		snprintf(joined, sizeof(joined), "--%s=%s", o->name, value);
		snprintf(flag, sizeof(flag), "--%s", o->name);
		for (int c = 0; c < CMD_NR; c++) {
			if (!(o->cmds & IN(c)))
				continue;
			CHECK_MSG(!PARSE(c, &a, &err, joined), "%s: %s", joined, err.msg);
			CHECK_MSG(!PARSE(c, &b, &err, flag, value), "%s %s: %s", flag, value, err.msg);
			PARSE(c, &none, &err, "x");
			CHECK_MSG(memcmp(&a, &none, sizeof(a)), "%s changed nothing", joined);
			CHECK_MSG(same_opts(o, &a, &b, value), "%s: the two forms differ", flag);
			CHECK_MSG(PARSE(c, &a, &err, flag) == -EINVAL &&
				  strstr(err.msg, "needs a value") && strstr(err.msg, flag),
				  "%s alone: %s", flag, err.msg);
		}
	}
}

/* Every word an option lists for help and completion is accepted. */
static void test_listed_words_parse(void)
{
	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *o = &cli_options[i];
		enum cli_cmd cmd = (enum cli_cmd)__builtin_ctz(o->cmds);

		for (const char *p = o->values; p && *p;) {
			size_t n = strcspn(p, " ");
			char arg[128];
			struct cli_opts opts;
			struct errbuf err;

			snprintf(arg, sizeof(arg), "--%s=%.*s", o->name, (int)n, p);
			CHECK_MSG(!PARSE(cmd, &opts, &err, arg), "%s: %s", arg, err.msg);
			p += n + (p[n] == ' ');
		}
	}
}

static void expect_error(enum cli_cmd cmd, const char *frag, int argc, char **argv)
{
	struct cli_opts o;
	struct errbuf err;
	int ret = parse(cmd, &o, &err, argc, argv);

	CHECK_MSG(ret == -EINVAL && strstr(err.msg, frag), "%s: wanted '%s', got %d '%s'",
		  argv[0], frag, ret, err.msg);
}

#define EXPECT_ERROR(cmd, frag, ...) \
	expect_error(cmd, frag, sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *), \
		     (char *[]){ __VA_ARGS__ })

static void test_errors(void)
{
	EXPECT_ERROR(CMD_DIFF, "unknown option '--bogus' (see iodig diff --help)", "--bogus=1");
	EXPECT_ERROR(CMD_PROBE, "unknown option '--repeat' (see iodig probe --help)", "--repeat", "2");
	EXPECT_ERROR(CMD_RUN, "unknown option '--format'", "--format=json");
	EXPECT_ERROR(CMD_DIFF, "unknown option '--detail'", "--detail");
	EXPECT_ERROR(CMD_RUN, "option --detail takes no value", "--detail=1");
	EXPECT_ERROR(CMD_RUN, "option --repeat needs a value", "a.fio", "--repeat");
	EXPECT_ERROR(CMD_RUN, "option --repeat: '0' is not a number from 1 to 1000", "--repeat", "0");
	EXPECT_ERROR(CMD_RUN, "option --repeat: '1001' is not a number from 1 to 1000", "--repeat=1001");
	EXPECT_ERROR(CMD_RUN, "option --stacks: '-1' is not a number from 0 to 1000", "--stacks=-1");
	EXPECT_ERROR(CMD_RUN, "option --block-sample: '3' is not a power of two from 1 to 64",
		     "--block-sample", "3");
	EXPECT_ERROR(CMD_RUN, "option --block-sample: '' is not a power", "--block-sample=");
	EXPECT_ERROR(CMD_RUN, "option --probe-toggle: '19' is not a number of milliseconds "
		     "from 20 to 60000", "--probe-toggle=19");
	EXPECT_ERROR(CMD_RUN, "option --scratch-size: '1k' is not a size of at least 1m",
		     "--scratch-size", "1k");
	EXPECT_ERROR(CMD_RUN, "option --repeat-delay: 'soon' is not a time", "--repeat-delay=soon");
	EXPECT_ERROR(CMD_RUN, "option --output-format: 'xml' is not one of", "--output-format", "xml");
	EXPECT_ERROR(CMD_RUN, "unknown probe family 'bogus'", "--probes=bogus");
	EXPECT_ERROR(CMD_DIFF, "option --alpha: '0.5' is not a probability between 0 and 0.5",
		     "--alpha", "0.5");
	EXPECT_ERROR(CMD_DIFF, "option --alpha: '' is not a probability", "--alpha=");
	EXPECT_ERROR(CMD_DIFF, "option --format: 'xml' is not one of text, json, md", "--format", "xml");
	EXPECT_ERROR(CMD_PROBE, "option --mechanism: 'tp' is not one of tp_btf, raw_tp", "--mechanism=tp");
	EXPECT_ERROR(CMD_RUN, "option --mechanism: '' is not one of", "--mechanism", "");
}

/* Values land in their fields; the same name is its own per subcommand. */
static void test_values_and_subcommands(void)
{
	struct cli_opts o;
	struct errbuf err;

	CHECK(!PARSE(CMD_RUN, &o, &err, "--target", "/dev/x", "--repeat", "3", "--no-progress",
		     "--repeat-delay=500ms", "--output-format=normal,json", "--probe-toggle-settle=0"));
	CHECK(o.run.target && !strcmp(o.run.target, "/dev/x") && !o.probe_target);
	CHECK(o.repeat.count == 3 && o.repeat.delay_ns == 500000000ull && o.run.progress == 0);
	CHECK(o.run.output_format == (OUTPUT_NORMAL | OUTPUT_JSON));
	CHECK(o.run.probe_toggle_settle_ms == 0);
	CHECK(!PARSE(CMD_PROBE, &o, &err, "--target", "/dev/y", "--mechanism", "raw_tp"));
	CHECK(o.probe_target && !strcmp(o.probe_target, "/dev/y") && !o.run.target);
	CHECK(o.run.mechanism && !strcmp(o.run.mechanism, "raw_tp"));
	CHECK(!PARSE(CMD_DIFF, &o, &err, "--format", "json", "--svg", "d", "--alpha=0.05"));
	CHECK(o.diff.format == DIFF_JSON && o.diff.svg_dir && !strcmp(o.diff.svg_dir, "d"));
	CHECK(o.diff.alpha == 0.05 && !o.svg_dir);
	CHECK(!PARSE(CMD_RUN, &o, &err, "--svg", "d"));
	CHECK(o.svg_dir && !o.diff.svg_dir);
	CHECK(cli_option_find(CMD_DIFF, "format") && !cli_option_find(CMD_RUN, "format"));
	CHECK(cli_option_find(CMD_RUN, "repeat") && !cli_option_find(CMD_DIFF, "repeat"));
	CHECK(!cli_option_find(CMD_RUN, "targ"));
}

/* Words stay in order; job options pass through to run as they are. */
static void test_words_and_job_options(void)
{
	char *argv[] = { "a.fio", "--rw=randread", "-x", "--save", "s.json", "--", "--direct",
			 "b.fio" };
	struct cli_args rest;
	struct cli_opts o;
	struct errbuf err = { { 0 } };

	cli_opts_init(&o, NULL);
	CHECK_MSG(!cli_parse(CMD_RUN, 8, argv, &o, job_option_known, &rest, &err), "%s", err.msg);
	CHECK(rest.nr_words == 4 && !strcmp(rest.words[0], "a.fio") &&
	      !strcmp(rest.words[1], "-x") && !strcmp(rest.words[2], "--") &&
	      !strcmp(rest.words[3], "b.fio"));
	CHECK(rest.nr_extra == 2 && !strcmp(rest.extra[0], "--rw=randread") &&
	      !strcmp(rest.extra[1], "--direct"));
	CHECK(o.save && !strcmp(o.save, "s.json"));
	cli_args_free(&rest);
	argv[1] = "--frobnicate=1";
	CHECK(cli_parse(CMD_RUN, 8, argv, &o, job_option_known, &rest, &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "unknown option '--frobnicate' (see iodig run --help)"), "%s",
		  err.msg);
	cli_args_free(&rest);
}

static void count_job_option(const struct opt_doc *d, void *arg)
{
	int *seen = arg;

	CHECK_MSG(d->name && d->arg && d->help && d->help[0], "job option %s",
		  d->name ? d->name : "?");
	if (!strcmp(d->name, "rw"))
		seen[0] = strstr(d->values, "randread") && d->def && !strcmp(d->def, "read");
	if (!strcmp(d->name, "iodepth"))
		seen[1] = d->has_range && d->min == 1 && d->max == 65536;
	if (!strcmp(d->name, "ioengine"))
		seen[2] = strstr(d->values, "io_uring") != NULL;
	seen[3]++;
}

static void test_job_options_foreach(void)
{
	int seen[4] = { 0 };

	job_options_foreach(count_job_option, seen);
	CHECK(seen[0] && seen[1] && seen[2] && seen[3] > 20);
}

int main(void)
{
	test_table_complete();
	test_names_unique_per_command();
	test_both_forms();
	test_listed_words_parse();
	test_errors();
	test_values_and_subcommands();
	test_words_and_job_options();
	test_job_options_foreach();
	return CHECK_DONE();
}
