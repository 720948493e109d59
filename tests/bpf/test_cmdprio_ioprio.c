// Real BPF on a real loop device: with cmdprio_percentage, the share of the block layer's requests that carry the cmdprio priority (struct request's ioprio at block_rq_issue) is the percentage within a binomial bound, for libaio and io_uring; without it none does.
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rq_ioprio.skel.h"
#include "tests/lib/check.h"
#include "tests/lib/loopdev.h"

#define NR_IOS     4000
#define LOOP_BYTES (64ull << 20)
/* fio's ioprio_value(class, level): what the requests must carry. */
#define PRIO_VALUE(cls, level) ((cls) << 13 | (level))

struct prio_case {
	const char *engine;
	unsigned int perc, cls, level;
};

/* Runs iodig's random 4 KiB O_DIRECT reads on @dev with @c's cmdprio
 * options; 0 when it exited 0. */
static int run_iodig(const char *dev, const struct prio_case *c)
{
	const char *iodig = getenv("IODIG") ? getenv("IODIG") : "build/iodig";
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "%s run --no-save --no-probes --no-progress --output=/dev/null "
		 "--name=prio --filename=%s --ioengine=%s --direct=1 "
		 "--rw=randread --bs=4k --iodepth=8 --number_ios=%d "
		 "--cmdprio_percentage=%u --cmdprio_class=%u --cmdprio=%u",
		 iodig, dev, c->engine, NR_IOS, c->perc, c->cls, c->level);
	return system(cmd) == 0 ? 0 : -1;
}

/* One case: loads the counter for @l, runs iodig, checks the share. */
static void check_case(const struct loopdev *l, const struct prio_case *c)
{
	struct rq_ioprio_bpf *skel = rq_ioprio_bpf__open();
	uint64_t total = 0, hit;
	double p = c->perc / 100.0, share, bound;

	CHECK_MSG(skel, "opening the test program failed");
	if (!skel)
		return;
	skel->rodata->targ_major = major(l->rdev);
	skel->rodata->targ_minor = minor(l->rdev);
	skel->rodata->want_ioprio = PRIO_VALUE(c->cls, c->level);
	if (rq_ioprio_bpf__load(skel) || rq_ioprio_bpf__attach(skel)) {
		rq_ioprio_bpf__destroy(skel);
		SKIP("tp_btf/block_rq_issue cannot be loaded or attached here");
	}
	CHECK_MSG(!run_iodig(l->path, c), "iodig failed (%s)", c->engine);
	for (int k = 0; k < 4; k++)
		total += skel->bss->by_class[k];
	hit = skel->bss->by_class[c->cls];
	share = total ? (double)hit / (double)total : 0;
	/* 4.5 standard deviations: a false failure about once in 150,000 */
	bound = 4.5 * sqrt(p * (1 - p) / (total ? (double)total : 1));
	fprintf(stderr, "%s cmdprio_percentage=%u: %llu of %llu requests in class "
		"%u (%.3f), exact value %llu\n", c->engine, c->perc,
		(unsigned long long)hit, (unsigned long long)total, c->cls, share,
		(unsigned long long)skel->bss->exact);
	CHECK_MSG(total >= NR_IOS, "%llu requests for %d reads",
		  (unsigned long long)total, NR_IOS);
	CHECK_MSG(fabs(share - p) <= bound, "share %.3f, want %.2f +- %.3f",
		  share, p, bound);
	CHECK_MSG(skel->bss->exact == hit, "%llu requests of class %u with "
		  "another level", (unsigned long long)(hit - skel->bss->exact), c->cls);
	rq_ioprio_bpf__destroy(skel);
}

int main(void)
{
	static const struct prio_case cases[] = {
		{ "libaio", 30, 1, 0 },   /* realtime, fio's example */
		{ "io_uring", 70, 3, 5 }, /* idle: a class the task never has */
		{ "libaio", 0, 3, 0 },    /* none: no request may be idle */
	};
	struct loopdev l = LOOPDEV_INIT;
	int ret;

	if (geteuid())
		SKIP("needs root (loop device, BPF)");
	ret = loopdev_create(&l, "cmdprio", LOOP_BYTES);
	if (ret)
		SKIP("no loop device: %s", strerror(-ret));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&l, &cases[i]);
	loopdev_destroy(&l);
	return CHECK_DONE();
}
