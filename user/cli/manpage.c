// SPDX-License-Identifier: GPL-2.0
/*
 * iodig.1: the manual page, in troff with man(7) macros, generated from the
 * subcommand and option tables (and job/options.c's for the job options)
 * by `iodig help --man`; `make` writes it to $(OUT)/iodig.1.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "job/options.h"

/* Text as troff takes it: backslashes and hyphens escaped, and a line
 * that would start with a control character made plain. */
static void man_text(FILE *out, const char *text)
{
	if (*text == '.' || *text == '\'')
		fputs("\\&", out);
	for (const char *p = text; *p; p++) {
		if (*p == '\\')
			fputs("\\e", out);
		else if (*p == '-')
			fputs("\\-", out);
		else
			fputc(*p, out);
	}
}

/* A help fragment as a sentence: capital first letter, final period. */
static void man_sentence(FILE *out, const char *text)
{
	if (!*text)
		return;
	fputc(toupper((unsigned char)text[0]), out);
	man_text(out, text + 1);
	fputs(".\n", out);
}

/* "\fB\-\-name\fR=\fIARG\fR" as the .TP tag of an option. */
static void man_option_tag(FILE *out, const char *name, const char *arg)
{
	fputs(".TP\n\\fB\\-\\-", out);
	man_text(out, name);
	fputs("\\fR", out);
	if (arg) {
		fputs("=\\fI", out);
		man_text(out, arg);
		fputs("\\fR", out);
	}
	fputc('\n', out);
}

static void man_option(FILE *out, const struct cli_option *opt)
{
	char what[256], sentence[300];

	man_option_tag(out, opt->name, opt->arg);
	man_sentence(out, opt->help);
	cli_value_phrase(opt, what, sizeof(what));
	if (what[0]) {
		snprintf(sentence, sizeof(sentence), "%s is %s", opt->arg, what);
		man_sentence(out, sentence);
	}
}

static void man_synopsis(FILE *out)
{
	fputs(".SH SYNOPSIS\n", out);
	for (int c = 0; c < CMD_NR; c++) {
		for (int i = 0; i < 2 && cli_commands[c].synopsis[i]; i++) {
			fprintf(out, ".B iodig %s\n", cli_commands[c].name);
			if (cli_commands[c].synopsis[i][0]) {
				man_text(out, cli_commands[c].synopsis[i]);
				fputc('\n', out);
			}
			fputs(".br\n", out);
		}
	}
	fputs(".B iodig \\-\\-version\n.br\n.B iodig \\-\\-help\n", out);
}

static void man_commands(FILE *out)
{
	fputs(".SH COMMANDS\n", out);
	for (int c = 0; c < CMD_NR; c++) {
		fprintf(out, ".TP\n.B %s\n", cli_commands[c].name);
		man_text(out, cli_commands[c].description);
		fputc('\n', out);
	}
}

static void man_options(FILE *out)
{
	fputs(".SH OPTIONS\n"
	      "Every option that takes a value takes it as\n"
	      ".BI \\-\\-option= value\n"
	      "or as the next argument,\n"
	      ".BI \\-\\-option \" value\\fR.\"\n", out);
	for (int c = 0; c < CMD_NR; c++) {
		bool any = false;

		for (size_t i = 0; i < cli_nr_options; i++) {
			const struct cli_option *opt = &cli_options[i];

			if (!(opt->cmds & IN(c)) || opt->cmds == IN_ALL)
				continue;
			if (!any)
				fprintf(out, ".SS \"iodig %s\"\n", cli_commands[c].name);
			any = true;
			man_option(out, opt);
		}
	}
	fputs(".SS \"Every subcommand\"\n", out);
	for (size_t i = 0; i < cli_nr_options; i++)
		if (cli_options[i].cmds == IN_ALL)
			man_option(out, &cli_options[i]);
}

static void man_job_option(const struct opt_doc *d, void *arg)
{
	FILE *out = arg;

	man_option_tag(out, d->name, d->arg);
	man_text(out, d->help);   /* capitalised as the job table writes it */
	fputs(".\n", out);
	if (d->def) {
		fputs("Default ", out);
		man_text(out, d->def);
		fputs(".\n", out);
	}
	if (d->alias) {
		fputs("Alias \\fB", out);
		man_text(out, d->alias);
		fputs("\\fR.\n", out);
	}
	if (d->has_range)
		fprintf(out, "From %llu to %llu.\n", (unsigned long long)d->min,
			(unsigned long long)d->max);
	if (d->values[0]) {
		fputs("One of ", out);
		man_text(out, d->values);
		fputs(".\n", out);
	}
	if (d->engines[0]) {
		fputs("With ioengine ", out);
		man_text(out, d->engines);
		fputs(" only.\n", out);
	}
}

static void man_job_options(FILE *out)
{
	fputs(".SH \"JOB OPTIONS\"\n"
	      "Job options are fio's: \\fIkey\\fR=\\fIvalue\\fR lines in a job file, or\n"
	      ".BI \\-\\- key = value\n"
	      "arguments of\n"
	      ".BR \"iodig run\" .\n"
	      "Given next to job files they apply to every job in them; with\n"
	      ".B \\-\\-name\n"
	      "the command line holds jobs of its own, each\n"
	      ".B \\-\\-name\n"
	      "starting one.\n"
	      "SIZE takes k, m, g, t and p suffixes, powers of 1024, and KiB,\n"
	      "MiB ... powers of 1000, as fio does (kb_base=1000 swaps them);\n"
	      "TIME takes us, ms, s, m, h and d;\n"
	      "a BOOL given bare means 1.\n", out);
	job_options_foreach(man_job_option, out);
}

static const char man_head[] =
	".SH NAME\n"
	"iodig \\- run fio workloads and trace the kernel's I/O path under them\n";

static const char man_description[] =
	".SH DESCRIPTION\n"
	".B iodig\n"
	"answers where the time of one I/O goes in the kernel, and what changed\n"
	"between two kernels.\n"
	"It runs fio-style workloads itself and, while they run, CO-RE eBPF\n"
	"programs trace the kernel paths that decide I/O latency.\n"
	"The report reads like fio's, text and JSON with the same field names,\n"
	"with a kernel breakdown under it; each run also writes a trace file that\n"
	".B iodig diff\n"
	"compares.\n"
	"It runs as root: it loads BPF programs and makes loop devices.\n";

static const char man_tail[] =
	".SH ENVIRONMENT\n"
	".TP\n.B IODIG_DISABLE\n"
	"A comma list of probe families (such as block) or mechanisms (such as\n"
	"tp_btf or kprobe.multi) to treat as unavailable on this kernel, to see\n"
	"the fallbacks at work.\n"
	".TP\n.B IODIG_BTF\n"
	"The kernel's BTF for CO\\-RE relocations, instead of\n"
	".IR /sys/kernel/btf/vmlinux .\n"
	".TP\n.B IODIG_SCHED_STACK_PERIOD\n"
	"The sched family takes the kernel stack of 1 in this many context\n"
	"switches, fixed, instead of a period that follows the switch rate.\n"
	".TP\n.B IODIG_DEBUG\n"
	"When set and not 0, libbpf's messages go to stderr; otherwise only the\n"
	"first warning is kept, as a probe's reason.\n"
	".TP\n.B IODIG_RUNS_DIR\n"
	"The folder of trace files written without\n"
	".BR \\-\\-save ,\n"
	"instead of\n"
	".IR ./iodig\\-runs .\n"
	".PP\n"
	"Job files expand ${\\fIVAR\\fR} from the environment, as fio does.\n"
	".SH \"EXIT STATUS\"\n"
	".TP\n.B 0\n"
	"The run, the comparison or the listing worked.\n"
	".TP\n.B 1\n"
	"A job failed, or running, reporting or comparing failed.\n"
	".TP\n.B 2\n"
	"A usage error: an unknown option, a bad value, a bad job file, or a\n"
	"target that cannot be used, the write guard's refusal included.\n"
	".TP\n.B 128+N\n"
	"A run stopped by signal N (SIGINT, SIGTERM or SIGHUP); its report\n"
	"covers the I/O done until then.\n"
	".SH FILES\n"
	".TP\n.I ./iodig\\-runs/JOB\\-TIME.json\n"
	"The trace file of each run, for\n"
	".BR \"iodig diff\" .\n"
	".TP\n.I /dev/shm/iodig\\-scratch\\-PID\\-N\n"
	"The sparse backing file of the scratch loop device that\n"
	"\\-\\-target=scratch runs every job on (\\fI/run\\fR when /dev/shm is not\n"
	"tmpfs); removed after the run, or by the next run after a kill.\n"
	".TP\n.I PREFIX/share/iodig/jobs/*.fio\n"
	"Job files of known kernel I/O questions, installed by make install\n"
	"(PREFIX is /usr/local unless the installation chose another).\n"
	".SH EXAMPLES\n"
	"Run the default job on a scratch loop device:\n"
	".PP\n.RS\n.nf\n"
	"iodig run jobs/default.fio \\-\\-target=scratch\n"
	".fi\n.RE\n.PP\n"
	"fio's command-line form, against a device:\n"
	".PP\n.RS\n.nf\n"
	"iodig run \\-\\-name=x \\-\\-filename=/dev/loop0 \\-\\-rw=randread \\-\\-bs=4k \\e\n"
	"    \\-\\-ioengine=io_uring \\-\\-iodepth=32 \\-\\-runtime=5 \\-\\-time_based\n"
	".fi\n.RE\n.PP\n"
	"Five repeats on each kernel, then the comparison:\n"
	".PP\n.RS\n.nf\n"
	"iodig run jobs/default.fio \\-\\-repeat 5 \\-\\-save old.json\n"
	"iodig run jobs/default.fio \\-\\-repeat 5 \\-\\-save new.json\n"
	"iodig diff \\-\\-format md old.json new.json\n"
	".fi\n.RE\n.PP\n"
	"Which probes work on this kernel:\n"
	".PP\n.RS\n.nf\n"
	"iodig probe\n"
	".fi\n.RE\n"
	".SH \"SEE ALSO\"\n"
	".BR fio (1),\n"
	".BR bpftool (8)\n";

void cli_print_man(FILE *out)
{
	fprintf(out, ".\\\" Generated by `iodig help --man` from iodig's option tables.\n"
		".TH IODIG 1 \"\" \"iodig %s\" \"User Commands\"\n"
		/* no hyphenation, ragged right: option names stay whole */
		".nh\n.ad l\n", IODIG_VERSION);
	fputs(man_head, out);
	man_synopsis(out);
	fputs(man_description, out);
	man_commands(out);
	man_options(out);
	man_job_options(out);
	fputs(man_tail, out);
}
