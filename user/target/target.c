// SPDX-License-Identifier: GPL-2.0
/*
 * What a job's filename points at: a regular file (possibly not created yet)
 * or a block device.  Everything else is refused here, before any worker
 * opens it, so the user gets one clear sentence instead of an I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/describe.h"
#include "target/target.h"

/* What fio and the block layer assume when nothing better is known. */
#define DEFAULT_LOGICAL_BLOCK_SIZE 512

static int read_small_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * /sys/dev/block/MAJ:MIN links to the device's sysfs directory; a partition
 * has a `partition` attribute and lives inside its disk's directory, so the
 * whole disk is the parent.  dm, md and loop devices are whole disks.
 * Returns -ENOENT for device numbers with no block device behind them
 * (tmpfs, overlayfs and btrfs use anonymous ones).
 */
static int disk_name_of(dev_t dev, char *name, size_t len)
{
	char link[64], real[PATH_MAX], attr[PATH_MAX + 16];
	char *slash;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	if (!realpath(link, real))
		return -errno;
	snprintf(attr, sizeof(attr), "%s/partition", real);
	if (access(attr, F_OK) == 0) {
		slash = strrchr(real, '/');
		if (!slash || slash == real)
			return -ENOENT;
		*slash = '\0';
	}
	slash = strrchr(real, '/');
	if (!slash || strlen(slash + 1) >= len)
		return -ENAMETOOLONG;
	strcpy(name, slash + 1);
	return 0;
}

dev_t disk_devt(const char *disk)
{
	char path[256], buf[32];
	unsigned int maj, min;
	FILE *f;
	dev_t dev = 0;

	if (!disk || !disk[0])
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/dev", disk);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2)
		dev = makedev(maj, min);
	fclose(f);
	return dev;
}

/* A number of /sys/block/DISK/queue/, 0 when unknown. */
static unsigned int disk_queue_value(const char *disk, const char *attr)
{
	char path[160], buf[32];
	unsigned long v;

	if (!disk[0])
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, attr);
	if (read_small_file(path, buf, sizeof(buf)) < 0)
		return 0;
	if (sscanf(buf, "%lu", &v) != 1)
		return 0;
	return (unsigned int)v;
}

static unsigned int disk_logical_block_size(const char *disk)
{
	return disk_queue_value(disk, "logical_block_size");
}

/*
 * O_DIRECT alignment for a file: statx(STATX_DIOALIGN) (Linux 6.1+) knows
 * the filesystem's own rule; older kernels and filesystems that do not say
 * fall back to the disk's logical block size, then to 512.
 */
static unsigned int file_dio_alignment(const char *path, const char *disk)
{
	struct statx stx;
	unsigned int lbs;

	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
	lbs = disk_logical_block_size(disk);
	return lbs ? lbs : DEFAULT_LOGICAL_BLOCK_SIZE;
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISFIFO(mode))
		return "a fifo";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* A file that does not exist yet is fine (the job lays it out) as long as
 * it can be created: its directory must exist and be writable, or with
 * @make_dirs the nearest of its parents that exists. */
static int inspect_missing_file(struct target_info *t, bool make_dirs,
				struct errbuf *err)
{
	char copy[sizeof(t->path)];
	const char *dir;
	struct stat st;

	/* dirname() may modify its argument or return a static "." */
	strcpy(copy, t->path);
	dir = dirname(copy);
	while (make_dirs && stat(dir, &st) < 0 && errno == ENOENT &&
	       strcmp(dir, "/") && strcmp(dir, ".")) {
		t->missing_dirs = true;
		dir = dirname(copy);
	}
	if (stat(dir, &st) < 0) {
		if (errno == ENOENT)
			return err_set(err, ENOENT,
				       "%s: directory %s does not exist",
				       t->path, dir);
		return err_set(err, errno, "%s: %s: %s", t->path, dir,
			       strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return err_set(err, ENOTDIR, "%s: %s is not a directory",
			       t->path, dir);
	if (access(dir, W_OK | X_OK) < 0)
		return err_set(err, errno, "%s: %s (cannot create files in %s)",
			       t->path, strerror(errno), dir);

	t->exists = false;
	t->is_regular = true;
	t->backing_dev = st.st_dev;
	if (disk_name_of(st.st_dev, t->disk_name, sizeof(t->disk_name)) < 0)
		t->disk_name[0] = '\0';
	target_fs_type(st.st_dev, t->fs_type, sizeof(t->fs_type));
	t->logical_block_size = disk_logical_block_size(t->disk_name);
	if (!t->logical_block_size)
		t->logical_block_size = DEFAULT_LOGICAL_BLOCK_SIZE;
	return 0;
}

static int inspect_blockdev(struct target_info *t, const struct stat *st,
			    struct errbuf *err)
{
	int fd, lbs, ret = 0;
	uint64_t size;

	/* Read-only: inspecting must never be able to change the device. */
	fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_set(err, errno, "%s: %s", t->path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
		ret = err_set(err, errno, "%s: cannot read the device size: %s",
			      t->path, strerror(errno));
		goto cleanup;
	}
	if (ioctl(fd, BLKSSZGET, &lbs) < 0 || lbs <= 0) {
		ret = err_set(err, errno ? errno : EINVAL,
			      "%s: cannot read the logical block size: %s",
			      t->path, strerror(errno));
		goto cleanup;
	}

	t->exists = true;
	t->is_blockdev = true;
	t->size = size;
	t->rdev = st->st_rdev;
	t->logical_block_size = (unsigned int)lbs;
	/* Without sysfs there are no disk stats, but the job can still run. */
	if (disk_name_of(st->st_rdev, t->disk_name, sizeof(t->disk_name)) < 0)
		t->disk_name[0] = '\0';
	/* RWF_ATOMIC's limits (Linux 6.11); a kernel without them: 0 */
	t->atomic_unit_min = disk_queue_value(t->disk_name, "atomic_write_unit_min_bytes");
	t->atomic_unit_max = disk_queue_value(t->disk_name, "atomic_write_unit_max_bytes");
cleanup:
	close(fd);
	return ret;
}

static int inspect(const char *path, bool make_dirs, struct target_info *t,
		   struct errbuf *err)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	if (!path || !path[0])
		return err_set(err, EINVAL, "empty filename; a job needs a file or a block device");
	if (strlen(path) >= sizeof(t->path))
		return err_set(err, ENAMETOOLONG, "%.64s...: file name too long",
			       path);
	strcpy(t->path, path);

	if (stat(path, &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return inspect_missing_file(t, make_dirs, err);
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	}

	if (S_ISBLK(st.st_mode))
		return inspect_blockdev(t, &st, err);
	if (!S_ISREG(st.st_mode))
		return err_set(err, EINVAL,
			       "%s: is %s; a job needs a file or a block device",
			       path, file_kind(st.st_mode));

	t->exists = true;
	t->is_regular = true;
	t->size = (uint64_t)st.st_size;
	t->backing_dev = st.st_dev;
	if (disk_name_of(st.st_dev, t->disk_name, sizeof(t->disk_name)) < 0)
		t->disk_name[0] = '\0';
	target_fs_type(st.st_dev, t->fs_type, sizeof(t->fs_type));
	t->logical_block_size = file_dio_alignment(path, t->disk_name);
	return 0;
}

int target_inspect(const char *path, struct target_info *t, struct errbuf *err)
{
	return inspect(path, false, t, err);
}

int target_inspect_making_dirs(const char *path, struct target_info *t,
			       struct errbuf *err)
{
	return inspect(path, true, t, err);
}
