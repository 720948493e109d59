// SPDX-License-Identifier: GPL-2.0
/* iodig's usage text. */
#include <stdio.h>

#include "cli/cli.h"
#include "job/options.h"

void usage(FILE *out)
{
	fprintf(out,
"usage: iodig run [OPTIONS] JOBFILE...          run fio job files\n"
"       iodig run [OPTIONS] --name=NAME --key=value ...   fio command-line form\n"
"       iodig probe [--target=PATH] [--mechanism=M]      show which kernel probes work here\n"
"       iodig diff [--format=text|json|md] [--svg=DIR] [--alpha=P] A.json B.json [C.json...]\n"
"                                                compare trace files of runs or kernels\n"
"       iodig --version | --help\n"
"\n"
"Run options:\n"
"  --output-format=normal|json|normal,json   report format (default normal)\n"
"  --output=FILE          write the report to FILE (atomically) instead of stdout\n"
"  --target=PATH          run every job against PATH (overrides filename=)\n"
"  --allow-destructive    write to block devices that carry data or are in use\n"
"  --probes=SPEC          probe families: all, a list (block,sched) or changes to\n"
"                         the default set (+syscalls,-sampling)\n"
"  --detail               every family and hook (several times the BPF time per I/O)\n"
"  --sample-freq=HZ       kernel stack samples per second per CPU (default 99,\n"
"                         999 with --detail; at most 9999)\n"
"  --block-sample=N       time 1 in N block completions (1, 2, 4 ... 64; 1 times\n"
"                         every one; default: set from their rate, 1 with --detail)\n"
"  --no-probes            run the workload without kernel probes\n"
"  --probe-toggle=MS      measure what tracing costs this job: detach and attach\n"
"                         the probes in alternate MS ms phases (20 to 60000) and\n"
"                         report IOPS traced / untraced with a 95%% CI\n"
"  --probe-toggle-settle=MS  with --probe-toggle: time left unmeasured after each\n"
"                         switch, for the job to settle (0 to 60000, default 25)\n"
"  --mechanism=M          force a probe mechanism (fentry, kprobe, tp_btf, raw_tp, tracepoint)\n"
"  --bpf-stats            measure the probes' own BPF time per I/O (kernel bpf_stats)\n"
"  --stacks=N             print the top N full kernel stacks per family\n"
"  --progress, --no-progress   status line (default: when stderr is a terminal)\n"
"  --scratch-size=SIZE    size of the built-in scratch target (default 512m)\n"
"  --save=FILE            trace file for iodig diff (default ./iodig-runs/JOB-TIME.json)\n"
"  --no-save              write no trace file\n"
"  --repeat=N             run the jobs N times; report mean, stdev, 95%% CI\n"
"  --repeat-delay=TIME    pause between repeats (e.g. 5s, 500ms)\n"
"  --svg=DIR              flame graphs (on-CPU, off-CPU) and latency plot into DIR\n"
"  --folded=FILE          folded stacks (\"a;b;c count\") into FILE\n"
"\n"
"A job with no filename= or directory= runs on a scratch loop device on tmpfs\n"
"that iodig creates and removes.  Job options (job files and --key=value):\n\n");
	options_print_help(out);
}
