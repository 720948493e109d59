// SPDX-License-Identifier: GPL-2.0
/*
 * fio's log files.  Line formats, as fio 3.33 writes them:
 *   lat/bw/iops:  "TIME, VALUE, DDIR, BS, PRIO" (log_offset: "..., BS, OFFSET, PRIO"),
 *                 with fio 3.37's log_window_value=both "TIME, MEAN, MAX, DDIR ..."
 *                 and fio 3.38's log_issue_time "..., PRIO, ISSUE_NS" (latency logs)
 *   clat_hist:    "TIME, DDIR, BS, BIN0, ..., BIN1855"
 * TIME in ms since the job started measuring (or since 1970 with
 * log_unix_epoch); latencies in ns, bandwidth in KiB/s.  Without
 * log_avg_msec every I/O gets a line (bw: that I/O's bytes over its
 * completion time); with it, each window gets one line per direction that
 * did I/O, with BS 0, and the latency logs a last line for the window the
 * job ended in.  The bw and iops logs' windows are the report's samples'
 * (bwavgtime, iopsavgtime: job/stat_opts.c resolves them as fio does).
 * PRIO is fio's high-priority flag (1: the I/O's priority is of the
 * realtime class), or with log_prio the I/O priority as 0xCPPP: its own
 * (cmdprio) or the workers' (prio, prioclass).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/clock.h"
#include "workload/iolog_writer.h"
#include "workload/log_sample.h"
#include "workload/prio_stats.h"

static const char *const file_suffix[IOLOG_FILES] = {
	"slat", "clat", "lat", "bw", "iops", "clat_hist",
};

static enum job_log_kind kind_of(enum iolog_file f)
{
	return f <= IOLOG_LAT ? JOB_LOG_LAT : f == IOLOG_BW ? JOB_LOG_BW :
	       f == IOLOG_IOPS ? JOB_LOG_IOPS : JOB_LOG_HIST;
}

static void file_name(const struct iolog_writer *lw, enum iolog_file f, char *buf,
		      size_t len)
{
	const struct job_log_opts *o = &lw->job->logs;
	const char *prefix = o->prefix[kind_of(f)];
	const char *fz = o->store_compressed ? ".fz" : "";

	if (!prefix[0])
		prefix = lw->job->name;
	if (o->per_job)
		snprintf(buf, len, "%s_%s.%u.log%s", prefix, file_suffix[f], lw->number, fz);
	else
		snprintf(buf, len, "%s_%s.log%s", prefix, file_suffix[f], fz);
}

int iolog_open(struct iolog_writer *lw, const struct job *job, unsigned int number,
	       struct errbuf *err)
{
	const struct job_log_opts *o = &job->logs;

	memset(lw, 0, sizeof(*lw));
	lw->job = job;
	lw->number = number;
	/* the workers' own priority, as each sets it */
	lw->ioprio = job_ioprio(job);
	lw->compressed = o->compress || o->store_compressed;
	for (unsigned int f = 0; f < IOLOG_FILES; f++) {
		if (!o->on[kind_of(f)])
			continue;
		lw->on[f] = lw->active = true;
		if (lw->compressed) {
			/* log_store_compressed alone: one chunk, compressed at the end */
			zchunks_init(&lw->z[f], o->compress ? o->compress : SIZE_MAX);
			continue;
		}
		lw->mem[f] = open_memstream(&lw->buf[f], &lw->len[f]);
		if (!lw->mem[f])
			goto nomem;
	}
	for (unsigned int d = 0; o->on[JOB_LOG_HIST] && d < DDIR_COUNT; d++) {
		lw->hist[d] = calloc(1, sizeof(*lw->hist[d]));
		if (!lw->hist[d])
			goto nomem;
	}
	return 0;
nomem:
	iolog_free(lw);
	return err_set(err, ENOMEM, "out of memory for the log files of job '%s'",
		       job->name);
}

void iolog_start(struct iolog_writer *lw, uint64_t start_ns)
{
	struct timespec ts;
	uint64_t mono, epoch_ns;

	lw->start_ns = start_ns;
	/* fio: either option counts from the epoch of the clock the job
	 * names, CLOCK_REALTIME (0, 1970) by default.  That clock is read
	 * beside the monotonic one and taken back to @start_ns, so that time
	 * the caller spent since (or was preempted for) does not shift the
	 * log's times */
	if (!lw->job || !(lw->job->logs.unix_epoch || lw->job->logs.alternate_epoch))
		return;
	mono = now_ns();
	if (clock_gettime((clockid_t)lw->job->logs.epoch_clock, &ts))
		return;
	epoch_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (mono > start_ns)
		epoch_ns -= mono - start_ns < epoch_ns ? mono - start_ns : epoch_ns;
	lw->epoch_ms = epoch_ns / 1000000;
}

static uint64_t elapsed_ms(const struct iolog_writer *lw, uint64_t now_ns)
{
	return now_ns > lw->start_ns ? (now_ns - lw->start_ns) / 1000000 : 0;
}

/* Keeps the first error of keeping a line, for iolog_finish. */
static void keep_err(struct iolog_writer *lw, int ret)
{
	if (ret && !lw->err)
		lw->err = ret;
}

/* A line of @f at @ms with @value, the rest of its fields in @l. */
static void put_line(struct iolog_writer *lw, enum iolog_file f, uint64_t ms,
		     uint64_t value, const struct log_line *l)
{
	const struct log_columns c = log_columns_of(&lw->job->logs, f <= IOLOG_LAT);
	struct log_line line = *l;
	unsigned char rec[LOG_SAMPLE_MAX];

	if (!lw->on[f])
		return;
	line.ms = ms + lw->epoch_ms;
	line.value = value;
	if (!line.ioprio)
		line.ioprio = (uint16_t)lw->ioprio;
	if (!lw->compressed) {
		log_line_print(lw->mem[f], &c, &line);
		return;
	}
	log_sample_pack(&c, &line, rec);
	keep_err(lw, zchunks_add(&lw->z[f], rec, log_sample_size(&c)));
}

static uint64_t bins_sum(const uint64_t *bins, unsigned int from, unsigned int n)
{
	uint64_t sum = 0;

	for (unsigned int i = from; i < from + n; i++)
		sum += bins[i];
	return sum;
}

/* write_hist_log: a line per direction every log_hist_msec, the bins
 * filled since that direction's last line (fio's diff of its copies). */
static void hist_sample(struct iolog_writer *lw, uint64_t ms, enum ddir d,
			uint64_t bs, uint64_t clat_ns)
{
	uint64_t window = lw->job->logs.hist_msec, spent, bins[FIO_PLAT_NR];
	const unsigned int stride = 1u << lw->job->logs.hist_coarseness;
	FILE *f = lw->mem[IOLOG_HIST];
	char *line = NULL;
	size_t len = 0;

	hist_add(lw->hist[d], clat_ns);
	spent = ms - lw->hist_last_ms[d];
	if (spent < window)
		return;
	hist_fio_bins(lw->hist[d], bins);
	/* compressed: the line's text is the chunks' record */
	if (lw->compressed && !(f = open_memstream(&line, &len))) {
		keep_err(lw, -ENOMEM);
		return;
	}
	fprintf(f, "%llu, %u, %llu", (unsigned long long)(ms + lw->epoch_ms),
		(unsigned int)d, (unsigned long long)bs);
	/* log_hist_coarseness: fio's sums of @stride bins, the last sum
	 * the last @stride bins (they overlap the one before when @stride
	 * does not divide fio's 1856) */
	for (unsigned int i = 0; i + stride < FIO_PLAT_NR; i += stride)
		fprintf(f, ", %llu", (unsigned long long)bins_sum(bins, i, stride));
	fprintf(f, ", %llu", (unsigned long long)bins_sum(bins, FIO_PLAT_NR - stride, stride));
	fputc('\n', f);
	if (lw->compressed) {
		keep_err(lw, fclose(f) ? -ENOMEM : zchunks_add(&lw->z[IOLOG_HIST], line, len));
		free(line);
	}
	memset(lw->hist[d], 0, sizeof(*lw->hist[d]));
	/* fio keeps the cadence: the drift past the window counts */
	lw->hist_last_ms[d] = ms - (spent - window);
}

static void avg_add(struct iolog_avg *a, uint64_t v)
{
	a->sum += v;
	a->n++;
	if (v > a->max)
		a->max = v;
}

void iolog_io(struct iolog_writer *lw, const struct worker_stats *s, uint64_t now_ns,
	      const struct io_unit *u, uint64_t slat_ns, uint64_t clat_ns,
	      uint64_t lat_ns, bool has_slat)
{
	const bool avg = lw->job && lw->job->logs.avg_msec;
	const bool timed[3] = { has_slat && !s->no_slat, !s->no_clat, !s->no_lat };
	const uint64_t val[3] = { slat_ns, clat_ns, lat_ns };
	struct log_line l = { .d = u->ddir, .bs = u->len, .offset = u->offset,
			      .ioprio = u->ioprio };
	uint64_t ms;

	if (!lw->active || (unsigned int)u->ddir >= DDIR_COUNT)
		return;
	ms = elapsed_ms(lw, now_ns);
	for (unsigned int k = 0; k < 3; k++) {
		if (!timed[k])
			continue;
		/* fio stamps the issue time on slat and clat lines, not lat's */
		l.issue_ns = k == 2 || u->issue_ns < lw->start_ns ? 0 :
			     u->issue_ns - lw->start_ns;
		if (avg)
			avg_add(&lw->avg[k][u->ddir], val[k]);
		else
			put_line(lw, IOLOG_SLAT + k, ms, val[k], &l);
	}
	l.issue_ns = 0;
	if (!s->no_bw && lw->job->stat.bw_per_io) {
		uint64_t us = clat_ns / 1000 ? clat_ns / 1000 : 1;

		put_line(lw, IOLOG_BW, ms, u->len * 1000ull / us, &l);
	}
	if (!s->no_bw && lw->job->stat.iops_per_io)
		put_line(lw, IOLOG_IOPS, ms, 1, &l);
	lw->win_bytes[u->ddir] += u->len;
	lw->win_ios[u->ddir]++;
	/* fio creates the histogram log but fills it only every log_hist_msec */
	if (lw->on[IOLOG_HIST] && lw->job->logs.hist_msec && !s->no_clat)
		hist_sample(lw, ms, u->ddir, u->len, clat_ns);
}

void iolog_unsample(struct iolog_writer *lw, enum ddir d, uint32_t len)
{
	if (!lw->active || (unsigned int)d >= DDIR_COUNT || !lw->win_ios[d])
		return;
	lw->win_ios[d]--;
	lw->win_bytes[d] -= len < lw->win_bytes[d] ? len : lw->win_bytes[d];
}

/* The latency logs' lines of the window that ends at @ms. */
static void flush_lat_window(struct iolog_writer *lw, uint64_t ms)
{
	for (unsigned int k = 0; k < 3; k++) {
		for (unsigned int d = 0; d < DDIR_COUNT; d++) {
			struct iolog_avg *a = &lw->avg[k][d];

			struct log_line l = { .d = d, .max = a->max };
			bool max = lw->job->logs.window_value == LOG_WINDOW_MAX;

			if (!a->n)
				continue;
			put_line(lw, IOLOG_SLAT + k, ms, max ? a->max : a->sum / a->n, &l);
			memset(a, 0, sizeof(*a));
		}
	}
}

/* The bw (@f IOLOG_BW, @count the bytes) or iops log's window that
 * began at *@start_ms: once @window ms have passed, a line per direction
 * that moved bytes (did I/O) in it, the rate over the time that passed.
 * One rate per window: its mean is its maximum. */
static void rate_window(struct iolog_writer *lw, enum iolog_file f, uint64_t ms,
			uint64_t window, uint64_t *start_ms, uint64_t count[DDIR_COUNT])
{
	uint64_t spent = ms - *start_ms;

	if (spent < window || spent == 0)
		return;
	for (unsigned int d = 0; d < DDIR_COUNT; d++) {
		uint64_t rate = count[d] * 1000 / spent / (f == IOLOG_BW ? 1024 : 1);

		if (!count[d])
			continue;
		put_line(lw, f, ms, rate, &(struct log_line){ .d = d, .max = rate });
		count[d] = 0;
	}
	*start_ms = ms;
}

void iolog_tick(struct iolog_writer *lw, uint64_t now_ns)
{
	const struct job_stat_opts *st;
	uint64_t ms, window;

	if (!lw->active)
		return;
	st = &lw->job->stat;
	window = lw->job->logs.avg_msec;
	ms = elapsed_ms(lw, now_ns);
	if (window && ms - lw->lat_win_ms >= window) {
		flush_lat_window(lw, ms);
		lw->lat_win_ms = ms;
	}
	if (!st->bw_per_io)
		rate_window(lw, IOLOG_BW, ms, st->bw_avg_msec, &lw->bw_win_ms, lw->win_bytes);
	if (!st->iops_per_io)
		rate_window(lw, IOLOG_IOPS, ms, st->iops_avg_msec, &lw->iops_win_ms, lw->win_ios);
}

/* Where a log file's bytes go: the unnamed file that becomes @path, or
 * with per_job_logs=0 @path itself, which the clones share and fio
 * appends to, under a lock. */
struct log_dest {
	struct atomic_file af;
	int fd;
	bool append;
};

static int dest_open(struct log_dest *d, const char *path, bool append)
{
	int ret;

	d->append = append;
	if (!append) {
		ret = atomic_file_open(&d->af, path);
		d->fd = ret ? -1 : d->af.fd;
		return ret;
	}
	d->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (d->fd < 0)
		return -errno;
	if (!flock(d->fd, LOCK_EX))
		return 0;
	ret = -errno;
	close(d->fd);
	d->fd = -1;
	return ret;
}

/* Ends the file: named when @ret is 0, else (but for an append) gone. */
static int dest_close(struct log_dest *d, int ret)
{
	if (d->fd < 0)
		return ret;
	if (d->append) {
		close(d->fd);
		return ret;
	}
	if (ret) {
		atomic_file_abort(&d->af);
		return ret;
	}
	return atomic_file_commit(&d->af, false);
}

struct text_sink {
	struct iolog_writer *lw;
	enum iolog_file f;
	int fd;
};

/* One inflated chunk of log @f as its text lines. */
static int write_chunk_text(const void *buf, size_t len, void *arg)
{
	const struct text_sink *t = arg;
	const struct log_columns c = log_columns_of(&t->lw->job->logs, t->f <= IOLOG_LAT);
	const size_t size = log_sample_size(&c);
	struct log_line l;
	char *text = NULL;
	size_t text_len = 0;
	FILE *out;
	int ret;

	/* the histogram log's records are its lines */
	if (t->f == IOLOG_HIST)
		return fd_write_all(t->fd, buf, len);
	out = open_memstream(&text, &text_len);
	if (!out)
		return -ENOMEM;
	for (size_t at = 0; at + size <= len; at += size) {
		log_sample_unpack(&c, (const unsigned char *)buf + at, &l);
		log_line_print(out, &c, &l);
	}
	ret = fclose(out) ? -ENOMEM : fd_write_all(t->fd, text, text_len);
	free(text);
	return ret;
}

/* Log @f's file from its chunks: the chunks themselves
 * (log_store_compressed, fio's .fz), or the text they hold. */
static int write_compressed(struct iolog_writer *lw, enum iolog_file f,
			    const struct log_dest *d)
{
	struct text_sink t = { .lw = lw, .f = f, .fd = d->fd };
	int ret = lw->err ? lw->err : zchunks_flush(&lw->z[f]);

	if (ret)
		return ret;
	if (lw->job->logs.store_compressed)
		return fd_write_all(d->fd, lw->z[f].z, lw->z[f].z_len);
	return zchunks_inflate(&lw->z[f], write_chunk_text, &t);
}

static int write_text(struct iolog_writer *lw, enum iolog_file f,
		      const struct log_dest *d)
{
	int ret = fclose(lw->mem[f]) ? -ENOMEM : 0;

	lw->mem[f] = NULL;
	return ret ? ret : fd_write_all(d->fd, lw->buf[f], lw->len[f]);
}

/* fio 3.33 writes a log it cannot create nowhere ("fopen log: ...") and
 * the job goes on: counted for the report's note. */
static void log_unwritten(struct worker_stats *s, const char *path, int ret)
{
	if (!s->logs_unwritten++) {
		s->log_error = ret;
		snprintf(s->log_unwritten, sizeof(s->log_unwritten), "%s",
			 path);
	}
}

int iolog_finish(struct iolog_writer *lw, struct worker_stats *s,
		 uint64_t now_ns, struct errbuf *err)
{
	char path[PATH_MAX];
	int ret = 0;

	if (!lw->active)
		return 0;
	if (lw->job->logs.avg_msec)
		flush_lat_window(lw, elapsed_ms(lw, now_ns));
	for (unsigned int f = 0; f < IOLOG_FILES && !ret; f++) {
		struct log_dest d;

		if (!lw->on[f])
			continue;
		file_name(lw, f, path, sizeof(path));
		ret = dest_open(&d, path, !lw->job->logs.per_job);
		if (ret) {
			log_unwritten(s, path, ret);
			ret = 0;
			continue;
		}
		ret = dest_close(&d, lw->compressed ? write_compressed(lw, f, &d)
						    : write_text(lw, f, &d));
		if (ret)
			err_set(err, -ret, "cannot write the log file %s of job '%s': %s",
				path, lw->job->name, strerror(-ret));
	}
	iolog_free(lw);
	return ret;
}

void iolog_free(struct iolog_writer *lw)
{
	for (unsigned int f = 0; f < IOLOG_FILES; f++) {
		if (lw->mem[f])
			fclose(lw->mem[f]);
		lw->mem[f] = NULL;
		free(lw->buf[f]);
		lw->buf[f] = NULL;
		zchunks_free(&lw->z[f]);
		lw->on[f] = false;
	}
	for (unsigned int d = 0; d < DDIR_COUNT; d++) {
		free(lw->hist[d]);
		lw->hist[d] = NULL;
	}
	lw->active = false;
}
