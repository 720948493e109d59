// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "base/grow.h"
#include "probes/bpf_ksyms.h"
#include "probes/kernel_text.h"
#include "probes/ksyms.h"
#include "probes/ksyms_cache.h"
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
	int text_pipe;           /* the child's first answer: where kernel
				  * code begins (kernel_text.h), -1 = none */
	uint64_t text_start;     /* that, once known; 0 = not yet */
	/* The boot's static symbols (probes/ksyms_cache.h): ksyms is then a
	 * partial table, and what it cannot answer comes from the BPF
	 * programs' info or, failing that, from all of /proc/kallsyms. */
	struct ksyms_cache_key key;
	bool have_key;
	int boot_cache;          /* the cache file, -1 = none */
	struct bpf_ksyms *bpf;
	bool bpf_tried;
	struct ksyms *full;
	bool full_tried;
	/* Earlier askers' BPF and full tables, kept for the symbols they
	 * hold: programs come and go between a run's groups and repeats. */
	struct retired_syms {
		struct bpf_ksyms *bpf;
		struct ksyms *full;
	} *retired;
	size_t nr_retired, cap_retired;
};

int probe_cache_new(struct probe_cache **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	(*out)->ksyms_image = -1;
	(*out)->text_pipe = -1;
	(*out)->boot_cache = -1;
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
	if (c->text_pipe >= 0)
		close(c->text_pipe);
	if (c->boot_cache >= 0)
		close(c->boot_cache);
	btf__free(c->btf);
	ksyms__free(c->ksyms);
	bpf_ksyms__free(c->bpf);
	ksyms__free(c->full);
	for (size_t i = 0; i < c->nr_retired; i++) {
		bpf_ksyms__free(c->retired[i].bpf);
		ksyms__free(c->retired[i].full);
	}
	free(c->retired);
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

/* The child's early answer; one that fails leaves the parent reading 0
 * (then sched walks every sample), and a parent that stopped listening
 * must not kill the child with SIGPIPE. */
static void tell_text_start(int fd, uint64_t text)
{
	ssize_t n;

	signal(SIGPIPE, SIG_IGN);
	do
		n = write(fd, &text, sizeof(text));
	while (n < 0 && errno == EINTR);
	close(fd);
}

/* The child's work: where kernel code begins written to @text_out as
 * soon as kallsyms' first lines say it, then kallsyms parsed and saved as
 * an image into @copy, and its static part into the boot's cache file
 * when there is one.  It allocates: glibc's fork leaves malloc usable in
 * the child, and the probes open before any worker thread starts. */
static int save_ksyms(const struct probe_cache *c, int copy, int text_out)
{
	struct errbuf err = { .msg = "" };
	const char *path = ksyms_cache_path();
	struct ksyms *ks = NULL;
	uint64_t text;
	int fd = kernel_text_open(&text), ret = fd;

	tell_text_start(text_out, text);
	if (fd >= 0) {
		ret = ksyms__load_opened(fd, &ks, &err);
		close(fd);
	}
	if (!ret)
		ret = ksyms__save(ks, copy);
	if (!ret && path && c->have_key)
		ksyms_cache_write(path, &c->key, ks);
	ksyms__free(ks);
	return ret ? 1 : 0;
}

/* True when the boot's cache file holds the static symbols: then no
 * child reads kallsyms. */
static bool open_boot_cache(struct probe_cache *c)
{
	const char *path = ksyms_cache_path();

	c->have_key = path && ksyms_cache_key(&c->key);
	if (c->have_key)
		c->boot_cache = ksyms_cache_open(path, &c->key);
	return c->boot_cache >= 0;
}

void probe_cache_prefetch_ksyms(struct probe_cache *c)
{
	int text[2];

	if (!c || c->ksyms_tried || c->ksyms_child || c->boot_cache >= 0 ||
	    open_boot_cache(c))
		return;
	c->ksyms_image = memfd_create("iodig-kallsyms", MFD_CLOEXEC);
	if (c->ksyms_image < 0)
		return;
	if (pipe2(text, O_CLOEXEC))
		text[0] = text[1] = -1;
	c->ksyms_child = fork();
	if (c->ksyms_child == 0)
		_exit(save_ksyms(c, c->ksyms_image, text[1]));
	close(text[1]);
	c->text_pipe = text[0];
	if (c->ksyms_child < 0) {
		c->ksyms_child = 0;
		close(c->ksyms_image);
		c->ksyms_image = -1;
		close(c->text_pipe);
		c->text_pipe = -1;
	}
}

/* What the boot's static symbols do not answer: a BPF program's code is
 * named from its info, anything else from all of /proc/kallsyms, read
 * then (a module's code past its last symbol, a trampoline). */
static const struct ksym *more_symbols(void *ctx, uint64_t addr, uint64_t *offset)
{
	struct probe_cache *c = ctx;
	const struct ksym *sym = NULL;

	if (!c->bpf_tried) {
		c->bpf_tried = true;
		bpf_ksyms__load(&c->bpf);
	}
	if (bpf_ksyms__map_addr(c->bpf, addr, &sym, offset) == 1)
		return sym;
	if (!c->full_tried) {
		struct errbuf err = { .msg = "" };

		c->full_tried = true;
		ksyms__load(&c->full, &err);
	}
	return ksyms__map_addr(c->full, addr, offset);
}

/* The boot's cache as a partial table, if its key is still the kernel's
 * (no module came or went since the run began); 0 or -1. */
static int load_boot_cache(struct probe_cache *c)
{
	struct ksyms_cache_key now;
	int ret = -1;

	if (ksyms_cache_key(&now) && !memcmp(&now, &c->key, sizeof(now)))
		ret = ksyms__load_image(c->boot_cache, sizeof(c->key), &c->ksyms,
					&c->ksyms_err);
	close(c->boot_cache);
	c->boot_cache = -1;
	if (!ret)
		ksyms__set_more(c->ksyms, more_symbols, c);
	return ret ? -1 : 0;
}

/* The boot's cache, else the child's image when it made one, else
 * /proc/kallsyms itself. */
static int load_ksyms(struct probe_cache *c)
{
	int ret = -1;

	if (c->boot_cache >= 0 && !load_boot_cache(c))
		return 0;
	if (reap_prefetch(c))
		ret = ksyms__load_image(c->ksyms_image, 0, &c->ksyms, &c->ksyms_err);
	if (c->ksyms_image >= 0)
		close(c->ksyms_image);
	c->ksyms_image = -1;
	/* Failed or never copied: the reason comes from the file itself. */
	return ret ? ksyms__load(&c->ksyms, &c->ksyms_err) : 0;
}

/* A new asker sees the BPF programs loaded now: the tables read for the
 * one before are kept aside (its symbols may still be in use). */
static void retire_dynamic(struct probe_cache *c)
{
	struct retired_syms *r;

	if (!c->bpf_tried && !c->full_tried)
		return;
	r = grow_for_one(c->retired, &c->cap_retired, c->nr_retired, sizeof(*r), 4);
	if (!r)
		return;   /* out of memory: the old ones stay in use */
	c->retired = r;
	c->retired[c->nr_retired++] = (struct retired_syms){ c->bpf, c->full };
	c->bpf = NULL;
	c->full = NULL;
	c->bpf_tried = c->full_tried = false;
}

static void load_ksyms_once(struct probe_cache *c)
{
	if (!c->ksyms_tried) {
		c->ksyms_tried = true;
		c->ksyms_ret = load_ksyms(c);
	}
}

int probe_cache_ksyms(struct probe_cache *c, const struct ksyms **out, struct errbuf *err)
{
	retire_dynamic(c);
	load_ksyms_once(c);
	*out = c->ksyms;
	if (c->ksyms)
		return 0;
	return err_set(err, c->ksyms_ret ? -c->ksyms_ret : ENOENT, "%s", c->ksyms_err.msg);
}

/* The child's first answer; 0 when it had none or is gone. */
static uint64_t read_text_pipe(struct probe_cache *c)
{
	uint64_t text = 0;
	ssize_t n;

	do
		n = read(c->text_pipe, &text, sizeof(text));
	while (n < 0 && errno == EINTR);
	close(c->text_pipe);
	c->text_pipe = -1;
	return n == sizeof(text) ? text : 0;
}

uint64_t probe_cache_text_start(struct probe_cache *c)
{
	if (!c)
		return 0;
	if (!c->text_start && c->text_pipe >= 0)
		c->text_start = read_text_pipe(c);
	/* the boot's cache file costs a mapping, not a read of kallsyms */
	if (!c->text_start && c->boot_cache >= 0)
		load_ksyms_once(c);
	if (!c->text_start)
		c->text_start = ksyms__text_start(c->ksyms);
	return c->text_start;
}
