/* SPDX-License-Identifier: GPL-2.0 */
/* An NVMe namespace reached through its generic character device
 * (/dev/ngXnY): what the io_uring_cmd engine needs to know of it. */
#ifndef IODIG_ENGINES_NVME_DEV_H
#define IODIG_ENGINES_NVME_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/engine.h"

/* Identify Controller's ONCS bits of the commands write_mode may send. */
#define NVME_ONCS_WRITE_UNCOR (1u << 1)
#define NVME_ONCS_WRITE_ZEROES (1u << 3)
#define NVME_ONCS_VERIFY (1u << 7)
/* ... and of Dataset Management, which trims send. */
#define NVME_ONCS_DSM (1u << 2)

/* Dataset Management (NVM Command Set): opcode, the Attribute -
 * Deallocate bit of CDW11, and one range of its data (little-endian;
 * nlb counts blocks from 1, unlike a read's 0-based NLB). */
#define NVME_OP_DSM 0x09
#define NVME_DSM_ATTR_DEALLOCATE (1u << 2)
struct nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};
_Static_assert(sizeof(struct nvme_dsm_range) == 16, "NVMe DSM range is 16 bytes");

struct nvme_ns_info {
	uint32_t nsid;
	uint64_t nr_blocks;      /* NSZE */
	unsigned int lba_shift;  /* log2 of the data block */
	unsigned int ms;         /* metadata bytes per block, 0 when none */
	bool ext_lba;            /* metadata inline after each block */
	unsigned int pi_type;    /* DPS bits 2:0, 0 when no protection */
	bool fdp;                /* controller supports Flexible Data Placement */
	uint16_t oncs;           /* optional NVM commands the controller has */
};

/* Identifies the namespace of @fd, opened on @path: -errno with the
 * reason when @path is not an NVMe generic character device. */
int nvme_ns_identify(int fd, const char *path, struct nvme_ns_info *ns,
		     struct errbuf *err);

/* inspect_device() of io_uring_cmd: @path must be an NVMe generic
 * character device; its size, block and the nvmeXnY disk behind it. */
int nvme_inspect_device(const char *path, struct engine_device *dev,
			struct errbuf *err);

/* The Dataset Management ranges of trim @u (its one range, or the
 * unit's trim_range list) into @r, for blocks of 2^@lba_shift bytes:
 * their number, or -EINVAL when a range is not whole blocks or too long
 * for one range. */
int nvme_dsm_ranges(const struct io_unit *u, unsigned int lba_shift,
		    struct nvme_dsm_range *r);

/* The Placement Identifiers of the namespace's reclaim unit handles (I/O
 * Management Receive, Reclaim Unit Handle Status): up to @max into @pids;
 * their number or -errno. */
int nvme_fdp_placement_ids(int fd, uint32_t nsid, uint16_t *pids,
			   unsigned int max, struct errbuf *err);

#endif /* IODIG_ENGINES_NVME_DEV_H */
