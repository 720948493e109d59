// SPDX-License-Identifier: GPL-2.0
/*
 * NVMe generic character devices (/dev/ngXnY, Linux 5.19+): the namespace
 * id (NVME_IOCTL_ID), Identify Namespace and Identify Controller (admin
 * commands through NVME_IOCTL_ADMIN_CMD) and the FDP placement ids.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engines/nvme_dev.h"

#define NVME_ADMIN_IDENTIFY 0x06
#define NVME_IO_MGMT_RECV 0x12
#define NVME_IDENTIFY_NS 0
#define NVME_IDENTIFY_CTRL 1
#define NVME_IDENTIFY_LEN 4096
#define NVME_CTRATT_FDPS (1u << 19)
#define NVME_RUHS_MO 1        /* I/O Management Receive: RUH status */
#define NVME_RUHS_HDR 16
#define NVME_RUHS_DESC 32

static uint16_t le16_at(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32_at(const unsigned char *p)
{
	return le16_at(p) | (uint32_t)le16_at(p + 2) << 16;
}

static uint64_t le64_at(const unsigned char *p)
{
	return le32_at(p) | (uint64_t)le32_at(p + 4) << 32;
}

static int nvme_identify(int fd, uint32_t nsid, uint32_t cns, void *buf)
{
	struct nvme_admin_cmd cmd = {
		.opcode = NVME_ADMIN_IDENTIFY,
		.nsid = nsid,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = NVME_IDENTIFY_LEN,
		.cdw10 = cns,
	};
	int ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);

	/* > 0: an NVMe status, the command reached the device and failed */
	return ret < 0 ? -errno : ret > 0 ? -EIO : 0;
}

static void nvme_parse_ns(const unsigned char *id, struct nvme_ns_info *ns)
{
	unsigned int flbas = id[26];
	unsigned int fmt = (flbas & 0xf) | ((flbas >> 5) & 0x3) << 4;
	const unsigned char *lbaf = id + 128 + 4 * fmt;

	ns->nr_blocks = le64_at(id);
	ns->ms = le16_at(lbaf);
	ns->lba_shift = lbaf[2];
	ns->ext_lba = flbas & 0x10;
	ns->pi_type = id[29] & 0x7;
}

int nvme_ns_identify(int fd, const char *path, struct nvme_ns_info *ns,
		     struct errbuf *err)
{
	unsigned char *id = NULL;
	struct stat st;
	int nsid, ret;

	memset(ns, 0, sizeof(*ns));
	if (fstat(fd, &st) < 0)
		return err_set(err, errno, "%s: fstat: %m", path);
	if (!S_ISCHR(st.st_mode))
		return err_set(err, ENODEV, "%s: not an NVMe generic character device: io_uring_cmd sends NVMe commands to /dev/ngXnY (the one of /dev/nvme0n1 is /dev/ng0n1)",
			       path);
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0)
		return err_set(err, ENODEV, "%s: not an NVMe generic character device (NVME_IOCTL_ID: %s): io_uring_cmd sends NVMe commands to /dev/ngXnY",
			       path, nsid < 0 ? strerror(errno) : "no namespace");
	ns->nsid = (uint32_t)nsid;
	if (posix_memalign((void **)&id, 4096, NVME_IDENTIFY_LEN))
		return err_set(err, ENOMEM, "%s: out of memory", path);
	ret = nvme_identify(fd, ns->nsid, NVME_IDENTIFY_NS, id);
	if (ret) {
		errno = -ret;
		ret = err_set(err, -ret, "%s: Identify Namespace %u: %m", path, ns->nsid);
		goto cleanup;
	}
	nvme_parse_ns(id, ns);
	if (ns->lba_shift < 9 || ns->lba_shift > 16 || !ns->nr_blocks) {
		ret = err_set(err, ENODEV, "%s: namespace %u reports %llu blocks of 2^%u bytes: not usable",
			      path, ns->nsid, (unsigned long long)ns->nr_blocks,
			      ns->lba_shift);
		goto cleanup;
	}
	memset(id, 0, NVME_IDENTIFY_LEN);
	/* The controller's attributes (FDP) and optional commands. */
	if (!nvme_identify(fd, 0, NVME_IDENTIFY_CTRL, id)) {
		ns->fdp = le32_at(id + 96) & NVME_CTRATT_FDPS;
		ns->oncs = le16_at(id + 520);
	}
	ret = 0;
cleanup:
	free(id);
	return ret;
}

/* ngXnY's block disk is nvmeXnY when the kernel made one (it does not for
 * formats the block layer cannot use). */
static void nvme_disk_of(const char *path, char *disk, size_t len)
{
	const char *base = strrchr(path, '/');
	char sys[128];
	unsigned int c, n;

	disk[0] = '\0';
	base = base ? base + 1 : path;
	if (sscanf(base, "ng%un%u", &c, &n) != 2)
		return;
	snprintf(sys, sizeof(sys), "/sys/block/nvme%un%u", c, n);
	if (!access(sys, F_OK))
		snprintf(disk, len, "nvme%un%u", c, n);
}

int nvme_inspect_device(const char *path, struct engine_device *dev,
			struct errbuf *err)
{
	struct nvme_ns_info ns;
	int fd, ret;

	/* Read-only: inspecting must never be able to change the device. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "%s: %m: io_uring_cmd needs an NVMe generic character device (/dev/ngXnY)",
			       path);
	ret = nvme_ns_identify(fd, path, &ns, err);
	close(fd);
	if (ret)
		return ret;
	dev->size = ns.nr_blocks << ns.lba_shift;
	dev->block_size = 1u << ns.lba_shift;
	nvme_disk_of(path, dev->disk, sizeof(dev->disk));
	return 1;
}

static int dsm_range(uint64_t start, uint64_t len, unsigned int lba_shift,
		     struct nvme_dsm_range *r)
{
	uint64_t mask = (1ull << lba_shift) - 1;

	if ((start | len) & mask || !len || len >> lba_shift > UINT32_MAX)
		return -EINVAL;
	r->cattr = 0;
	r->nlb = htole32((uint32_t)(len >> lba_shift));
	r->slba = htole64(start >> lba_shift);
	return 0;
}

int nvme_dsm_ranges(const struct io_unit *u, unsigned int lba_shift,
		    struct nvme_dsm_range *r)
{
	const struct trim_range *tr = u->buf;

	if (!u->nr_ranges)
		return dsm_range(u->offset, u->len, lba_shift, r) ? -EINVAL : 1;
	for (unsigned int i = 0; i < u->nr_ranges; i++)
		if (dsm_range(tr[i].start, tr[i].len, lba_shift, &r[i]))
			return -EINVAL;
	return (int)u->nr_ranges;
}

int nvme_fdp_placement_ids(int fd, uint32_t nsid, uint16_t *pids,
			   unsigned int max, struct errbuf *err)
{
	size_t len = NVME_RUHS_HDR + (size_t)max * NVME_RUHS_DESC;
	unsigned char *buf = calloc(1, len);
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_IO_MGMT_RECV,
		.nsid = nsid,
		.data_len = (uint32_t)len,
		.cdw10 = NVME_RUHS_MO,
		.cdw11 = (uint32_t)(len / 4 - 1),
	};
	unsigned int n;
	int ret;

	if (!buf)
		return err_set(err, ENOMEM, "out of memory");
	cmd.addr = (uint64_t)(uintptr_t)buf;
	ret = ioctl(fd, NVME_IOCTL_IO_CMD, &cmd);
	if (ret) {
		if (ret > 0)
			ret = err_set(err, EIO, "fdp=1: I/O Management Receive (reclaim unit handle status) failed with NVMe status 0x%x",
				      (unsigned int)ret);
		else
			ret = err_set(err, errno, "fdp=1: I/O Management Receive (reclaim unit handle status): %m");
		goto cleanup;
	}
	n = le16_at(buf + 14);
	if (n > max)
		n = max;
	for (unsigned int i = 0; i < n; i++)
		pids[i] = le16_at(buf + NVME_RUHS_HDR + i * NVME_RUHS_DESC);
	ret = (int)n;
cleanup:
	free(buf);
	return ret;
}
