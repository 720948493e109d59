// SPDX-License-Identifier: GPL-2.0
/*
 * The destructive-write guard: a write job against a block device that holds
 * someone's data is refused unless the user says --allow-destructive.
 *
 * fio only compares the job's filename with mount sources by name, which
 * misses the whole disk of a mounted partition and anything mounted through
 * another node.  Here everything is compared by device number, and a whole
 * disk is guarded together with all of its partitions.  Every check only
 * reads (sysfs, procfs, read-only opens); nothing is ever written.
 */
#define _GNU_SOURCE
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/write_guard.h"

#define WAY_OUT "use --allow-destructive to write anyway"

/* GPT's default table has 128 entries; anything beyond this is unusual
 * enough to refuse rather than guard only partly. */
#define GUARD_MAX_DEVS 256

struct guarded_dev {
	char sysfs_rel[136];   /* under /sys/block: "loop3" or "loop3/loop3p1" */
	char dev_path[80];     /* "/dev/loop3p1", for messages about a partition */
	dev_t dev;
};

/* The target itself and, when it is a whole disk, all its partitions. */
struct guard_set {
	struct guarded_dev devs[GUARD_MAX_DEVS];
	int n;
};

static int read_dev_attr(const char *path, dev_t *dev)
{
	unsigned int maj, min;
	FILE *f;
	int ok;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*dev = makedev(maj, min);
	return 0;
}

/* sysfs spells '/' in device names as '!' (cciss!c0d0). */
static void set_dev_path(struct guarded_dev *g, const char *name)
{
	char *p;

	snprintf(g->dev_path, sizeof(g->dev_path), "/dev/%.70s", name);
	for (p = g->dev_path; *p; p++)
		if (*p == '!')
			*p = '/';
}

static int add_partitions(const struct target_info *t, struct guard_set *set,
			  struct errbuf *err)
{
	char dir[128], attr[400];
	struct guarded_dev *g;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(dir, sizeof(dir), "/sys/block/%s", t->disk_name);
	d = opendir(dir);
	if (!d)
		return err_set(err, errno, "%s: cannot list partitions in %s: %s",
			       t->path, dir, strerror(errno));
	while ((de = readdir(d))) {
		snprintf(attr, sizeof(attr), "%s/%s/partition", dir, de->d_name);
		if (de->d_name[0] == '.' || access(attr, F_OK) < 0)
			continue;
		if (set->n == GUARD_MAX_DEVS) {
			ret = err_set(err, E2BIG,
				      "%s: refusing to write: it has more than %d partitions to check; " WAY_OUT,
				      t->path, GUARD_MAX_DEVS - 1);
			goto cleanup;
		}
		g = &set->devs[set->n];
		snprintf(g->sysfs_rel, sizeof(g->sysfs_rel), "%.63s/%.63s",
			 t->disk_name, de->d_name);
		snprintf(attr, sizeof(attr), "%s/%s/dev", dir, de->d_name);
		if (read_dev_attr(attr, &g->dev) < 0)
			continue;   /* partition vanished during the scan */
		set_dev_path(g, de->d_name);
		set->n++;
	}
cleanup:
	closedir(d);
	return ret;
}

static int collect_devices(const struct target_info *t, struct guard_set *set,
			   struct errbuf *err)
{
	struct guarded_dev *self = &set->devs[0];
	char attr[128];
	dev_t disk_dev;
	int i, ret;

	set->n = 1;
	self->dev = t->rdev;
	self->dev_path[0] = '\0';   /* messages call the target "it" */
	self->sysfs_rel[0] = '\0';
	if (!t->disk_name[0])
		return 0;   /* no sysfs entry: mounts, swap and signatures only */

	snprintf(attr, sizeof(attr), "/sys/block/%s/dev", t->disk_name);
	if (read_dev_attr(attr, &disk_dev) < 0)
		return 0;
	if (disk_dev == t->rdev) {
		snprintf(self->sysfs_rel, sizeof(self->sysfs_rel), "%s",
			 t->disk_name);
		return add_partitions(t, set, err);
	}

	/* The target is one partition: its siblings are none of our business,
	 * but we need its own sysfs directory for the holders check. */
	ret = add_partitions(t, set, err);
	if (ret < 0)
		return ret;
	for (i = 1; i < set->n; i++)
		if (set->devs[i].dev == t->rdev)
			memcpy(self->sysfs_rel, set->devs[i].sysfs_rel,
			       sizeof(self->sysfs_rel));
	set->n = 1;
	return 0;
}

static const struct guarded_dev *find_dev(const struct guard_set *set, dev_t dev)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (set->devs[i].dev == dev)
			return &set->devs[i];
	return NULL;
}

/* "it" for the target itself, "its partition /dev/x" for a partition. */
static void describe_dev(const struct guard_set *set,
			 const struct guarded_dev *g, char *buf, size_t len)
{
	if (g == &set->devs[0])
		snprintf(buf, len, "it");
	else
		snprintf(buf, len, "its partition %s", g->dev_path);
}

/* procfs escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *in = s, *out = s;

	while (*in) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '7' &&
		    in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
			*out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 +
					(in[3] - '0'));
			in += 4;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
}

/* A mount source given as a device node (btrfs reports an anonymous dev in
 * mountinfo, so the number there alone would miss it). */
static const struct guarded_dev *match_source(const struct guard_set *set,
					      const char *source)
{
	struct stat st;

	if (strncmp(source, "/dev/", 5) != 0 || stat(source, &st) < 0 ||
	    !S_ISBLK(st.st_mode))
		return NULL;
	return find_dev(set, st.st_rdev);
}

static int check_mounted(const struct target_info *t,
			 const struct guard_set *set, struct errbuf *err)
{
	char *line = NULL, *mnt, *sep, *source, who[128];
	const struct guarded_dev *g;
	unsigned int maj, min;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return err_set(err, errno, "%s: cannot check mounts: /proc/self/mountinfo: %s",
			       t->path, strerror(errno));
	/* "36 35 98:0 /root /mnt rw,... - ext4 /dev/sda1 rw,..." */
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%*d %*d %u:%u", &maj, &min) != 2)
			continue;
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		/* field 5 is the mount point, field 2 after " - " the source */
		mnt = line;
		for (int i = 0; i < 4 && mnt; i++)
			mnt = strchr(mnt, ' ') ? strchr(mnt, ' ') + 1 : NULL;
		source = strchr(sep + 3, ' ');
		if (!mnt || !source)
			continue;
		source++;
		source[strcspn(source, " ")] = '\0';
		mnt[strcspn(mnt, " ")] = '\0';
		unescape_octal(mnt);
		unescape_octal(source);

		g = find_dev(set, makedev(maj, min));
		if (!g)
			g = match_source(set, source);
		if (g) {
			describe_dev(set, g, who, sizeof(who));
			ret = err_set(err, EBUSY,
				      "%s: refusing to write: %s is mounted on %s; " WAY_OUT,
				      t->path, who, mnt);
			break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

static int check_swap(const struct target_info *t, const struct guard_set *set,
		      struct errbuf *err)
{
	char *line = NULL, who[128];
	const struct guarded_dev *g;
	struct stat st;
	size_t cap = 0;
	int ret = 0;
	FILE *f;

	f = fopen("/proc/swaps", "re");
	if (!f) {
		if (errno == ENOENT)
			return 0;   /* kernel built without swap */
		return err_set(err, errno, "%s: cannot check swap: /proc/swaps: %s",
			       t->path, strerror(errno));
	}
	/* "Filename  Type  Size  Used  Priority", one active area per line */
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, " \t\n")] = '\0';
		unescape_octal(line);
		if (line[0] != '/' || stat(line, &st) < 0 || !S_ISBLK(st.st_mode))
			continue;
		g = find_dev(set, st.st_rdev);
		if (g) {
			describe_dev(set, g, who, sizeof(who));
			ret = err_set(err, EBUSY,
				      "%s: refusing to write: %s is active swap; " WAY_OUT,
				      t->path, who);
			break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* dm, md, bcache and friends list themselves in holders/ of what they use. */
static int check_holders(const struct target_info *t,
			 const struct guard_set *set, struct errbuf *err)
{
	char dir[192], who[128];
	struct dirent *de;
	int i, ret = 0;
	DIR *d;

	for (i = 0; i < set->n && !ret; i++) {
		if (!set->devs[i].sysfs_rel[0])
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%s/holders",
			 set->devs[i].sysfs_rel);
		d = opendir(dir);
		if (!d)
			continue;   /* very old kernels have no holders/ */
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			describe_dev(set, &set->devs[i], who, sizeof(who));
			ret = err_set(err, EBUSY,
				      "%s: refusing to write: %s is in use by %s (see %s); " WAY_OUT,
				      t->path, who, de->d_name, dir);
			break;
		}
		closedir(d);
	}
	return ret;
}

/*
 * The kernel's own answer: an O_EXCL open of a block device fails with EBUSY
 * while a filesystem, swap or a stacked driver has claimed it or one of its
 * partitions.  This catches users the checks above cannot name (a mount in
 * another mount namespace, a claim by a driver without holders/).
 */
static int check_exclusive_open(const struct target_info *t,
				const struct guard_set *set, struct errbuf *err)
{
	int fd;

	(void)set;
	fd = open(t->path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EBUSY)
		return err_set(err, EBUSY,
			       "%s: refusing to write: the kernel reports it busy (it or a partition is claimed by a filesystem, swap or another driver); " WAY_OUT,
			       t->path);
	return err_set(err, errno, "%s: cannot check whether it is in use: %s",
		       t->path, strerror(errno));
}

static const char *probe_value(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) < 0)
		return NULL;
	return v;
}

/* "an ext4 filesystem (UUID ..., LABEL ...)" and the like. */
static void describe_signature(blkid_probe pr, char *buf, size_t len)
{
	const char *type = probe_value(pr, "TYPE");
	const char *usage = probe_value(pr, "USAGE");
	const char *pttype = probe_value(pr, "PTTYPE");
	const char *uuid = probe_value(pr, "UUID");
	const char *label = probe_value(pr, "LABEL");
	char what[96], ids[160] = "";
	const char *article;

	if (!type && pttype) {
		snprintf(what, sizeof(what), "a %s partition table", pttype);
		uuid = probe_value(pr, "PTUUID");
		label = NULL;
	} else if (!type) {
		snprintf(what, sizeof(what), "an unnamed signature");
	} else if (!strcmp(type, "swap")) {
		snprintf(what, sizeof(what), "a swap signature");
	} else {
		/* ext4, xfs, f2fs: spoken with a leading vowel sound */
		article = strchr("aeiofx", type[0]) ? "an" : "a";
		if (usage && !strcmp(usage, "filesystem"))
			snprintf(what, sizeof(what), "%s %s filesystem", article, type);
		else if (usage && !strcmp(usage, "raid"))
			snprintf(what, sizeof(what), "%s %s RAID signature", article, type);
		else if (usage && !strcmp(usage, "crypto"))
			snprintf(what, sizeof(what), "%s %s encrypted volume", article, type);
		else
			snprintf(what, sizeof(what), "%s %s signature", article, type);
	}
	if (uuid && label && label[0])
		snprintf(ids, sizeof(ids), " (UUID %s, LABEL %s)", uuid, label);
	else if (uuid)
		snprintf(ids, sizeof(ids), " (UUID %s)", uuid);
	else if (label && label[0])
		snprintf(ids, sizeof(ids), " (LABEL %s)", label);
	snprintf(buf, len, "%s%s", what, ids);
}

static int check_signatures(const struct target_info *t,
			    const struct guard_set *set, struct errbuf *err)
{
	char what[256];
	blkid_probe pr;
	int rc, ret = 0;

	(void)set;
	/* libblkid opens the device read-only. */
	pr = blkid_new_probe_from_filename(t->path);
	if (!pr)
		return err_set(err, errno ? errno : EIO,
			       "%s: cannot probe for filesystem signatures: %s",
			       t->path, strerror(errno ? errno : EIO));
	blkid_probe_enable_superblocks(pr, 1);
	/* BADCSUM: a damaged filesystem is still somebody's data. */
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE | BLKID_SUBLKS_UUID |
					  BLKID_SUBLKS_LABEL | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);

	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		describe_signature(pr, what, sizeof(what));
		ret = err_set(err, EEXIST, "%s: refusing to write: it carries %s; " WAY_OUT,
			      t->path, what);
	} else if (rc == -2) {
		ret = err_set(err, EEXIST,
			      "%s: refusing to write: it carries several conflicting signatures (see wipefs -n %s); " WAY_OUT,
			      t->path, t->path);
	} else if (rc < 0) {
		ret = err_set(err, EIO, "%s: refusing to write: probing for filesystem signatures failed; " WAY_OUT,
			      t->path);
	}
	blkid_free_probe(pr);
	return ret;
}

/* In this order: those that name who uses the device first, then the
 * exclusive open for users they cannot name, then what is written on it. */
static int (*const checks[])(const struct target_info *t,
			     const struct guard_set *set, struct errbuf *err) = {
	check_mounted,
	check_swap,
	check_holders,
	check_exclusive_open,
	check_signatures,
};

int target_write_guard(const struct target_info *t, bool allow_destructive,
		       struct errbuf *err)
{
	struct guard_set *set;
	int ret;

	if (!t->is_blockdev || allow_destructive)
		return 0;

	set = calloc(1, sizeof(*set));
	if (!set)
		return err_set(err, ENOMEM, "%s: out of memory checking the device",
			       t->path);
	ret = collect_devices(t, set, err);
	for (size_t i = 0; !ret && i < sizeof(checks) / sizeof(checks[0]); i++)
		ret = checks[i](t, set, err);
	free(set);
	return ret;
}
