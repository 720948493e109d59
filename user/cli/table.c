// SPDX-License-Identifier: GPL-2.0
/*
 * Every subcommand and every option of every subcommand, as data.  The
 * parser (parse.c), --help (help.c), the man page (manpage.c) and the bash
 * completion (completion.c) read these two tables and nothing else; a new
 * option is one entry here plus its field in struct cli_opts.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "analysis/diff.h"
#include "cli/cli.h"
#include "job/options.h"
#include "iodig/block.h"
#include "iodig/sampling.h"
#include "probes/probe.h"
#include "probes/toggle.h"
#include "run/ab.h"
#include "run/repeat.h"
#include "run/run.h"

/* A default that is a plain number, as help text. */
#define STR_(x) #x
#define STR(x)  STR_(x)

/* --steady's rule (workload/series.h), for both subcommands' help. */
#define STEADY_RULE "the latency-over-time series' transient: the intervals before the first " \
	"window of " STR(SERIES_STEADY_WINDOW) " intervals whose mean IOPS is within " \
	STR(SERIES_STEADY_PCT) "% of the mean IOPS from there to the end"

#define FIELD(f) .offset = offsetof(struct cli_opts, f), \
		 .size = sizeof(((struct cli_opts *)0)->f)

/* --output-format: a comma list of normal, json, json+ and terse. */
static int parse_output_format(void *field, const char *value, struct errbuf *err)
{
	unsigned int fmt = 0;
	const char *p = value;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 6 && !strncmp(p, "normal", n))
			fmt |= OUTPUT_NORMAL;
		else if (n == 4 && !strncmp(p, "json", n))
			fmt |= OUTPUT_JSON;
		else if (n == 5 && !strncmp(p, "json+", n))
			fmt |= OUTPUT_JSON | OUTPUT_JSONPLUS;
		else if (n == 5 && !strncmp(p, "terse", n))
			fmt |= OUTPUT_TERSE;
		else if (n)
			return err_set(err, EINVAL, "option --output-format: '%.*s' is not one of "
				       "normal, json, json+, terse (comma separated)", (int)n, p);
		p += n + (p[n] == ',');
	}
	if (!fmt)
		return err_set(err, EINVAL, "option --output-format: empty value");
	*(unsigned int *)field = fmt;
	return 0;
}

/* --section NAME, repeatable: appended to the list. */
static int parse_section(void *field, const char *value, struct errbuf *err)
{
	struct jobfile_select *sel = field;

	if (sel->nr_sections >= JOBFILE_MAX_SECTIONS)
		return err_set(err, E2BIG, "option --section: more than %d sections",
			       JOBFILE_MAX_SECTIONS);
	sel->sections[sel->nr_sections++] = value;
	return 0;
}

/* --eta: fio's always, never, auto as the status line's on, off, auto. */
static int parse_eta(void *field, const char *value, struct errbuf *err)
{
	static const char *const when[] = { "never", "always", "auto" };

	for (int i = 0; i < 3; i++) {
		if (!strcmp(value, when[i])) {
			*(int *)field = i < 2 ? i : -1;
			return 0;
		}
	}
	return err_set(err, EINVAL, "option --eta: '%s' is not one of always, never, auto",
		       value);
}

/* --terse-version: fio writes 2 to 5; iodig only fio's default. */
static int parse_terse_version(void *field, const char *value, struct errbuf *err)
{
	if (strcmp(value, "3"))
		return err_set(err, ENOTSUP, "option --terse-version: iodig writes fio's "
			       "terse version 3 only, not '%s'", value);
	*(unsigned int *)field = 3;
	return 0;
}

/* fio's options that iodig fio refuses, with the reason as their help. */
#define FIO_REFUSED(opt, why) \
	{ .name = opt, .cmds = IN(CMD_FIO), .help = why, .kind = ARG_REFUSED }

/* --probes: checked now, so a bad spec is a usage error, not a run
 * without probes. */
static int parse_probes(void *field, const char *value, struct errbuf *err)
{
	int ret = probes_check_spec(value, err);

	if (!ret)
		*(const char **)field = value;
	return ret;
}

static int parse_diff_format(void *field, const char *value, struct errbuf *err)
{
	return diff_parse_format(value, field, err);
}

static int parse_repeat(void *field, const char *value, struct errbuf *err)
{
	return repeat_parse(value, field, err);
}

static int parse_min_change(void *field, const char *value, struct errbuf *err)
{
	return diff_parse_min_change(value, field, err);
}

static int parse_fail_on(void *field, const char *value, struct errbuf *err)
{
	int ret = diff_parse_fail_on(value, err);

	if (!ret)
		*(const char **)field = value;
	return ret;
}

/* The probe families --probes takes, from the list that defines them. */
static const char probe_family_words[] = "all"
#define PROBE(name) " " #name
#include "probes/probe_list.h"
#undef PROBE
	;

#define MECHANISM_HELP "force a probe mechanism on the families that offer it; " \
		       "the others keep their best one"
#define MECHANISMS     "tp_btf raw_tp tracepoint fentry kprobe perf_event"

const struct cli_option cli_options[] = {
	/* iodig run */
	{ .name = "output-format", .cmds = IN(CMD_RUN) | IN(CMD_FIO), .arg = "FORMAT",
	  .help = "report format: normal (fio's text), json, json+ (with histogram bins), terse "
		  "(fio's v3 line), or several, comma separated "
		  "(default normal)",
	  .kind = ARG_CUSTOM, .parse = parse_output_format, FIELD(run.output_format),
	  .values = "normal json json+ terse", .complete = COMPLETE_LIST },
	{ .name = "output", .cmds = IN(CMD_RUN) | IN(CMD_FIO), .arg = "FILE",
	  .help = "write the report to FILE (atomically) instead of stdout",
	  .kind = ARG_STRING, FIELD(run.output_path), .complete = COMPLETE_FILE },
	{ .name = "target", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "PATH",
	  .help = "run every job against PATH, a file or block device (overrides "
		  "filename=); 'scratch' is a loop device on tmpfs that iodig "
		  "creates and removes",
	  .kind = ARG_STRING, FIELD(run.target), .complete = COMPLETE_FILE },
	{ .name = "allow-destructive", .cmds = IN(CMD_RUN) | IN(CMD_AB),
	  .help = "write to block devices that carry data or are in use",
	  .kind = ARG_TRUE, FIELD(run.allow_destructive) },
	{ .name = "probes", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "SPEC",
	  .help = "probe families: all, a list (block,sched) or changes to the "
		  "default set (+syscalls,-sampling)",
	  .kind = ARG_CUSTOM, .parse = parse_probes, FIELD(run.probes),
	  .values = probe_family_words, .complete = COMPLETE_LIST },
	{ .name = "detail", .cmds = IN(CMD_RUN) | IN(CMD_AB),
	  .help = "every family and hook (several times the BPF time per I/O)",
	  .kind = ARG_TRUE, FIELD(run.detail) },
	{ .name = "sample-freq", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "HZ",
	  .help = "kernel stack samples per second per CPU (default "
		  STR(SAMPLING_FREQ_HZ) ", " STR(SAMPLING_DETAIL_FREQ_HZ) " with --detail)",
	  .kind = ARG_UINT, FIELD(run.sample_hz), .min = 1, .max = SAMPLING_MAX_FREQ_HZ },
	{ .name = "block-sample", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "N",
	  .help = "time 1 in N block completions; 1 times every one (default: set "
		  "from their rate, 1 with --detail)",
	  .kind = ARG_POW2, FIELD(run.block_sample), .min = 1, .max = BLOCK_STRIDE_MAX },
	{ .name = "no-probes", .cmds = IN(CMD_RUN) | IN(CMD_AB),
	  .help = "run the workload without kernel probes",
	  .kind = ARG_TRUE, FIELD(run.no_probes) },
	{ .name = "probe-toggle", .cmds = IN(CMD_RUN), .arg = "MS",
	  .help = "measure what tracing costs this job: detach and attach the probes "
		  "in alternate phases of MS milliseconds and report IOPS traced / "
		  "untraced with a 95% CI",
	  .kind = ARG_MS, FIELD(run.probe_toggle_ms), .min = 20, .max = 60000 },
	{ .name = "probe-toggle-settle", .cmds = IN(CMD_RUN), .arg = "MS",
	  .help = "with --probe-toggle: time left unmeasured after each switch, for "
		  "the job to settle (default " STR(TOGGLE_SETTLE_DEFAULT_MS) ")",
	  .kind = ARG_MS, FIELD(run.probe_toggle_settle_ms), .min = 0, .max = 60000 },
	{ .name = "mechanism", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "MECH",
	  .help = MECHANISM_HELP, .kind = ARG_WORD, FIELD(run.mechanism),
	  .values = MECHANISMS, .complete = COMPLETE_WORD },
	{ .name = "bpf-stats", .cmds = IN(CMD_RUN) | IN(CMD_AB),
	  .help = "measure the probes' own BPF time per I/O (kernel bpf_stats)",
	  .kind = ARG_TRUE, FIELD(run.bpf_stats) },
	{ .name = "stacks", .cmds = IN(CMD_RUN), .arg = "N",
	  .help = "print the top N full kernel stacks per family",
	  .kind = ARG_UINT, FIELD(run.stacks), .min = 0, .max = 1000 },
	{ .name = "progress", .cmds = IN(CMD_RUN) | IN(CMD_AB),
	  .help = "show the status line (default: when stderr is a terminal)",
	  .kind = ARG_TRUE, FIELD(run.progress) },
	{ .name = "no-progress", .cmds = IN(CMD_RUN) | IN(CMD_AB),
	  .help = "no status line",
	  .kind = ARG_FALSE, FIELD(run.progress) },
	{ .name = "scratch-size", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "SIZE",
	  .help = "size of the built-in scratch target (default 512m)",
	  .kind = ARG_SIZE, FIELD(run.scratch_size), .min = 1 << 20 },
	{ .name = "save", .cmds = IN(CMD_RUN) | IN(CMD_FIO), .arg = "FILE",
	  .help = "trace file for iodig diff (default ./iodig-runs/JOB-TIME.json)",
	  .kind = ARG_STRING, FIELD(save), .complete = COMPLETE_FILE },
	{ .name = "no-save", .cmds = IN(CMD_RUN),
	  .help = "write no trace file",
	  .kind = ARG_TRUE, FIELD(no_save) },
	{ .name = "repeat", .cmds = IN(CMD_RUN), .arg = "N|auto[:PCT]",
	  .help = "run the jobs N times; report mean, stdev, 95% CI.  auto: repeat "
		  "until the 95% CI of IOPS, bandwidth and lat avg is within PCT% (default "
		  STR(REPEAT_AUTO_DEFAULT_PCT) ") of the mean, " STR(REPEAT_AUTO_MIN) " to "
		  STR(REPEAT_AUTO_MAX) " repeats, and say which",
	  .kind = ARG_CUSTOM, .parse = parse_repeat, FIELD(repeat) },
	{ .name = "repeat-delay", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "TIME",
	  .help = "pause between repeats",
	  .kind = ARG_TIME, FIELD(repeat.delay_ns) },
	{ .name = "interval", .cmds = IN(CMD_RUN) | IN(CMD_AB), .arg = "MS",
	  .help = "length of the intervals of the latency-over-time series the trace "
		  "file keeps (IOPS, bandwidth, clat p50/p99, lat mean per repeat, job and "
		  "direction; default " STR(SERIES_DEFAULT_INTERVAL_MS) ")",
	  .kind = ARG_MS, FIELD(run.interval_ms), .min = 10, .max = 60000 },
	{ .name = "svg", .cmds = IN(CMD_RUN), .arg = "DIR",
	  .help = "flame graphs (on-CPU, off-CPU), latency plot and latency over time "
		  "(each repeat: the last bold, earlier ones thin) into DIR",
	  .kind = ARG_STRING, FIELD(svg_dir), .complete = COMPLETE_DIR },
	{ .name = "steady", .cmds = IN(CMD_RUN),
	  .help = "also report IOPS, bandwidth and lat avg of the steady state (figures "
		  "steady_*, compared by iodig diff), and with --svg mark what they leave "
		  "out: " STEADY_RULE,
	  .kind = ARG_TRUE, FIELD(run.steady) },
	{ .name = "folded", .cmds = IN(CMD_RUN), .arg = "FILE",
	  .help = "folded stacks (\"a;b;c count\") into FILE",
	  .kind = ARG_STRING, FIELD(folded), .complete = COMPLETE_FILE },

	{ .name = "baseline", .cmds = IN(CMD_RUN), .arg = "FILE",
	  .help = "after the run, print iodig diff of trace file FILE (A) against this run (B)",
	  .kind = ARG_STRING, FIELD(baseline), .complete = COMPLETE_FILE },

	{ .name = "parse-only", .cmds = IN(CMD_RUN) | IN(CMD_FIO),
	  .help = "parse and check every job without running anything (fio's "
		  "--parse-only): exit 0 when all are valid, else 2 with the first "
		  "error",
	  .kind = ARG_TRUE, FIELD(parse_only) },

	/* iodig fio: fio's own command-line options (fio 3.33's --help) */
	{ .name = "section", .cmds = IN(CMD_FIO), .arg = "NAME",
	  .help = "run only the job of section NAME (and read [global]); may be given "
		  "several times",
	  .kind = ARG_CUSTOM, .parse = parse_section, FIELD(fio.select) },
	{ .name = "showcmd", .cmds = IN(CMD_FIO),
	  .help = "print each job file as one fio command line and exit",
	  .kind = ARG_TRUE, FIELD(fio.showcmd) },
	{ .name = "version", .cmds = IN(CMD_FIO),
	  .help = "print the fio version iodig mirrors (fio-" FIO_MIRRORED_VERSION
		  ") and iodig's own, and exit",
	  .kind = ARG_TRUE, FIELD(fio.version) },
	{ .name = "minimal", .cmds = IN(CMD_FIO),
	  .help = "fio's terse output, as --output-format=terse",
	  .kind = ARG_TRUE, FIELD(fio.minimal) },
	{ .name = "terse-version", .cmds = IN(CMD_FIO), .arg = "N",
	  .help = "version of the terse format: 3, fio's default, the one iodig writes",
	  .kind = ARG_CUSTOM, .parse = parse_terse_version, FIELD(fio.terse_version),
	  .values = "3", .complete = COMPLETE_WORD },
	{ .name = "eta", .cmds = IN(CMD_FIO), .arg = "WHEN",
	  .help = "when to show the status line (default auto: when stderr is a terminal)",
	  .kind = ARG_CUSTOM, .parse = parse_eta, FIELD(run.progress),
	  .values = "always never auto", .complete = COMPLETE_WORD },
	{ .name = "warnings-fatal", .cmds = IN(CMD_FIO),
	  .help = "accepted: every problem iodig's job parser finds is an error already",
	  .kind = ARG_TRUE, FIELD(fio.warnings_fatal) },
	{ .name = "readonly", .cmds = IN(CMD_FIO),
	  .help = "refuse every job that writes",
	  .kind = ARG_TRUE, FIELD(fio.readonly) },
	FIO_REFUSED("server", "fio's client/server mode is out of iodig's scope: run "
		    "iodig fio on the machine whose kernel is to be traced"),
	FIO_REFUSED("client", "fio's client/server mode is out of iodig's scope: run "
		    "iodig fio on the machine whose kernel is to be traced"),
	FIO_REFUSED("daemonize", "fio's server mode is out of iodig's scope"),
	FIO_REFUSED("remote-config", "fio's client/server mode is out of iodig's scope"),
	FIO_REFUSED("bandwidth-log", "iodig writes no aggregate bandwidth logs "
		    "(agg-read_bw.log); use the job option write_bw_log"),
	FIO_REFUSED("eta-newline", "iodig's status line has no newline mode; use --eta"),
	FIO_REFUSED("status-interval", "iodig prints no periodic full status"),
	FIO_REFUSED("debug", "fio's debug logging is fio's own; iodig's probes "
		    "show the kernel's side"),
	FIO_REFUSED("merge-blktrace-only", "iodig does not merge blktraces"),
	FIO_REFUSED("cpuclock-test", "iodig uses the kernel's clock_gettime only"),
	FIO_REFUSED("crctest", "iodig has no checksum speed test"),
	FIO_REFUSED("cmdhelp", "see iodig fio --help for every job option"),
	FIO_REFUSED("enghelp", "see iodig fio --help for every engine's options"),
	FIO_REFUSED("idle-prof", "iodig's sampling family shows where CPUs go"),
	FIO_REFUSED("inflate-log", "iodig writes no compressed logs"),
	FIO_REFUSED("trigger-file", "iodig has no triggers"),
	FIO_REFUSED("trigger-timeout", "iodig has no triggers"),
	FIO_REFUSED("trigger", "iodig has no triggers"),
	FIO_REFUSED("trigger-remote", "iodig has no triggers"),
	FIO_REFUSED("aux-path", "iodig keeps no state files beside the jobs"),

	/* iodig probe */
	{ .name = "target", .cmds = IN(CMD_PROBE), .arg = "PATH",
	  .help = "show the probes as they would trace the disk under PATH",
	  .kind = ARG_STRING, FIELD(probe_target), .complete = COMPLETE_FILE },
	{ .name = "mechanism", .cmds = IN(CMD_PROBE), .arg = "MECH",
	  .help = MECHANISM_HELP, .kind = ARG_WORD, FIELD(run.mechanism),
	  .values = MECHANISMS, .complete = COMPLETE_WORD },

	/* iodig diff */
	{ .name = "format", .cmds = IN(CMD_DIFF) | IN(CMD_AB), .arg = "FORMAT",
	  .help = "output format; md is Markdown (default text)",
	  .kind = ARG_CUSTOM, .parse = parse_diff_format, FIELD(diff.format),
	  .values = "text json md", .complete = COMPLETE_WORD },
	{ .name = "svg", .cmds = IN(CMD_DIFF) | IN(CMD_AB), .arg = "DIR",
	  .help = "differential flame graphs (B against A), the latency plot and "
		  "latency over time (each repeat) of every file into DIR",
	  .kind = ARG_STRING, FIELD(diff.svg_dir), .complete = COMPLETE_DIR },
	{ .name = "steady", .cmds = IN(CMD_DIFF) | IN(CMD_AB),
	  .help = "with --svg: mark as left out (ab: also compare the steady state's "
		  "figures, as run --steady) " STEADY_RULE,
	  .kind = ARG_TRUE, FIELD(diff.steady) },
	{ .name = "alpha", .cmds = IN(CMD_DIFF) | IN(CMD_AB), .arg = "P",
	  .help = "false discovery rate: rows are called changed when their "
		  "Benjamini-Hochberg q-value is below P (default "
		  STR(DIFF_DEFAULT_ALPHA) ")",
	  .kind = ARG_PROB, FIELD(diff.alpha), .min = 0, .max = 0.5 },
	{ .name = "min-change", .cmds = IN(CMD_DIFF) | IN(CMD_AB), .arg = "PCT",
	  .help = "changes smaller than PCT percent are never called changed (default "
		  STR(DIFF_DEFAULT_MIN_CHANGE) ")",
	  .kind = ARG_CUSTOM, .parse = parse_min_change, FIELD(diff.min_change) },
	{ .name = "all", .cmds = IN(CMD_DIFF) | IN(CMD_AB),
	  .help = "also the kernel rows with no significant change, and every figure by section",
	  .kind = ARG_TRUE, FIELD(diff.all) },
	{ .name = "fail-on", .cmds = IN(CMD_DIFF) | IN(CMD_AB), .arg = "METRIC[:PCT]",
	  .help = "exit 1 when B is significantly worse than A on METRIC (a key such as "
		  "lat_p99_ns or iops, or a row's label) by at least PCT percent (default "
		  "--min-change), 0 when not, 2 on error: for git bisect run",
	  .kind = ARG_CUSTOM, .parse = parse_fail_on, FIELD(diff.fail_on) },

	/* iodig ab: the run and diff options above, and these */
	{ .name = "repeat", .cmds = IN(CMD_AB), .arg = "N|auto[:PCT]",
	  .help = "runs of each side, in ABBA order (default " STR(AB_DEFAULT_RUNS) ").  auto: "
		  "pairs of runs until the 95% CI of IOPS, bandwidth and lat avg is within "
		  "PCT% (default " STR(REPEAT_AUTO_DEFAULT_PCT) ") of the mean on both sides, "
		  STR(REPEAT_AUTO_MIN) " to " STR(REPEAT_AUTO_MAX) " runs of each, and say which",
	  .kind = ARG_CUSTOM, .parse = parse_repeat, FIELD(repeat) },
	{ .name = "save-a", .cmds = IN(CMD_AB), .arg = "FILE",
	  .help = "trace file of side A (default ./iodig-runs/JOBFILE-A-TIME.json, JOBFILE "
		  "the job file's name without its extension)",
	  .kind = ARG_STRING, FIELD(save_a), .complete = COMPLETE_FILE },
	{ .name = "save-b", .cmds = IN(CMD_AB), .arg = "FILE",
	  .help = "trace file of side B (default ./iodig-runs/JOBFILE-B-TIME.json)",
	  .kind = ARG_STRING, FIELD(save_b), .complete = COMPLETE_FILE },

	/* iodig help */
	{ .name = "man", .cmds = IN(CMD_HELP),
	  .help = "print this manual page (troff) to stdout",
	  .kind = ARG_TRUE, FIELD(man) },
	{ .name = "bash-completion", .cmds = IN(CMD_HELP),
	  .help = "print the bash completion script to stdout",
	  .kind = ARG_TRUE, FIELD(bash_completion) },

	/* every subcommand */
	{ .name = "help", .cmds = IN_ALL,
	  .help = "show the subcommand's usage and options",
	  .kind = ARG_TRUE, FIELD(help) },
};

const size_t cli_nr_options = sizeof(cli_options) / sizeof(cli_options[0]);

const struct cli_command cli_commands[CMD_NR] = {
	[CMD_RUN] = {
		.name = "run",
		.synopsis = { "[OPTIONS] JOBFILE... [--key=value...]",
			      "[OPTIONS] --name=NAME --key=value..." },
		.summary = "run fio job files and trace the kernel's I/O path",
		.description =
			"Runs the jobs of fio job files (fio's INI dialect), or of fio's "
			"command-line form, while CO-RE eBPF programs trace the kernel "
			"paths that decide I/O latency, and prints fio's report with a "
			"kernel breakdown under it.  Job options given next to job files "
			"apply to every job in them.  A job with no filename= does its "
			"I/O on fio's files (jobname.N.M) in directory= or the current "
			"directory, as fio does; --target=scratch runs every job on a "
			"loop device on tmpfs that iodig creates and removes.  Each "
			"run writes a trace file for iodig diff.",
		.main = cmd_run,
	},
	[CMD_PROBE] = {
		.name = "probe",
		.synopsis = { "[OPTIONS]" },
		.summary = "show which kernel probes work here",
		.description =
			"Opens every probe family and hook, opt-in ones too, and prints "
			"which work on this kernel, with which mechanism, or why not.",
		.main = cmd_probe,
	},
	[CMD_DIFF] = {
		.name = "diff",
		.synopsis = { "[OPTIONS] A.json B.json [C.json...]" },
		.summary = "compare trace files of runs or kernels",
		.description =
			"Compares the trace files of two or more runs figure by figure "
			"against the first, with Welch's t-test where runs were "
			"repeated (iodig run --repeat).",
		.main = cmd_diff,
	},
	[CMD_AB] = {
		.name = "ab",
		.synopsis = { "[OPTIONS] A.fio B.fio [--key=value...]" },
		.summary = "run two job files alternately (ABBA) and diff them",
		.description =
			"Runs the jobs of two job files on this kernel alternately, in "
			"ABBA order (A B B A A B B A ...), so that the machine's drift "
			"over time falls on both sides alike instead of reading as a "
			"change; writes each side's trace file, every run's start time "
			"in it, and prints iodig diff of A against B.  Job options given "
			"beside the files apply to both.  An interrupted ab writes no "
			"trace file.",
		.main = cmd_ab,
	},
	[CMD_HELP] = {
		.name = "help",
		.synopsis = { "[SUBCOMMAND]", "--man | --bash-completion" },
		.summary = "show this help or a subcommand's; the manual, the completion",
		.description =
			"Prints the usage of every subcommand or of one; --man and "
			"--bash-completion print this manual page and the bash "
			"completion script, generated like the usage from iodig's option "
			"tables.",
		.main = cmd_help,
	},
	[CMD_FIO] = {
		.name = "fio",
		.synopsis = { "[FIO OPTIONS] JOBFILE... [--key=value...]",
			      "[FIO OPTIONS] --name=NAME --key=value..." },
		.summary = "fio's own command line, for scripts that call fio",
		.description =
			"Takes fio's command line (also when iodig is run through a link "
			"named fio): job files, job options, --output-format, --output, "
			"--section, --parse-only, --showcmd, --version, and runs the jobs "
			"as iodig run does, writing fio's output with the iodig section "
			"added.  Exit status as fio's: 0, 1 for an error, or the number of "
			"jobs that failed.  No trace "
			"file is written unless --save names one.  fio's client/server "
			"mode and the options iodig has no counterpart for are refused, "
			"each with the reason.",
		.main = cmd_fio,
	},
	[CMD_VERSION] = {
		.name = "version",
		.synopsis = { "" },
		.summary = "print iodig's version",
		.description = "Prints iodig's version (also iodig --version).",
		.main = cmd_version,
	},
};
