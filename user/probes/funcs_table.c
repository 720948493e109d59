// SPDX-License-Identifier: GPL-2.0
/*
 * The functions the funcs family times, one row each: the role shown,
 * the kernel names that have played it (first present wins), what the
 * arguments and result mean (enum funcs_kind, argument positions are
 * 0-based), and what the total time is a share of.
 *
 * Signatures checked against v6.1, v6.12 and v6.18; where they differ the
 * arguments used kept their place.
 */
#include "probes/funcs_table.h"

const char *const funcs_group_names[FG_NR] = {
	[FG_TAG] = "tag allocation",
	[FG_PIN] = "user-page pinning",
	[FG_RELEASE] = "page release",
	[FG_DAX] = "DAX faults",
	[FG_IOURING] = "io_uring",
};

const struct func_def func_table[] = {
	/* blk_mq_get_tag(struct blk_mq_alloc_data *data): sleeps in
	 * io_schedule() when the hardware queue has no free tag. */
	{ "blk_mq_get_tag", { "blk_mq_get_tag" }, FG_TAG, FK_TAG, FF_RET32, 0, 0, SHARE_SLAT },

	/* (start, int nr_pages, gup_flags, pages) -> pages pinned */
	{ "get_user_pages_fast", { "get_user_pages_fast" }, FG_PIN, FK_PAGES_RET, FF_RET32,
	  1, 0, SHARE_SLAT },
	{ "pin_user_pages_fast", { "pin_user_pages_fast" }, FG_PIN, FK_PAGES_RET, FF_RET32,
	  1, 0, SHARE_SLAT },
	/* (mm, start, nr_pages, ...) -> long; the slow path, faults pages in */
	{ "__get_user_pages", { "__get_user_pages" }, FG_PIN, FK_PAGES_RET, 0, 2, 0,
	  SHARE_SLAT },
	/* (i, pages, maxsize, maxpages, flags, size_t *offset0) -> bytes (v6.3+) */
	{ "iov_iter_extract_pages", { "iov_iter_extract_pages" }, FG_PIN, FK_IOV_BYTES, 0,
	  5, 3, SHARE_SLAT },
	/* (i, pages, maxsize, maxpages, size_t *start) -> bytes; "2" since v6.0 */
	{ "iov_iter_get_pages", { "iov_iter_get_pages2", "iov_iter_get_pages" }, FG_PIN,
	  FK_IOV_BYTES, 0, 4, 3, SHARE_SLAT },

	/* Release may run in completion context: FF_ANY_CONTEXT. */
	{ "unpin_user_page", { "unpin_user_page" }, FG_RELEASE, FK_ONE_PAGE, FF_ANY_CONTEXT,
	  0, 0, SHARE_CLAT },
	{ "unpin_user_pages", { "unpin_user_pages" }, FG_RELEASE, FK_PAGES_ARG,
	  FF_ANY_CONTEXT, 1, 0, SHARE_CLAT },
	{ "unpin_user_pages_dirty_lock", { "unpin_user_pages_dirty_lock" }, FG_RELEASE,
	  FK_PAGES_ARG, FF_ANY_CONTEXT, 1, 0, SHARE_CLAT },
	/* (folio, npages), v6.11+: what direct I/O's bio release unpins
	 * through since the folio conversion of bio_release_pages. */
	{ "unpin_user_folio", { "unpin_user_folio" }, FG_RELEASE, FK_PAGES_ARG,
	  FF_ANY_CONTEXT, 1, 0, SHARE_CLAT },
	/* (bio, mark_dirty); an inline wrapper over __bio_release_pages since
	 * v6.5 (commit 1b151e2435fc).  Pages shown are the bio's bvecs. */
	{ "bio_release_pages", { "bio_release_pages", "__bio_release_pages" }, FG_RELEASE,
	  FK_BIO, FF_ANY_CONTEXT, 0, 0, SHARE_CLAT },
	/* The put_page path: a folio's last reference (calls only). */
	{ "__folio_put", { "__folio_put" }, FG_RELEASE, FK_PLAIN, FF_ANY_CONTEXT, 0, 0,
	  SHARE_CLAT },
	/* (struct folio_batch *, unsigned int *refs), v6.9+ */
	{ "folios_put_refs", { "folios_put_refs" }, FG_RELEASE, FK_FOLIO_BATCH,
	  FF_ANY_CONTEXT, 0, 0, SHARE_CLAT },
	/* (pages or release_pages_arg, int nr) */
	{ "release_pages", { "release_pages" }, FG_RELEASE, FK_PAGES_ARG, FF_ANY_CONTEXT,
	  1, 0, SHARE_CLAT },

	/* (vmf, enum page_entry_size pe_size [v6.1] or unsigned int order
	 * [v6.6+], pfnp, iomap_errp, ops) -> vm_fault_t */
	{ "dax_iomap_fault", { "dax_iomap_fault" }, FG_DAX, FK_DAX, FF_RET32, 1, 0,
	  SHARE_CLAT },

	/* (req, issue_flags) -> int: -EAGAIN under IO_URING_F_NONBLOCK means
	 * the inline attempt failed and the request goes to io-wq. */
	{ "io_issue_sqe", { "io_issue_sqe" }, FG_IOURING, FK_IOU_ISSUE, FF_RET32, 1, 0,
	  SHARE_SLAT },
	/* A punted request's time in the io-wq worker. */
	{ "io_wq_submit_work", { "io_wq_submit_work" }, FG_IOURING, FK_PLAIN, 0, 0, 0,
	  SHARE_CLAT },
	{ "io_queue_iowq", { "io_queue_iowq" }, FG_IOURING, FK_PLAIN, 0, 0, 0, SHARE_SLAT },
};

const size_t func_table_len = sizeof(func_table) / sizeof(func_table[0]);

_Static_assert(sizeof(func_table) / sizeof(func_table[0]) <= FUNCS_MAX_FNS,
	       "more rows than BPF program slots (FUNCS_MAX_FNS)");
