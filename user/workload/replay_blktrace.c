// SPDX-License-Identifier: GPL-2.0
/* fio's read_iolog of a blktrace trace (workload/replay_blktrace.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "workload/replay_blktrace.h"

/* struct blk_io_trace's size and fields' byte offsets (blktrace_api.h). */
#define REC_BYTES 48
#define AT_MAGIC 0
#define AT_TIME 8
#define AT_SECTOR 16
#define AT_BYTES 24
#define AT_ACTION 28
#define AT_DEVICE 36
#define AT_PDU_LEN 46

#define BLKTRACE_MAGIC 0x65617400u
#define BLKTRACE_VERSION 0x07u

/* An action is a category mask above 16 bits and an action below. */
#define TC(bit) (1u << (16 + (bit)))
#define TC_READ TC(0)
#define TC_WRITE TC(1)
#define TC_FLUSH TC(2)
#define TC_NOTIFY TC(10)
#define TC_DISCARD TC(13)
#define TA_QUEUE 1u
#define TA_BACKMERGE 2u
#define TA_FRONTMERGE 3u
#define TA_COMPLETE 8u

/* The kernel's dev_t as blktrace stores it: 12 bits of major, 20 of minor. */
#define DEV_MINOR_BITS 20

/* fio's cap on a trace's depth, for stacked devices whose completions
 * the trace misses. */
#define DEPTH_MAX 1024

struct record {
	uint32_t magic, bytes, action, device;
	uint64_t time, sector;
	uint16_t pdu_len;
};

struct reader {
	struct replay_log *log;
	const struct job_replay_opts *o;
	const char *redirect;
	const char *name;
	bool swap;
	size_t at;            /* the record's byte offset */
	uint64_t last_time;   /* of the queue event before */
	int this_depth[DDIR_COUNT], depth[DDIR_COUNT];
	uint32_t *devs;       /* the trace's device of each file */
	size_t cap_entries, cap_files;
	struct errbuf *err;
};

static uint32_t u32_at(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t u64_at(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

bool replay_is_blktrace(const unsigned char *buf, size_t len)
{
	return len >= 4 && ((u32_at(buf, false) & 0xffffff00u) == BLKTRACE_MAGIC ||
			    (u32_at(buf, true) & 0xffffff00u) == BLKTRACE_MAGIC);
}

static int bad_record(const struct reader *r, const char *why, unsigned long long v)
{
	return err_set(r->err, EINVAL, "read_iolog=%s: byte %zu: %s%llx", r->name,
		       r->at, why, v);
}

static int read_record(struct reader *r, const unsigned char *buf, size_t len,
		       struct record *t)
{
	const unsigned char *p = buf + r->at;
	uint16_t pdu;

	if (len - r->at < REC_BYTES)
		return err_set(r->err, EINVAL, "read_iolog=%s: byte %zu: a blktrace "
			       "record cut short (%zu of its %d bytes)", r->name,
			       r->at, len - r->at, REC_BYTES);
	t->magic = u32_at(p + AT_MAGIC, r->swap);
	if ((t->magic & 0xffffff00u) != BLKTRACE_MAGIC)
		return bad_record(r, "not a blktrace record: magic 0x", t->magic);
	if ((t->magic & 0xffu) != BLKTRACE_VERSION)
		return bad_record(r, "blktrace records of version 7 are read, not 0x",
				  t->magic & 0xffu);
	t->time = u64_at(p + AT_TIME, r->swap);
	t->sector = u64_at(p + AT_SECTOR, r->swap);
	t->bytes = u32_at(p + AT_BYTES, r->swap);
	t->action = u32_at(p + AT_ACTION, r->swap);
	t->device = u32_at(p + AT_DEVICE, r->swap);
	memcpy(&pdu, p + AT_PDU_LEN, sizeof(pdu));
	t->pdu_len = r->swap ? __builtin_bswap16(pdu) : pdu;
	if (len - r->at - REC_BYTES < t->pdu_len)
		return err_set(r->err, EINVAL, "read_iolog=%s: byte %zu: the record's "
			       "%u bytes of data run past the end of the trace",
			       r->name, r->at, t->pdu_len);
	return 0;
}

/* The direction a depth is counted in (fio's t_get_ddir); -1: none. */
static int depth_ddir(uint32_t action)
{
	if (action & TC_READ)
		return DDIR_READ;
	if (action & TC_WRITE)
		return DDIR_WRITE;
	return (action & TC_DISCARD) ? DDIR_TRIM : -1;
}

/* fio's depth: queued less merged until a completion, at most. */
static void count_depth(struct reader *r, uint32_t action)
{
	int d = depth_ddir(action);

	if (d < 0 || (action & TC_NOTIFY))
		return;
	switch (action & 0xffffu) {
	case TA_QUEUE:
		r->this_depth[d]++;
		break;
	case TA_BACKMERGE:
	case TA_FRONTMERGE:
		r->this_depth[d]--;
		break;
	case TA_COMPLETE:
		if (r->this_depth[d] > r->depth[d])
			r->depth[d] = r->this_depth[d];
		r->this_depth[d] = 0;
		break;
	}
}

/* The block device of @dev here, as /sys/dev/block names it. */
static int device_path(const struct reader *r, uint32_t dev, char *path, size_t size)
{
	unsigned int maj = dev >> DEV_MINOR_BITS, min = dev & ((1u << DEV_MINOR_BITS) - 1);
	char uevent[64], line[256];
	int ret = -ENOENT;
	FILE *f;

	snprintf(uevent, sizeof(uevent), "/sys/dev/block/%u:%u/uevent", maj, min);
	f = fopen(uevent, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			ret = snprintf(path, size, "/dev/%s", line + 8) < (int)size ?
			      0 : -ENAMETOOLONG;
		}
	if (f)
		fclose(f);
	if (ret)
		return err_set(r->err, -ret, "read_iolog=%s: byte %zu: the trace's "
			       "device %u:%u is no block device here (replay_redirect= "
			       "names the one to replay it on)", r->name, r->at, maj, min);
	return 0;
}

static int add_file(struct reader *r, uint32_t dev, const char *path)
{
	struct replay_log *log = r->log;
	size_t cap = r->cap_files;
	char **files = grow_for_one(log->files, &r->cap_files, log->nr_files,
				    sizeof(*files), 4);
	uint32_t *devs = files ? grow_for_one(r->devs, &cap, log->nr_files,
					      sizeof(*devs), 4) : NULL;
	char *copy = devs ? strdup(path) : NULL;

	if (files)
		log->files = files;
	if (devs)
		r->devs = devs;
	if (!copy)
		return err_set(r->err, ENOMEM, "read_iolog=%s: out of memory", r->name);
	log->files[log->nr_files] = copy;
	r->devs[log->nr_files] = dev;
	return (int)log->nr_files++;
}

/* The file of @dev's I/O: the redirect, or the device here. */
static int dev_file(struct reader *r, uint32_t dev)
{
	char path[256];
	int ret;

	if (r->redirect)
		return r->log->nr_files ? 0 : add_file(r, dev, r->redirect);
	for (unsigned int i = 0; i < r->log->nr_files; i++)
		if (r->devs[i] == dev)
			return (int)i;
	ret = device_path(r, dev, path, sizeof(path));
	return ret ? ret : add_file(r, dev, path);
}

static int append(struct reader *r, const struct replay_entry *e)
{
	if (replay_log_append(r->log, &r->cap_entries, e))
		return err_set(r->err, ENOMEM, "read_iolog=%s: out of memory", r->name);
	return 0;
}

/* fio's delay_since_ttime, in the trace's nanoseconds. */
static uint64_t delay_ns(const struct reader *r, uint64_t t)
{
	if (!r->last_time || r->o->no_stall || t < r->last_time)
		return 0;
	return replay_scaled_gap(t - r->last_time, r->o->time_scale);
}

/* A read or write of the queue event @t; replay_skip and empty ones
 * are left out, as fio does. */
static int queue_io(struct reader *r, const struct record *t, struct replay_entry *e)
{
	struct replay_log *log = r->log;
	enum ddir d = (t->action & TC_WRITE) ? DDIR_WRITE : DDIR_READ;
	uint32_t bytes = t->bytes;

	if ((r->o->skip & (d == DDIR_WRITE ? REPLAY_SKIP_WRITE : REPLAY_SKIP_READ)) ||
	    !bytes)
		return 0;
	if (r->o->align) /* fio's t_bytes_align rounds the length up */
		bytes = (uint32_t)((bytes + r->o->align - 1) & ~(r->o->align - 1));
	e->kind = (enum replay_kind)d;
	e->offset = t->sector * 512 / (r->o->scale ? r->o->scale : 1);
	if (r->o->align)
		e->offset &= ~(r->o->align - 1);
	e->len = bytes;
	log->ios[d]++;
	log->bytes[d] += bytes;
	if (bytes > log->max_len[d])
		log->max_len[d] = bytes;
	if (e->offset + bytes > log->end)
		log->end = e->offset + bytes;
	return append(r, e);
}

/* fio's queue_trace: what a queue event becomes. */
static int queue_event(struct reader *r, const struct record *t)
{
	struct replay_entry e = { 0 };
	int file;

	if ((t->action & 0xffffu) != TA_QUEUE || (t->action & TC_NOTIFY))
		return 0;
	e.delay_us = delay_ns(r, t->time) / 1000;
	r->last_time = t->time;
	if (t->action & TC_DISCARD)
		return (r->o->skip & REPLAY_SKIP_TRIM) ? 0 :
		       err_set(r->err, ENOTSUP, "read_iolog=%s: byte %zu: a discard: "
			       "iodig replays no trims (replay_skip=trim leaves "
			       "them out)", r->name, r->at);
	if ((t->action & TC_FLUSH) && (r->o->skip & REPLAY_SKIP_SYNC))
		return 0;
	file = dev_file(r, t->device);
	if (file < 0)
		return file;
	e.file = (unsigned int)file;
	if (t->action & TC_FLUSH) {
		e.kind = REPLAY_SYNC;
		r->log->syncs++;
		return append(r, &e);
	}
	return queue_io(r, t, &e);
}

/* fio's depth for the job: the deepest direction, 1 to DEPTH_MAX. */
static unsigned int trace_depth(const struct reader *r)
{
	int max = 0;

	for (int d = 0; d < DDIR_COUNT; d++) {
		int v = r->depth[d] > DEPTH_MAX ? DEPTH_MAX : r->depth[d];

		if (!v && d < DDIR_TRIM && r->log->ios[d])
			v = 1;
		if (v > max)
			max = v;
	}
	return max ? (unsigned int)max : 1;
}

int replay_blktrace_parse(struct replay_log *log, const unsigned char *buf,
			  size_t len, const char *name,
			  const struct job_replay_opts *o, const char *redirect,
			  struct errbuf *err)
{
	struct reader r = { .log = log, .o = o, .redirect = redirect, .name = name,
			    .err = err };
	struct record t = { 0 };
	int ret = 0;

	memset(log, 0, sizeof(*log));
	if (!replay_is_blktrace(buf, len))
		return err_set(err, EINVAL, "read_iolog=%s: not a blktrace trace", name);
	r.swap = (u32_at(buf, false) & 0xffffff00u) != BLKTRACE_MAGIC;
	while (!ret && r.at < len) {
		ret = read_record(&r, buf, len, &t);
		if (ret)
			break;
		count_depth(&r, t.action);
		ret = queue_event(&r, &t);
		r.at += REC_BYTES + t.pdu_len;
	}
	if (!ret && !log->ios[DDIR_READ] && !log->ios[DDIR_WRITE])
		ret = err_set(err, EINVAL, "read_iolog=%s: the blktrace trace has no "
			      "queued read or write to replay%s", name,
			      o->skip ? " (after replay_skip)" : "");
	log->depth = trace_depth(&r);
	free(r.devs);
	if (ret)
		replay_log_free(log);
	return ret;
}
