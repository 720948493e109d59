// SPDX-License-Identifier: GPL-2.0
/* The pictures of a run and of a diff, drawn from their trace files. */
#include <errno.h>
#include <stdio.h>

#include "analysis/pictures.h"
#include "analysis/tracefile.h"
#include "svg/svg.h"

int pictures_write_run(const struct tracefile *tf, const char *dir, struct errbuf *err)
{
	const struct hist *h[1] = { tf->clat };
	const char *names[1] = { tf->name };
	int ret;

	ret = svg_write_flame(dir, "oncpu.svg", "On-CPU in submission", "perf_event samples of the submitting calls",
			  tf->oncpu, tf->nr_oncpu, NULL, 0, err);
	if (!ret)
		ret = svg_write_flame(dir, "offcpu.svg", "Off-CPU: context switches", "switches of the workload by blocking stack",
				  tf->offcpu, tf->nr_offcpu, NULL, 0, err);
	if (!ret)
		ret = svg_write_latency(dir, h, names, 1, err);
	return ret;
}

int pictures_write_diff(const struct tracefile *const *tf, size_t n, const char *dir,
		   struct errbuf *err)
{
	const struct hist *h[8];
	const char *names[8];
	char sub[600];
	int ret;

	if (n < 2)
		return err_set(err, EINVAL, "option --svg: a diff needs two trace files");
	snprintf(sub, sizeof(sub), "width: B (%s); red: grew, blue: shrank against A (%s)",
		 tf[1]->name, tf[0]->name);
	ret = svg_write_flame(dir, "oncpu-diff.svg", "Differential on-CPU in submission", sub,
			  tf[1]->oncpu, tf[1]->nr_oncpu, tf[0]->oncpu, tf[0]->nr_oncpu, err);
	if (!ret)
		ret = svg_write_flame(dir, "offcpu-diff.svg", "Differential off-CPU: context switches", sub,
				  tf[1]->offcpu, tf[1]->nr_offcpu, tf[0]->offcpu, tf[0]->nr_offcpu, err);
	for (size_t i = 0; i < n && i < 8; i++) {
		h[i] = tf[i]->clat;
		names[i] = tf[i]->name;
	}
	if (!ret)
		ret = svg_write_latency(dir, h, names, n < 8 ? n : 8, err);
	return ret;
}
