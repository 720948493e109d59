// cmdprio's choice as fio's (and at most 7 distinct priorities per direction, whose latency iodig keeps apart): cmdprio_bssplit's advanced entries give each block size its priorities in their shares (fio's cmdprio-bssplit.fio example), 0% entries and other sizes none, cmdprio_percentage per direction with the realtime default; malformed values refused.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workload/engines/cmdprio.h"
#include "tests/lib/check.h"

#define DRAWS 20000

struct opts_holder {
	struct cmdprio_opts cp;
};

static const struct opt_desc table[] = {
	CMDPRIO_OPTIONS(struct opts_holder, cp),
	{ .name = NULL },
};

static int give(struct opts_holder *h, const char *key, const char *value)
{
	struct errbuf err;

	return opt_set(h, opt_find(table, key), value, "test", &err);
}

/* Share of @n draws of a @len-byte @ddir I/O that get @prio. */
static double share(struct cmdprio *cp, enum ddir ddir, uint32_t len, uint16_t prio)
{
	unsigned int hit = 0;

	for (int i = 0; i < DRAWS; i++) {
		const struct cmdprio_entry *e = cmdprio_pick(cp, ddir, len);

		hit += e && e->ioprio == prio;
	}
	return (double)hit / DRAWS;
}

/* within 4.5 binomial standard deviations of @p */
static int near(double got, double p)
{
	return fabs(got - p) <= 4.5 * sqrt(p * (1 - p) / DRAWS) + 1e-9;
}

int main(void)
{
	struct job job = { .kb_base = 1024, .name = "t" };
	struct opts_holder h;
	struct cmdprio cp;
	struct errbuf err;

	memset(&h, 0, sizeof(h));
	CHECK(!give(&h, "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2:1024k/0,1024k/0"));
	CHECK(!cmdprio_init(&cp, &h.cp, &job, 1, &err) && cp.on);
	CHECK(near(share(&cp, DDIR_READ, 65536, cmdprio_value(1, 1, 0)), 0.25));
	CHECK(near(share(&cp, DDIR_READ, 65536, cmdprio_value(3, 2, 0)), 0.75));
	CHECK(share(&cp, DDIR_READ, 1 << 20, 0) == 0 && !cmdprio_pick(&cp, DDIR_WRITE, 1 << 20));

	/* simple entries take cmdprio_class/cmdprio; the hint field (3.36) */
	memset(&h, 0, sizeof(h));
	CHECK(!give(&h, "cmdprio_class", "2") && !give(&h, "cmdprio", "5"));
	CHECK(!give(&h, "cmdprio_bssplit", "4k/40:8k/100/2/0/3"));
	CHECK(!cmdprio_init(&cp, &h.cp, &job, 2, &err));
	CHECK(near(share(&cp, DDIR_WRITE, 4096, cmdprio_value(2, 5, 0)), 0.40));
	CHECK(share(&cp, DDIR_WRITE, 8192, cmdprio_value(2, 0, 3)) == 1.0);

	/* cmdprio_percentage per direction, realtime unless a class is given */
	memset(&h, 0, sizeof(h));
	CHECK(!give(&h, "cmdprio_percentage", "30,0") && !give(&h, "cmdprio_hint", "1"));
	CHECK(!cmdprio_init(&cp, &h.cp, &job, 3, &err));
	CHECK(near(share(&cp, DDIR_READ, 4096, cmdprio_value(1, 0, 1)), 0.30));
	CHECK(share(&cp, DDIR_WRITE, 4096, cmdprio_value(1, 0, 1)) == 0);

	/* refusals */
	memset(&h, 0, sizeof(h));
	CHECK(give(&h, "cmdprio_percentage", "101") < 0);
	CHECK(give(&h, "cmdprio_class", "0") < 0 && give(&h, "cmdprio", "8") < 0);
	CHECK(give(&h, "cmdprio_bssplit", "4k/60/1/1:4k/50") < 0);
	CHECK(give(&h, "cmdprio_bssplit", "4k/10/1") < 0);
	CHECK(give(&h, "cmdprio_bssplit", "zz/10") < 0);
	/* iodig keeps the latency of 8 priorities per direction: 7 of cmdprio */
	CHECK(!give(&h, "cmdprio_bssplit", "4k/1/1/0:4k/1/1/1:4k/1/1/2:4k/1/1/3:"
		    "4k/1/1/4:4k/1/1/5:4k/1/1/6:8k/1/1/6"));
	CHECK(opt_set(&h, opt_find(table, "cmdprio_bssplit"), "4k/1/1/0:4k/1/1/1:"
		      "4k/1/1/2:4k/1/1/3:4k/1/1/4:4k/1/1/5:4k/1/1/6:4k/1/1/7",
		      "t", &err) < 0 && strstr(err.msg, "distinct priorities"));
	CHECK(!give(&h, "cmdprio_percentage", "5") && !give(&h, "cmdprio_bssplit", "4k/10"));
	CHECK(cmdprio_check(&h.cp, "t", &err) < 0 && strstr(err.msg, "exclude each other"));
	return CHECK_DONE();
}
