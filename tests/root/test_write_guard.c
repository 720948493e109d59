/* target_write_guard on real loop devices: blank, ext4, partitioned, swap, mounted, claimed, and regular files. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <unistd.h>

#include "target/target.h"
#include "target/write_guard.h"
#include "tests/lib/check.h"
#include "tests/lib/loopdev.h"

#define MIB (1024ULL * 1024)

static struct fixture fx = { .tag = "guard" };
static int cases_run;

static int run_on(const char *tool, const char *dev)
{
	if (!fixture_owns(&fx, dev))
		return -1;
	return fixture_sh("%s %s >/dev/null 2>&1", tool, dev);
}

static const char *blank_loop(void)
{
	const char *file = fixture_file(&fx, "/dev/shm", 64 * MIB);

	return file ? fixture_loop(&fx, file, 0, 0) : NULL;
}

/* Runs the guard; returns its result and leaves the message in err. */
static int guard(const char *path, bool allow, struct errbuf *err)
{
	struct target_info t;
	int ret;

	err->msg[0] = '\0';
	ret = target_inspect(path, &t, err);
	if (ret < 0)
		return ret;
	return target_write_guard(&t, allow, err);
}

/* A refusal names the device, the finding, and the way out. */
#define CHECK_REFUSED(dev, allow, ...)                                       \
	do {                                                                  \
		struct errbuf e_;                                             \
		int r_ = guard(dev, allow, &e_);                              \
		const char *want_[] = { __VA_ARGS__ };                        \
		size_t i_;                                                    \
		CHECK_MSG(r_ < 0, "%s was allowed", dev);                     \
		CHECK_MSG(!strncmp(e_.msg, dev, strlen(dev)) &&               \
			  strstr(e_.msg, "--allow-destructive"), "'%s'", e_.msg); \
		for (i_ = 0; i_ < sizeof(want_) / sizeof(want_[0]); i_++)     \
			CHECK_MSG(strstr(e_.msg, want_[i_]),                  \
				  "'%s' lacks '%s'", e_.msg, want_[i_]);      \
	} while (0)

#define CHECK_ALLOWED(path, allow)                                           \
	do {                                                                  \
		struct errbuf e_;                                             \
		int r_ = guard(path, allow, &e_);                             \
		CHECK_MSG(r_ == 0, "%s refused: %s", path, e_.msg);           \
	} while (0)

static void test_blank_and_regular(void)
{
	const char *dev = blank_loop(), *file;

	CHECK(dev != NULL);
	if (dev)
		CHECK_ALLOWED(dev, false);

	/* a regular file is allowed even when it holds a filesystem image */
	file = fixture_file(&fx, "/tmp", 16 * MIB);
	CHECK(file != NULL);
	if (file && fixture_have_tool("mkfs.ext4"))
		CHECK(fixture_sh("mkfs.ext4 -q -F %s >/dev/null 2>&1", file) == 0);
	if (file)
		CHECK_ALLOWED(file, false);
	cases_run++;
}

static void test_ext4(void)
{
	const char *dev;

	if (!fixture_have_tool("mkfs.ext4")) {
		printf("skipped: ext4 case (mkfs.ext4 not installed)\n");
		return;
	}
	dev = blank_loop();
	CHECK(dev != NULL);
	if (!dev || run_on("mkfs.ext4 -q -F", dev) != 0) {
		CHECK_MSG(0, "mkfs.ext4 on a loop device failed");
		return;
	}
	CHECK_REFUSED(dev, false, "carries an ext4 filesystem (UUID ");
	CHECK_ALLOWED(dev, true);
	cases_run++;
}

static void test_swap_signature(void)
{
	const char *dev;

	if (!fixture_have_tool("mkswap")) {
		printf("skipped: swap cases (mkswap not installed)\n");
		return;
	}
	dev = blank_loop();
	CHECK(dev != NULL);
	if (!dev || run_on("mkswap", dev) != 0) {
		CHECK_MSG(0, "mkswap on a loop device failed");
		return;
	}
	CHECK_REFUSED(dev, false, "carries a swap signature");

	/* active swap is named as such (checked before signatures) */
	if (swapon(dev, 0) < 0) {
		printf("skipped: active swap case (swapon: %s)\n", strerror(errno));
	} else {
		snprintf(fx.swaps[fx.nswaps++], 64, "%s", dev);
		CHECK_REFUSED(dev, false, "is active swap");
		swapoff(dev);
		fx.nswaps--;
	}
	cases_run++;
}

static void test_mounted(void)
{
	const char *dev, *mnt;

	if (!fixture_have_tool("mkfs.ext4")) {
		printf("skipped: mounted case (mkfs.ext4 not installed)\n");
		return;
	}
	dev = blank_loop();
	mnt = fixture_dir(&fx);
	CHECK(dev && mnt);
	if (!dev || !mnt || run_on("mkfs.ext4 -q -F", dev) != 0)
		return;
	if (mount(dev, mnt, "ext4", 0, NULL) < 0) {
		CHECK_MSG(0, "mount %s: %s", dev, strerror(errno));
		return;
	}
	snprintf(fx.mounts[fx.nmounts++], PATH_MAX, "%s", mnt);
	CHECK_REFUSED(dev, false, "it is mounted on ", mnt);
	CHECK_ALLOWED(dev, true);
	umount2(mnt, 0);
	fx.nmounts--;
	cases_run++;
}

static void test_partitions(void)
{
	char part[80];
	const char *dev, *mnt;

	if (!fixture_have_tool("sfdisk")) {
		printf("skipped: partition cases (sfdisk not installed)\n");
		return;
	}
	dev = fixture_partitioned_loop(&fx, part, sizeof(part));
	CHECK_MSG(dev != NULL, "no partitioned loop device");
	if (!dev)
		return;
	CHECK_REFUSED(dev, false, "carries a gpt partition table");
	CHECK_ALLOWED(part, false);   /* the partition itself is blank */
	cases_run++;

	if (!fixture_have_tool("mkfs.ext4")) {
		printf("skipped: mounted partition case (mkfs.ext4 not installed)\n");
		return;
	}
	mnt = fixture_dir(&fx);
	CHECK(mnt != NULL);
	if (!mnt || run_on("mkfs.ext4 -q -F", part) != 0) {
		CHECK_MSG(0, "mkfs.ext4 on %s failed", part);
		return;
	}
	CHECK_REFUSED(part, false, "carries an ext4 filesystem");
	if (mount(part, mnt, "ext4", 0, NULL) < 0) {
		CHECK_MSG(0, "mount %s: %s", part, strerror(errno));
		return;
	}
	snprintf(fx.mounts[fx.nmounts++], PATH_MAX, "%s", mnt);
	/* the whole disk is refused because of its mounted partition */
	CHECK_REFUSED(dev, false, "its partition ", part, " is mounted on ", mnt);
	CHECK_REFUSED(part, false, "it is mounted on ", mnt);
	umount2(mnt, 0);
	fx.nmounts--;
}

/* Any O_EXCL claim (here our own) makes the kernel report it busy. */
static void test_claimed(void)
{
	const char *dev = blank_loop();
	int fd;

	CHECK(dev != NULL);
	if (!dev)
		return;
	fd = open(dev, O_RDONLY | O_EXCL);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_REFUSED(dev, false, "busy");
	close(fd);
	CHECK_ALLOWED(dev, false);
	cases_run++;
}

int main(void)
{
	if (geteuid() != 0)
		SKIP("needs root for loop devices");
	if (access("/dev/loop-control", F_OK) < 0)
		SKIP("no loop driver (/dev/loop-control)");
	fixture_install(&fx);

	test_blank_and_regular();
	fixture_cleanup(&fx);
	test_ext4();
	fixture_cleanup(&fx);
	test_swap_signature();
	fixture_cleanup(&fx);
	test_mounted();
	fixture_cleanup(&fx);
	test_partitions();
	fixture_cleanup(&fx);
	test_claimed();
	fixture_cleanup(&fx);
	if (!cases_run && !check_failures)
		SKIP("no case could run");
	return CHECK_DONE();
}
