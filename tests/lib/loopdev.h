/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loop devices for the unit tests, always over sparse files in /dev/shm
 * (never a real disk), and everything they need undone on every exit path.
 * Header-only: each test is one program.
 *
 * One device: loopdev_create() binds a new file that is unlinked at once,
 * with LO_FLAGS_AUTOCLEAR while the test holds the device open, so it
 * goes away when the test exits however it ends.  loopdev_destroy()
 * detaches it now and puts back a queue/nr_requests the test changed:
 * queue settings outlive the binding, and the next user of loopN would
 * inherit a tiny tag count.
 *
 * Many things: struct fixture keeps the files, directories, devices
 * (partitioned, 4 KiB sectors), mounts and swaps a test made, and
 * fixture_cleanup() undoes them in reverse order, also from atexit() and
 * on SIGINT/SIGTERM/SIGHUP (fixture_install()).
 */
#ifndef IODIG_TESTS_LOOPDEV_H
#define IODIG_TESTS_LOOPDEV_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* ---- one loop device ---- */

struct loopdev {
	int fd;                        /* held: LO_FLAGS_AUTOCLEAR detaches on exit */
	char path[32];                 /* /dev/loopN */
	char name[16];                 /* loopN, its /sys/block name */
	dev_t rdev;
	unsigned int saved_nr_requests; /* put back by loopdev_destroy, 0 = untouched */
};

#define LOOPDEV_INIT { .fd = -1 }

/* A sparse file of @bytes named /dev/shm/iodig-test-@tag-XXXXXX (or in
 * @dir), its name in @path; the open fd or -errno. */
static inline int loopdev_make_file(char *path, size_t size, const char *dir,
				    const char *tag, uint64_t bytes)
{
	int fd;

	snprintf(path, size, "%s/iodig-test-%s-XXXXXX", dir ? dir : "/dev/shm", tag);
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)bytes)) {
		int err = -errno;

		close(fd);
		unlink(path);
		return err;
	}
	return fd;
}

/*
 * Binds @backing_fd to a free loop device with LO_FLAGS_AUTOCLEAR and
 * @flags (LO_FLAGS_PARTSCAN), @block_size (0 = 512).  Other tests take
 * free devices too: a device taken between LOOP_CTL_GET_FREE and
 * LOOP_CONFIGURE is retried.  0 or -errno.
 */
static inline int loopdev_attach(struct loopdev *l, int backing_fd, uint32_t flags,
				 uint32_t block_size)
{
	struct loop_config cfg;
	struct stat sb;
	int ctl, ret = -EBUSY;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	for (int tries = 0; tries < 20 && l->fd < 0; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0) {
			ret = -errno;
			break;
		}
		snprintf(l->path, sizeof(l->path), "/dev/loop%d", n);
		snprintf(l->name, sizeof(l->name), "loop%d", n);
		l->fd = open(l->path, O_RDWR | O_CLOEXEC);
		if (l->fd < 0) {
			ret = -errno;
			continue;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (uint32_t)backing_fd;
		cfg.block_size = block_size;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | flags;
		if (!ioctl(l->fd, LOOP_CONFIGURE, &cfg))
			break;
		ret = -errno;
		close(l->fd);
		l->fd = -1;
		if (ret != -EBUSY)
			break;
	}
	close(ctl);
	if (l->fd < 0)
		return ret;
	if (fstat(l->fd, &sb)) {
		ret = -errno;
		ioctl(l->fd, LOOP_CLR_FD, 0);
		close(l->fd);
		l->fd = -1;
		return ret;
	}
	l->rdev = sb.st_rdev;
	return 0;
}

/* A device over @file, which must be in /dev/shm.  0 or -errno. */
static inline int loopdev_attach_file(struct loopdev *l, const char *file, uint32_t flags,
				      uint32_t block_size)
{
	int fd, ret;

	l->fd = -1;
	if (strncmp(file, "/dev/shm/", 9))
		return -EINVAL;   /* loop devices only over files in /dev/shm */
	fd = open(file, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = loopdev_attach(l, fd, flags, block_size);
	close(fd);
	return ret;
}

/* A device of @bytes over a new /dev/shm file that no name points to.
 * 0 or -errno; l->fd is -1 on failure. */
static inline int loopdev_create(struct loopdev *l, const char *tag, uint64_t bytes)
{
	char file[128];
	int fd, ret;

	l->fd = -1;
	fd = loopdev_make_file(file, sizeof(file), NULL, tag, bytes);
	if (fd < 0)
		return fd;
	unlink(file);
	ret = loopdev_attach(l, fd, 0, 0);
	close(fd);
	return ret;
}

static inline int loopdev_queue_get(const struct loopdev *l, const char *attr,
				    unsigned int *v)
{
	char path[128];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", l->name, attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ret = fscanf(f, "%u", v) == 1 ? 0 : -EINVAL;
	fclose(f);
	return ret;
}

static inline int loopdev_queue_set(const struct loopdev *l, const char *attr,
				    unsigned int v)
{
	char path[128];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", l->name, attr);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	ret = fprintf(f, "%u\n", v) < 0;
	ret |= fclose(f) != 0;
	return ret ? -EIO : 0;
}

/* Sets queue/nr_requests, remembering the value before the first change
 * for loopdev_destroy() to put back. */
static inline int loopdev_set_nr_requests(struct loopdev *l, unsigned int n)
{
	unsigned int old;

	if (!l->saved_nr_requests && !loopdev_queue_get(l, "nr_requests", &old))
		l->saved_nr_requests = old;
	return loopdev_queue_set(l, "nr_requests", n);
}

/*
 * A device number reused from an earlier test may come with that test's
 * tiny nr_requests (queue settings outlive the binding), and I/O would
 * then sleep for tags.  Puts the driver's default, 128, in place when it
 * is below @min: 1 when it did, 0 when not needed or unknown, -errno.
 */
static inline int loopdev_default_nr_requests(struct loopdev *l, unsigned int min)
{
	unsigned int cur;
	int ret;

	if (loopdev_queue_get(l, "nr_requests", &cur) || !cur || cur >= min)
		return 0;
	ret = loopdev_set_nr_requests(l, 128);
	return ret ? ret : 1;
}

/* Puts nr_requests back and detaches; accepts a device never attached. */
static inline void loopdev_destroy(struct loopdev *l)
{
	if (l->fd < 0)
		return;
	if (l->saved_nr_requests &&
	    loopdev_queue_set(l, "nr_requests", l->saved_nr_requests))
		fprintf(stderr, "warning: could not put back nr_requests=%u of %s\n",
			l->saved_nr_requests, l->path);
	l->saved_nr_requests = 0;
	if (ioctl(l->fd, LOOP_CLR_FD, 0))
		fprintf(stderr, "warning: could not detach %s: %s\n", l->path,
			strerror(errno));
	close(l->fd);
	l->fd = -1;
}

/* Waits up to 2 s for udev or the kernel to create block node @path. */
static inline bool loopdev_wait_node(const char *path)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct stat st;

	for (int i = 0; i < 100; i++) {
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* ---- everything a test made, undone on every exit path ---- */

struct fixture {
	const char *tag;              /* file and directory names: iodig-test-<tag> */
	char files[8][PATH_MAX];
	char dirs[8][PATH_MAX];
	struct loopdev loops[8];
	char mounts[4][PATH_MAX];
	char swaps[2][64];
	int nfiles, ndirs, nloops, nmounts, nswaps;
};

static inline void fixture_cleanup(struct fixture *fx)
{
	int i;

	for (i = fx->nswaps - 1; i >= 0; i--)
		swapoff(fx->swaps[i]);
	for (i = fx->nmounts - 1; i >= 0; i--)
		umount2(fx->mounts[i], MNT_DETACH);
	for (i = fx->nloops - 1; i >= 0; i--)
		loopdev_destroy(&fx->loops[i]);
	for (i = fx->nfiles - 1; i >= 0; i--)
		unlink(fx->files[i]);
	for (i = fx->ndirs - 1; i >= 0; i--)
		rmdir(fx->dirs[i]);
	fx->nswaps = fx->nmounts = fx->nloops = fx->nfiles = fx->ndirs = 0;
}

/* The fixture the exit and signal handlers clean up. */
static struct fixture *fixture_installed __attribute__((unused));

static inline void fixture_at_exit(void)
{
	if (fixture_installed)
		fixture_cleanup(fixture_installed);
}

static inline void fixture_on_signal(int sig)
{
	fixture_at_exit();
	signal(sig, SIG_DFL);
	raise(sig);
}

static inline void fixture_install(struct fixture *fx)
{
	fixture_installed = fx;
	atexit(fixture_at_exit);
	signal(SIGINT, fixture_on_signal);
	signal(SIGTERM, fixture_on_signal);
	signal(SIGHUP, fixture_on_signal);
	/* a closed stdout (| head) must not kill us before cleanup */
	signal(SIGPIPE, SIG_IGN);
}

static inline bool fixture_have_tool(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* system() of a formatted command line. */
static inline int fixture_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int fixture_sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* A sparse file of @bytes in @dir (/dev/shm or /tmp), NULL on failure. */
static inline const char *fixture_file(struct fixture *fx, const char *dir, uint64_t bytes)
{
	char *path = fx->files[fx->nfiles];
	int fd = loopdev_make_file(path, PATH_MAX, dir, fx->tag, bytes);

	if (fd < 0)
		return NULL;
	close(fd);
	fx->nfiles++;
	return path;
}

static inline const char *fixture_dir(struct fixture *fx)
{
	char *path = fx->dirs[fx->ndirs];

	snprintf(path, PATH_MAX, "/tmp/iodig-test-%s-XXXXXX", fx->tag);
	if (!mkdtemp(path))
		return NULL;
	fx->ndirs++;
	return path;
}

/* A device over a /dev/shm @file (LO_FLAGS_PARTSCAN in @flags, @block_size
 * 0 = 512): its /dev path, NULL on failure. */
static inline const char *fixture_loop(struct fixture *fx, const char *file, uint32_t flags,
				       uint32_t block_size)
{
	struct loopdev *l = &fx->loops[fx->nloops];

	if (loopdev_attach_file(l, file, flags, block_size))
		return NULL;
	fx->nloops++;
	return l->path;
}

/* True when @dev is a device of the fixture or one of its partitions:
 * destructive tools only ever run on those. */
static inline bool fixture_owns(const struct fixture *fx, const char *dev)
{
	for (int i = 0; i < fx->nloops; i++) {
		size_t len = strlen(fx->loops[i].path);

		if (!strncmp(dev, fx->loops[i].path, len) &&
		    (dev[len] == '\0' || dev[len] == 'p'))
			return true;
	}
	return false;
}

/*
 * A 64 MiB device with a GPT and one 10 MiB partition at 1 MiB, written
 * into the backing file; its partition's path in @part.  Kernels built
 * without partition parsers (CONFIG_EFI_PARTITION=n) see no partitions on
 * the scan; partx then adds them from userspace (BLKPG).
 */
static inline const char *fixture_partitioned_loop(struct fixture *fx, char *part,
						   size_t len)
{
	const char *file = fixture_file(fx, "/dev/shm", 64ull << 20), *dev;

	if (!file || fixture_sh("printf 'label: gpt\\nstart=2048, size=20480\\n' | sfdisk -q %s >/dev/null 2>&1",
				file) != 0)
		return NULL;
	dev = fixture_loop(fx, file, LO_FLAGS_PARTSCAN, 0);
	if (!dev)
		return NULL;
	snprintf(part, len, "%sp1", dev);
	if (access(part, F_OK) < 0)
		fixture_sh("partx -a %s >/dev/null 2>&1", dev);
	return loopdev_wait_node(part) ? dev : NULL;
}

#endif /* IODIG_TESTS_LOOPDEV_H */
