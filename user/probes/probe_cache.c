// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "probes/ksyms.h"
#include "probes/probe_cache.h"
#include "probes/tp_layout.h"

struct probe_cache {
	struct btf *btf;
	int btf_errno;           /* why the BTF could not be read, 0 = untried */
	struct ksyms *ksyms;
	struct errbuf ksyms_err; /* why kallsyms could not be read */
	int ksyms_ret;           /* 0 or the -errno of the one load */
	bool ksyms_tried;
	pid_t ksyms_child;       /* saving kallsyms into ksyms_image, 0 = none */
	int ksyms_image;          /* the child's memfd, -1 = none */
};

int probe_cache_new(struct probe_cache **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->ksyms_image = -1;
	return 0;
}

/* Waits for the prefetch child; true when it saved its image. */
static bool reap_prefetch(struct probe_cache *c)
{
	int status = 0;
	pid_t r;

	if (!c->ksyms_child)
		return false;
	do
		r = waitpid(c->ksyms_child, &status, 0);
	while (r < 0 && errno == EINTR);
	c->ksyms_child = 0;
	return r > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void probe_cache_free(struct probe_cache *c)
{
	if (!c)
		return;
	if (c->ksyms_child)
		kill(c->ksyms_child, SIGKILL);
	reap_prefetch(c);
	if (c->ksyms_image >= 0)
		close(c->ksyms_image);
	btf__free(c->btf);
	ksyms__free(c->ksyms);
	free(c);
}

const struct btf *probe_cache_btf(struct probe_cache *c, const char *path)
{
	struct btf *btf;

	if (c->btf)
		return c->btf;
	if (c->btf_errno) {
		errno = c->btf_errno;
		return NULL;
	}
	btf = kernel_btf_load(path);
	if (!btf) {
		c->btf_errno = errno ? errno : ENOENT;
		return NULL;
	}
	c->btf = btf;
	return btf;
}

/* The child's work: kallsyms parsed and saved as an image into @copy.
 * It allocates: glibc's fork leaves malloc usable in the child, and the
 * probes open before any worker thread starts. */
static int save_ksyms(int copy)
{
	struct errbuf err = { .msg = "" };
	struct ksyms *ks;
	int ret = ksyms__load(&ks, &err);

	if (!ret)
		ret = ksyms__save(ks, copy);
	ksyms__free(ks);
	return ret ? 1 : 0;
}

void probe_cache_prefetch_ksyms(struct probe_cache *c)
{
	if (!c || c->ksyms_tried || c->ksyms_child)
		return;
	c->ksyms_image = memfd_create("iodig-kallsyms", MFD_CLOEXEC);
	if (c->ksyms_image < 0)
		return;
	c->ksyms_child = fork();
	if (c->ksyms_child == 0)
		_exit(save_ksyms(c->ksyms_image));
	if (c->ksyms_child < 0) {
		c->ksyms_child = 0;
		close(c->ksyms_image);
		c->ksyms_image = -1;
	}
}

/* The child's image when it made one, else /proc/kallsyms itself. */
static int load_ksyms(struct probe_cache *c)
{
	int ret = -1;

	if (reap_prefetch(c))
		ret = ksyms__load_image(c->ksyms_image, &c->ksyms, &c->ksyms_err);
	if (c->ksyms_image >= 0)
		close(c->ksyms_image);
	c->ksyms_image = -1;
	/* Failed or never copied: the reason comes from the file itself. */
	return ret ? ksyms__load(&c->ksyms, &c->ksyms_err) : 0;
}

int probe_cache_ksyms(struct probe_cache *c, const struct ksyms **out, struct errbuf *err)
{
	if (!c->ksyms_tried) {
		c->ksyms_tried = true;
		c->ksyms_ret = load_ksyms(c);
	}
	*out = c->ksyms;
	if (c->ksyms)
		return 0;
	return err_set(err, c->ksyms_ret ? -c->ksyms_ret : ENOENT, "%s", c->ksyms_err.msg);
}
