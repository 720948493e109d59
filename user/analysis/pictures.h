/* SPDX-License-Identifier: GPL-2.0 */
/* --svg=DIR: the pictures of a run or of a diff, from trace files. */
#ifndef IODIG_PICTURES_H
#define IODIG_PICTURES_H

#include <stdbool.h>
#include <stddef.h>

#include "base/errbuf.h"

struct tracefile;

/* Lines of the latency-over-time chart at most (jobs x directions x
 * files x repeats); the last repeats' come first, so only earlier
 * repeats' are left out. */
#define PICTURES_MAX_LINES 64

/* --svg=DIR on run: DIR/oncpu.svg, DIR/offcpu.svg, DIR/latency.svg,
 * DIR/timeseries.svg (with @steady: the transient marked, --steady). */
int pictures_write_run(const struct tracefile *tf, const char *dir, bool steady,
		       struct errbuf *err);
/* --svg=DIR on diff: DIR/oncpu-diff.svg and DIR/offcpu-diff.svg (B against
 * A), DIR/latency.svg and DIR/timeseries.svg with every file overlaid. */
int pictures_write_diff(const struct tracefile *const *tf, size_t n, const char *dir,
			bool steady, struct errbuf *err);

#endif /* IODIG_PICTURES_H */
