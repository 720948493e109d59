/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `iodig ab A B`: two configurations run alternately on one kernel, in
 * ABBA order (A B B A A B B A ...), so that drift of the machine over
 * time (a warming cache, another tenant, thermal limits) falls on both
 * sides alike instead of reading as a change between them.  Each side is
 * a run context of its own, repeated with repeat_once(); B shares A's
 * scratch device and parsed kernel symbols.
 */
#ifndef IODIG_AB_H
#define IODIG_AB_H

#include <stdbool.h>

#include "base/errbuf.h"
#include "run/repeat.h"
#include "run/run.h"

enum ab_side { AB_A, AB_B, AB_SIDES };

/* Runs of each side when --repeat is not given: the first full ABBA
 * cycle, A B B A A B B A. */
#define AB_DEFAULT_RUNS 4

/* The side that takes run @k (from 0) of the sequence A B B A A B B A. */
enum ab_side ab_side_of_run(unsigned int k);

/* run_prepare() of both sides; B's scratch device is A's. */
int ab_prepare(struct run_ctx *ctx[AB_SIDES], struct errbuf *err);
/* @o->count runs of each side in ABBA order; with --repeat=auto, pairs
 * until both sides' headline CIs are within the target (repeat_auto.c).
 * Returns 0 also when a signal stopped it: ab_interrupted() says so. */
int ab_execute(struct run_ctx *ctx[AB_SIDES], const struct repeat_opts *o,
	       struct repeat_result res[AB_SIDES], struct errbuf *err);
/* The signal that stopped either side, 0 when none did. */
int ab_interrupted(struct run_ctx *ctx[AB_SIDES]);
/* Hands back what B borrowed from A, before both are cleaned up. */
void ab_release(struct run_ctx *ctx[AB_SIDES]);

#endif /* IODIG_AB_H */
