// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/read_whole.h"
#include "probes/ksyms_cache.h"

/* a new symbol image format (ksyms.c) needs a new magic: old files then miss */
#define CACHE_MAGIC "iodksc02"
#define DEFAULT_PATH "/run/iodig/kallsyms"

const char *ksyms_cache_path(void)
{
	const char *p = getenv("IODIG_KSYMS_CACHE");

	if (!p)
		return DEFAULT_PATH;
	return *p && strcmp(p, "off") ? p : NULL;
}

/* FNV-1a of the name, size and address of each loaded module; the other
 * columns (users, state) change while the module's code stays. */
static uint64_t modules_hash(void)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char *text = NULL, *save = NULL;
	size_t len = 0;
	int fd = open("/proc/modules", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return h;  /* no module support: no modules */
	if (read_whole(fd, 16 << 20, &text, &len))
		text = NULL;
	close(fd);
	if (!text)
		return 0;  /* unknown: matches no file written with modules read */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64] = "", addr[32] = "";
		unsigned long size = 0;
		char buf[128];

		if (sscanf(line, "%63s %lu %*s %*s %*s %31s", name, &size, addr) < 2)
			continue;
		snprintf(buf, sizeof(buf), "%s %lu %s;", name, size, addr);
		for (const char *p = buf; *p; p++)
			h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
	}
	free(text);
	return h;
}

bool ksyms_cache_key(struct ksyms_cache_key *key)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	bool ok;

	memset(key, 0, sizeof(*key));
	memcpy(key->magic, CACHE_MAGIC, sizeof(key->magic));
	if (!f)
		return false;
	ok = fgets(key->boot_id, sizeof(key->boot_id), f) != NULL;
	fclose(f);
	key->modules_hash = modules_hash();
	return ok && key->modules_hash;
}

int ksyms_cache_open(const char *path, const struct ksyms_cache_key *key)
{
	struct ksyms_cache_key have;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return -1;
	/* only a file this user wrote: it names the code in every report */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022) || pread(fd, &have, sizeof(have), 0) != sizeof(have) ||
	    memcmp(&have, key, sizeof(have))) {
		close(fd);
		return -1;
	}
	return fd;
}

int ksyms_cache_write(const char *path, const struct ksyms_cache_key *key,
		      const struct ksyms *ks)
{
	struct atomic_file af;
	char dir[PATH_MAX];
	char *slash;
	int ret;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0700);   /* the first run of the boot makes it */
	}
	ret = atomic_file_open(&af, path);
	if (ret)
		return ret;
	ret = fd_write_all(af.fd, key, sizeof(*key));
	if (!ret)
		ret = ksyms__save_static(ks, af.fd);
	if (!ret && fchmod(af.fd, 0600))
		ret = -errno;
	if (ret) {
		atomic_file_abort(&af);
		return ret;
	}
	return atomic_file_commit(&af, false);
}
