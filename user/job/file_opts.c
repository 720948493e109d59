// SPDX-License-Identifier: GPL-2.0
/*
 * fio's file options that need parsing or checking beyond their type:
 * file_service_type's forms, and the options whose fio meaning iodig
 * cannot give (which are refused saying why, never ignored).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/file_opts.h"
#include "workload/engine.h"
#include "workload/files.h"

#define VAL "'%.64s'"

static const struct {
	const char *name;
	enum file_service type;
	bool takes_theta;
} services[] = {
	{ "roundrobin", FILE_SERVICE_ROUNDROBIN, false },
	{ "sequential", FILE_SERVICE_SEQUENTIAL, false },
	{ "random", FILE_SERVICE_RANDOM, false },
	{ "zipf", FILE_SERVICE_ZIPF, true },
	{ "pareto", FILE_SERVICE_PARETO, true },
	{ "normal", FILE_SERVICE_GAUSS, true },
	{ "gauss", FILE_SERVICE_GAUSS, true },
};

int set_file_service(void *base, const struct opt_desc *o, const char *value,
		     const char *where, struct errbuf *err)
{
	struct job *job = base;
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	char *end;

	for (size_t i = 0; i < sizeof(services) / sizeof(services[0]); i++) {
		if (strlen(services[i].name) != len ||
		    strncmp(value, services[i].name, len))
			continue;
		job->file_service = services[i].type;
		job->file_service_nr = 1;
		job->file_service_theta = 0;
		if (!colon)
			return 0;
		errno = 0;
		if (services[i].takes_theta)
			job->file_service_theta = strtod(colon + 1, &end);
		else
			job->file_service_nr = (unsigned int)strtoul(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end ||
		    (!services[i].takes_theta && !job->file_service_nr))
			return err_set(err, EINVAL, "%s: option '%s': " VAL
				       " needs a %s after ':'", where, o->name,
				       value, services[i].takes_theta ?
				       "number" : "whole number above 0");
		return 0;
	}
	return err_set(err, EINVAL, "%s: option '%s': " VAL " is not one of "
		       "random, roundrobin, sequential, zipf:THETA, pareto:H, "
		       "normal:SIGMA, gauss:SIGMA", where, o->name, value);
}

bool fio_raw_percent(const char *value, uint64_t *size)
{
	char *end;
	unsigned long v = strtoul(value, &end, 10);

	if (end == value || !isdigit((unsigned char)value[0]) || strcmp(end, "%"))
		return false;
	*size = UINT64_MAX - v;
	return true;
}

int set_size_or_percent(void *base, const struct opt_desc *o, const char *value,
			const char *where, struct errbuf *err)
{
	struct job *job = base;
	bool is_offset = !strncmp(o->name, "offset", 6);
	unsigned int *perc = !strcmp(o->name, "offset") ? &job->offset_percent :
			     is_offset ? &job->offset_increment_percent :
			     !strcmp(o->name, "io_size") ? &job->io_size_percent :
			     &job->size_percent;
	size_t len = strlen(value);
	unsigned long v;
	char *end;
	int ret;

	if (len > 1 && value[len - 1] == ',' && strchr(value, ',') == value + len - 1)
		len--; /* fio drops a last comma: "50%," */
	if (!len || value[len - 1] != '%') {
		/* the option's own row without this setter: sizes and, where
		 * the row allows them, zones ('Nz') */
		struct opt_desc plain = *o;

		plain.set = NULL;
		ret = opt_set_kb(base, &plain, value, job->kb_base, where, err);
		if (!ret)
			*perc = 0;
		return ret;
	}
	/* fio takes 0% as not given: size=0% is the whole file */
	v = strtoul(value, &end, 10);
	if (perc == &job->size_percent && end == value + len - 1 && v > 100 &&
	    fio_raw_percent(value, (uint64_t *)((char *)base + o->offset))) {
		*perc = 0;
		return 0;
	}
	if (end == value || end != value + len - 1 || v > 100)
		return err_set(err, EINVAL, "%s: option '%s': '%.64s' is not a "
			       "percentage 0-100%s", where, o->name, value,
			       perc == &job->io_size_percent ? " (fio 3.33: "
			       "\"io_size values greater than 100% aren't "
			       "supported\")" : "");
	*perc = (unsigned int)v;
	*(uint64_t *)((char *)base + o->offset) = 0;
	return 0;
}

int set_lockfile(void *base, const struct opt_desc *o, const char *value,
		 const char *where, struct errbuf *err)
{
	const char *colon = strchr(value, ':');
	char mode[32];

	if (!colon)
		return opt_set_typed(base, o, value, where, err);
	snprintf(mode, sizeof(mode), "%.*s", (int)(colon - value), value);
	return opt_set_typed(base, o, mode, where, err);
}

static unsigned int files_of(const struct job *job)
{
	return job->filename[0] ? job_filename_count(job) : job->nrfiles;
}

int job_check_file_opts(struct job *job, const char *where,
			struct errbuf *err)
{
	const char *why;

	if (job->openfiles && job->openfiles < files_of(job) &&
	    !(job->engine && job_engine_takes_files(job)) &&
	    (why = files_opened_together(job)))
		return err_set(err, ENOTSUP, "%s: openfiles=%u below the job's %u "
			       "files: iodig opens and closes them as fio does, "
			       "but not with %s, which needs every file open",
			       where, job->openfiles, files_of(job), why);
	/* workload/file_service.c picks files roundrobin, sequential or
	 * random, for the file operations too; null, which takes several
	 * files itself, reaches file k at offset k * filesize, in order. */
	if (files_of(job) > 1 && job->file_service > FILE_SERVICE_RANDOM)
		return err_set(err, ENOTSUP, "%s: file_service_type: iodig picks "
			       "files roundrobin, sequential or random, not by "
			       "a zipf, pareto or normal distribution", where);
	if (files_of(job) > 1 && job->file_service == FILE_SERVICE_RANDOM &&
	    job->engine && job_engine_takes_files(job) &&
	    !(job->engine->flags & ENGINE_FILE_OPS))
		return err_set(err, ENOTSUP, "%s: file_service_type=random: "
			       "ioengine=%s goes through its files in order",
			       where, job->engine->name);
	return 0;
}
