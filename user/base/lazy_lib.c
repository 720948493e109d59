// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "base/lazy_lib.h"

/* All of @l's symbols or none; the handle stays open, as a linked
 * library's would. */
static int load(struct lazy_lib *l)
{
	void *h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(l->why, sizeof(l->why), "%s", dlerror());
		return -1;
	}
	for (size_t i = 0; i < l->n; i++) {
		l->fns[i] = dlsym(h, l->names[i]);
		if (!l->fns[i]) {
			snprintf(l->why, sizeof(l->why), "%s has no %s", l->soname,
				 l->names[i]);
			for (size_t j = 0; j < i; j++)
				l->fns[j] = NULL;
			return -1;
		}
	}
	return 1;
}

int lazy_lib_open(struct lazy_lib *l, const char **why)
{
	int state = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE);

	if (!state) {
		pthread_mutex_lock(&l->lock);
		state = l->state;
		if (!state) {
			state = load(l);
			__atomic_store_n(&l->state, state, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&l->lock);
	}
	*why = l->why;
	return state > 0 ? 0 : -ELIBACC;
}

void *lazy_lib_fn(struct lazy_lib *l, size_t i)
{
	return __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) > 0 ? l->fns[i] : NULL;
}
