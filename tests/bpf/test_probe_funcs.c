// Real BPF: where fentry or kprobes work, N O_DIRECT libaio 4 KiB reads of a loop device make the funcs family count one user-page pin per I/O with one page per call (and release the bio's page); where neither works (fentry EPERM, CONFIG_KPROBES off) the family is missing with both reasons, --mechanism forces each path, and the other families keep running.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/family.h"
#include "probes/tracefs.h"
#include "target/scratch.h"
#include "tests/lib/check.h"

extern const struct probe_family funcs_probe;

#define NR_READS 256
#define BLOCK_SZ 4096
#define DEV_BYTES (32ull << 20)
/* Calls this test's own thread makes between open and collect besides the
 * reads (none pin pages; a few may come from libc or the loop setup). */
#define SLACK 16

/* The test's own answer to "does fentry work here": the same kind of
 * two-instruction program the family tries, on a function every kernel
 * with blk-mq has.  0 or -errno. */
static int fentry_works(void)
{
	const struct bpf_insn insns[] = { { .code = 0xb7 }, { .code = 0x95 } };
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY);
	struct btf *btf = btf__load_vmlinux_btf();
	int id, fd, link, ret = 0;

	if (!btf || libbpf_get_error(btf))
		return -ENOENT;
	id = btf__find_by_name_kind(btf, "blk_mq_get_tag", BTF_KIND_FUNC);
	btf__free(btf);
	if (id < 0)
		return -ENOENT;
	opts.attach_btf_id = (uint32_t)id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "t_fe_probe", "GPL", insns, 2, &opts);
	if (fd < 0)
		return -errno;
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link < 0)
		ret = -errno;
	else
		close(link);
	close(fd);
	return ret;
}

static bool kprobes_work(void)
{
	return !access("/sys/bus/event_source/devices/kprobe/type", F_OK);
}

static bool has(const char *text, const char *needle)
{
	return text && strstr(text, needle);
}

static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; p && (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Neither mechanism: the family is missing and says why, once. */
static void check_fallback(int fentry_err, const char *force)
{
	struct probe_env env = { .runner_tgid = getpid(), .force_mechanism = force };
	struct probe_status st;
	void *state = NULL;
	int err;

	err = family_open(&funcs_probe, &env, &state, &st);
	fprintf(stderr, "force=%s: state %d mechanism %s reason: %s\n", force ? force : "-",
		st.state, st.mechanism, st.reason);
	CHECK_MSG(err < 0 && !state, "open returned %d", err);
	CHECK(st.state == PROBE_MISSING);
	CHECK(!strcmp(st.mechanism, "none"));
	if (!force || !strcmp(force, "fentry")) {
		CHECK_MSG(has(st.reason, "fentry: ") && has(st.reason, strerror(-fentry_err)),
			  "reason lacks fentry's %s", strerror(-fentry_err));
		if (fentry_err == -EPERM)
			CHECK_MSG(has(st.reason, "lockdown"), "EPERM not explained");
	} else {
		CHECK(has(st.reason, "fentry: skipped (--mechanism=kprobe)"));
	}
	if (!force || !strcmp(force, "kprobe"))
		CHECK_MSG(has(st.reason, "kprobe: not supported by this kernel") &&
			  has(st.reason, "CONFIG_KPROBES off?"), "reason lacks the kprobe cause");
	else
		CHECK(has(st.reason, "kprobe: skipped (--mechanism=fentry)"));
	CHECK(has(st.reason, "estimated: sampling"));
	family_destroy(state);
}

/* The whole set: funcs missing, reported once; block still active. */
static void check_set_keeps_others(void)
{
	struct probe_env env = { .runner_tgid = getpid() };
	struct probe_workload wl = { .ios = 1 };
	struct errbuf err = { .msg = "" };
	struct probe_set *set = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	CHECK(probes_open(&env, NULL, &set, &err) == 0);
	if (!set)
		return;
	probes_collect(set, &wl);
	mem = open_memstream(&text, &len);
	if (mem) {
		probes_print_table(set, mem);
		probes_render_text(set, mem);
		fclose(mem);
	}
	CHECK_MSG(has(text, "\nfuncs      none        missing   fentry: "),
		  "probe table lacks the missing funcs line:\n%s", text ? text : "");
	CHECK_MSG(has(text, "\nblock      tp_btf      active"), "block not active:\n%s",
		  text ? text : "");
	CHECK_MSG(count_of(text, "funcs     : missing (fentry: ") == 1,
		  "Kernel section should say it once:\n%s", text ? text : "");
	free(text);
	probes_destroy(set);
}

/* N single-I/O io_submit/io_getevents rounds of 4 KiB O_DIRECT reads. */
static int libaio_reads(const char *dev, int n)
{
	io_context_t ctx = 0;
	void *buf = NULL;
	int fd, ret = 0;

	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return -errno;
	if (posix_memalign(&buf, BLOCK_SZ, BLOCK_SZ) || (ret = io_setup(4, &ctx))) {
		ret = ret ? ret : -ENOMEM;
		goto cleanup;
	}
	memset(buf, 0, BLOCK_SZ);   /* faulted in: GUP takes the fast path */
	for (int i = 0; i < n && !ret; i++) {
		struct iocb cb, *cbs[1] = { &cb };
		struct io_event ev;

		io_prep_pread(&cb, fd, buf, BLOCK_SZ,
			      (long long)((i * 7919) % (DEV_BYTES / BLOCK_SZ)) * BLOCK_SZ);
		if (io_submit(ctx, 1, cbs) != 1 || io_getevents(ctx, 1, 1, &ev, NULL) != 1 ||
		    ev.res != BLOCK_SZ)
			ret = -EIO;
	}
cleanup:
	if (ctx)
		io_destroy(ctx);
	free(buf);
	close(fd);
	return ret;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *x = NULL;

	return o && json_object_object_get_ex(o, k, &x) ? x : NULL;
}

static int64_t num(struct json_object *fns, const char *fn, const char *k)
{
	struct json_object *x = get(get(fns, fn), k);

	return x ? json_object_get_int64(x) : 0;
}

/* Real counts with @force ("fentry" or "kprobe"). */
static void check_counts(const char *force, const char *dev, dev_t rdev)
{
	struct probe_env env = { .runner_tgid = getpid(), .force_mechanism = force,
				 .target_dev = rdev };
	struct probe_workload wl = { .ios = NR_READS, .sync_engine = false };
	struct json_object *kernel, *fns;
	struct probe_status st;
	void *state = NULL;
	int64_t pins, pages, released;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (family_open(&funcs_probe, &env, &state, &st)) {
		CHECK_MSG(false, "open with --mechanism=%s failed: %s", force, st.reason);
		return;
	}
	fprintf(stderr, "%s: mechanism %s (%s)\n", force, st.mechanism, st.reason);
	CHECK(!strncmp(st.mechanism, force, strlen(force)));
	CHECK(libaio_reads(dev, NR_READS) == 0);
	family_set_workload(state, &wl);
	CHECK(family_collect(state, NR_READS) == 0);
	kernel = json_object_new_object();
	funcs_probe.render_json(state, kernel);
	fns = get(get(kernel, "funcs"), "functions");
	/* v6.0-v6.2 pin with get_user_pages_fast, v6.3+ with
	 * pin_user_pages_fast (iov_iter_extract_pages); one of them. */
	pins = num(fns, "get_user_pages_fast", "calls") + num(fns, "pin_user_pages_fast", "calls");
	pages = num(fns, "get_user_pages_fast", "pages") + num(fns, "pin_user_pages_fast", "pages");
	released = num(fns, "bio_release_pages", "calls");
	fprintf(stderr, "  %d reads: %lld fast pins, %lld pages, %lld bio releases\n", NR_READS,
		(long long)pins, (long long)pages, (long long)released);
	CHECK_MSG(pins >= NR_READS && pins <= NR_READS + SLACK, "%lld pin calls for %d reads",
		  (long long)pins, NR_READS);
	CHECK_MSG(pages == pins, "%lld pages for %lld calls", (long long)pages, (long long)pins);
	CHECK_MSG(released >= NR_READS && released <= NR_READS + SLACK,
		  "%lld bio releases for %d reads", (long long)released, NR_READS);
	CHECK(num(fns, "bio_release_pages", "pages") == released);
	CHECK_MSG(num(fns, "blk_mq_get_tag", "calls") > 0 &&
		  num(fns, "blk_mq_get_tag", "calls") <= NR_READS + SLACK, "tag calls %lld",
		  (long long)num(fns, "blk_mq_get_tag", "calls"));
	json_object_put(kernel);
	mem = open_memstream(&text, &len);
	if (mem) {
		funcs_probe.render_text(state, mem);
		fclose(mem);
		fprintf(stderr, "%s", text ? text : "");
		CHECK(has(text, "funcs (exact: "));
		free(text);
	}
	family_destroy(state);
}

int main(void)
{
	struct errbuf err = { .msg = "" };
	struct scratch_dev *scratch = NULL;
	int fentry_err;
	bool mounted = false;
	struct stat sb;

	if (geteuid() != 0)
		SKIP("needs root to load BPF programs");
	unsetenv("IODIG_DISABLE");
	tracefs_mount(&mounted, &err);
	fentry_err = fentry_works();
	fprintf(stderr, "fentry here: %s; kprobes here: %s\n",
		fentry_err ? strerror(-fentry_err) : "works", kprobes_work() ? "yes" : "no");
	if (fentry_err && !kprobes_work()) {
		check_fallback(fentry_err, NULL);
		check_fallback(fentry_err, "kprobe");
		check_fallback(fentry_err, "fentry");
		check_set_keeps_others();
		tracefs_unmount(mounted);
		return CHECK_DONE();
	}
	if (scratch_create(DEV_BYTES, &scratch, &err) ||
	    stat(scratch_path(scratch), &sb)) {
		tracefs_unmount(mounted);
		SKIP("cannot create a scratch loop device: %s", err.msg);
	}
	if (!fentry_err)
		check_counts("fentry", scratch_path(scratch), sb.st_rdev);
	if (kprobes_work())
		check_counts("kprobe", scratch_path(scratch), sb.st_rdev);
	scratch_destroy(scratch);
	tracefs_unmount(mounted);
	return CHECK_DONE();
}
