/* SPDX-License-Identifier: GPL-2.0 */
/* A figure as people read it: in the largest unit of a ladder it reaches. */
#ifndef IODIG_SCALE_H
#define IODIG_SCALE_H

/* One rung: from @from up, a value is shown divided by @div, as @name. */
struct scale_step {
	double from;
	double div;
	const char *name;
};

/* The rung of @steps (largest first, the last with from 0) that @v, not
 * negative, reaches. */
const struct scale_step *scale_find(const struct scale_step *steps, double v);

/* Nanoseconds: s, ms, us, ns. */
extern const struct scale_step scale_ns[];

#endif /* IODIG_SCALE_H */
