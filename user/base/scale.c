// SPDX-License-Identifier: GPL-2.0
#include "base/scale.h"

const struct scale_step scale_ns[] = {
	{ 1e9, 1e9, "s" },
	{ 1e6, 1e6, "ms" },
	{ 1e3, 1e3, "us" },
	{ 0, 1, "ns" },
};

const struct scale_step *scale_find(const struct scale_step *steps, double v)
{
	/* NaN reaches none but the last */
	while (steps->from > 0 && !(v >= steps->from))
		steps++;
	return steps;
}
