// SPDX-License-Identifier: GPL-2.0
/*
 * `iodig ab`'s run order: both sides prepared up front, then one run of a
 * side at a time in ABBA order.  Plain alternation (A B A B) would still
 * give A the earlier run of every pair; ABBA balances a linear drift
 * over each cycle of four.
 */
#include "run/ab.h"
#include "run/group_probes.h"

enum ab_side ab_side_of_run(unsigned int k)
{
	return ((k + 1) / 2) % 2 ? AB_B : AB_A;
}

/* Both sides on the same scratch device, so that the diff compares the
 * configurations and not two devices, and the kernel's BTF parsed once. */
static void borrow_from_a(struct run_ctx *ctx[AB_SIDES])
{
	if (!ctx[AB_B]->scratch)
		ctx[AB_B]->scratch = ctx[AB_A]->scratch;
	if (!ctx[AB_B]->probe_cache)
		ctx[AB_B]->probe_cache = ctx[AB_A]->probe_cache;
}

void ab_release(struct run_ctx *ctx[AB_SIDES])
{
	if (ctx[AB_B]->scratch == ctx[AB_A]->scratch)
		ctx[AB_B]->scratch = NULL;
	if (ctx[AB_B]->probe_cache == ctx[AB_A]->probe_cache)
		ctx[AB_B]->probe_cache = NULL;
}

int ab_prepare(struct run_ctx *ctx[AB_SIDES], struct errbuf *err)
{
	int ret = run_prepare(ctx[AB_A], err);

	if (ret)
		return ret;
	borrow_from_a(ctx);
	return run_prepare(ctx[AB_B], err);
}

int ab_interrupted(struct run_ctx *ctx[AB_SIDES])
{
	return ctx[AB_A]->stop_signal ? ctx[AB_A]->stop_signal : ctx[AB_B]->stop_signal;
}

/* --repeat=auto: each side's verdict, both asked so both say why. */
static bool both_sure(struct repeat_result res[AB_SIDES], bool last)
{
	bool a = repeat_auto_enough(&res[AB_A], last);
	bool b = repeat_auto_enough(&res[AB_B], last);

	return a && b;
}

int ab_execute(struct run_ctx *ctx[AB_SIDES], const struct repeat_opts *o,
	       struct repeat_result res[AB_SIDES], struct errbuf *err)
{
	unsigned int total;
	int ret = repeat_begin(o, &res[AB_A], err);

	if (!ret)
		ret = repeat_begin(o, &res[AB_B], err);
	total = 2 * res[AB_A].asked;
	for (unsigned int k = 0; !ret && k < total; k++) {
		enum ab_side s = ab_side_of_run(k);

		borrow_from_a(ctx);
		/* the other side's probes are unloaded before this side's
		 * load: both sides are this process, and share tracefs */
		group_probes_settle(ctx[s == AB_A ? AB_B : AB_A]);
		ret = repeat_once(ctx[s], &res[s], err);
		if (ret || ab_interrupted(ctx))
			break;
		/* auto decides after whole pairs, so the order stays ABBA */
		if (k % 2 && both_sure(res, k + 1 == total))
			break;
	}
	return ret;
}
