/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iodig's command line: the subcommands and one table of every option of
 * every subcommand.  Parsing, --help, the man page and the bash completion
 * are all generated from that table, so they cannot disagree.  Job options
 * (fio's, --key=value) stay in job/options.c's table.
 */
#ifndef IODIG_CLI_H
#define IODIG_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/diff.h"
#include "base/errbuf.h"
#include "run/repeat.h"
#include "run/run.h"

/* Exit status of a usage error: bad option, value or argument. */
#define EXIT_USAGE 2
/* fio's exit status for any error of its command line or job files, which
 * iodig fio keeps (a run's failed jobs are counted, as fio counts them). */
#define FIO_EXIT_FAIL 1

enum cli_cmd { CMD_RUN, CMD_PROBE, CMD_DIFF, CMD_AB, CMD_HELP, CMD_VERSION, CMD_FIO, CMD_NR };
#define IN(cmd) (1u << (cmd))
#define IN_ALL  ((1u << CMD_NR) - 1)

/* The fio whose command line, output and version iodig fio mirrors. */
#define FIO_MIRRORED_VERSION "3.33"

/* fio's command-line options that iodig run has no word for (iodig fio). */
struct fio_cli_opts {
	struct jobfile_select select; /* --section (repeatable) */
	bool showcmd;                 /* --showcmd: job files as command lines */
	bool version;                 /* --version */
	bool minimal;                 /* --minimal: terse output */
	unsigned int terse_version;   /* --terse-version=N */
	const char *eta;              /* --eta=always|never|auto */
	bool warnings_fatal;          /* --warnings-fatal */
	bool readonly;                /* --readonly: refuse jobs that write */
};

/* Everything the command line sets, for any subcommand; each subcommand
 * reads its own part.  The table's offsets point into it. */
struct cli_opts {
	struct run_opts run;          /* run; probe reads its mechanism */
	struct repeat_opts repeat;    /* run, ab --repeat, --repeat-delay */
	const char *save;             /* run --save=FILE */
	const char *save_a, *save_b;  /* ab --save-a=FILE, --save-b=FILE */
	bool no_save;
	bool parse_only;              /* run --parse-only */
	const char *svg_dir;          /* run --svg=DIR */
	const char *folded;           /* run --folded=FILE */
	const char *baseline;         /* run --baseline=A.json */
	const char *probe_target;     /* probe --target=PATH */
	struct diff_opts diff;        /* diff --format, --svg, --alpha */
	bool man;                     /* help --man */
	bool bash_completion;         /* help --bash-completion */
	bool help;                    /* --help, any subcommand */
	int usage_status;             /* exit status of a bad option, job or
				       * target: EXIT_USAGE, fio's for fio */
	struct fio_cli_opts fio;      /* fio: fio's own command-line options */
};

/* How an option's value is checked and stored in its field. */
enum cli_kind {
	ARG_TRUE,      /* no value; stores 1 (bool or int field) */
	ARG_FALSE,     /* no value; stores 0 */
	ARG_STRING,    /* const char *, as given */
	ARG_WORD,      /* const char *, one of .values */
	ARG_UINT,      /* whole number from .min to .max */
	ARG_MS,        /* the same, a number of milliseconds */
	ARG_POW2,      /* a power of two from .min to .max */
	ARG_SIZE,      /* uint64_t bytes, k/m/g suffixes, at least .min */
	ARG_TIME,      /* uint64_t ns, us/ms/s suffixes, bare number seconds */
	ARG_PROB,      /* double strictly between .min and .max */
	ARG_CUSTOM,    /* .parse() checks and stores it */
	ARG_REFUSED,   /* fio's option that iodig refuses; .help says why */
};

/* What the shell completes for an option's value. */
enum cli_complete {
	COMPLETE_NONE,
	COMPLETE_FILE,
	COMPLETE_DIR,
	COMPLETE_WORD,  /* one of .values */
	COMPLETE_LIST,  /* a comma list of .values, each maybe +/- prefixed */
};

struct cli_option {
	const char *name;             /* without the leading "--" */
	unsigned int cmds;            /* IN(CMD_RUN) | ...: where it applies */
	const char *arg;              /* value name (FILE, MS); NULL: none */
	const char *help;             /* one sentence, lower case, no period */
	enum cli_kind kind;
	size_t offset, size;          /* its field in struct cli_opts */
	double min, max;              /* range of the numeric kinds */
	/* ARG_CUSTOM: stores @value in @field or fails naming the option */
	int (*parse)(void *field, const char *value, struct errbuf *err);
	const char *values;           /* the words it takes, space separated,
				       * for help and completion; NULL: any */
	enum cli_complete complete;
};

extern const struct cli_option cli_options[];
extern const size_t cli_nr_options;

struct cli_command {
	const char *name;
	const char *synopsis[2];      /* after "iodig NAME"; [1] may be NULL */
	const char *summary;          /* one line for the usage */
	const char *description;      /* a paragraph for the man page */
	int (*main)(int argc, char **argv);
};

extern const struct cli_command cli_commands[CMD_NR];

/* What is left of a command line after the table's options, in order. */
struct cli_args {
	char **words;                 /* arguments that are not options */
	size_t nr_words;
	char **extra;                 /* unknown --key[=value] that @is_extra
				       * accepted (run: job options) */
	size_t nr_extra;
};

/* The option @name of subcommand @cmd, NULL when it has none. */
const struct cli_option *cli_option_find(enum cli_cmd cmd, const char *name);

/* What the value must be, as errors and help say it ("a number from 1 to
 * 1000", "one of text, json, md"); "" when anything goes. */
void cli_value_phrase(const struct cli_option *opt, char *buf, size_t len);

/* Default values of every field (run's from run_ctx_init's @run). */
void cli_opts_init(struct cli_opts *o, const struct run_opts *run);

/*
 * Parses @argv (without the subcommand) for @cmd: "--opt=value" and
 * "--opt value" both, each applied through the table into @o.  An unknown
 * "--key" goes to @rest->extra when @is_extra(key) says so, else it is an
 * error; every other argument goes to @rest->words.  Errors name the
 * option and the reason.  cli_args_free() @rest in every case.
 */
int cli_parse(enum cli_cmd cmd, int argc, char **argv, struct cli_opts *o,
	      bool (*is_extra)(const char *key), struct cli_args *rest,
	      struct errbuf *err);
void cli_args_free(struct cli_args *rest);
/* cli_opts_init and cli_parse for a subcommand that takes options only:
 * any other argument is an error naming it. */
int cli_parse_options_only(enum cli_cmd cmd, int argc, char **argv,
			   struct cli_opts *o, struct errbuf *err);

/* help.c: the usage of @cmd with its options or, for CMD_NR, of every
 * subcommand. */
void cli_usage(FILE *out, enum cli_cmd cmd);

/* manpage.c: iodig.1 (troff, man(7) macros) from the tables. */
void cli_print_man(FILE *out);
/* completion.c: the bash completion script from the tables. */
void cli_print_bash_completion(FILE *out);

/* One file per subcommand. */
int cmd_run(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_fio(int argc, char **argv);

/* run.c: the jobs of job files (a->words) and of job options (a->extra)
 * into @ctx, checked; with @parse_only, not what only running them here
 * can check (as fio's --parse-only).  Files of [global] only, a command
 * line without --name or --section may leave @ctx without a job, which is
 * no error here: each caller says what it means. */
int cli_load_jobs(struct run_ctx *ctx, const struct cli_args *a, bool parse_only,
		  struct errbuf *err);
/* run.c: runs the jobs of @a (files and job options, @o parsed already)
 * in @ctx as iodig run does, printing every error; the exit status. */
int cli_run_parsed(struct run_ctx *ctx, struct cli_opts *o, const struct cli_args *a);
/* run.c: the same for the jobs cli_load_jobs put in @ctx (none only with
 * --parse-only). */
int cli_run_loaded(struct run_ctx *ctx, struct cli_opts *o);
/* run.c: iodig's error for job files and options @a that define no job
 * (the subcommands that run jobs, fio's drop-in apart). */
int cli_no_jobs_error(const struct cli_args *a, struct errbuf *err);
/* A subcommand that runs jobs (run, fio): a run context, @cmd's options
 * and the job options parsed into it, then @act; the exit status,
 * EXIT_USAGE for a bad command line. */
typedef int (*cli_jobs_fn)(struct run_ctx *ctx, struct cli_opts *o, const struct cli_args *a);
int cli_jobs_command(enum cli_cmd cmd, int argc, char **argv, cli_jobs_fn act);

#endif /* IODIG_CLI_H */
