// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

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
};

int probe_cache_new(struct probe_cache **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void probe_cache_free(struct probe_cache *c)
{
	if (!c)
		return;
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

int probe_cache_ksyms(struct probe_cache *c, const struct ksyms **out, struct errbuf *err)
{
	if (!c->ksyms_tried) {
		c->ksyms_tried = true;
		c->ksyms_ret = ksyms__load(&c->ksyms, &c->ksyms_err);
	}
	*out = c->ksyms;
	if (c->ksyms)
		return 0;
	return err_set(err, c->ksyms_ret ? -c->ksyms_ret : ENOENT, "%s", c->ksyms_err.msg);
}
