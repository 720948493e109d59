// SPDX-License-Identifier: GPL-2.0
/*
 * fio's opendir (filesetup.c add_dir_files): a directory walked once at
 * parse time, its regular files added to the job's file list, which is
 * then what filename=a:b:c would have made.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "job/opendir_opt.h"

struct file_list {
	char *buf;       /* job->filename: "a\0b\0\0" */
	size_t size;
	size_t used;     /* bytes of names and their NULs, before the final NUL */
	unsigned int added;
};

static void list_open(struct file_list *l, char *buf, size_t size)
{
	l->buf = buf;
	l->size = size;
	l->used = 0;
	l->added = 0;
	while (buf[l->used])
		l->used += strlen(buf + l->used) + 1;
}

static int list_add(struct file_list *l, const char *path)
{
	size_t len = strlen(path) + 1;

	if (l->used + len + 1 > l->size)
		return -ENAMETOOLONG;
	memcpy(l->buf + l->used, path, len);
	l->used += len;
	l->buf[l->used] = '\0';
	l->added++;
	return 0;
}

static int walk(struct file_list *l, const char *dir, const char *where,
		struct errbuf *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return err_set(err, errno, "%s: option 'opendir': cannot read "
			       "directory %s: %s", where, dir, strerror(errno));
	while (!ret && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) >= sizeof(path)) {
			ret = err_set(err, ENAMETOOLONG, "%s: option 'opendir': "
				      "a path under %s is too long", where, dir);
		} else if (lstat(path, &st)) {
			/* gone since readdir: fio passes over it too */
			if (errno != ENOENT)
				ret = err_set(err, errno, "%s: option 'opendir': "
					      "cannot stat %s: %s", where, path,
					      strerror(errno));
		} else if (S_ISREG(st.st_mode)) {
			if (list_add(l, path))
				ret = err_set(err, ENAMETOOLONG, "%s: option "
					      "'opendir': the names of its files "
					      "do not fit iodig's %zu-byte file "
					      "list (at %s)", where, l->size - 1,
					      path);
		} else if (S_ISDIR(st.st_mode)) {
			ret = walk(l, path, where, err);
		}
	}
	closedir(d);
	return ret;
}

int opendir_resolve(struct job *job, const char *where, struct errbuf *err)
{
	struct file_list l;
	int ret;

	if (!job->opendir[0])
		return 0;
	list_open(&l, job->filename, sizeof(job->filename));
	ret = walk(&l, job->opendir, where, err);
	if (ret)
		return ret;
	/* fio runs such a job on no file at all (or wants size= first) */
	if (!l.added)
		return err_set(err, ENOENT, "%s: option 'opendir': %s holds no "
			       "regular file to do I/O on", where, job->opendir);
	return 0;
}
