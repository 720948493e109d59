// SPDX-License-Identifier: GPL-2.0
/*
 * fio's json+ "bins": the latency histogram itself, keyed by each bin's
 * value in ns, so fio_jsonplus_clat2csv and friends can rebuild any
 * percentile.  Only non-empty bins are listed, as fio lists them.
 */
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "report/report_jsonplus.h"

struct json_object *jsonplus_bins(const struct hist *h)
{
	struct json_object *o = json_object_new_object();
	uint64_t *bins = calloc(FIO_PLAT_NR, sizeof(*bins));

	if (!o || !bins)
		goto fail;
	hist_fio_bins(h, bins);
	for (unsigned int i = 0; i < FIO_PLAT_NR; i++) {
		char key[32];

		if (!bins[i])
			continue;
		snprintf(key, sizeof(key), "%llu",
			 (unsigned long long)iodig_hist_slot_mid(i));
		if (json_object_object_add(o, key, json_object_new_int64((int64_t)bins[i])))
			goto fail;
	}
	free(bins);
	return o;
fail:
	free(bins);
	json_object_put(o);
	return NULL;
}
