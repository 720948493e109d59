// SPDX-License-Identifier: GPL-2.0
/*
 * fio's process options, parsed into struct job: which CPUs, what nice
 * value and I/O priority each worker gives itself.  Semantics and ranges
 * are fio 3.33's (HOWTO, "Threads, processes and job synchronization").
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/process_opts.h"

#define VAL "'%.64s'"

/* fio's cpumask is an int: "it can only control cpus 1-32". */
#define CPUMASK_BITS 32

static void cpus_add(struct job_cpus *c, unsigned int cpu)
{
	c->bits[cpu / 64] |= 1ull << (cpu % 64);
}

/* A whole number with an optional sign, decimal or 0x hex (never octal:
 * "010" is ten), nothing else. */
static int parse_signed(const char *s, long long *out)
{
	const char *p = s;
	bool hex;
	char *end;

	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	errno = 0;
	*out = strtoll(s, &end, hex ? 16 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

/* One CPU number of a cpus_allowed list, blanks around it allowed. */
static int parse_cpu(const char *s, size_t len, unsigned int *cpu)
{
	char buf[16];
	long long v;

	while (len && isblank((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isblank((unsigned char)s[len - 1]))
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (parse_signed(buf, &v) || v < 0)
		return -EINVAL;
	if (v >= JOB_CPUS_MAX)
		return -ERANGE;
	*cpu = (unsigned int)v;
	return 0;
}

/* "N" or "N-M" into @cpus; @entry is not NUL-terminated at @len. */
static int add_cpu_entry(struct job_cpus *cpus, const char *entry, size_t len,
			 const struct opt_desc *o, const char *where,
			 struct errbuf *err)
{
	const char *dash = memchr(entry, '-', len);
	unsigned int lo, hi;
	int ret;

	ret = parse_cpu(entry, dash ? (size_t)(dash - entry) : len, &lo);
	if (!ret)
		ret = dash ? parse_cpu(dash + 1, len - (size_t)(dash - entry) - 1,
				       &hi) : 0;
	if (!dash)
		hi = lo;
	if (ret == -ERANGE)
		return err_set(err, ERANGE, "%s: option '%s': '%.*s' names a CPU "
			       "above %d", where, o->name, (int)len, entry,
			       JOB_CPUS_MAX - 1);
	if (ret)
		return err_set(err, EINVAL, "%s: option '%s': '%.*s' is not a "
			       "CPU number or range (like 0,5,8-15)", where,
			       o->name, (int)len, entry);
	if (lo > hi)
		return err_set(err, EINVAL, "%s: option '%s': range '%.*s' ends "
			       "before it starts, so it names no CPU", where,
			       o->name, (int)len, entry);
	for (unsigned int c = lo; c <= hi; c++)
		cpus_add(cpus, c);
	return 0;
}

int set_cpus_allowed(void *base, const struct opt_desc *o, const char *value,
		     const char *where, struct errbuf *err)
{
	struct job *job = base;
	struct job_cpus cpus = { { 0 } };
	const char *p = value;
	bool any = false;
	int ret;

	while (*p) {
		size_t len = strcspn(p, ",");

		/* fio stops at an empty entry; blanks alone are one too */
		if (strspn(p, " \t") < len) {
			ret = add_cpu_entry(&cpus, p, len, o, where, err);
			if (ret)
				return ret;
			any = true;
		}
		p += len + (p[len] == ',');
	}
	if (!any)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " names no "
			       "CPU", where, o->name, value);
	job->cpus = cpus;
	job->cpus_set = true;
	return 0;
}

/* @value as parse_signed reads it, at least @min; else -EINVAL saying
 * it is not a @what. */
static int signed_value(const struct opt_desc *o, const char *value,
			long long min, const char *what, const char *where,
			long long *v, struct errbuf *err)
{
	if (parse_signed(value, v) || *v < min)
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a %s",
			       where, o->name, value, what);
	return 0;
}

int set_cpumask(void *base, const struct opt_desc *o, const char *value,
		const char *where, struct errbuf *err)
{
	struct job *job = base;
	long long v;
	int ret = signed_value(o, value, 0, "bit mask (a whole number, bit N "
			       "for CPU N)", where, &v, err);

	if (ret)
		return ret;
	if (!v)
		return err_set(err, EINVAL, "%s: option '%s': 0 allows no CPU",
			       where, o->name);
	if ((unsigned long long)v >> CPUMASK_BITS)
		return err_set(err, ERANGE, "%s: option '%s': " VAL " has bits "
			       "above CPU %d, which fio's cpumask cannot hold; "
			       "use cpus_allowed", where, o->name, value,
			       CPUMASK_BITS - 1);
	memset(&job->cpus, 0, sizeof(job->cpus));
	job->cpus.bits[0] = (uint64_t)v;
	job->cpus_set = true;
	return 0;
}

int set_nice(void *base, const struct opt_desc *o, const char *value,
	     const char *where, struct errbuf *err)
{
	struct job *job = base;
	long long v;
	int ret = signed_value(o, value, LLONG_MIN, "whole number", where, &v, err);

	if (ret)
		return ret;
	if (v < -20 || v > 19)
		return err_set(err, ERANGE, "%s: option '%s': %lld is out of "
			       "range -20-19", where, o->name, v);
	job->nice = (int)v;
	return 0;
}

int set_cred_id(void *base, const struct opt_desc *o, const char *value,
		const char *where, struct errbuf *err)
{
	unsigned int *id = (unsigned int *)((char *)base + o->offset);
	long long v;
	int ret = signed_value(o, value, -1, "user or group ID (a number; -1: none)", where,
			       &v, err);

	if (ret)
		return ret;
	if (v > (long long)JOB_ID_NONE)
		return err_set(err, ERANGE, "%s: option '%s': %lld is out of range -1-%u",
			       where, o->name, v, JOB_ID_NONE);
	*id = v < 0 ? JOB_ID_NONE : (unsigned int)v;
	return 0;
}

int set_ioprio_part(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	struct job *job = base;
	int ret = opt_set_typed(job, o, value, where, err);

	if (!ret)
		job->ioprio_set = true;
	return ret;
}

int set_flag_number(void *base, const struct opt_desc *o, const char *value,
		    const char *where, struct errbuf *err)
{
	long long v = 1;
	bool on;
	int ret = !value ? 0 :
		  signed_value(o, value, LLONG_MIN, "boolean (fio takes the bare "
			       "key, or a whole number: 0 off, any other on)",
			       where, &v, err);

	if (ret)
		return ret;
	on = v != 0;
	memcpy((char *)base + o->offset, &on, sizeof(on));
	return 0;
}

int job_check_host(const struct job *job, const char *where,
		   struct errbuf *err)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);

	if (!job->cpus_set || conf <= 0)
		return 0;
	for (unsigned int c = (unsigned int)conf; c < JOB_CPUS_MAX; c++) {
		if (job_cpus_has(&job->cpus, c))
			return err_set(err, EINVAL, "%s: CPU %u of cpus_allowed/"
				       "cpumask does not exist here (CPUs 0-%ld)",
				       where, c, conf - 1);
	}
	return 0;
}
