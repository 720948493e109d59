/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's verify state file (verify_state_save / verify_state_load), in fio
 * 3.33's format (version 3): how many writes a job issued and the offsets
 * of its last completed ones, so that a later verify run stops where the
 * writing stopped.  The file is named as fio names it,
 * local-JOBNAME-INDEX-verify.state in the current directory, and fio's
 * fio-verify-state tool reads it.  fio also stores its offset generator's
 * state there; iodig's generator is not fio's, so that part is zeros (fio
 * does not use it to decide what to verify).
 */
#ifndef IODIG_VERIFY_STATE_H
#define IODIG_VERIFY_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"

#define VSTATE_NAME_LEN 64

struct verify_state {
	char name[VSTATE_NAME_LEN];
	uint32_t depth;           /* the job's iodepth */
	uint64_t numberio;        /* writes issued */
	uint64_t index;           /* fio's thread_number - 1 */
	uint32_t nr_comps;
	uint64_t *comps;          /* last completed write offsets, newest first */
};

/* "local-NAME-INDEX-verify.state" */
void verify_state_path(const char *name, uint64_t index, char *buf, size_t len);

int verify_state_save(const struct verify_state *s, struct errbuf *err);
/* Loads the file of job @name numbered @index (comps allocated: free
 * them); -errno with a message naming the file when it is missing, of
 * another version or corrupt. */
int verify_state_load(struct verify_state *s, const char *name,
		      uint64_t index, struct errbuf *err);

/* fio's verify_state_should_stop: true once a verify read at @offset is
 * past what the saved state says was surely written (@reads_done reads
 * verified so far). */
bool verify_state_should_stop(const struct verify_state *s,
			      uint64_t reads_done, uint64_t offset);

#endif /* IODIG_VERIFY_STATE_H */
