// Real BPF: writing every page of a 64 MiB MAP_SHARED tmpfs mapping makes the faults family count one user page fault per page for this process (and none of an untracked child's), via tp_btf, raw_tp and the classic tracepoint; on a host without a DAX-capable device no fs_dax program is loaded or attached and the text and JSON say why, and with a sysfs tree showing one (queue/dax 1) they are attached and report "no DAX mapping seen".
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/family.h"
#include "probes/tracefs.h"
#include "probes/fs_dax_source.h"
#include "tests/lib/check.h"
#include "tests/lib/json_get.h"
#include "tests/lib/bpf_progs.h"

extern const struct probe_family faults_probe;

#define MAP_BYTES (64ull << 20)
/*
 * A write fault on a shared file mapping maps exactly the faulting page
 * (fault-around only serves read faults: do_read_fault()), and
 * MADV_NOHUGEPAGE keeps shmem from backing the range with large folios,
 * which finish_fault() would map whole.  So each page costs one fault.
 * The slack covers this test's own few faults between open and collect
 * (stack, heap and libc pages touched by the checks themselves).
 */
#define FAULT_SLACK 64
/* After fork() each page the parent writes is copy-on-write once. */
#define COW_SLACK 256

/* Writes one byte of every page of a fresh tmpfs file mapping; returns
 * the number of pages or -errno. */
static long touch_tmpfs(const char *tag, size_t bytes)
{
	char path[128];
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int fd;

	snprintf(path, sizeof(path), "/dev/shm/iodig-test-probe-faults-%d-%s", (int)getpid(),
		 tag);
	fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0)
		return -errno;
	unlink(path);
	if (ftruncate(fd, (off_t)bytes)) {
		close(fd);
		return -errno;
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	madvise(p, bytes, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < bytes; off += (size_t)page)
		((volatile char *)p)[off] = 1;
	munmap(p, bytes);
	return (long)(bytes / (size_t)page);
}

/* Faults counted for @tgid in the per_process list, -1 when absent. */
static int64_t faults_of(struct json_object *f, pid_t tgid)
{
	struct json_object *procs = get(f, "per_process");

	for (size_t i = 0; procs && i < json_object_array_length(procs); i++) {
		struct json_object *p = json_object_array_get_idx(procs, i);

		if (get_i64(p, "tgid") == tgid)
			return get_i64(p, "user_faults");
	}
	return -1;
}

/* Every fs_dax program is iodig_d<stem>_<mech>; page faults' iodig_pf_. */
#define DAX_PROGS "iodig_d"

/*
 * A sysfs tree in /dev/shm with one disk, pmem0, whose queue/dax reads
 * @dax; its path into @root.  0 or -errno.
 */
static int fake_sys(const char *root, int dax)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s", root);
	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/block", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/block/pmem0", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/block/pmem0/queue", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/block/pmem0/queue/dax", root);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "%d\n", dax);
	fclose(f);
	return 0;
}

static void fake_sys_remove(const char *root)
{
	char path[256];
	const char *const parts[] = { "/block/pmem0/queue/dax", "/block/pmem0/queue",
				      "/block/pmem0", "/block", "" };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, parts[i]);
		remove(path);
	}
}

/* The family's status (what `iodig probe` and the JSON's probes list
 * show) names untraced DAX faults and why, and says nothing of DAX
 * where it is traced. */
static void check_dax_status(void *state, bool dax_expected, const char *reason)
{
	struct probe_status st = { .state = PROBE_ACTIVE };
	char want[192];

	snprintf(want, sizeof(want), "DAX faults not traced: %s", reason);
	faults_probe.note_status(state, 0, &st);
	if (dax_expected)
		CHECK_MSG(!strstr(st.reason, "DAX"), "status with DAX traced: \"%s\"", st.reason);
	else
		CHECK_MSG(strstr(st.reason, want), "status \"%s\" lacks \"%s\"", st.reason, want);
	CHECK_MSG(st.state == PROBE_ACTIVE, "state %d, not active", st.state);
}

/*
 * What the family says and holds of DAX when @sys_root (NULL = /sys)
 * decides @dax_expected: attached fs_dax programs and "traced" with no
 * fault seen, or none and the reason in the text and the JSON.
 */
static void check_dax(void *state, bool dax_expected, const char *reason)
{
	struct json_object *kernel = json_object_new_object();
	struct json_object *dax;
	int dax_fds = own_prog_fds(DAX_PROGS);
	char *text = NULL, line[192];
	size_t len = 0;
	FILE *mem;

	faults_probe.render_json(state, kernel);
	dax = get(get(kernel, "faults"), "dax");
	fprintf(stderr, "  DAX expected %d: %d fs_dax program/link fds held; JSON %s\n",
		dax_expected, dax_fds, json_object_to_json_string(dax));
	CHECK_MSG(get(dax, "traced") &&
		  json_object_get_boolean(get(dax, "traced")) == dax_expected,
		  "dax.traced is not %d", dax_expected);
	CHECK_MSG(own_prog_fds("iodig_pf_") > 0, "the page-fault program is not held");
	if (dax_expected) {
		/* a program and its link for each of the nine events */
		CHECK_MSG(dax_fds >= 9, "%d fs_dax program/link fds with DAX possible", dax_fds);
		CHECK_MSG(get(dax, "seen") && !json_object_get_boolean(get(dax, "seen")),
			  "dax.seen is not false");
		CHECK(get(dax, "events") && get(get(dax, "events"), "pte_fault"));
		CHECK(!get(dax, "reason"));
		snprintf(line, sizeof(line), "DAX: no DAX mapping seen\n");
	} else {
		CHECK_MSG(dax_fds == 0, "%d fs_dax program/link fds without DAX", dax_fds);
		CHECK_MSG(!strcmp(get_str(dax, "reason"), reason), "dax.reason \"%s\", want \"%s\"",
			  get_str(dax, "reason"), reason);
		/* no counts: "not traced" cannot be read as zero faults */
		CHECK(!get(dax, "seen") && !get(dax, "events"));
		snprintf(line, sizeof(line), "DAX faults: not traced: %s\n", reason);
	}
	json_object_put(kernel);
	mem = open_memstream(&text, &len);
	if (!mem)
		return;
	faults_probe.render_text(state, mem);
	fclose(mem);
	CHECK_MSG(text && strstr(text, line), "text lacks \"%s\": %s", line, text ? text : "");
	free(text);
	check_dax_status(state, dax_expected, reason);
}

/* With @dax in a fake sysfs tree's pmem0/queue/dax, the family hooks the
 * fs_dax events or not, and page faults as ever. */
static void run_dax_case(const char *disabled, const char *mech, int dax)
{
	char root[128];
	struct probe_env env = { .runner_tgid = getpid(), .disabled = disabled, .sys_root = root };
	struct probe_status st;
	void *state = NULL;
	long pages;
	int err;

	snprintf(root, sizeof(root), "/dev/shm/iodig-test-probe-faults-%d-sys", (int)getpid());
	err = fake_sys(root, dax);
	CHECK_MSG(!err, "fake sysfs tree %s: %s", root, strerror(-err));
	fprintf(stderr, "DAX case %s, pmem0/queue/dax=%d\n", mech, dax);
	if (family_open(&faults_probe, &env, &state, &st)) {
		CHECK_MSG(false, "open failed: %s", st.reason);
		fake_sys_remove(root);
		return;
	}
	CHECK_MSG(!strcmp(st.mechanism, mech), "mechanism %s (%s)", st.mechanism, st.reason);
	pages = touch_tmpfs("dax", 4ull << 20);
	CHECK(pages == 1024);

	struct probe_workload wl = { .ios = (uint64_t)(pages > 0 ? pages : 0) };

	family_set_workload(state, &wl);
	CHECK(family_collect(state, wl.ios) == 0);
	check_dax(state, dax == 1, "no DAX-capable block device");
	family_destroy(state);
	CHECK_MSG(own_prog_fds(DAX_PROGS) == 0, "fs_dax programs left after destroy");
	fake_sys_remove(root);
}

static void run_case(const char *disabled, const char *mech, enum probe_state want)
{
	struct probe_env env = { .runner_tgid = getpid(), .disabled = disabled };
	char host_why[128];
	bool host_dax = fs_dax_possible(NULL, host_why, sizeof(host_why));
	struct probe_status st;
	struct json_object *kernel, *f;
	void *state = NULL;
	char *text = NULL;
	size_t len = 0;
	int64_t n;
	long pages;
	FILE *mem;

	fprintf(stderr, "case disabled=%s: expect %s\n", disabled ? disabled : "(none)", mech);
	if (family_open(&faults_probe, &env, &state, &st)) {
		CHECK_MSG(false, "open failed: %s", st.reason);
		return;
	}
	CHECK_MSG(!strcmp(st.mechanism, mech) && st.state == want, "mechanism %s state %d (%s)",
		  st.mechanism, st.state, st.reason);
	pages = touch_tmpfs(mech, MAP_BYTES);
	CHECK_MSG(pages > 0, "tmpfs mapping: %s", strerror((int)-pages));

	struct probe_workload wl = { .ios = (uint64_t)(pages > 0 ? pages : 0) };

	family_set_workload(state, &wl);
	CHECK(family_collect(state, wl.ios) == 0);
	print_prog_costs("iodig_pf_");
	kernel = json_object_new_object();
	faults_probe.render_json(state, kernel);
	f = get(kernel, "faults");
	n = faults_of(f, getpid());
	fprintf(stderr, "  %ld pages written, %lld faults counted (write %lld)\n", pages,
		(long long)n, (long long)get_i64(f, "write"));
	CHECK_MSG(n >= pages && n <= pages + FAULT_SLACK,
		  "%lld faults for %ld pages (slack %d)", (long long)n, pages, FAULT_SLACK);
	CHECK_MSG(get_i64(f, "write") >= pages, "write faults %lld < %ld pages",
		  (long long)get_i64(f, "write"), pages);
	CHECK(get_i64(f, "user_faults") == n);
	CHECK(get_i64(get(f, "drops"), "recursion") == 0);
	CHECK(!get(f, "missed_events"));
	json_object_put(kernel);

	mem = open_memstream(&text, &len);
	if (mem) {
		faults_probe.render_text(state, mem);
		fclose(mem);
		fprintf(stderr, "%s", text ? text : "");
		CHECK_MSG(text && strstr(text, "per I/O"), "text lacks faults per I/O");
		free(text);
	}
	/* This host's own answer (a VM without pmem: none) */
	fprintf(stderr, "  this host: DAX fault possible %d (%s)\n", host_dax, host_why);
	check_dax(state, host_dax, host_why);
	family_destroy(state);
}

/* A child's faults count only once its tgid is tracked. */
static void run_fork_case(void)
{
	struct probe_env env = { .runner_tgid = getpid() };
	struct probe_status st;
	struct json_object *kernel, *f;
	int pipefd[2], status;
	void *state = NULL;
	char go = 0;
	pid_t child;
	int64_t n;

	if (family_open(&faults_probe, &env, &state, &st)) {
		CHECK_MSG(false, "open failed: %s", st.reason);
		return;
	}
	CHECK(pipe(pipefd) == 0);
	child = fork();
	if (child == 0) {
		if (touch_tmpfs("untracked", 4ull << 20) <= 0)   /* 1024 pages */
			_exit(1);
		if (read(pipefd[0], &go, 1) != 1)
			_exit(1);
		_exit(touch_tmpfs("tracked", 2ull << 20) > 0 ? 0 : 1);   /* 512 pages */
	}
	CHECK(child > 0);
	usleep(300000);   /* the untracked pages are written by now */
	CHECK(family_track_tgid(state, child) == 0);
	CHECK(write(pipefd[1], &go, 1) == 1);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	close(pipefd[0]);
	close(pipefd[1]);
	CHECK(family_collect(state, 0) == 0);
	kernel = json_object_new_object();
	faults_probe.render_json(state, kernel);
	f = get(kernel, "faults");
	n = faults_of(f, child);
	fprintf(stderr, "fork case: child %lld faults, parent %lld\n", (long long)n,
		(long long)faults_of(f, getpid()));
	CHECK_MSG(n >= 512 && n <= 512 + FAULT_SLACK, "child: %lld faults, want 512..%d",
		  (long long)n, 512 + FAULT_SLACK);
	CHECK_MSG(faults_of(f, getpid()) <= COW_SLACK, "parent: %lld faults",
		  (long long)faults_of(f, getpid()));
	json_object_put(kernel);
	family_destroy(state);
}

int main(void)
{
	bool mounted = false;
	struct errbuf err;

	if (geteuid() != 0)
		SKIP("needs root to load BPF programs");
	if (access("/dev/shm", W_OK))
		SKIP("/dev/shm not writable");
	unsetenv("IODIG_DISABLE");
	/* Event lookup and the classic tracepoints need tracefs, as
	 * probes_open() provides. */
	tracefs_mount(&mounted, &err);
	if (tracefs_event_exists("exceptions", "page_fault_user") == -ENOENT) {
		tracefs_unmount(mounted);
		SKIP("no exceptions:page_fault_user tracepoint (x86 only)");
	}
	run_case(NULL, "tp_btf", PROBE_ACTIVE);
	run_case("tp_btf", "raw_tp", PROBE_DEGRADED);
	run_case("tp_btf,raw_tp", "tracepoint", PROBE_DEGRADED);
	run_fork_case();
	if (tracefs_event_exists("fs_dax", "dax_pte_fault_done")) {
		printf("DAX cases skipped: this kernel has no fs_dax tracepoints\n");
	} else {
		run_dax_case(NULL, "tp_btf", 1);
		run_dax_case("tp_btf,raw_tp", "tracepoint", 1);
		run_dax_case(NULL, "tp_btf", 0);
	}
	tracefs_unmount(mounted);
	return CHECK_DONE();
}
