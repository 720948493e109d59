/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The writes a job still has to verify (fio's io_hist list and tree).
 * Random writes with a random map are verified in the order they were
 * written; otherwise (sequential writes, norandommap) in offset order, a
 * newer write replacing an older one that overlaps it, so a block
 * written twice is checked once, against its last contents.
 */
#ifndef IODIG_VERIFY_LOG_H
#define IODIG_VERIFY_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vlog_entry {
	uint32_t file;       /* among the job's files; order is (file, offset) */
	uint64_t offset;
	uint64_t seq;        /* order of completion, for overlaps */
	uint32_t len;
	uint16_t numberio;
};

struct verify_log {
	struct vlog_entry *e;
	size_t head, tail, cap;  /* pending entries are e[head..tail) */
	bool by_offset;          /* fio's tree: offset order, no overlaps */
	bool sorted;             /* e[head..tail) is in offset order */
	size_t compact_at;       /* tree: sort and drop overlaps past this */
	uint64_t seq;
};

void vlog_init(struct verify_log *l, bool by_offset);
void vlog_free(struct verify_log *l);
/* Logs a completed write; -ENOMEM when the log cannot grow. */
int vlog_add(struct verify_log *l, const struct vlog_entry *e);
/* The next write to verify, removed from the log; false when none. */
bool vlog_pop(struct verify_log *l, struct vlog_entry *out);
/* Writes not verified yet (overlaps not yet dropped count). */
size_t vlog_pending(const struct verify_log *l);

#endif /* IODIG_VERIFY_LOG_H */
