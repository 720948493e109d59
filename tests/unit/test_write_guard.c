/* target_write_guard on real loop devices: blank, ext4, partitioned, swap, mounted, claimed, and regular files. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <time.h>
#include <unistd.h>

#include "target.h"
#include "check.h"

#define MIB (1024ULL * 1024)

/* Everything the test made, undone by fixture_cleanup on every exit path. */
struct fixture {
	char files[8][PATH_MAX];
	char dirs[4][PATH_MAX];
	char loops[8][64];
	char mounts[4][PATH_MAX];
	char swaps[2][64];
	int nfiles, ndirs, nloops, nmounts, nswaps;
};

static struct fixture fx;
static int cases_run;

static void fixture_cleanup(void)
{
	char cmd[128];
	int i;

	for (i = fx.nswaps - 1; i >= 0; i--)
		swapoff(fx.swaps[i]);
	for (i = fx.nmounts - 1; i >= 0; i--)
		umount2(fx.mounts[i], MNT_DETACH);
	for (i = fx.nloops - 1; i >= 0; i--) {
		snprintf(cmd, sizeof(cmd), "losetup -d %s 2>/dev/null", fx.loops[i]);
		if (system(cmd) != 0)
			fprintf(stderr, "cleanup: could not detach %s\n", fx.loops[i]);
	}
	for (i = fx.nfiles - 1; i >= 0; i--)
		unlink(fx.files[i]);
	for (i = fx.ndirs - 1; i >= 0; i--)
		rmdir(fx.dirs[i]);
	fx.nswaps = fx.nmounts = fx.nloops = fx.nfiles = fx.ndirs = 0;
}

static void on_signal(int sig)
{
	fixture_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

static bool have_tool(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

static int run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Destructive tools only ever run on loop devices this test attached. */
static bool ours(const char *dev)
{
	size_t len;
	int i;

	for (i = 0; i < fx.nloops; i++) {
		len = strlen(fx.loops[i]);
		if (!strncmp(dev, fx.loops[i], len) &&
		    (dev[len] == '\0' || dev[len] == 'p'))
			return true;
	}
	return false;
}

static int run_on(const char *tool, const char *dev)
{
	if (!ours(dev))
		return -1;
	return run("%s %s >/dev/null 2>&1", tool, dev);
}

static const char *make_file(const char *dir, unsigned long long size)
{
	char *path = fx.files[fx.nfiles];
	int fd;

	snprintf(path, PATH_MAX, "%s/iodig-test-guard-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	fx.nfiles++;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

static const char *make_dir(void)
{
	char *path = fx.dirs[fx.ndirs];

	snprintf(path, PATH_MAX, "/tmp/iodig-test-guard-XXXXXX");
	if (!mkdtemp(path))
		return NULL;
	fx.ndirs++;
	return path;
}

static const char *attach_loop(const char *file, const char *extra)
{
	char cmd[PATH_MAX + 64], *dev = fx.loops[fx.nloops];
	FILE *p;

	if (strncmp(file, "/dev/shm/", 9))
		return NULL;   /* loop devices only over files in /dev/shm */
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s %s", extra, file);
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	if (!fgets(dev, 64, p))
		dev[0] = '\0';
	pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	if (strncmp(dev, "/dev/loop", 9))
		return NULL;
	fx.nloops++;
	return dev;
}

static const char *blank_loop(void)
{
	const char *file = make_file("/dev/shm", 64 * MIB);

	return file ? attach_loop(file, "") : NULL;
}

static bool wait_for_node(const char *path)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct stat st;
	int i;

	for (i = 0; i < 100; i++) {
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* GPT with one partition; partx adds it when the kernel has no GPT parser. */
static const char *partitioned_loop(char *part, size_t len)
{
	const char *file = make_file("/dev/shm", 64 * MIB), *dev;

	if (!file || run("printf 'label: gpt\\nstart=2048, size=20480\\n' | sfdisk -q %s >/dev/null 2>&1",
			 file) != 0)
		return NULL;
	dev = attach_loop(file, "-P");
	if (!dev)
		return NULL;
	snprintf(part, len, "%sp1", dev);
	if (access(part, F_OK) < 0)
		run("partx -a %s >/dev/null 2>&1", dev);
	return wait_for_node(part) ? dev : NULL;
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
	file = make_file("/tmp", 16 * MIB);
	CHECK(file != NULL);
	if (file && have_tool("mkfs.ext4"))
		CHECK(run("mkfs.ext4 -q -F %s >/dev/null 2>&1", file) == 0);
	if (file)
		CHECK_ALLOWED(file, false);
	cases_run++;
}

static void test_ext4(void)
{
	const char *dev;

	if (!have_tool("mkfs.ext4")) {
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

	if (!have_tool("mkswap")) {
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

	if (!have_tool("mkfs.ext4")) {
		printf("skipped: mounted case (mkfs.ext4 not installed)\n");
		return;
	}
	dev = blank_loop();
	mnt = make_dir();
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

	if (!have_tool("sfdisk")) {
		printf("skipped: partition cases (sfdisk not installed)\n");
		return;
	}
	dev = partitioned_loop(part, sizeof(part));
	CHECK_MSG(dev != NULL, "no partitioned loop device");
	if (!dev)
		return;
	CHECK_REFUSED(dev, false, "carries a gpt partition table");
	CHECK_ALLOWED(part, false);   /* the partition itself is blank */
	cases_run++;

	if (!have_tool("mkfs.ext4")) {
		printf("skipped: mounted partition case (mkfs.ext4 not installed)\n");
		return;
	}
	mnt = make_dir();
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
	atexit(fixture_cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	/* a closed stdout (| head) must not kill us before cleanup */
	signal(SIGPIPE, SIG_IGN);

	test_blank_and_regular();
	fixture_cleanup();
	test_ext4();
	fixture_cleanup();
	test_swap_signature();
	fixture_cleanup();
	test_mounted();
	fixture_cleanup();
	test_partitions();
	fixture_cleanup();
	test_claimed();
	fixture_cleanup();
	if (!cases_run && !check_failures)
		SKIP("no case could run");
	return CHECK_DONE();
}
