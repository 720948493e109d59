/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's random_distribution=random | zipf[:theta] | pareto[:h] |
 * normal[:dev] | zoned:A/S:... | zoned_abs:A/SIZE:..., with fio 3.33's
 * defaults, ranges and zone percentage rules (its
 * str_random_distribution_cb and zone_split_ddir), and the newer
 * sequence:a,b,... (fio after 3.33, its parse_sequence_distribution).
 */
#ifndef IODIG_RANDOM_DIST_OPT_H
#define IODIG_RANDOM_DIST_OPT_H

#include <stddef.h>

#include "workload/job.h"

/* Parses @value into @out; -EINVAL with the reason in @why. */
int random_dist_parse(const char *value, unsigned int kb_base,
		      struct rand_dist_opts *out, char *why, size_t why_len);

#endif /* IODIG_RANDOM_DIST_OPT_H */
