/* scratch loop devices (create, destroy, stale cleanup after a killed owner) and diskstats_read on real I/O. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "target/diskstats.h"
#include "target/scratch.h"
#include "tests/lib/check.h"

#define MIB (1024ULL * 1024)
#define IO_SIZE 4096
#define IO_COUNT 16

/* What a child reports about the scratch device it leaves behind. */
struct leftover {
	char dev[32];
	char backing[256];
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The sysfs backing file of /dev/loopN, or "" when it is not bound. */
static void backing_of(const char *dev, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", dev + 5);
	if (read_line(path, buf, len) < 0)
		buf[0] = '\0';
}

/* Detaching can complete on the last close, a moment after the ioctl. */
static bool wait_unbound_from(const char *dev, const char *backing)
{
	char now[512];
	int i;

	for (i = 0; i < 100; i++) {
		backing_of(dev, now, sizeof(now));
		if (strncmp(now, backing, strlen(backing)))
			return true;
		sleep_ms(20);
	}
	return false;
}

static void test_create_destroy(void)
{
	struct scratch_dev *s = NULL;
	struct errbuf err = { "" };
	char backing[512], prefix[64], attr[128], flag[8], dev_copy[32];
	const char *dev;
	uint64_t size = 0;
	struct stat st;
	int fd;

	CHECK_MSG(scratch_create(64 * MIB, &s, &err) == 0, "%s", err.msg);
	if (!s)
		return;
	dev = scratch_path(s);
	CHECK_MSG(!strncmp(dev, "/dev/loop", 9), "path '%s'", dev);
	CHECK(stat(dev, &st) == 0 && S_ISBLK(st.st_mode));
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0 && ioctl(fd, BLKGETSIZE64, &size) == 0);
	CHECK_MSG(size == 64 * MIB, "size %llu", (unsigned long long)size);
	if (fd >= 0)
		close(fd);

	backing_of(dev, backing, sizeof(backing));
	snprintf(prefix, sizeof(prefix), "/dev/shm/iodig-scratch-%d-", (int)getpid());
	CHECK_MSG(!strncmp(backing, prefix, strlen(prefix)), "backing '%s'", backing);
	CHECK(stat(backing, &st) == 0 && S_ISREG(st.st_mode) &&
	      (uint64_t)st.st_size == 64 * MIB);
	/* sparse: nothing allocated until written */
	CHECK_MSG(st.st_blocks == 0, "%lld blocks", (long long)st.st_blocks);
	snprintf(attr, sizeof(attr), "/sys/block/%s/loop/autoclear", dev + 5);
	CHECK(read_line(attr, flag, sizeof(flag)) == 0 && !strcmp(flag, "1"));

	/* the device survives other openers closing it (autoclear + held fd) */
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	backing_of(dev, attr, sizeof(attr));
	CHECK_MSG(!strcmp(attr, backing), "after a close: '%s'", attr);

	snprintf(dev_copy, sizeof(dev_copy), "%s", dev);
	scratch_destroy(s);
	CHECK_MSG(wait_unbound_from(dev_copy, backing), "%s still bound", dev_copy);
	CHECK_MSG(stat(backing, &st) < 0 && errno == ENOENT, "%s left behind", backing);
	scratch_destroy(NULL);
}

static void test_bad_sizes(void)
{
	struct scratch_dev *s = (struct scratch_dev *)&s;
	struct errbuf err;

	CHECK(scratch_create(0, &s, &err) == -EINVAL && s == NULL);
	CHECK(scratch_create(1000, &s, &err) == -EINVAL && s == NULL);
	CHECK_MSG(strstr(err.msg, "1000"), "'%s'", err.msg);
	/* more than any tmpfs here holds: refused up front, not mid-job */
	CHECK(scratch_create(1ULL << 60, &s, &err) == -ENOSPC && s == NULL);
	CHECK_MSG(strstr(err.msg, "/dev/shm"), "'%s'", err.msg);
}

/* The child makes a scratch device and dies without destroying it.  With
 * hold_open the parent keeps the device open across the death, so it stays
 * bound (the stale-device path); without, autoclear detaches it and only the
 * backing file is left (the orphan-file path). */
static void test_stale(bool hold_open)
{
	struct leftover left = { "", "" };
	char go = 1, now[512];
	struct errbuf err = { "" };
	int report[2], start[2], status, held = -1, n;
	struct stat st;
	pid_t pid;

	if (pipe(report) < 0 || pipe(start) < 0) {
		CHECK_MSG(0, "pipe: %s", strerror(errno));
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct scratch_dev *s;

		if (scratch_create(16 * MIB, &s, &err) == 0) {
			snprintf(left.dev, sizeof(left.dev), "%s", scratch_path(s));
			backing_of(left.dev, left.backing, sizeof(left.backing));
		}
		if (write(report[1], &left, sizeof(left)) != sizeof(left) ||
		    read(start[0], &go, 1) != 1)
			_exit(1);
		_exit(0);   /* as if SIGKILLed: no scratch_destroy */
	}
	CHECK(pid > 0);
	if (pid < 0)
		goto cleanup;
	n = (int)read(report[0], &left, sizeof(left));
	CHECK_MSG(n == sizeof(left) && left.dev[0] && left.backing[0],
		  "child made no scratch device");
	if (hold_open && left.dev[0])
		held = open(left.dev, O_RDONLY | O_CLOEXEC);
	if (write(start[1], &go, 1) != 1)
		CHECK_MSG(0, "cannot release the child");
	waitpid(pid, &status, 0);   /* reaped: kill(pid, 0) now says ESRCH */
	if (!left.dev[0])
		goto cleanup;

	backing_of(left.dev, now, sizeof(now));
	if (hold_open)
		CHECK_MSG(!strncmp(now, left.backing, strlen(left.backing)),
			  "held device unbound early: '%s'", now);
	n = scratch_cleanup_stale(&err);
	CHECK_MSG(n >= 1, "cleanup returned %d: %s", n, err.msg);
	if (held >= 0) {
		close(held);
		held = -1;
	}
	CHECK_MSG(wait_unbound_from(left.dev, left.backing), "%s still bound to %s",
		  left.dev, left.backing);
	CHECK_MSG(stat(left.backing, &st) < 0 && errno == ENOENT, "%s left behind",
		  left.backing);
cleanup:
	if (held >= 0)
		close(held);
	close(report[0]);
	close(report[1]);
	close(start[0]);
	close(start[1]);
}

static void test_diskstats(void)
{
	struct disk_counters before, after;
	struct scratch_dev *s = NULL;
	struct errbuf err = { "" };
	void *buf = NULL;
	int fd = -1, i;

	CHECK(diskstats_read(NULL, "", &before, &err) == -EINVAL);
	CHECK(diskstats_read(NULL, "../../etc", &before, &err) == -EINVAL);
	CHECK(diskstats_read(NULL, "no-such-disk", &before, &err) == -ENOENT);
	CHECK_MSG(strstr(err.msg, "/sys/block/no-such-disk/stat"), "'%s'", err.msg);

	CHECK_MSG(scratch_create(16 * MIB, &s, &err) == 0, "%s", err.msg);
	if (!s)
		return;
	fd = open(scratch_path(s), O_RDWR | O_DIRECT | O_CLOEXEC);
	CHECK(fd >= 0);
	CHECK(posix_memalign(&buf, IO_SIZE, IO_SIZE) == 0);
	if (fd < 0 || !buf)
		goto cleanup;
	memset(buf, 0xa5, IO_SIZE);

	CHECK_MSG(diskstats_read(NULL, scratch_path(s) + 5, &before, &err) == 0, "%s", err.msg);
	for (i = 0; i < IO_COUNT; i++)
		CHECK(pread(fd, buf, IO_SIZE, (off_t)i * 2 * IO_SIZE) == IO_SIZE);
	CHECK(pwrite(fd, buf, IO_SIZE, 0) == IO_SIZE);
	CHECK_MSG(diskstats_read(NULL, scratch_path(s) + 5, &after, &err) == 0, "%s", err.msg);

	/* synchronous O_DIRECT reads cannot merge: one I/O each */
	CHECK_MSG(after.ios[0] - before.ios[0] >= IO_COUNT, "reads %llu -> %llu",
		  (unsigned long long)before.ios[0], (unsigned long long)after.ios[0]);
	CHECK_MSG(after.sectors[0] - before.sectors[0] >= IO_COUNT * IO_SIZE / 512,
		  "read sectors %llu -> %llu", (unsigned long long)before.sectors[0],
		  (unsigned long long)after.sectors[0]);
	CHECK_MSG(after.ios[1] - before.ios[1] >= 1, "writes %llu -> %llu",
		  (unsigned long long)before.ios[1], (unsigned long long)after.ios[1]);
	CHECK(after.sectors[1] - before.sectors[1] >= IO_SIZE / 512);
	CHECK(after.io_ticks >= before.io_ticks);
cleanup:
	free(buf);
	if (fd >= 0)
		close(fd);
	scratch_destroy(s);
}

int main(void)
{
	if (geteuid() != 0)
		SKIP("needs root for loop devices");
	if (access("/dev/loop-control", F_OK) < 0)
		SKIP("no loop driver (/dev/loop-control)");

	signal(SIGPIPE, SIG_IGN);
	test_bad_sizes();
	test_create_destroy();
	test_diskstats();
	test_stale(false);
	test_stale(true);
	return CHECK_DONE();
}
