// SPDX-License-Identifier: GPL-2.0
/* SCSI commands through SG_IO (engines/scsi_cmd.h). */
#include <dirent.h>
#include <errno.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "workload/engines/scsi_cmd.h"

#define SCSI_TIMEOUT_MS 30000u

void scsi_put_be16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

void scsi_put_be32(unsigned char *p, uint32_t v)
{
	scsi_put_be16(p, (uint16_t)(v >> 16));
	scsi_put_be16(p + 2, (uint16_t)v);
}

void scsi_put_be64(unsigned char *p, uint64_t v)
{
	scsi_put_be32(p, (uint32_t)(v >> 32));
	scsi_put_be32(p + 4, (uint32_t)v);
}

uint32_t scsi_get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint64_t scsi_get_be64(const unsigned char *p)
{
	return (uint64_t)scsi_get_be32(p) << 32 | scsi_get_be32(p + 4);
}

int scsi_run(int fd, unsigned char *cdb, unsigned int cdb_len, int dir,
	     void *buf, unsigned int len, unsigned char *sense,
	     unsigned int flags)
{
	struct sg_io_hdr hdr = {
		.interface_id = 'S',
		.cmdp = cdb,
		.cmd_len = (unsigned char)cdb_len,
		.dxfer_direction = len ? dir : SG_DXFER_NONE,
		.dxferp = buf,
		.dxfer_len = len,
		.sbp = sense,
		.mx_sb_len = SCSI_SENSE_LEN,
		.timeout = SCSI_TIMEOUT_MS,
		.flags = flags,
	};
	int ret;

	do
		ret = ioctl(fd, SG_IO, &hdr);
	while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	return hdr.info & SG_INFO_CHECK ? -EIO : 0;
}

int scsi_capacity(int fd, unsigned int *block, uint64_t *blocks)
{
	unsigned char cdb[16] = { 0x9e, 0x10 }, data[32], sense[SCSI_SENSE_LEN];
	int ret;

	scsi_put_be32(cdb + 10, sizeof(data));
	ret = scsi_run(fd, cdb, 16, SG_DXFER_FROM_DEV, data, sizeof(data), sense, 0);
	if (!ret) {
		*blocks = scsi_get_be64(data) + 1;
		*block = scsi_get_be32(data + 8);
	} else {
		unsigned char cdb10[10] = { 0x25 };

		ret = scsi_run(fd, cdb10, 10, SG_DXFER_FROM_DEV, data, 8, sense, 0);
		if (ret)
			return ret;
		*blocks = (uint64_t)scsi_get_be32(data) + 1;
		*block = scsi_get_be32(data + 4);
	}
	return *block >= 512 && *block <= 65536 ? 0 : -ERANGE;
}

void scsi_sg_disk_of(const char *path, char *disk, size_t len)
{
	const char *base = strrchr(path, '/');
	char dir[160];
	struct dirent *de;
	DIR *dp;

	disk[0] = '\0';
	base = base ? base + 1 : path;
	snprintf(dir, sizeof(dir), "/sys/class/scsi_generic/%.32s/device/block", base);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((de = readdir(dp)))
		if (de->d_name[0] != '.') {
			snprintf(disk, len, "%s", de->d_name);
			break;
		}
	closedir(dp);
}
