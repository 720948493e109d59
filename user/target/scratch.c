// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch target: when a job names no file, iodig runs it against a
 * loop device over a sparse file on tmpfs, so the default run exercises the
 * real block layer (blk-mq, schedulers, tracepoints) without touching a disk.
 *
 * The backing file is named iodig-scratch-<pid>-<n>; the pid in the name is
 * what lets a later iodig recognise and remove leftovers of a killed one, so
 * no separate state file is needed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "target/scratch.h"

#define SCRATCH_PREFIX "iodig-scratch-"
/* How often to ask for another free loop device when a concurrent
 * losetup or iodig took the one LOOP_CTL_GET_FREE named. */
#define BIND_ATTEMPTS 16
/* LOOP_CLR_FD can briefly fail with EBUSY while udev probes the device. */
#define CLEAR_ATTEMPTS 50
#define CLEAR_RETRY_NS (20 * 1000 * 1000)

/* Places where a backing file lives in RAM; /run is the fallback for
 * systems that mount /dev/shm elsewhere or not at all. */
static const char *const tmpfs_dirs[] = { "/dev/shm", "/run" };

struct scratch_dev {
	char path[32];          /* "/dev/loopN" */
	char backing[128];      /* "/dev/shm/iodig-scratch-<pid>-<n>" */
	int loop_fd;            /* held open for the device's whole life */
};

static void sleep_ns(long ns)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ns };

	nanosleep(&ts, NULL);
}

static bool is_tmpfs(const char *dir, struct statfs *sfs)
{
	return statfs(dir, sfs) == 0 && sfs->f_type == TMPFS_MAGIC;
}

static int pick_tmpfs_dir(uint64_t size, const char **dir, struct errbuf *err)
{
	struct statfs sfs;
	uint64_t avail;
	size_t i;

	for (i = 0; i < sizeof(tmpfs_dirs) / sizeof(tmpfs_dirs[0]); i++) {
		if (!is_tmpfs(tmpfs_dirs[i], &sfs))
			continue;
		/* The file is sparse, so a tmpfs too small would only fail
		 * later, mid-job, as I/O errors on the loop device. */
		avail = (uint64_t)sfs.f_bavail * (uint64_t)sfs.f_bsize;
		if (avail < size)
			return err_set(err, ENOSPC,
				       "scratch device of %llu bytes does not fit in %s (%llu bytes free); give the job a filename or a smaller size",
				       (unsigned long long)size, tmpfs_dirs[i],
				       (unsigned long long)avail);
		*dir = tmpfs_dirs[i];
		return 0;
	}
	return err_set(err, ENOENT,
		       "no tmpfs for the scratch device's backing file: neither /dev/shm nor /run is tmpfs; give the job a filename");
}

static int create_backing_file(struct scratch_dev *s, const char *dir,
			       uint64_t size, struct errbuf *err)
{
	unsigned int n;
	int fd;

	for (n = 0; n < 1000; n++) {
		snprintf(s->backing, sizeof(s->backing), "%s/" SCRATCH_PREFIX "%d-%u",
			 dir, (int)getpid(), n);
		fd = open(s->backing, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		if (errno != EEXIST) {
			s->backing[0] = '\0';
			return err_set(err, errno, "%s/" SCRATCH_PREFIX "%d-%u: %s",
				       dir, (int)getpid(), n, strerror(errno));
		}
	}
	if (fd < 0) {
		s->backing[0] = '\0';
		return err_set(err, EEXIST, "%s: too many " SCRATCH_PREFIX "%d-* files",
			       dir, (int)getpid());
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return err_set(err, errno, "%s: cannot size it to %llu bytes: %s",
			       s->backing, (unsigned long long)size,
			       strerror(errno));
	}
	return fd;
}

/*
 * LO_FLAGS_AUTOCLEAR makes the kernel detach the device when its last
 * opener closes it.  iodig itself opens and closes the device many times
 * (inspect, guard, workers), so scratch_dev keeps one descriptor open for
 * the device's whole life; when iodig is killed the kernel closes it and
 * the device goes away on its own, leaving only the backing file, which
 * scratch_cleanup_stale removes.
 *
 * No LO_FLAGS_DIRECT_IO: tmpfs pages are the storage itself, so buffered
 * loop I/O adds no second cache, and older kernels (< 6.6) refuse O_DIRECT
 * on tmpfs anyway.
 */
static int bind_loop(int loop_fd, int file_fd, const char *name)
{
	struct loop_config cfg;
	struct loop_info64 info;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned int)file_fd;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
	/* Shown by losetup -l; the sysfs backing_file is the real path. */
	snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", name);
	if (ioctl(loop_fd, LOOP_CONFIGURE, &cfg) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOTTY)
		return -errno;

	/* Linux < 5.8 has no LOOP_CONFIGURE: bind, then set the flags. */
	if (ioctl(loop_fd, LOOP_SET_FD, file_fd) < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.lo_flags = LO_FLAGS_AUTOCLEAR;
	snprintf((char *)info.lo_file_name, LO_NAME_SIZE, "%s", name);
	if (ioctl(loop_fd, LOOP_SET_STATUS64, &info) < 0) {
		ret = -errno;
		ioctl(loop_fd, LOOP_CLR_FD, 0);
		return ret;
	}
	return 0;
}

static int attach_loop(struct scratch_dev *s, int file_fd, struct errbuf *err)
{
	int ctl, nr, loop_fd = -1, attempt, ret = 0;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return err_set(err, errno,
			       "/dev/loop-control: %s; the scratch device needs the loop driver (modprobe loop)",
			       strerror(errno));
	for (attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			ret = err_set(err, errno, "/dev/loop-control: no free loop device: %s",
				      strerror(errno));
			goto cleanup;
		}
		snprintf(s->path, sizeof(s->path), "/dev/loop%d", nr);
		loop_fd = open(s->path, O_RDWR | O_CLOEXEC);
		if (loop_fd < 0) {
			/* devtmpfs may not have made the node yet */
			if (errno == ENOENT) {
				sleep_ns(CLEAR_RETRY_NS);
				continue;
			}
			ret = err_set(err, errno, "%s: %s", s->path, strerror(errno));
			goto cleanup;
		}
		ret = bind_loop(loop_fd, file_fd, s->backing);
		if (ret == 0) {
			s->loop_fd = loop_fd;
			goto cleanup;
		}
		close(loop_fd);
		loop_fd = -1;
		/* EBUSY: someone else bound this free device first; ask again */
		if (ret != -EBUSY) {
			ret = err_set(err, -ret, "%s: cannot attach %s: %s", s->path,
				      s->backing, strerror(-ret));
			goto cleanup;
		}
	}
	ret = err_set(err, EBUSY,
		      "no free loop device for the scratch target after %d attempts (other processes keep taking them)",
		      BIND_ATTEMPTS);
cleanup:
	close(ctl);
	return ret;
}

int scratch_create(uint64_t size, struct scratch_dev **out, struct errbuf *err)
{
	struct scratch_dev *s;
	const char *dir = NULL;
	int file_fd = -1, ret;

	*out = NULL;
	if (size == 0 || size % 512)
		return err_set(err, EINVAL,
			       "scratch device size %llu is not a positive multiple of 512 bytes",
			       (unsigned long long)size);
	s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ENOMEM, "out of memory for the scratch device");
	s->loop_fd = -1;

	ret = pick_tmpfs_dir(size, &dir, err);
	if (ret < 0)
		goto cleanup;
	file_fd = create_backing_file(s, dir, size, err);
	if (file_fd < 0) {
		ret = file_fd;
		goto cleanup;
	}
	/* The loop driver takes its own reference to the file. */
	ret = attach_loop(s, file_fd, err);
cleanup:
	if (file_fd >= 0)
		close(file_fd);
	if (ret < 0) {
		if (s->backing[0])
			unlink(s->backing);
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

const char *scratch_path(const struct scratch_dev *s)
{
	return s ? s->path : NULL;
}

/* Returns 0 once the device is (or will be, on its last close) detached. */
static int clear_loop(int loop_fd)
{
	int attempt;

	for (attempt = 0; attempt < CLEAR_ATTEMPTS; attempt++) {
		if (ioctl(loop_fd, LOOP_CLR_FD, 0) == 0)
			return 0;
		if (errno == ENXIO)
			return 0;   /* already detached (autoclear won) */
		if (errno != EBUSY)
			return -errno;
		sleep_ns(CLEAR_RETRY_NS);
	}
	return -EBUSY;
}

void scratch_destroy(struct scratch_dev *s)
{
	if (!s)
		return;
	if (s->loop_fd >= 0) {
		/* If a worker still has it open, the kernel defers the detach
		 * to the last close (AUTOCLEAR); nothing more to do then. */
		clear_loop(s->loop_fd);
		close(s->loop_fd);
	}
	if (s->backing[0])
		unlink(s->backing);
	free(s);
}

/* "iodig-scratch-<pid>-<n>" whose pid no longer exists. */
static bool is_stale_name(const char *name)
{
	unsigned int n;
	int pid, end = 0;

	if (sscanf(name, SCRATCH_PREFIX "%d-%u%n", &pid, &n, &end) != 2 ||
	    name[end] != '\0' || pid <= 0)
		return false;
	/* EPERM means alive; a zombie still counts as alive. */
	return kill(pid, 0) < 0 && errno == ESRCH;
}

/* The backing file path is stale if it is ours (in a tmpfs dir we use) and
 * its creator is dead. */
static bool is_stale_backing(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t i, len;

	if (!slash)
		return false;
	len = (size_t)(slash - path);
	for (i = 0; i < sizeof(tmpfs_dirs) / sizeof(tmpfs_dirs[0]); i++)
		if (strlen(tmpfs_dirs[i]) == len && !strncmp(path, tmpfs_dirs[i], len))
			return is_stale_name(slash + 1);
	return false;
}

static int read_backing_file(const char *loop_name, char *buf, size_t len)
{
	char path[320];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", loop_name);
	f = fopen(path, "re");
	if (!f)
		return -errno;   /* ENOENT: not bound */
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	/* d_path() appends this once the file is unlinked */
	n = strlen(buf);
	if (n > 10 && !strcmp(buf + n - 10, " (deleted)"))
		buf[n - 10] = '\0';
	return 0;
}

/*
 * Detaches one stale device.  The name we set in lo_file_name is checked
 * again through our own descriptor, so a device that was freed and rebound
 * by someone else since we read sysfs is left alone.
 */
static int detach_stale(const char *loop_name, const char *backing,
			struct errbuf *err)
{
	struct loop_info64 info;
	char dev[300];
	int fd, ret = 0;

	snprintf(dev, sizeof(dev), "/dev/%s", loop_name);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "%s: cannot open stale scratch device: %s",
			       dev, strerror(errno));
	if (ioctl(fd, LOOP_GET_STATUS64, &info) < 0) {
		if (errno != ENXIO)
			ret = err_set(err, errno, "%s: %s", dev, strerror(errno));
		goto cleanup;   /* ENXIO: detached meanwhile */
	}
	if (strncmp((const char *)info.lo_file_name, backing, LO_NAME_SIZE - 1))
		goto cleanup;
	ret = clear_loop(fd);
	if (ret < 0)
		ret = err_set(err, -ret, "%s: cannot detach stale scratch device: %s",
			      dev, strerror(-ret));
cleanup:
	close(fd);
	return ret;
}

static int cleanup_stale_devices(struct errbuf *err)
{
	char backing[4096];
	struct dirent *de;
	int count = 0, ret = 0;
	DIR *d;

	d = opendir("/sys/block");
	if (!d)
		return err_set(err, errno, "/sys/block: %s", strerror(errno));
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) ||
		    read_backing_file(de->d_name, backing, sizeof(backing)) < 0 ||
		    !is_stale_backing(backing))
			continue;
		ret = detach_stale(de->d_name, backing, err);
		if (ret < 0)
			goto cleanup;
		if (unlink(backing) < 0 && errno != ENOENT) {
			ret = err_set(err, errno, "%s: %s", backing, strerror(errno));
			goto cleanup;
		}
		count++;
	}
cleanup:
	closedir(d);
	return ret < 0 ? ret : count;
}

/* Backing files whose device already went away (AUTOCLEAR after a kill). */
static int cleanup_orphan_files(const char *dir, struct errbuf *err)
{
	char path[512];
	struct dirent *de;
	int count = 0, ret = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 :
			err_set(err, errno, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, SCRATCH_PREFIX, strlen(SCRATCH_PREFIX)) ||
		    !is_stale_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) < 0 && errno != ENOENT) {
			ret = err_set(err, errno, "%s: %s", path, strerror(errno));
			break;
		}
		count++;
	}
	closedir(d);
	return ret < 0 ? ret : count;
}

int scratch_cleanup_stale(struct errbuf *err)
{
	int count, ret;
	size_t i;

	/* Devices first: unlinking a file a loop still uses would leave the
	 * device bound to a " (deleted)" file we could still find, but the
	 * order keeps the count one per leftover scratch target. */
	count = cleanup_stale_devices(err);
	if (count < 0)
		return count;
	for (i = 0; i < sizeof(tmpfs_dirs) / sizeof(tmpfs_dirs[0]); i++) {
		ret = cleanup_orphan_files(tmpfs_dirs[i], err);
		if (ret < 0)
			return ret;
		count += ret;
	}
	return count;
}
