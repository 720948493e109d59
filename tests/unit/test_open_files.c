// openfiles below the job's files: a file opens when picked, closes when done or at its last completion if I/O holds it (closing files count as open), a closed file picked at the limit is fio's EBUSY; roundrobin over 4 files with openfiles=2 opens, closes and picks in fio 3.33's order (its write_iolog).
#include <stdio.h>
#include <string.h>

#include "tests/lib/check.h"
#include "workload/file_service.h"
#include "workload/open_files.h"

static void test_policy(void)
{
	struct open_files of;
	unsigned int k;
	bool now;

	CHECK(!open_files_init(&of, 4, 2));
	CHECK(open_files_get(&of, 0) && open_files_get(&of, 1));
	CHECK(!open_files_get(&of, 1)); /* open already: a second I/O */
	CHECK(open_files_blocked(&of, 2) && !open_files_blocked(&of, 0));
	open_files_done(&of, 1); /* two I/Os in flight: closes at the last */
	CHECK(open_files_next_due(&of, &k, &now) && k == 1 && !now);
	CHECK(!open_files_next_due(&of, &k, &now));
	CHECK(open_files_blocked(&of, 2)); /* a closing file holds its place */
	CHECK(!open_files_put(&of, 1) && open_files_put(&of, 1));
	CHECK(!open_files_blocked(&of, 2));
	CHECK(!open_files_put(&of, 0)); /* open, not done: stays open */
	open_files_done(&of, 0);
	CHECK(open_files_next_due(&of, &k, &now) && k == 0 && now);
	open_files_done(&of, 0); /* closed already: nothing due */
	CHECK(!open_files_next_due(&of, &k, &now) && of.nr_open == 0);
	open_files_free(&of);
}

/* A sync job's picks: "oK" opened, "cK" closed, "K" an I/O. */
static void run_sync(struct file_picker *fs, struct open_files *of,
		     const struct job *job, char *log, size_t len)
{
	uint64_t rel, room;
	unsigned int k, due;
	bool now;

	for (int spins = 0; spins < 1000; spins++) {
		bool picked = (k = file_service_pick(fs, job)) < fs->nr;

		while (open_files_next_due(of, &due, &now))
			snprintf(log + strlen(log), len - strlen(log), "c%u ", due);
		if (!picked && !fs->busy)
			return;
		if (!picked)
			continue;
		if (open_files_get(of, k))
			snprintf(log + strlen(log), len - strlen(log), "o%u ", k);
		if (!file_service_offset(fs, k, DDIR_READ, &rel, &room) ||
		    file_service_take(fs, k, rel, 4096) != 4096) {
			/* no I/O left there: the file is done (io_loop's
			 * release_unit_file), the I/O goes elsewhere */
			open_files_put(of, k);
			file_service_found_done(fs, k);
			continue;
		}
		open_files_put(of, k);
		snprintf(log + strlen(log), len - strlen(log), "%u ", k);
	}
	CHECK_MSG(0, "no end after 1000 picks: %s", log);
}

static void test_roundrobin_as_fio(void)
{
	struct job job = { .rw = RW_READ, .file_service = FILE_SERVICE_ROUNDROBIN,
			   .file_service_nr = 1 };
	const char *want = "o0 0 o1 1 0 1 0 1 0 1 c0 c1 o2 2 o3 3 2 3 2 3 2 3 c2 c3 ";
	struct file_picker fs;
	struct open_files of;
	char log[512] = "";

	for (int d = 0; d < DDIR_COUNT; d++)
		job.bs_min[d] = job.bs_max[d] = job.bs[d] = 4096;
	CHECK(!file_service_init(&fs, &job, 4, 16384, NULL, false, NULL,
				 (struct frand_base){ 0 }, 0));
	CHECK(!open_files_init(&of, 4, 2));
	fs.of = &of;
	run_sync(&fs, &of, &job, log, sizeof(log));
	CHECK_MSG(!strcmp(log, want), "\n got %s\nwant %s", log, want);
	file_service_free(&fs);
	open_files_free(&of);
}

int main(void)
{
	test_policy();
	test_roundrobin_as_fio();
	return CHECK_DONE();
}
