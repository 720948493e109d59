/* SPDX-License-Identifier: GPL-2.0 */
#ifndef IODIG_OUTPUT_H
#define IODIG_OUTPUT_H

#include "base/errbuf.h"
#include "run/repeat.h"
#include "run/run.h"

/* Renders the formats in @o and writes them to stdout or o->output_path
 * (atomically: O_TMPFILE or a temp file, then rename). */
int output_report(const struct repeat_result *rep, const struct run_opts *o,
		  struct errbuf *err);

#endif /* IODIG_OUTPUT_H */
