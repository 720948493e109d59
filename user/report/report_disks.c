// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of fio's "Disk stats": each watched disk's counters over the
 * run, and for an md or dm device the aggregate of the disks under it.
 */
#include <stdio.h>
#include <string.h>

#include "report/report.h"

void report_disk_fill(struct report_disk *d, const char *name, int master,
		      const struct disk_counters *before,
		      const struct disk_counters *after, uint64_t span_ms)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->master = master;
	for (int k = 0; k < 2; k++) {
		d->delta.ios[k] = after->ios[k] - before->ios[k];
		d->delta.merges[k] = after->merges[k] - before->merges[k];
		d->delta.sectors[k] = after->sectors[k] - before->sectors[k];
		d->delta.ticks[k] = after->ticks[k] - before->ticks[k];
	}
	d->delta.io_ticks = after->io_ticks - before->io_ticks;
	d->delta.time_in_queue = after->time_in_queue - before->time_in_queue;
	d->util_pct = span_ms ? 100.0 * (double)d->delta.io_ticks / (double)span_ms : 0;
	if (d->util_pct > 100.0)
		d->util_pct = 100.0;
}

/*
 * fio's: the counters of a master's slaves summed and divided by their
 * number (integer division, as fio prints them), its util the busiest
 * slave's, since the busiest member bounds an array.
 */
void report_disks_aggregate(struct report_disk *disks, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		memset(&disks[i].slaves_avg, 0, sizeof(disks[i].slaves_avg));
		disks[i].nr_slaves = 0;
		disks[i].slaves_util_pct = 0;
	}
	/* the sums first, in slaves_avg */
	for (size_t i = 0; i < nr; i++) {
		const struct report_disk *s = &disks[i];
		struct disk_counters *sum;
		struct report_disk *m;

		/* fio lists a master before its slaves */
		if (s->master < 0 || (size_t)s->master >= i)
			continue;
		m = &disks[s->master];
		sum = &m->slaves_avg;
		for (int k = 0; k < 2; k++) {
			sum->ios[k] += s->delta.ios[k];
			sum->merges[k] += s->delta.merges[k];
			sum->sectors[k] += s->delta.sectors[k];
			sum->ticks[k] += s->delta.ticks[k];
		}
		sum->time_in_queue += s->delta.time_in_queue;
		m->nr_slaves++;
		if (s->util_pct > m->slaves_util_pct)
			m->slaves_util_pct = s->util_pct;
	}
	for (size_t i = 0; i < nr; i++) {
		struct disk_counters *avg = &disks[i].slaves_avg;
		unsigned int n = disks[i].nr_slaves;

		if (!n)
			continue;
		for (int k = 0; k < 2; k++) {
			avg->ios[k] /= n;
			avg->merges[k] /= n;
			avg->sectors[k] /= n;
			avg->ticks[k] /= n;
		}
		avg->time_in_queue /= n;
	}
}
