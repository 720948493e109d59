/* target_inspect on real files, directories, char devices, loop devices and their partitions. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "target/target.h"
#include "tests/lib/check.h"
#include "tests/lib/loopdev.h"

#define MIB (1024ULL * 1024)

static struct fixture fx = { .tag = "target" };

static void test_regular_file(void)
{
	struct target_info t;
	struct errbuf err = { "" };
	const char *path = fixture_file(&fx, "/tmp", 12345);
	char sysdev[64], sysdisk[128];
	struct stat st;

	CHECK(path != NULL);
	if (!path || stat(path, &st) < 0)
		return;
	CHECK_MSG(target_inspect(path, &t, &err) == 0, "%s", err.msg);
	CHECK(t.exists && t.is_regular && !t.is_blockdev);
	CHECK(t.size == 12345);
	CHECK(t.backing_dev == st.st_dev);
	CHECK(!strcmp(t.path, path));
	CHECK(t.logical_block_size >= 512 &&
	      (t.logical_block_size & (t.logical_block_size - 1)) == 0);
	/* /tmp on a block-backed filesystem names a disk that exists */
	snprintf(sysdev, sizeof(sysdev), "/sys/dev/block/%u:%u",
		 major(st.st_dev), minor(st.st_dev));
	if (access(sysdev, F_OK) == 0) {
		snprintf(sysdisk, sizeof(sysdisk), "/sys/block/%s", t.disk_name);
		CHECK_MSG(t.disk_name[0] && access(sysdisk, F_OK) == 0,
			  "disk_name '%s'", t.disk_name);
	}
}

static void test_missing_file(void)
{
	struct target_info t;
	struct errbuf err = { "" };
	const char *dir = fixture_dir(&fx);
	char path[PATH_MAX + 16];

	CHECK(dir != NULL);
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/not-yet", dir);
	CHECK_MSG(target_inspect(path, &t, &err) == 0, "%s", err.msg);
	CHECK(!t.exists && t.is_regular && !t.is_blockdev && t.size == 0);
	CHECK(t.logical_block_size >= 512);

	/* its directory is missing too: an error naming the path */
	snprintf(path, sizeof(path), "%s/no-such-dir/file", dir);
	CHECK(target_inspect(path, &t, &err) == -ENOENT);
	CHECK_MSG(strstr(err.msg, path) && strstr(err.msg, "does not exist"),
		  "%s", err.msg);

	/* a "directory" that is a file */
	snprintf(path, sizeof(path), "/etc/hostname/file");
	CHECK(target_inspect(path, &t, &err) == -ENOTDIR);
	CHECK_MSG(strstr(err.msg, "/etc/hostname is not a directory"), "%s",
		  err.msg);
}

static void test_not_file_or_blockdev(void)
{
	struct target_info t;
	struct errbuf err = { "" };
	const char *dir = fixture_dir(&fx);
	char expect[PATH_MAX + 64];

	CHECK(dir != NULL);
	if (!dir)
		return;
	CHECK(target_inspect(dir, &t, &err) == -EINVAL);
	snprintf(expect, sizeof(expect),
		 "%s: is a directory; a job needs a file or a block device", dir);
	CHECK_MSG(!strcmp(err.msg, expect), "'%s'", err.msg);

	CHECK(target_inspect("/dev/null", &t, &err) == -EINVAL);
	CHECK_MSG(!strcmp(err.msg, "/dev/null: is a character device; a job needs a file or a block device"),
		  "'%s'", err.msg);

	CHECK(target_inspect("", &t, &err) == -EINVAL);
}

static void test_tmpfs_file(void)
{
	struct target_info t;
	struct errbuf err = { "" };
	const char *path = fixture_file(&fx, "/dev/shm", 4096);

	CHECK(path != NULL);
	if (!path)
		return;
	CHECK_MSG(target_inspect(path, &t, &err) == 0, "%s", err.msg);
	CHECK(t.exists && t.is_regular && t.size == 4096);
	CHECK_MSG(t.disk_name[0] == '\0', "tmpfs file has disk '%s'",
		  t.disk_name);
	CHECK(major(t.backing_dev) == 0);
}

static void test_loop_device(void)
{
	struct target_info t;
	struct errbuf err = { "" };
	const char *file = fixture_file(&fx, "/dev/shm", 64 * MIB), *dev;
	struct stat st;

	CHECK(file != NULL);
	dev = file ? fixture_loop(&fx, file, 0, 0) : NULL;
	CHECK(dev != NULL);
	if (!dev || stat(dev, &st) < 0)
		return;
	CHECK_MSG(target_inspect(dev, &t, &err) == 0, "%s", err.msg);
	CHECK(t.exists && t.is_blockdev && !t.is_regular);
	CHECK_MSG(t.size == 64 * MIB, "size %llu", (unsigned long long)t.size);
	CHECK_MSG(t.logical_block_size == 512, "lbs %u", t.logical_block_size);
	CHECK(t.rdev == st.st_rdev);
	CHECK_MSG(!strcmp(t.disk_name, dev + 5), "disk_name '%s' for %s",
		  t.disk_name, dev);

	/* a 4 KiB-sector loop reports 4096 */
	dev = fixture_loop(&fx, file, 0, 4096);
	CHECK(dev != NULL);
	if (!dev)
		return;
	CHECK_MSG(target_inspect(dev, &t, &err) == 0, "%s", err.msg);
	CHECK_MSG(t.logical_block_size == 4096, "lbs %u", t.logical_block_size);
}

static void test_partition(void)
{
	struct target_info t;
	struct errbuf err = { "" };
	char part[80], dir_file[PATH_MAX + 16];
	const char *dev, *mnt;
	int fd;

	if (!fixture_have_tool("sfdisk")) {
		printf("skipped: partition cases (sfdisk not installed)\n");
		return;
	}
	dev = fixture_partitioned_loop(&fx, part, sizeof(part));
	CHECK_MSG(dev != NULL, "no partitioned loop device");
	if (!dev)
		return;
	CHECK_MSG(target_inspect(part, &t, &err) == 0, "%s", err.msg);
	CHECK(t.is_blockdev && t.size == 20480ULL * 512);
	CHECK_MSG(!strcmp(t.disk_name, dev + 5), "partition %s: disk_name '%s'",
		  part, t.disk_name);

	/* a file on a filesystem on that partition: its disk is the loop */
	if (!fixture_have_tool("mkfs.ext4")) {
		printf("skipped: file on a partition (mkfs.ext4 not installed)\n");
		return;
	}
	if (strncmp(part, "/dev/loop", 9) ||
	    fixture_sh("mkfs.ext4 -q -F %s >/dev/null 2>&1", part) != 0) {
		CHECK_MSG(0, "mkfs.ext4 %s failed", part);
		return;
	}
	mnt = fixture_dir(&fx);
	CHECK(mnt != NULL);
	if (!mnt || mount(part, mnt, "ext4", 0, NULL) < 0) {
		CHECK_MSG(0, "mount %s: %s", part, strerror(errno));
		return;
	}
	snprintf(fx.mounts[fx.nmounts++], PATH_MAX, "%s", mnt);
	snprintf(dir_file, sizeof(dir_file), "%s/data", mnt);
	fd = open(dir_file, O_CREAT | O_WRONLY, 0600);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK_MSG(target_inspect(dir_file, &t, &err) == 0, "%s", err.msg);
	CHECK_MSG(!strcmp(t.disk_name, dev + 5), "file on %s: disk_name '%s'",
		  part, t.disk_name);
	unlink(dir_file);
}

/* As an unprivileged user, unreadable paths give "Permission denied". */
static void test_permission_denied(void)
{
	const char *dir = fixture_dir(&fx), *file, *dev;
	char path[PATH_MAX + 16];
	struct target_info t;
	struct errbuf err;
	int status, fail = 0;
	pid_t pid;

	file = fixture_file(&fx, "/dev/shm", 1 * MIB);
	dev = file ? fixture_loop(&fx, file, 0, 0) : NULL;
	CHECK(dir && dev);
	if (!dir || !dev)
		return;
	snprintf(path, sizeof(path), "%s/secret", dir);
	chmod(dir, 0700);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(2);
		if (target_inspect(path, &t, &err) != -EACCES ||
		    !strstr(err.msg, "Permission denied") || !strstr(err.msg, path)) {
			fprintf(stderr, "file: '%s'\n", err.msg);
			fail = 1;
		}
		/* loop nodes are root:disk 0660 */
		if (target_inspect(dev, &t, &err) != -EACCES ||
		    strcmp(err.msg + strlen(dev), ": Permission denied")) {
			fprintf(stderr, "device: '%s'\n", err.msg);
			fail = 1;
		}
		_exit(fail);
	}
	CHECK(pid > 0);
	if (pid > 0) {
		waitpid(pid, &status, 0);
		CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "unprivileged inspect, status %d", status);
	}
}

int main(void)
{
	if (geteuid() != 0)
		SKIP("needs root for loop devices");
	if (access("/dev/loop-control", F_OK) < 0)
		SKIP("no loop driver (/dev/loop-control)");
	fixture_install(&fx);

	test_regular_file();
	test_missing_file();
	test_not_file_or_blockdev();
	test_tmpfs_file();
	test_loop_device();
	fixture_cleanup(&fx);
	test_partition();
	fixture_cleanup(&fx);
	test_permission_denied();
	fixture_cleanup(&fx);
	return CHECK_DONE();
}
