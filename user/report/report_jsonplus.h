/* SPDX-License-Identifier: GPL-2.0 */
/* fio's --output-format=json+ additions to the JSON report. */
#ifndef IODIG_REPORT_JSONPLUS_H
#define IODIG_REPORT_JSONPLUS_H

#include "workload/stats.h"

struct json_object;

/* fio's "bins": {"<ns value of the bin>": count} for every non-empty bin
 * of fio's 1856-bin histogram; NULL when out of memory. */
struct json_object *jsonplus_bins(const struct hist *h);

#endif /* IODIG_REPORT_JSONPLUS_H */
