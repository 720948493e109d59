// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kallsyms parser and address -> symbol lookup.
 *
 * The text is parsed from an explicit length (never as a C string), every
 * field is length-checked, and a bad line is counted and skipped, so any
 * byte sequence is safe input (tests/fuzz feeds it garbage).  Names live in
 * one string pool; symbols are sorted by address for binary search.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/grow.h"
#include "base/read_whole.h"
#include "probes/ksyms.h"

#define KALLSYMS_PATH "/proc/kallsyms"
/* KSYM_NAME_LEN (include/linux/kallsyms.h) has been 512 since 6.1; longer
 * names cannot come from the kernel. */
#define KSYM_NAME_MAX 511
#define MODULE_NAME_MAX 63   /* MODULE_NAME_LEN - 1 */
#define MODULES_PATH "/proc/modules"

struct ksym_raw {
	uint64_t addr;
	uint32_t name_off;
	uint32_t mod_off;
	size_t order;        /* position in the file: ties keep file order */
};

struct ksym_range {
	uint64_t lo, hi;     /* [lo, hi) */
};

/* The image of ksyms__save(): this header, nr records in address order,
 * the nr_mods module extents, then the name pool. */
#define KSYMS_IMAGE_MAGIC 0x69646b73796d7332ull  /* "idksyms2" */
struct image_hdr {
	uint64_t magic, nr, malformed, pool_len, nr_mods, mods_known;
};

struct image_rec {
	uint64_t addr;
	uint32_t name_off, mod_off;
};

/*
 * A parsed table holds every symbol in syms[] and its names in pool.  A
 * table taken up from an image reads the image's records and names where
 * they are mapped, and fills syms[i] only when symbol i is asked for
 * (name NULL until then): a run asks for a few hundred of 120k.
 */
struct ksyms {
	struct ksym *syms;
	size_t syms_mapped;  /* image-backed: syms[] is this many bytes of
			      * anonymous mapping, else malloc'd */
	size_t nr;
	size_t malformed;
	char *pool;
	size_t pool_len;
	/* Where code is: the kernel's text and init text from their
	 * symbols, the modules from /proc/modules (see ksyms__map_addr). */
	struct ksym_range text, init;
	struct ksym_range *mods;
	size_t nr_mods, cap_mods;
	bool mods_known;     /* every module's base was readable */
	uint64_t area_lo;    /* lowest module or dynamic text, 0: none */
	uint64_t image_hi;   /* highest symbol of the kernel image */
	const struct image_rec *recs; /* image-backed: its records */
	const char *image_pool;
	void *map;                    /* the image's mapping */
	size_t map_len;
	ksyms_more_fn more;           /* set: the table is partial */
	void *more_ctx;
};

struct parser {
	struct ksym_raw *raw;
	size_t nr, cap;
	char *pool;
	size_t pool_len, pool_cap;
	size_t malformed;
	/* Module symbols come in runs; the last module name is reused. */
	uint32_t last_mod_off;
	size_t last_mod_len;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Next blank-separated token of [*p, end); false at the end of the line. */
static bool next_token(const char **p, const char *end, const char **tok, size_t *len)
{
	const char *s = *p;

	while (s < end && is_blank(*s))
		s++;
	if (s == end)
		return false;
	*tok = s;
	while (s < end && !is_blank(*s))
		s++;
	*len = (size_t)(s - *tok);
	*p = s;
	return true;
}

static bool parse_hex64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (!len || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		int d = hexval(s[i]);

		if (d < 0)
			return false;
		v = (v << 4) | (uint64_t)d;
	}
	*out = v;
	return true;
}

static bool parse_dec64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (!len || len > 19)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool has_nul(const char *s, size_t len)
{
	return memchr(s, '\0', len) != NULL;
}

/* Appends @len bytes and a NUL; returns the offset or -errno. */
static int64_t pool_add(struct parser *ps, const char *s, size_t len)
{
	size_t need = ps->pool_len + len + 1;
	uint32_t off;

	if (need > UINT32_MAX)
		return -E2BIG;
	if (need > ps->pool_cap) {
		size_t cap = ps->pool_cap ? ps->pool_cap : 1 << 16;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(ps->pool, cap);
		if (!p)
			return -ENOMEM;
		ps->pool = p;
		ps->pool_cap = cap;
	}
	off = (uint32_t)ps->pool_len;
	memcpy(ps->pool + off, s, len);
	ps->pool[off + len] = '\0';
	ps->pool_len = need;
	return off;
}

/* Text symbols only: see ksyms.h. */
static bool wanted_type(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* One line "ADDR TYPE NAME [MODULE]"; 0, or -errno on allocation failure
 * (a malformed line is counted, not an error). */
static int parse_line(struct parser *ps, const char *p, const char *end)
{
	const char *tok[4];
	size_t len[4], n = 0;
	const char *extra;
	size_t extra_len;
	uint64_t addr;
	int64_t name_off, mod_off = 0;
	struct ksym_raw *r;

	while (n < 4 && next_token(&p, end, &tok[n], &len[n]))
		n++;
	if (n == 0)
		return 0;    /* empty line */
	if (n < 3 || next_token(&p, end, &extra, &extra_len) ||
	    !parse_hex64(tok[0], len[0], &addr) || len[1] != 1 ||
	    len[2] > KSYM_NAME_MAX || has_nul(tok[2], len[2]))
		goto malformed;
	if (n == 4) {
		/* "[module]", the brackets included */
		if (len[3] < 3 || len[3] - 2 > MODULE_NAME_MAX || tok[3][0] != '[' ||
		    tok[3][len[3] - 1] != ']' || has_nul(tok[3], len[3]))
			goto malformed;
	}
	if (!wanted_type(tok[1][0]))
		return 0;

	r = grow_for_one(ps->raw, &ps->cap, ps->nr, sizeof(*r), 4096);
	if (!r)
		return -ENOMEM;
	ps->raw = r;
	name_off = pool_add(ps, tok[2], len[2]);
	if (name_off < 0)
		return (int)name_off;
	if (n == 4) {
		const char *mod = tok[3] + 1;
		size_t mod_len = len[3] - 2;

		if (ps->last_mod_len == mod_len &&
		    !memcmp(ps->pool + ps->last_mod_off, mod, mod_len)) {
			mod_off = ps->last_mod_off;
		} else {
			mod_off = pool_add(ps, mod, mod_len);
			if (mod_off < 0)
				return (int)mod_off;
			ps->last_mod_off = (uint32_t)mod_off;
			ps->last_mod_len = mod_len;
		}
	}
	ps->raw[ps->nr].addr = addr;
	ps->raw[ps->nr].name_off = (uint32_t)name_off;
	ps->raw[ps->nr].mod_off = (uint32_t)mod_off;
	ps->raw[ps->nr].order = ps->nr;
	ps->nr++;
	return 0;
malformed:
	ps->malformed++;
	return 0;
}

static int cmp_raw(const void *a, const void *b)
{
	const struct ksym_raw *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void set_bounds(struct ksyms *ks);

int ksyms__load_buffer(const char *buf, size_t len, struct ksyms **out,
		       struct errbuf *err)
{
	struct parser ps = { 0 };
	struct ksyms *ks = NULL;
	const char *p = buf, *end = buf + len;
	bool any_nonzero = false;
	int ret = 0;

	*out = NULL;
	if (!buf && len)
		return err_set(err, EINVAL, "kallsyms text: NULL buffer of %zu bytes", len);
	/* Offset 0 of the pool is the empty module name of the kernel image. */
	if (pool_add(&ps, "", 0) < 0) {
		ret = err_set(err, ENOMEM, "out of memory parsing kallsyms");
		goto cleanup;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;

		ret = parse_line(&ps, p, line_end);
		if (ret) {
			ret = err_set(err, -ret, "kallsyms text too large or out of memory "
				      "(%zu symbols parsed)", ps.nr);
			goto cleanup;
		}
		p = nl ? nl + 1 : end;
	}
	ks = calloc(1, sizeof(*ks));
	if (!ks || (ps.nr && !(ks->syms = calloc(ps.nr, sizeof(*ks->syms))))) {
		ret = err_set(err, ENOMEM, "out of memory for %zu kernel symbols", ps.nr);
		goto cleanup;
	}
	if (ps.nr)
		qsort(ps.raw, ps.nr, sizeof(*ps.raw), cmp_raw);
	for (size_t i = 0; i < ps.nr; i++) {
		ks->syms[i].addr = ps.raw[i].addr;
		ks->syms[i].name = ps.pool + ps.raw[i].name_off;
		ks->syms[i].module = ps.pool + ps.raw[i].mod_off;
		any_nonzero |= ps.raw[i].addr != 0;
	}
	if (ps.nr && !any_nonzero) {
		ret = err_set(err, EPERM, "kallsyms shows every address as 0: run as root "
			      "or lower /proc/sys/kernel/kptr_restrict");
		goto cleanup;
	}
	ks->nr = ps.nr;
	ks->malformed = ps.malformed;
	ks->pool = ps.pool;
	ks->pool_len = ps.pool_len;
	ps.pool = NULL;
	set_bounds(ks);
	*out = ks;
	ks = NULL;
cleanup:
	if (ks) {
		free(ks->syms);
		free(ks);
	}
	free(ps.raw);
	free(ps.pool);
	return ret;
}

static uint64_t addr_at(const struct ksyms *ks, size_t i)
{
	return ks->recs ? ks->recs[i].addr : ks->syms[i].addr;
}

/* Symbol @i, filled from the image the first time. */
static const struct ksym *sym_at(const struct ksyms *ks, size_t i)
{
	struct ksym *s = &ks->syms[i];

	if (ks->recs && !s->name)
		*s = (struct ksym){ ks->recs[i].addr, ks->image_pool + ks->recs[i].name_off,
				    ks->image_pool + ks->recs[i].mod_off };
	return s;
}

/* The module of symbol @i: the pool keeps one copy per run of a module's
 * symbols, so equal offsets are the same module. */
static uint32_t mod_at(const struct ksyms *ks, size_t i)
{
	return ks->recs ? ks->recs[i].mod_off : (uint32_t)(ks->syms[i].module - ks->pool);
}

/* The name and module of symbol @i, without filling syms[i]. */
static const char *name_at(const struct ksyms *ks, size_t i)
{
	return ks->recs ? ks->image_pool + ks->recs[i].name_off : ks->syms[i].name;
}

static const char *module_at(const struct ksyms *ks, size_t i)
{
	return ks->recs ? ks->image_pool + ks->recs[i].mod_off : ks->syms[i].module;
}

/* ---- where code is ---- */

/* A trampoline of ftrace or kprobes is one small allocation of its own:
 * an address a page or more past it is not in it. */
#define BUILTIN_TEXT_MAX 4096

static bool dynamic_text_holds(const struct ksym *s, uint64_t addr)
{
	return !ksym_is_static(s) && (s->module[0] == 'b' || addr - s->addr < BUILTIN_TEXT_MAX);
}

/* The kernel's text from its symbols; where the module/BPF area starts
 * from the modules, or without them from the dynamic text kallsyms lists
 * (BPF programs and trampolines, ftrace's and kprobes' trampolines, which
 * have no size); where the kernel image ends.  One pass: a table from an
 * image is not filled for it. */
static void set_bounds(struct ksyms *ks)
{
	static const char *const marks[] = { "_stext", "_etext", "_sinittext", "_einittext" };
	uint64_t at[4] = { 0 };

	ks->area_lo = ks->image_hi = 0;
	for (size_t i = 0; ks->mods_known && i < ks->nr_mods; i++)
		if (!ks->area_lo || ks->mods[i].lo < ks->area_lo)
			ks->area_lo = ks->mods[i].lo;
	for (size_t i = 0; i < ks->nr; i++) {
		const char *mod = module_at(ks, i), *name = name_at(ks, i);

		if (!mod[0]) {
			ks->image_hi = addr_at(ks, i);
			for (int m = 0; name[0] == '_' && m < 4; m++)
				if (!at[m] && !strcmp(name, marks[m]))
					at[m] = addr_at(ks, i);
		} else if (!ks->area_lo && (!strcmp(mod, "bpf") || !strncmp(mod, "__builtin__", 11))) {
			ks->area_lo = addr_at(ks, i);
		}
	}
	ks->text = (struct ksym_range){ at[0], at[1] };
	ks->init = (struct ksym_range){ at[2], at[3] };
	if (ks->text.lo >= ks->text.hi)
		ks->text = (struct ksym_range){ 0, 0 };
}

static bool in_range(const struct ksym_range *r, uint64_t addr)
{
	return addr >= r->lo && addr < r->hi;
}

/* Whether @s, the nearest symbol below @addr, can hold it: the kernel's
 * text, a module's extent, or listed dynamic text (whose end kallsyms
 * does not say).  Without the bounds (no _stext/_etext, modules hidden)
 * any nearest symbol is taken, as before. */
static bool holds(const struct ksyms *ks, const struct ksym *s, uint64_t addr)
{
	if (!ks->text.hi || in_range(&ks->text, addr) || in_range(&ks->init, addr) ||
	    dynamic_text_holds(s, addr) || !ks->mods_known)
		return true;
	for (size_t i = 0; i < ks->nr_mods; i++)
		if (in_range(&ks->mods[i], addr))
			return true;
	return false;
}

/* The module/BPF area: where the modules are, above the kernel image on
 * x86-64 (all of it: BPF's JIT packs may lie below the first module),
 * below its text on arm64. */
static bool in_module_area(const struct ksyms *ks, uint64_t addr)
{
	if (!ks->area_lo)
		return false;
	if (ks->area_lo > ks->text.lo)
		return addr > ks->image_hi;
	return addr >= ks->area_lo && addr < ks->text.lo;
}

/* One line of /proc/modules: "NAME SIZE REFS DEPS STATE 0xBASE ...". */
static bool parse_module(const char *p, const char *end, struct ksym_range *r, bool *hidden)
{
	const char *tok;
	size_t len;
	uint64_t size = 0, base = 0;

	for (int field = 0; field < 6; field++) {
		if (!next_token(&p, end, &tok, &len))
			return false;
		if (field == 1 && !parse_dec64(tok, len, &size))
			return false;
		if (field == 5 && (len < 3 || tok[0] != '0' || tok[1] != 'x' ||
				   !parse_hex64(tok + 2, len - 2, &base)))
			return false;
	}
	*hidden = !base;
	*r = (struct ksym_range){ base, base + size };
	return base + size >= base;
}

int ksyms__load_modules_buffer(struct ksyms *ks, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	free(ks->mods);
	ks->mods = NULL;
	ks->nr_mods = ks->cap_mods = 0;
	ks->mods_known = true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		struct ksym_range r, *m;
		bool hidden = false;

		if (parse_module(p, line_end, &r, &hidden)) {
			m = grow_for_one(ks->mods, &ks->cap_mods, ks->nr_mods, sizeof(*m), 64);
			if (!m) {
				ks->mods_known = false;
				return -ENOMEM;
			}
			ks->mods = m;
			ks->mods[ks->nr_mods++] = r;
			ks->mods_known &= !hidden;
		}
		p = nl ? nl + 1 : end;
	}
	set_bounds(ks);
	return 0;
}

/* /proc/modules, when it can be read: without it the bounds stay off. */
static void load_modules(struct ksyms *ks)
{
	int fd = open(MODULES_PATH, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t len = 0;

	if (fd < 0)
		return;
	if (!read_whole(fd, SIZE_MAX, &buf, &len))
		ksyms__load_modules_buffer(ks, buf, len);
	free(buf);
	close(fd);
}

int ksyms__load_fd(int fd, const char *what, struct ksyms **out, struct errbuf *err)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	/* /proc files report size 0: read until EOF into a growing buffer. */
	ret = read_whole(fd, SIZE_MAX, &buf, &len);
	if (ret == -ENOMEM)
		return err_set(err, ENOMEM, "out of memory reading %s", what);
	if (ret)
		return err_set(err, -ret, "cannot read %s: %s", what, strerror(-ret));
	ret = ksyms__load_buffer(buf, len, out, err);
	free(buf);
	if (!ret && !(*out)->nr) {
		ksyms__free(*out);
		*out = NULL;
		ret = err_set(err, ENOENT, "%s lists no text symbols", what);
	}
	return ret;
}

int ksyms__load_opened(int fd, struct ksyms **out, struct errbuf *err)
{
	int ret = ksyms__load_fd(fd, KALLSYMS_PATH, out, err);

	if (!ret)
		load_modules(*out);
	return ret;
}

int ksyms__load(struct ksyms **out, struct errbuf *err)
{
	int fd = open(KALLSYMS_PATH, O_RDONLY | O_CLOEXEC);
	int ret;

	*out = NULL;
	if (fd < 0)
		return err_set(err, errno, "cannot open %s: %s", KALLSYMS_PATH, strerror(errno));
	ret = ksyms__load_opened(fd, out, err);
	close(fd);
	return ret;
}

bool ksym_is_static(const struct ksym *sym)
{
	return strcmp(sym->module, "bpf") && strncmp(sym->module, "__builtin__", 11);
}

static int save(const struct ksyms *ks, int fd, bool static_only)
{
	struct image_hdr h = { KSYMS_IMAGE_MAGIC, 0, ks->malformed, ks->pool_len,
			       ks->nr_mods, ks->mods_known };
	struct image_rec *recs;
	int ret;

	if (ks->recs)
		return -EINVAL;  /* a parsed table only */
	recs = calloc(ks->nr ? ks->nr : 1, sizeof(*recs));
	if (!recs)
		return -ENOMEM;
	for (size_t i = 0; i < ks->nr; i++)
		if (!static_only || ksym_is_static(&ks->syms[i]))
			recs[h.nr++] = (struct image_rec){ ks->syms[i].addr,
				(uint32_t)(ks->syms[i].name - ks->pool),
				(uint32_t)(ks->syms[i].module - ks->pool) };
	ret = fd_write_all(fd, &h, sizeof(h));
	if (!ret)
		ret = fd_write_all(fd, recs, h.nr * sizeof(*recs));
	if (!ret && ks->nr_mods)
		ret = fd_write_all(fd, ks->mods, ks->nr_mods * sizeof(*ks->mods));
	if (!ret)
		ret = fd_write_all(fd, ks->pool, ks->pool_len);
	free(recs);
	return ret;
}

int ksyms__save(const struct ksyms *ks, int fd)
{
	return save(ks, fd, false);
}

int ksyms__save_static(const struct ksyms *ks, int fd)
{
	return save(ks, fd, true);
}

/* Whether the header's counts fit the image's @len bytes exactly. */
static bool image_sized(const struct image_hdr *h, size_t len)
{
	size_t rest;

	if (len < sizeof(*h) || h->magic != KSYMS_IMAGE_MAGIC || !h->pool_len ||
	    h->mods_known > 1)
		return false;
	rest = len - sizeof(*h);
	if (h->nr > rest / sizeof(struct image_rec))
		return false;
	rest -= h->nr * sizeof(struct image_rec);
	if (h->nr_mods > rest / sizeof(struct ksym_range))
		return false;
	return h->pool_len == rest - h->nr_mods * sizeof(struct ksym_range);
}

/*
 * syms[] of an image-backed table, zeroed: an anonymous mapping, whose
 * pages the kernel zeroes only when first touched.  calloc() would zero
 * (and so fault in) all of it, a few MiB, for the few hundred symbols a
 * run asks for.
 */
static int lazy_syms(struct ksyms *ks, size_t nr)
{
	size_t len = (nr ? nr : 1) * sizeof(*ks->syms);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -ENOMEM;
	ks->syms = p;
	ks->syms_mapped = len;
	return 0;
}

/* The table of a checked image at @img, which it keeps mapped: its
 * records' offsets point into its pool, which ends with a NUL. */
static int from_image(void *map, size_t map_len, size_t offset, struct ksyms **out)
{
	const char *img = (const char *)map + offset;
	size_t len = map_len - offset;
	const struct image_hdr *h = (const void *)img;
	const struct image_rec *recs = (const void *)(h + 1);
	const struct ksym_range *mods;
	const char *pool;
	struct ksyms *ks;

	if (!image_sized(h, len))
		return -EINVAL;
	mods = (const void *)(recs + h->nr);
	pool = (const char *)(mods + h->nr_mods);
	if (pool[h->pool_len - 1] != '\0')
		return -EINVAL;
	for (size_t i = 0; i < h->nr; i++)
		if (recs[i].name_off >= h->pool_len || recs[i].mod_off >= h->pool_len)
			return -EINVAL;
	ks = calloc(1, sizeof(*ks));
	if (!ks || lazy_syms(ks, h->nr) ||
	    !(ks->mods = calloc(h->nr_mods ? h->nr_mods : 1, sizeof(*ks->mods)))) {
		ksyms__free(ks);
		return -ENOMEM;
	}
	memcpy(ks->mods, mods, h->nr_mods * sizeof(*mods));
	ks->nr = h->nr;
	ks->malformed = h->malformed;
	ks->nr_mods = ks->cap_mods = h->nr_mods;
	ks->mods_known = h->mods_known;
	ks->recs = recs;
	ks->image_pool = pool;
	ks->map = map;
	ks->map_len = map_len;
	set_bounds(ks);
	*out = ks;
	return 0;
}

int ksyms__load_image(int fd, size_t offset, struct ksyms **out, struct errbuf *err)
{
	struct stat st;
	void *img;
	int ret;

	*out = NULL;
	if (fstat(fd, &st) || st.st_size <= 0 || (uint64_t)st.st_size <= offset)
		return err_set(err, EINVAL, "kernel symbol image: empty or unreadable");
	/* populated at once: cheaper than a fault per page on first use */
	img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (img == MAP_FAILED)
		return err_set(err, errno, "kernel symbol image: %s", strerror(errno));
	ret = from_image(img, (size_t)st.st_size, offset, out);
	if (ret) {
		munmap(img, (size_t)st.st_size);
		return err_set(err, -ret, "kernel symbol image: %s",
			       ret == -EINVAL ? "malformed" : strerror(-ret));
	}
	return 0;
}

/* An address in the module/BPF area that no module and no listed BPF
 * program holds: JIT code kallsyms did not list when it was read. */
static const struct ksym unlisted_bpf = { 0, "[bpf: unlisted]", "" };

void ksyms__set_more(struct ksyms *ks, ksyms_more_fn more, void *ctx)
{
	ks->more = more;
	ks->more_ctx = ctx;
}

const struct ksym *ksyms__map_addr(const struct ksyms *ks, uint64_t addr,
				   uint64_t *offset)
{
	size_t lo = 0, hi;
	const struct ksym *s;

	if (!ks || !ks->nr || addr < addr_at(ks, 0))
		return ks && ks->more ? ks->more(ks->more_ctx, addr, offset) : NULL;
	/* Last symbol with sym.addr <= addr. */
	hi = ks->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr_at(ks, mid) <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* A partial table knows only what lies between two symbols of one
	 * owner (the kernel image, or one module's text): nothing the kernel
	 * adds later can be placed there. */
	if (ks->more && (lo + 1 >= ks->nr || mod_at(ks, lo) != mod_at(ks, lo + 1)))
		return ks->more(ks->more_ctx, addr, offset);
	/* Aliases share an address: report the first one kallsyms lists. */
	while (lo > 0 && addr_at(ks, lo - 1) == addr_at(ks, lo))
		lo--;
	s = sym_at(ks, lo);
	if (!holds(ks, s, addr))
		s = in_module_area(ks, addr) ? &unlisted_bpf : NULL;
	if (offset)
		*offset = s && s != &unlisted_bpf ? addr - s->addr : 0;
	return s;
}

const struct ksym *ksyms__get_symbol(const struct ksyms *ks, const char *name)
{
	if (!ks || !name)
		return NULL;
	for (size_t i = 0; i < ks->nr; i++)
		if (!strcmp(ks->recs ? ks->image_pool + ks->recs[i].name_off : ks->syms[i].name,
			    name))
			return sym_at(ks, i);
	return NULL;
}

uint64_t ksyms__text_start(const struct ksyms *ks)
{
	/* symbols in address order; one at 0 is a hidden address */
	for (size_t i = 0; ks && i < ks->nr; i++)
		if (!module_at(ks, i)[0] && addr_at(ks, i))
			return addr_at(ks, i);
	return 0;
}

size_t ksyms__count(const struct ksyms *ks)
{
	return ks ? ks->nr : 0;
}

size_t ksyms__malformed(const struct ksyms *ks)
{
	return ks ? ks->malformed : 0;
}

void ksyms__free(struct ksyms *ks)
{
	if (!ks)
		return;
	if (ks->syms_mapped)
		munmap(ks->syms, ks->syms_mapped);
	else
		free(ks->syms);
	free(ks->pool);
	free(ks->mods);
	if (ks->map)
		munmap(ks->map, ks->map_len);
	free(ks);
}
