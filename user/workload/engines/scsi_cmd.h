/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SCSI commands through the SG_IO ioctl, shared by the engines that send
 * them (sg, libzbc): big-endian CDB fields, one synchronous command, the
 * capacity and the disk behind a SCSI generic device.
 */
#ifndef IODIG_SCSI_CMD_H
#define IODIG_SCSI_CMD_H

#include <stddef.h>
#include <stdint.h>

#define SCSI_SENSE_LEN 64u

void scsi_put_be16(unsigned char *p, uint16_t v);
void scsi_put_be32(unsigned char *p, uint32_t v);
void scsi_put_be64(unsigned char *p, uint64_t v);
uint32_t scsi_get_be32(const unsigned char *p);
uint64_t scsi_get_be64(const unsigned char *p);

/* One SG_IO of @cdb with @len bytes of data in direction @dir (scsi/sg.h's
 * SG_DXFER_*), @flags the sg_io_hdr's: 0, -EIO when the device reported a
 * check condition (its sense data in @sense), or -errno of the ioctl. */
int scsi_run(int fd, unsigned char *cdb, unsigned int cdb_len, int dir,
	     void *buf, unsigned int len, unsigned char *sense,
	     unsigned int flags);

/* READ CAPACITY(16), then (10) for devices without it: the logical block
 * size and the number of blocks; -ERANGE for an odd block size. */
int scsi_capacity(int fd, unsigned int *block, uint64_t *blocks);

/* sgN's disk, from /sys/class/scsi_generic/sgN/device/block/; "" when
 * the device is no disk (a tape, a changer). */
void scsi_sg_disk_of(const char *path, char *disk, size_t len);

#endif /* IODIG_SCSI_CMD_H */
