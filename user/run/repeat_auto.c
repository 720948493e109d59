// SPDX-License-Identifier: GPL-2.0
/*
 * `--repeat=auto[:PCT]`: repeats until the headline figures are known to
 * within PCT percent (95% CI half-width over the mean, Student t), or
 * until REPEAT_AUTO_MAX repeats, as mmtests and the Phoronix Test Suite
 * run until their spread is small: a fixed count is too few on a noisy
 * machine and too many on a quiet one.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ttest.h"
#include "probes/figures.h"
#include "run/repeat.h"

/* The headline: a diff's first rows, bar the p99 (its CI needs far more
 * repeats than a mean's). */
static const char *const auto_keys[] = { "iops", "bw_kib", "lat_mean_ns" };

int repeat_parse(const char *s, struct repeat_opts *o, struct errbuf *err)
{
	char *end;

	if (!strncmp(s, "auto", 4) && (!s[4] || s[4] == ':')) {
		double pct = REPEAT_AUTO_DEFAULT_PCT;

		if (s[4]) {
			pct = strtod(s + 5, &end);
			if (*end == '%')
				end++;
			if (end == s + 5 || *end || !(pct > 0.0 && pct <= 100.0))
				return err_set(err, EINVAL, "option --repeat: '%s': the target after auto: is a percentage above 0 and up to 100 (auto:2%%)", s);
		}
		o->auto_pct = pct;
		o->count = REPEAT_AUTO_MAX;
		return 0;
	}
	errno = 0;
	o->count = (unsigned int)strtoul(s, &end, 10);
	if (!*s || *end || *s == '-' || errno || o->count < 1 || o->count > 1000)
		return err_set(err, EINVAL, "option --repeat: '%s' is not a number from 1 to 1000, nor auto[:PCT]", s);
	o->auto_pct = 0.0;
	return 0;
}

/* The widest relative CI half-width of the headline figures, in %, and
 * its figure's label. */
static double widest_ci(const struct repeat_result *res, const char **label)
{
	double *v = calloc(res->done ? res->done : 1, sizeof(double)), widest = 0.0;

	*label = "none";
	for (size_t k = 0; v && k < sizeof(auto_keys) / sizeof(auto_keys[0]); k++) {
		struct sample_summary s;
		const struct figure *f = NULL;
		size_t n = 0;
		double w;

		for (unsigned int i = 0; i < res->done; i++)
			if ((f = figure_find(&res->figures[i], auto_keys[k])))
				v[n++] = f->value;
		f = figure_find(&res->figures[res->done - 1], auto_keys[k]);
		sample_summarize(v, n, &s);
		if (n < 2 || !f || s.mean == 0.0)
			continue;
		w = 100.0 * s.ci95_half / fabs(s.mean);
		if (w >= widest) {
			widest = w;
			*label = f->def->label;
		}
	}
	free(v);
	return v ? widest : INFINITY;
}

bool repeat_auto_enough(struct repeat_result *res, bool last)
{
	const char *label;
	double w;

	if (!res->auto_pct || !res->done)
		return false;
	if (res->done < REPEAT_AUTO_MIN && !last)
		return false;
	w = widest_ci(res, &label);
	if (w <= res->auto_pct) {
		snprintf(res->auto_note, sizeof(res->auto_note),
			 "--repeat=auto:%g%%: target reached after %u repeats (widest 95%% CI: %s ±%.1f%%)",
			 res->auto_pct, res->done, label, w);
		return true;
	}
	if (last)
		snprintf(res->auto_note, sizeof(res->auto_note),
			 "--repeat=auto:%g%%: target NOT reached; stopped at the maximum of %u repeats (widest 95%% CI: %s ±%.1f%%)",
			 res->auto_pct, res->done, label, w);
	return false;
}
