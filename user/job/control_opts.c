// SPDX-License-Identifier: GPL-2.0
/*
 * fio's job-control options that need their own parsing (fio 3.33's
 * HOWTO, "Error handling" and "Threads, processes and job
 * synchronization"): continue_on_error, ignore_error, numa_cpu_nodes,
 * numa_mem_policy.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/control_opts.h"
#include "job/options.h"

#define VAL "'%.64s'"
#define NUMA_NODES_MAX 64

static const struct {
	const char *name;
	unsigned int classes;
} continue_values[] = {
	{ "none", 0 }, { "0", 0 }, { "false", 0 },
	{ "read", CONTINUE_READ }, { "write", CONTINUE_WRITE },
	{ "io", CONTINUE_READ | CONTINUE_WRITE }, { "verify", CONTINUE_VERIFY },
	{ "all", CONTINUE_READ | CONTINUE_WRITE | CONTINUE_VERIFY },
	{ "1", CONTINUE_READ | CONTINUE_WRITE | CONTINUE_VERIFY },
	{ "true", CONTINUE_READ | CONTINUE_WRITE | CONTINUE_VERIFY },
};

int set_continue_on_error(void *base, const struct opt_desc *o,
			  const char *value, const char *where,
			  struct errbuf *err)
{
	struct job *job = base;

	for (size_t i = 0; i < sizeof(continue_values) / sizeof(continue_values[0]); i++) {
		if (strcmp(value, continue_values[i].name))
			continue;
		job->continue_on_error = continue_values[i].classes;
		return 0;
	}
	return err_set(err, EINVAL, "%s: option '%s': " VAL " is not one of "
		       "none, read, write, io, verify, all, 0, 1", where,
		       o->name, value);
}

static const struct {
	const char *name;
	int value;
} errno_names[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EINTR", EINTR },
	{ "EIO", EIO }, { "ENXIO", ENXIO }, { "EBADF", EBADF },
	{ "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM }, { "EACCES", EACCES },
	{ "EFAULT", EFAULT }, { "EBUSY", EBUSY }, { "EEXIST", EEXIST },
	{ "ENODEV", ENODEV }, { "EINVAL", EINVAL }, { "EFBIG", EFBIG },
	{ "ENOSPC", ENOSPC }, { "EROFS", EROFS }, { "ENODATA", ENODATA },
	{ "ETIME", ETIME }, { "EILSEQ", EILSEQ }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "ETIMEDOUT", ETIMEDOUT }, { "EDQUOT", EDQUOT },
	{ "EBADMSG", EBADMSG }, { "EOVERFLOW", EOVERFLOW },
	{ "EREMOTEIO", EREMOTEIO }, { "ECANCELED", ECANCELED },
};

/* One errno of a list: its name or a number, as fio's ignore_error. */
static int parse_errno(const char *s, size_t len, int *out)
{
	char buf[24], *end;
	long v;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (!strcmp(buf, errno_names[i].name)) {
			*out = errno_names[i].value;
			return 0;
		}
	v = strtol(buf, &end, 10);
	if (*end || v <= 0 || v > 4095)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* "READ,WRITE,VERIFY", each "E1:E2:..."; an empty list leaves the class
 * to fio's default (EIO, EILSEQ), a list adds its class to
 * continue_on_error (a continue_on_error given later replaces it). */
int set_ignore_error(void *base, const struct opt_desc *o, const char *value,
		     const char *where, struct errbuf *err)
{
	struct job *job = base;
	const char *p = value;

	for (unsigned int cls = 0; cls < 3 && *p; cls++) {
		size_t list_len = strcspn(p, ",");
		const char *end = p + list_len;

		job->ignore_error_nr[cls] = 0;
		while (p < end) {
			size_t len = strcspn(p, ":,");
			int e;

			if (job->ignore_error_nr[cls] >= JOB_IGNORE_ERRORS)
				return err_set(err, E2BIG, "%s: option '%s': more "
					       "than %d errors in one list", where,
					       o->name, JOB_IGNORE_ERRORS);
			if (parse_errno(p, len, &e))
				return err_set(err, EINVAL, "%s: option '%s': "
					       "'%.*s' is not an errno name (EIO) "
					       "or number", where, o->name,
					       (int)(len < 32 ? len : 32), p);
			job->ignore_error[cls][job->ignore_error_nr[cls]++] = e;
			p += len + (p[len] == ':');
		}
		/* fio's ignore_error_type: a list lets its class go on */
		if (job->ignore_error_nr[cls])
			job->continue_on_error |= 1u << cls;
		p = *end ? end + 1 : end;
	}
	if (*p)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " has more "
			       "than three lists (read, write, verify)", where,
			       o->name, value);
	return 0;
}

/* "0-1,3" or "all": bit N of @mask for node N. */
static int parse_nodes(const char *s, uint64_t *mask)
{
	char *end;

	*mask = 0;
	if (!strcmp(s, "all")) {
		*mask = ~0ull;
		return 0;
	}
	while (*s) {
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return -EINVAL;
		if (*end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
			if (end == s || hi < lo)
				return -EINVAL;
		}
		if (hi >= NUMA_NODES_MAX)
			return -ERANGE;
		for (unsigned long n = lo; n <= hi; n++)
			*mask |= 1ull << n;
		if (*end && *end != ',')
			return -EINVAL;
		s = *end ? end + 1 : end;
	}
	return *mask ? 0 : -EINVAL;
}

static bool node_online(unsigned int n)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u", n);
	return access(path, F_OK) == 0;
}

/* The CPUs of node @n, from its sysfs cpulist ("0-3,8"), into @cpus. */
static int add_node_cpus(unsigned int n, struct job_cpus *cpus)
{
	char path[80], buf[4096], *save = NULL;
	FILE *f;
	int ret = -EIO;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", n);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
		/* the same "a-b,c" shape as a node list */
		for (char *tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			unsigned long lo = strtoul(tok, NULL, 10), hi = lo;
			char *dash = strchr(tok, '-');

			if (dash)
				hi = strtoul(dash + 1, NULL, 10);
			for (unsigned long c = lo; c <= hi && c < JOB_CPUS_MAX; c++)
				cpus->bits[c / 64] |= 1ull << (c % 64);
		}
	}
	fclose(f);
	return ret;
}

/* Like fio's numa_parse_nodestring, nodes the machine lacks are refused
 * when the option is parsed. */
static int check_nodes(const char *value, uint64_t mask, bool all,
		       const struct opt_desc *o, const char *where,
		       struct errbuf *err)
{
	for (unsigned int n = 0; n < NUMA_NODES_MAX; n++)
		if ((mask >> n & 1) && !node_online(n) && !all)
			return err_set(err, ENODEV, "%s: option '%s': " VAL
				       ": this machine has no NUMA node %u",
				       where, o->name, value, n);
	return 0;
}

int set_numa_cpu_nodes(void *base, const struct opt_desc *o, const char *value,
		       const char *where, struct errbuf *err)
{
	struct job *job = base;
	struct job_cpus cpus = { { 0 } };
	uint64_t mask;
	int ret;

	if (parse_nodes(value, &mask))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
			       "list of NUMA nodes (0-1,3 or all)", where,
			       o->name, value);
	ret = check_nodes(value, mask, !strcmp(value, "all"), o, where, err);
	if (ret)
		return ret;
	for (unsigned int n = 0; n < NUMA_NODES_MAX; n++)
		if ((mask >> n & 1) && node_online(n) &&
		    add_node_cpus(n, &cpus))
			return err_set(err, EIO, "%s: option '%s': cannot read "
				       "the CPUs of NUMA node %u", where,
				       o->name, n);
	/* fio: the CPUs of the nodes, as cpus_allowed would set them */
	job->cpus = cpus;
	job->cpus_set = true;
	job->numa_nodes_set = true;
	return 0;
}

static unsigned int online_nodes(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NUMA_NODES_MAX; i++)
		n += node_online(i);
	return n;
}

int set_numa_mem_policy(void *base, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err)
{
	static const char *const modes[] = { "default", "prefer", "bind",
					     "interleave", "local" };
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	uint64_t mask = 0;
	bool known = false;
	int ret;

	(void)base;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		known |= strlen(modes[i]) == len && !strncmp(value, modes[i], len);
	if (!known)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not one "
			       "of default, prefer:N, bind:NODES, "
			       "interleave:NODES, local", where, o->name, value);
	if (colon && parse_nodes(colon + 1, &mask))
		return err_set(err, EINVAL, "%s: option '%s': " VAL ": '%s' is "
			       "not a list of NUMA nodes", where, o->name,
			       value, colon + 1);
	ret = check_nodes(value, mask, false, o, where, err);
	if (ret)
		return ret;
	/* With one node every policy puts memory on it; elsewhere the
	 * policy would need mbind/set_mempolicy, which iodig does not do. */
	if (online_nodes() > 1 && strncmp(value, "default", len) &&
	    strncmp(value, "local", len))
		return err_set(err, ENOTSUP, "%s: option '%s': " VAL ": iodig "
			       "sets no NUMA memory policy, and this machine "
			       "has %u nodes, where it would matter", where,
			       o->name, value, online_nodes());
	return 0;
}

int set_fraction(void *base, const struct opt_desc *o, const char *value,
		 const char *where, struct errbuf *err)
{
	double *d = (double *)((char *)base + o->offset);
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || *end || v < 0 || v > 1)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
			       "fraction from 0 to 1", where, o->name, value);
	*d = v;
	return 0;
}

#define FIELD(f) OPT_FIELD(struct job, f)

OPT_VALUES(exit_what_values,
	OPT_VAL("group", EXIT_WHAT_GROUP),
	OPT_VAL("stonewall", EXIT_WHAT_STONEWALL),
	OPT_VAL("all", EXIT_WHAT_ALL));

OPT_VALUES(zonemode_values,
	OPT_VAL("none", ZONEMODE_NONE),
	OPT_VAL("strided", ZONEMODE_STRIDED),
	OPT_VAL("zbd", ZONEMODE_ZBD));

#define NO_FLOW "deprecated: fio 3.33 ignores it, as flow weights " \
	"(flow=, flow_id=) replaced it"

/* fio's job control: errors, exits, what is reported, NUMA, zones. */
const struct opt_desc control_options[] = {
	{ .name = "continue_on_error", .type = OPT_CUSTOM,
	  FIELD(continue_on_error), .set = set_continue_on_error,
	  .hint = "none|read|write|io|verify|all", .def = "none",
	  .help = "Errors of these classes that ignore_error lists do not "
		  "end the job; they are counted" },
	{ .name = "ignore_error", .type = OPT_CUSTOM, FIELD(ignore_error),
	  .set = set_ignore_error, .hint = "READ,WRITE,VERIFY",
	  .help = "Errnos continue_on_error goes on after, ':' between, per "
		  "class (none listed: EIO:EILSEQ); a list adds its class to "
		  "continue_on_error" },
	BOOL_OPT("error_dump", FIELD(error_dump), "1",
		 "fio prints each tolerated I/O error too; iodig counts them in the job's errors "
		 "and names the fatal one either way"),
	BOOL_OPT("exitall", FIELD(exitall), "0",
		 "When this job ends, stop the others (see exit_what)",
		 .flags = OPT_BARE),
	BOOL_OPT("exitall_on_error", FIELD(exitall_on_error), "0",
		 "When this job ends in an error, stop the others",
		 .flags = OPT_BARE),
	ENUM_OPT("exit_what", FIELD(exit_what), exit_what_values, "group",
		 "What exitall stops: the group, the stonewall group, all"),
	BOOL_OPT("stats", FIELD(stats), "1", "0: the job runs but is left out of the report"),
	BOOL_OPT("new_group", FIELD(new_group), "0",
		 "Start a new reporting group here, without a stonewall",
		 .flags = OPT_BARE),
	STR_OPT("wait_for", FIELD(wait_for), NULL,
		"Start only once every worker of the job of this name (defined earlier) has "
		"finished"),
	UINT_OPT("flow", FIELD(flow), "0", 0, 1000,
		 "Weight in flow control: the jobs of a flow_id issue I/O in the ratio of their "
		 "weights"),
	UINT_OPT("flow_id", FIELD(flow_id), "0", 0, UINT_MAX,
		 "The flow this job's flow= counts in"),
	UINT_OPT("flow_sleep", FIELD(flow_sleep_us), "0", 0, UINT_MAX,
		 "Microseconds to sleep (after the I/O in flight completes) when the flow holds "
		 "the job back"),
	REFUSED("flow_watermark", NO_FLOW),
	{ .name = "numa_cpu_nodes", .type = OPT_CUSTOM, FIELD(cpus),
	  .set = set_numa_cpu_nodes, .hint = "NODES",
	  .help = "Run on the CPUs of these NUMA nodes (as cpus_allowed)" },
	{ .name = "numa_mem_policy", .type = OPT_CUSTOM, FIELD(cpus),
	  .set = set_numa_mem_policy, .hint = "MODE[:NODES]",
	  .help = "default, prefer, bind, interleave, local: accepted where "
		  "the machine has one node (all put memory there)" },
	ENUM_OPT("zonemode", FIELD(zonemode), zonemode_values, "none",
		 "strided: zonesize bytes in each zonerange, then skip zoneskip; zbd: a zoned "
		 "block device's write pointers (zones of zonesize emulated on any other target)"),
	SIZE_OPT("zonesize", FIELD(zones.size), NULL,
		 "strided: bytes done in a zone before the next; zbd: bytes of a zone"),
	SIZE_OPT("zonerange", FIELD(zones.range), NULL,
		 "zonemode=strided: bytes of a zone (default zonesize)"),
	SIZE_OPT("zoneskip", FIELD(zones.skip), NULL,
		 "zonemode=strided: bytes (or Nz: zones) skipped after each zone's zonesize bytes",
		 ZONES(skip)),
	SIZE_OPT("zonecapacity", FIELD(zones.capacity), NULL,
		 "zonemode=zbd: usable bytes of a zone"),
	UINT_OPT("max_open_zones", FIELD(zones.max_open), NULL, 0, 1u << 20,
		 "zonemode=zbd: zones open at once"),
	UINT_OPT("job_max_open_zones", FIELD(zones.job_max_open), NULL, 0, 1u << 20,
		 "zonemode=zbd: zones open at once per job"),
	BOOL_OPT("ignore_zone_limits", FIELD(zones.ignore_limits), NULL,
		 "zonemode=zbd: ignore the device's open zone limit"),
	BOOL_OPT("read_beyond_wp", FIELD(zones.read_beyond_wp), NULL,
		 "zonemode=zbd: read past the write pointer"),
	{ .name = "zone_reset_threshold", .type = OPT_CUSTOM,
	  FIELD(zones.reset_threshold), .set = set_fraction, .hint = "0-1",
	  .help = "zonemode=zbd: fraction of zones written before resets" },
	{ .name = "zone_reset_frequency", .type = OPT_CUSTOM,
	  FIELD(zones.reset_frequency), .set = set_fraction, .hint = "0-1",
	  .help = "zonemode=zbd: fraction of writes that reset a zone" },
	{ .name = NULL },
};
