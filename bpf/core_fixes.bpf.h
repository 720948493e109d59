/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CO-RE shims for kernel structs that changed shape.  Each `___old` flavour
 * names the kernel change; bpf_core_field_exists() picks the live layout at
 * load time and libbpf drops the dead branch, so no offsets are hard-coded.
 */
#ifndef IODIG_CORE_FIXES_BPF_H
#define IODIG_CORE_FIXES_BPF_H

#include <bpf/bpf_core_read.h>

/*
 * commit d152c682f03c ("block: add an explicit ->disk backpointer to the
 * request_queue") added request_queue->disk; commit f3fa33acca9f ("block:
 * remove the ->rq_disk field in struct request") then removed rq->rq_disk.
 * Kernels before the first have only rq->rq_disk.
 */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

struct request_queue___new {
	struct gendisk *disk;
} __attribute__((preserve_access_index));

/* The whole disk a request is for, through probe reads (any program type). */
static __always_inline struct gendisk *iodig_rq_disk(struct request *rq)
{
	struct request_queue___new *q = (void *)BPF_CORE_READ(rq, q);

	if (bpf_core_field_exists(q->disk))
		return BPF_CORE_READ(q, disk);
	return BPF_CORE_READ((struct request___old *)rq, rq_disk);
}

/* Same, by direct loads: only for BTF-typed pointers (tp_btf arguments),
 * where the verifier allows them and they cost no helper call. */
static __always_inline struct gendisk *iodig_rq_disk_btf(struct request *rq)
{
	struct request_queue___new *q = (void *)rq->q;

	if (bpf_core_field_exists(q->disk))
		return q->disk;
	return ((struct request___old *)rq)->rq_disk;
}

/*
 * commit 309dca309fc3 ("block: store a block_device pointer in struct
 * bio", v5.12) replaced bio->bi_disk with bio->bi_bdev (whose bd_disk is
 * the whole disk, for a partition too).
 */
struct bio___old {
	struct gendisk *bi_disk;
} __attribute__((preserve_access_index));

static __always_inline struct gendisk *iodig_bio_disk(struct bio *bio)
{
	if (bpf_core_field_exists(bio->bi_bdev))
		return BPF_CORE_READ(bio, bi_bdev, bd_disk);
	return BPF_CORE_READ((struct bio___old *)bio, bi_disk);
}

static __always_inline struct gendisk *iodig_bio_disk_btf(struct bio *bio)
{
	if (bpf_core_field_exists(bio->bi_bdev))
		return bio->bi_bdev ? bio->bi_bdev->bd_disk : NULL;
	return ((struct bio___old *)bio)->bi_disk;
}

#endif /* IODIG_CORE_FIXES_BPF_H */
