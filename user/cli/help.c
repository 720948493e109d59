// SPDX-License-Identifier: GPL-2.0
/* iodig help and iodig version: usage text generated from the tables. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "job/options.h"

#define WIDTH       79  /* columns of the usage text */
#define LABEL_WIDTH 25  /* "  --option=ARG " column */

/* Prints @text at column @col, wrapped at WIDTH, continuing at @indent. */
static void print_wrapped(FILE *out, const char *text, int col, int indent)
{
	bool first = true;

	for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
		int word = (int)strcspn(p, " ");

		if (!first && col + 1 + word > WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		col += fprintf(out, "%.*s", word, p);
		p += word;
		first = false;
	}
	fputc('\n', out);
}

static void print_option(FILE *out, const struct cli_option *opt)
{
	char label[64], what[256], text[1024];

	snprintf(label, sizeof(label), "  --%s%s%s", opt->name, opt->arg ? "=" : "",
		 opt->arg ? opt->arg : "");
	cli_value_phrase(opt, what, sizeof(what));
	snprintf(text, sizeof(text), "%s%s%s", opt->help, what[0] ? "; " : "", what);
	/* a label too long for its column gets a line of its own */
	if ((int)strlen(label) > LABEL_WIDTH - 2)
		fprintf(out, "%s\n%*s", label, LABEL_WIDTH, "");
	else
		fprintf(out, "%-*s", LABEL_WIDTH, label);
	print_wrapped(out, text, LABEL_WIDTH, LABEL_WIDTH);
}

/* Which of a subcommand's options a list shows. */
enum scope {
	OWN,     /* its own, not those every subcommand takes */
	ALL,     /* all it takes */
	COMMON,  /* those every subcommand takes (@cmd unused) */
};

/* @cmd's options of @scope under @title; nothing when there are none. */
static void print_options(FILE *out, const char *title, enum cli_cmd cmd, enum scope scope)
{
	bool any = false;

	for (size_t i = 0; i < cli_nr_options; i++) {
		const struct cli_option *opt = &cli_options[i];
		bool common = opt->cmds == IN_ALL;

		if (scope == COMMON ? !common : !(opt->cmds & IN(cmd)) || (scope == OWN && common))
			continue;
		if (!any)
			fprintf(out, "\n%s:\n", title);
		any = true;
		print_option(out, opt);
	}
}

static void print_synopsis(FILE *out, enum cli_cmd cmd, const char **lead)
{
	const struct cli_command *c = &cli_commands[cmd];

	for (int i = 0; i < 2 && c->synopsis[i]; i++) {
		fprintf(out, "%s iodig %s%s%s\n", *lead, c->name,
			c->synopsis[i][0] ? " " : "", c->synopsis[i]);
		*lead = "      ";
	}
}

static void usage_all(FILE *out)
{
	const char *lead = "usage:";

	for (int c = 0; c < CMD_NR; c++)
		print_synopsis(out, c, &lead);
	fprintf(out, "%s iodig --version | --help\n\nSubcommands:\n", lead);
	for (int c = 0; c < CMD_NR; c++)
		fprintf(out, "  %-10s %s\n", cli_commands[c].name, cli_commands[c].summary);
	for (int c = 0; c < CMD_NR; c++) {
		char title[64];

		snprintf(title, sizeof(title), "Options of iodig %s", cli_commands[c].name);
		print_options(out, title, c, OWN);
	}
	print_options(out, "Options of every subcommand", CMD_NR, COMMON);
	fputc('\n', out);
	options_print_help(out);
}

void cli_usage(FILE *out, enum cli_cmd cmd)
{
	const char *lead = "usage:";

	if (cmd == CMD_NR) {
		usage_all(out);
		return;
	}
	print_synopsis(out, cmd, &lead);
	fputc('\n', out);
	print_wrapped(out, cli_commands[cmd].description, 0, 0);
	print_options(out, "Options", cmd, ALL);
	if (cmd == CMD_RUN || cmd == CMD_FIO) {
		fputc('\n', out);
		options_print_help(out);
	}
}

static int help_usage_error(struct errbuf *err)
{
	fprintf(stderr, "iodig: %s\n", err->msg);
	return EXIT_USAGE;
}

int cmd_help(int argc, char **argv)
{
	struct cli_opts o;
	struct cli_args rest;
	struct errbuf err = { { 0 } };
	enum cli_cmd cmd = CMD_NR;
	int ret;

	cli_opts_init(&o, NULL);
	ret = cli_parse(CMD_HELP, argc, argv, &o, NULL, &rest, &err);
	for (int c = 0; !ret && c < CMD_NR && rest.nr_words; c++)
		if (!strcmp(rest.words[0], cli_commands[c].name))
			cmd = c;
	if (!ret && rest.nr_words && (cmd == CMD_NR || rest.nr_words > 1))
		ret = err_set(&err, EINVAL, "help: '%s' is not a subcommand (run, probe, "
			      "diff, ab, help, version, fio)", rest.words[cmd == CMD_NR ? 0 : 1]);
	cli_args_free(&rest);
	if (ret)
		return help_usage_error(&err);
	if (o.man)
		cli_print_man(stdout);
	else if (o.bash_completion)
		cli_print_bash_completion(stdout);
	else
		cli_usage(stdout, o.help ? CMD_HELP : cmd);
	return 0;
}

int cmd_version(int argc, char **argv)
{
	struct cli_opts o;
	struct errbuf err = { { 0 } };
	int ret;

	ret = cli_parse_options_only(CMD_VERSION, argc, argv, &o, &err);
	if (ret)
		return help_usage_error(&err);
	if (o.help)
		cli_usage(stdout, CMD_VERSION);
	else
		printf("iodig %s\n", IODIG_VERSION);
	return 0;
}
