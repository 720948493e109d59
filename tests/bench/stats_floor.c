// SPDX-License-Identifier: GPL-2.0
/*
 * Bench tool for tests/bench/overhead.sh: runs a command with empty BPF
 * programs attached beside it (tests/bpf/progs/stats_floor.bpf.c) and
 * bpf_stats enabled, then writes each program's run count and run time
 * over the command to OUTFILE, one line each:
 *   <program> <run_cnt> <run_time_ns>
 * What an empty program's run costs is bpf_stats' own share of every
 * program run (its clock reads and the dispatch); measured on the same
 * events as the command's tracer, it moves with the machine's load as
 * the tracer's figures do.  Attached before the command starts, the
 * empty programs run first at each shared event: they, not the tracer,
 * meet the event's cold dispatch path, so net = gross - floor is what the
 * tracer's programs add beyond an empty one.
 *
 * usage: stats_floor OUTFILE COMMAND [ARG...]; exits with COMMAND's status.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "stats_floor.skel.h"
#include "probes/tracefs.h"

/* More than the object holds. */
#define MAX_PROGS 8

struct prog_stats {
	unsigned long long cnt, ns;
};

static int read_stats(struct bpf_program *p, struct prog_stats *s)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len))
		return -errno;
	s->cnt = info.run_cnt;
	s->ns = info.run_time_ns;
	return 0;
}

/* Runs argv to its end; its exit status, or 1 when it could not run. */
static int run_command(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "stats_floor: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Each program's stats into @s, in the object's order. */
static int read_all(struct stats_floor_bpf *skel, struct prog_stats *s)
{
	struct bpf_program *p;
	int n = 0;

	bpf_object__for_each_program(p, skel->obj)
		if (n >= MAX_PROGS || read_stats(p, &s[n++]))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct prog_stats before[MAX_PROGS], after[MAX_PROGS];
	struct stats_floor_bpf *skel = NULL;
	struct bpf_program *p;
	int stats_fd = -1, rc = 1, n = 0;
	bool mounted = false;
	struct errbuf why = { 0 };
	FILE *out = NULL;

	if (argc < 3) {
		fprintf(stderr, "usage: stats_floor OUTFILE COMMAND [ARG...]\n");
		return 2;
	}
	/* the classic tracepoint's program finds its event in tracefs */
	if (tracefs_mount(&mounted, &why))
		fprintf(stderr, "stats_floor: %s\n", why.msg);
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	skel = stats_floor_bpf__open_and_load();
	if (stats_fd < 0 || !skel || stats_floor_bpf__attach(skel) || read_all(skel, before)) {
		fprintf(stderr, "stats_floor: cannot enable stats or attach the empty programs\n");
		goto out;
	}
	rc = run_command(argv + 2);
	if (read_all(skel, after) || !(out = fopen(argv[1], "w"))) {
		fprintf(stderr, "stats_floor: cannot read the stats or open %s\n", argv[1]);
		rc = 1;
		goto out;
	}
	bpf_object__for_each_program(p, skel->obj) {
		fprintf(out, "%s %llu %llu\n", bpf_program__name(p),
			after[n].cnt - before[n].cnt, after[n].ns - before[n].ns);
		n++;
	}
	if (fclose(out)) {
		fprintf(stderr, "stats_floor: cannot write %s\n", argv[1]);
		rc = 1;
	}
out:
	stats_floor_bpf__destroy(skel);
	if (stats_fd >= 0)
		close(stats_fd);
	tracefs_unmount(mounted);
	return rc;
}
