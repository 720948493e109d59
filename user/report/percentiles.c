// SPDX-License-Identifier: GPL-2.0
/* Which latency percentiles a job's report shows, and at which points. */
#include "report/percentiles.h"

void pct_list_of(const struct job *job, struct pct_list *out)
{
	if (job && job->stat.nr_percentiles) {
		out->v = job->stat.percentiles;
		out->n = job->stat.nr_percentiles;
		out->precision = job->stat.precision;
		return;
	}
	out->v = fio_percentiles;
	out->n = FIO_PERCENTILES_NR;
	out->precision = 2;
}

bool pct_wanted(const struct job *job, enum lat_kind kind, const struct hist *h)
{
	bool on;

	if (!h || !h->total)
		return false;
	if (!job)
		return kind == LAT_CLAT;
	on = kind == LAT_SLAT ? job->stat.slat_percentiles :
	     kind == LAT_CLAT ? job->stat.clat_percentiles :
	     job->stat.lat_percentiles;
	return on;
}
