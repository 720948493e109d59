// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring_cmd: NVMe read and write commands sent through io_uring
 * (IORING_OP_URING_CMD with a struct nvme_uring_cmd in a 128-byte SQE,
 * 32-byte CQEs) to an NVMe generic character device, /dev/ngXnY.  The
 * commands skip the filesystem and the block layer's bio path, though not
 * blk-mq: their requests still pass the block tracepoints.  Trims are
 * Dataset Management commands (deallocate) of up to num_range ranges
 * each, as fio's FIO_MULTI_RANGE_TRIM.  The ring is engines/uring_ring.c,
 * shared with the io_uring engine.  fio 3.33 takes io_uring's cmdprio*
 * options here too, but the kernel fails a URING_CMD SQE that carries an
 * ioprio (io_init_req: EINVAL for an opcode without ioprio support), so
 * iodig refuses the ones that would give a command a priority.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "base/rng.h"
#include "workload/engines/cmdprio.h"
#include "workload/engines/nvme_dev.h"
#include "workload/engines/shared.h"
#include "workload/engines/uring_ring.h"
#include "workload/worker.h"

/* Reclaim unit handles fdp=1 may use (fdp_pli indexes them). */
#define UCMD_PLI_MAX 16u

/* NVM command set opcodes a write unit may carry (write_mode). */
enum {
	NVME_OP_WRITE = 0x01,
	NVME_OP_READ = 0x02,
	NVME_OP_WRITE_UNCOR = 0x04,
	NVME_OP_WRITE_ZEROES = 0x08,
	NVME_OP_VERIFY = 0x0c,
};
#define NVME_CDW12_FUA (1u << 30)
#define NVME_CDW12_DTYPE_FDP (2u << 20)

enum ucmd_type { UCMD_NVME = 1, UCMD_BSG };
enum ucmd_wmode {
	WMODE_WRITE = NVME_OP_WRITE,
	WMODE_UNCOR = NVME_OP_WRITE_UNCOR,
	WMODE_ZEROES = NVME_OP_WRITE_ZEROES,
	WMODE_VERIFY = NVME_OP_VERIFY,
	WMODE_ZONE_APPEND = 0x7d,
};

#define WMODE_MAX 5u

/* The engine's job options, in job->engine_opts. */
struct ucmd_opts {
	struct uring_ring_opts ring;
	bool readfua;
	bool writefua;
	bool pi_act;
	bool fdp;
	bool nowait;
	unsigned int uncached;
	unsigned int nonvectored;
	unsigned int force_async;
	unsigned int cmd_type;
	/* write_mode: each write unit's command, by percentage; none: write */
	struct ucmd_wshare {
		unsigned char op, perc;
	} wmodes[WMODE_MAX];
	unsigned int nr_wmodes;
	unsigned int md_per_io_size;
	unsigned int apptag;
	unsigned int apptag_mask;
	unsigned int num_range;
	char pi_chk[32];
	char fdp_pli[96];
	struct cmdprio_opts cmdprio;
};
ENGINE_OPTS_FIT(struct ucmd_opts);

#define CMDOPT(f) OPT_FIELD(struct ucmd_opts, f)

/* fio's pi_chk: a comma-separated subset of GUARD, REFTAG and APPTAG. */
static int set_pi_chk(void *base, const struct opt_desc *o, const char *value,
		      const char *where, struct errbuf *err)
{
	char copy[sizeof(((struct ucmd_opts *)0)->pi_chk)], *tok, *save;

	if (!value || strlen(value) >= sizeof(copy))
		return err_set(err, EINVAL, "%s: pi_chk: expected GUARD, REFTAG and/or APPTAG, comma-separated", where);
	strcpy(copy, value);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, "GUARD") && strcmp(tok, "REFTAG") && strcmp(tok, "APPTAG"))
			return err_set(err, EINVAL, "%s: pi_chk: '%s' is not GUARD, REFTAG or APPTAG", where, tok);
	return opt_set_typed(base, o, value, where, err);
}

/* fdp_pli: indexes (N) and ranges (N-M) of reclaim unit handles. */
static int parse_pli(const char *s, unsigned int *idx, unsigned int max)
{
	unsigned int n = 0, a, b;
	int used;

	while (*s) {
		if (sscanf(s, "%u%n", &a, &used) != 1)
			return -EINVAL;
		s += used;
		b = a;
		if (*s == '-') {
			if (sscanf(s + 1, "%u%n", &b, &used) != 1 || b < a)
				return -EINVAL;
			s += used + 1;
		}
		for (unsigned int i = a; i <= b; i++) {
			if (n == max)
				return -E2BIG;
			idx[n++] = i;
		}
		if (*s == ',')
			s++;
		else if (*s)
			return -EINVAL;
	}
	return (int)n;
}

static int set_fdp_pli(void *base, const struct opt_desc *o, const char *value,
		       const char *where, struct errbuf *err)
{
	unsigned int idx[UCMD_PLI_MAX];
	int n = value ? parse_pli(value, idx, UCMD_PLI_MAX) : -EINVAL;

	if (n == -E2BIG)
		return err_set(err, E2BIG, "%s: %s: iodig takes at most %u placement handles", where, o->name, UCMD_PLI_MAX);
	if (n <= 0)
		return err_set(err, EINVAL, "%s: %s: expected indexes of reclaim unit handles, e.g. 0,1,2 or 0-3", where, o->name);
	return opt_set_typed(base, o, value, where, err);
}

OPT_VALUES(write_mode_values,
	OPT_VAL("write", WMODE_WRITE),
	OPT_VAL("uncor", WMODE_UNCOR),
	OPT_VAL("zeroes", WMODE_ZEROES),
	OPT_VAL("verify", WMODE_VERIFY),
	OPT_VAL("zone_append", WMODE_ZONE_APPEND));

static int wmode_of(const char *name)
{
	for (const struct opt_value *v = write_mode_values; v->name; v++)
		if (!strcmp(v->name, name))
			return v->value;
	return -1;
}

/* write_mode=MODE, or MODE/PERC:MODE/PERC... whose shares make 100. */
static int set_write_mode(void *base, const struct opt_desc *o,
			  const char *value, const char *where,
			  struct errbuf *err)
{
	struct ucmd_opts *u = base;
	struct ucmd_opts parsed = { .nr_wmodes = 0 };
	char copy[128], *tok, *save, *slash;
	unsigned int total = 0, perc;
	int op;

	(void)o;
	if (!value || strlen(value) >= sizeof(copy))
		return err_set(err, EINVAL, "%s: write_mode: expected write, uncor, zeroes, verify or zone_append, or MODE/PERCENT:... totalling 100", where);
	strcpy(copy, value);
	for (tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		slash = strchr(tok, '/');
		if (slash)
			*slash = '\0';
		op = wmode_of(tok);
		perc = 100;
		if (op < 0 || (slash && (sscanf(slash + 1, "%u", &perc) != 1 || perc > 100)) ||
		    parsed.nr_wmodes == WMODE_MAX)
			return err_set(err, EINVAL, "%s: write_mode: '%s' is not MODE or MODE/PERCENT with MODE one of write, uncor, zeroes, verify, zone_append", where, tok);
		parsed.wmodes[parsed.nr_wmodes++] = (struct ucmd_wshare){ (unsigned char)op, (unsigned char)perc };
		total += perc;
	}
	if (total != 100)
		return err_set(err, EINVAL, "%s: write_mode=%s: the percentages make %u, not 100", where, value, total);
	memcpy(u->wmodes, parsed.wmodes, sizeof(u->wmodes));
	u->nr_wmodes = parsed.nr_wmodes;
	return 0;
}

/* Whether any write unit would carry @op. */
static bool ucmd_has_wmode(const struct ucmd_opts *o, unsigned int op)
{
	for (unsigned int i = 0; i < o->nr_wmodes; i++)
		if (o->wmodes[i].op == op && o->wmodes[i].perc)
			return true;
	return false;
}

OPT_VALUES(cmd_type_values,
	OPT_VAL("nvme", UCMD_NVME),
	{ "bsg", UCMD_BSG, "SCSI commands to /dev/bsg devices through io_uring came after fio 3.33 (and Linux 6.18); iodig sends them with ioengine=sg" });

/* fio's [io_uring_cmd] options. */
static const struct opt_desc ucmd_options[] = {
	ENUM_OPT("cmd_type", CMDOPT(cmd_type), cmd_type_values, "nvme",
		 "Passthrough command set: nvme"),
	URING_RING_OPTIONS(struct ucmd_opts,
			   "Polled completions (IORING_SETUP_IOPOLL); needs NVMe poll queues"),
	UINT_OPT("nonvectored", CMDOPT(nonvectored), "1", 0, 1,
		 "1: NVME_URING_CMD_IO with the buffer, 0: NVME_URING_CMD_IO_VEC with an iovec"),
	UINT_OPT("force_async", CMDOPT(force_async), NULL, 0, 1u << 30,
		 "IOSQE_ASYNC on every Nth command"),
	BOOL_OPT("nowait", CMDOPT(nowait), NULL,
		 "Shared with io_uring in fio 3.33; no command can carry it: only 0"),
	UINT_OPT("uncached", CMDOPT(uncached), "0", 0, UINT_MAX,
		 "Shared with io_uring in fio 3.33; no command can carry it: only 0"),
	ENGINE_OPTS_FUA(struct ucmd_opts),
	{ .name = "write_mode", .type = OPT_CUSTOM, CMDOPT(nr_wmodes),
	  .set = set_write_mode, .def = "write", .hint = "MODE[/PERCENT][:MODE/PERCENT...]",
	  .help = "Command of write units: write, uncor (Write Uncorrectable), zeroes (Write Zeroes), verify (Verify)" },
	SIZE_OPT("md_per_io_size", CMDOPT(md_per_io_size), NULL,
		 "Metadata buffer per command, for namespaces with separate metadata"),
	BOOL_OPT("pi_act", CMDOPT(pi_act), "1",
		 "Protection information action bit, for namespaces formatted with PI",
		 .flags = OPT_BARE),
	STR_OPT("pi_chk", CMDOPT(pi_chk), "",
		"Protection information checks, for namespaces formatted with PI",
		.set = set_pi_chk, .flags = OPT_EMPTY_OK, .hint = "GUARD,REFTAG,APPTAG"),
	UINT_OPT("apptag", CMDOPT(apptag), "0x1234", 0, 0xffff,
		 "Application tag of protection information"),
	UINT_OPT("apptag_mask", CMDOPT(apptag_mask), "0xffff", 0, 0xffff,
		 "Mask of the application tag"),
	UINT_OPT("num_range", CMDOPT(num_range), "1", 1, TRIM_RANGES_MAX,
		 "Ranges per trim (one Dataset Management command)"),
	BOOL_OPT("fdp", CMDOPT(fdp), NULL,
		 "Flexible Data Placement: writes carry a placement handle",
		 .flags = OPT_BARE),
	STR_OPT("fdp_pli", CMDOPT(fdp_pli), NULL,
		"fdp=1: reclaim unit handles (indexes) writes go to, in turn",
		.alias = "plids", .set = set_fdp_pli, .hint = "N[-M][,...]"),
	CMDPRIO_OPTIONS(struct ucmd_opts, cmdprio),
	{ .name = NULL },
};

/* cmdprio_percentage or cmdprio_bssplit would put a priority on commands
 * the kernel then fails; cmdprio_class and cmdprio alone change nothing. */
static int ucmd_check_cmdprio(const struct cmdprio_opts *o, const char *where,
			      struct errbuf *err)
{
	const char *opt = o->bssplit[0] ? "cmdprio_bssplit" :
			  o->perc[DDIR_READ] || o->perc[DDIR_WRITE] ? "cmdprio_percentage" : NULL;

	if (!opt)
		return 0;
	return err_set(err, EOPNOTSUPP, "%s: %s with ioengine=io_uring_cmd: the kernel takes no I/O priority on a passthrough command (io_uring fails an IORING_OP_URING_CMD whose SQE carries an ioprio with EINVAL), though fio 3.33 accepts the option; for per-I/O priorities use ioengine=io_uring or libaio on the namespace's block device",
		       where, opt);
}

static int ucmd_check_job(const struct job *job, const char *where,
			  struct errbuf *err)
{
	const struct ucmd_opts *o = engine_opts_of(job);

	if (job->direct)
		return err_set(err, EINVAL, "%s: direct=1 with ioengine=io_uring_cmd: its commands never pass the page cache, and a character device cannot be opened with O_DIRECT; drop direct", where);
	/* fio 3.33 puts these RWF_* flags in the SQE's rw_flags, which for a
	 * command is uring_cmd_flags: the kernel fails every command whose
	 * flags it does not know (EINVAL from io_uring_cmd_prep). */
	if (o->nowait || o->uncached)
		return err_set(err, EINVAL, "%s: %s with ioengine=io_uring_cmd: fio 3.33 puts %s in the SQE's rw_flags, which for IORING_OP_URING_CMD are its uring_cmd_flags, and the kernel fails every such command (Invalid argument); drop it",
			       where, o->nowait ? "nowait=1" : "uncached",
			       o->nowait ? "RWF_NOWAIT (0x8)" : "RWF_UNCACHED (0x40)");
	if (o->ring.fixedbufs && !o->nonvectored)
		return err_set(err, EINVAL, "%s: fixedbufs=1 needs nonvectored=1: the kernel maps registered buffers only for NVME_URING_CMD_IO", where);
	if (rw_is_trimwrite(job->rw) && o->num_range > 1)
		return err_set(err, EINVAL, "%s: rw=%s cannot be used with multiple ranges (num_range=%u), as in fio",
			       where, rw_mode_name(job->rw), o->num_range);
	if (rw_has_trim(job->rw) && job->zonemode == ZONEMODE_ZBD)
		return err_set(err, ENOTSUP, "%s: rw=%s with zonemode=zbd: fio's trims reset zones there; iodig does not reset zones with io_uring_cmd",
			       where, rw_mode_name(job->rw));
	if ((uint64_t)o->num_range * job->bs_max[DDIR_TRIM] > UINT32_MAX)
		return err_set(err, EINVAL, "%s: num_range=%u ranges of up to %u bytes: iodig counts a trim's bytes in 32 bits (at most 4 GiB per command)",
			       where, o->num_range, job->bs_max[DDIR_TRIM]);
	if (ucmd_has_wmode(o, WMODE_ZONE_APPEND) && job->zonemode != ZONEMODE_ZBD)
		return err_set(err, EINVAL, "%s: write_mode=zone_append needs zonemode=zbd", where);
	if ((ucmd_has_wmode(o, WMODE_UNCOR) || ucmd_has_wmode(o, WMODE_ZEROES) ||
	     ucmd_has_wmode(o, WMODE_VERIFY)) && job->verify != VERIFY_NONE)
		return err_set(err, EINVAL, "%s: verify with write_mode other than write: those commands carry no data to read back", where);
	return ucmd_check_cmdprio(&o->cmdprio, where, err);
}

struct ucmd_data {
	struct uring_data ring;       /* first: uring_ring.c's part */
	uint32_t nsid;
	unsigned int lba_shift;
	uint32_t cdw12[DDIR_COUNT];   /* FUA and FDP bits */
	struct rng wmode_rng;         /* picks write_mode's command */
	bool vectored;
	unsigned int force_async, prepped;
	uint16_t pids[UCMD_PLI_MAX];  /* fdp=1: placement ids, in turn */
	unsigned int nr_pids, next_pid;
	struct iovec *iov;            /* one per unit (vectored) */
	struct ucmd_dsm {             /* one per unit: a trim's ranges */
		struct nvme_dsm_range r[TRIM_RANGES_MAX];
	} *dsm;
};

/* A passthrough CQE: 0 is success, > 0 the NVMe status of a failed
 * command, < 0 -errno. */
static int64_t ucmd_result(struct worker *w, const struct io_unit *u,
			   const struct io_uring_cqe *cqe)
{
	(void)w;
	if (cqe->res > 0)
		return -EIO;
	return cqe->res ? cqe->res : (int64_t)u->len;
}

/* What iodig does not do with this namespace and these options, said
 * before the first command. */
static int ucmd_check_ns(struct worker *w, const struct nvme_ns_info *ns,
			 struct errbuf *err)
{
	const struct ucmd_opts *o = engine_opts_of(w->job);
	const struct job *job = w->job;
	unsigned int lba = 1u << ns->lba_shift;

	if (ns->ms)
		return err_set(err, EOPNOTSUPP, "io_uring_cmd on %s: namespace %u is formatted with %u bytes of %s metadata per block%s: iodig does not fill or check metadata and protection information; use a format without metadata",
			       w->path, ns->nsid, ns->ms, ns->ext_lba ? "inline" : "separate",
			       ns->pi_type ? " and protection information" : "");
	for (int dd = 0; dd < DDIR_COUNT; dd++) {
		uint32_t bs[3] = { job->bs[dd], job->bs_min[dd], job->bs_max[dd] };

		for (unsigned int i = 0; i < 3; i++)
			if (bs[i] % lba)
				return err_set(err, EINVAL, "io_uring_cmd on %s: block size %u is not a multiple of the namespace's %u-byte blocks",
					       w->path, bs[i], lba);
		for (unsigned int i = 0; i < job->bssplit[dd].nr; i++)
			if (job->bssplit[dd].e[i].bs % lba)
				return err_set(err, EINVAL, "io_uring_cmd on %s: bssplit size %u is not a multiple of the namespace's %u-byte blocks",
					       w->path, job->bssplit[dd].e[i].bs, lba);
	}
	if (w->region_start % lba)
		return err_set(err, EINVAL, "io_uring_cmd on %s: offset %llu is not a multiple of the namespace's %u-byte blocks",
			       w->path, (unsigned long long)w->region_start, lba);
	if (o->fdp && !ns->fdp)
		return err_set(err, EOPNOTSUPP, "io_uring_cmd on %s: fdp=1: the controller does not support Flexible Data Placement (Identify Controller CTRATT bit 19)",
			       w->path);
	for (unsigned int i = 0; i < o->nr_wmodes; i++) {
		unsigned int op = o->wmodes[i].op;
		unsigned int bit = op == WMODE_UNCOR ? NVME_ONCS_WRITE_UNCOR :
				   op == WMODE_ZEROES ? NVME_ONCS_WRITE_ZEROES :
				   op == WMODE_VERIFY ? NVME_ONCS_VERIFY : 0;

		if (bit && !(ns->oncs & bit))
			return err_set(err, EOPNOTSUPP, "io_uring_cmd on %s: write_mode=%s: the controller does not support that command (Identify Controller ONCS 0x%x)",
				       w->path, op == WMODE_UNCOR ? "uncor" : op == WMODE_ZEROES ? "zeroes" : "verify",
				       (unsigned int)ns->oncs);
	}
	if (rw_has_trim(job->rw) && !(ns->oncs & NVME_ONCS_DSM))
		return err_set(err, EOPNOTSUPP, "io_uring_cmd on %s: rw=%s: the controller does not support Dataset Management, which trims send (Identify Controller ONCS 0x%x)",
			       w->path, rw_mode_name(job->rw), (unsigned int)ns->oncs);
	if (ucmd_has_wmode(o, WMODE_ZONE_APPEND))
		return err_set(err, EOPNOTSUPP, "io_uring_cmd on %s: write_mode=zone_append: iodig does not issue NVMe Zone Append commands yet (zonemode=zbd moves plain writes to the write pointers)", w->path);
	return 0;
}

/* fdp=1: the placement ids fdp_pli picks (all handles without it). */
static int ucmd_fdp_setup(struct worker *w, struct ucmd_data *d,
			  struct errbuf *err)
{
	const struct ucmd_opts *o = engine_opts_of(w->job);
	uint16_t pids[UCMD_PLI_MAX];
	unsigned int idx[UCMD_PLI_MAX];
	int n, k;

	n = nvme_fdp_placement_ids(w->fd, d->nsid, pids, UCMD_PLI_MAX, err);
	if (n < 0)
		return n;
	if (!n)
		return err_set(err, ENODEV, "io_uring_cmd on %s: fdp=1: the namespace has no reclaim unit handles", w->path);
	k = o->fdp_pli[0] ? parse_pli(o->fdp_pli, idx, UCMD_PLI_MAX) : n;
	for (int i = 0; i < k; i++) {
		unsigned int j = o->fdp_pli[0] ? idx[i] : (unsigned int)i;

		if (j >= (unsigned int)n)
			return err_set(err, EINVAL, "io_uring_cmd on %s: fdp_pli=%s: index %u, but the namespace has %d reclaim unit handles",
				       w->path, o->fdp_pli, j, n);
		d->pids[i] = pids[j];
	}
	d->nr_pids = (unsigned int)k;
	d->cdw12[DDIR_WRITE] |= NVME_CDW12_DTYPE_FDP;
	return 0;
}

static int ucmd_init(struct worker *w, struct errbuf *err)
{
	const struct ucmd_opts *o = engine_opts_of(w->job);
	struct uring_ring_cfg cfg = {
		.opts = &o->ring, .result = ucmd_result,
	};
	struct io_uring_params p = { .flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32 };
	struct nvme_ns_info ns;
	struct ucmd_data *d;
	int ret;

	ret = nvme_ns_identify(w->fd, w->path, &ns, err);
	if (!ret)
		ret = ucmd_check_ns(w, &ns, err);
	if (ret)
		return ret;
	ret = uring_ring_open(w, &p, &cfg, err);
	if (ret)
		return ret;
	d = w->engine_data;
	d->nsid = ns.nsid;
	d->lba_shift = ns.lba_shift;
	rng_seed(&d->wmode_rng, w->thread_number);
	d->vectored = !o->nonvectored;
	d->force_async = o->force_async;
	d->cdw12[DDIR_READ] = o->readfua ? NVME_CDW12_FUA : 0;
	d->cdw12[DDIR_WRITE] = o->writefua ? NVME_CDW12_FUA : 0;
	if (o->fdp) {
		ret = ucmd_fdp_setup(w, d, err);
		if (ret)
			uring_cleanup(w);
	}
	return ret;
}

/* The command of a write unit: write_mode's shares, drawn in turn. */
static uint8_t ucmd_write_op(const struct ucmd_opts *o, struct ucmd_data *d)
{
	unsigned int r, sum = 0;

	if (o->nr_wmodes <= 1)
		return o->nr_wmodes ? o->wmodes[0].op : NVME_OP_WRITE;
	r = (unsigned int)rng_below(&d->wmode_rng, 100);
	for (unsigned int i = 0; i < o->nr_wmodes; i++) {
		sum += o->wmodes[i].perc;
		if (r < sum)
			return o->wmodes[i].op;
	}
	return NVME_OP_WRITE;
}

/* A trim: Dataset Management, deallocating the unit's @ranges ranges,
 * whose list ucmd_queue wrote to the unit's place in d->dsm (fio's
 * fio_nvme_uring_cmd_trim_prep). */
static void ucmd_fill_trim(const struct ucmd_data *d, const struct io_unit *u,
			   int ranges, struct nvme_uring_cmd *cmd)
{
	cmd->opcode = NVME_OP_DSM;
	cmd->nsid = d->nsid;
	cmd->cdw10 = (uint32_t)ranges - 1;
	cmd->cdw11 = NVME_DSM_ATTR_DEALLOCATE;
	cmd->addr = (uint64_t)(uintptr_t)d->dsm[u->index].r;
	cmd->data_len = (uint32_t)ranges * sizeof(struct nvme_dsm_range);
}

static void ucmd_fill(const struct ucmd_opts *o, struct ucmd_data *d,
		      const struct io_unit *u, int ranges,
		      struct nvme_uring_cmd *cmd)
{
	uint64_t slba = u->offset >> d->lba_shift;
	struct iovec *iov = &d->iov[u->index];
	bool data;

	if (u->ddir == DDIR_TRIM) {
		ucmd_fill_trim(d, u, ranges, cmd);
		return;
	}
	cmd->opcode = u->ddir == DDIR_WRITE ? ucmd_write_op(o, d) : NVME_OP_READ;
	data = cmd->opcode == NVME_OP_READ || cmd->opcode == NVME_OP_WRITE;
	cmd->nsid = d->nsid;
	cmd->cdw10 = (uint32_t)slba;
	cmd->cdw11 = (uint32_t)(slba >> 32);
	cmd->cdw12 = ((u->len >> d->lba_shift) - 1) | d->cdw12[u->ddir];
	if (u->ddir == DDIR_WRITE && d->nr_pids) {
		cmd->cdw13 = (uint32_t)d->pids[d->next_pid] << 16;
		d->next_pid = (d->next_pid + 1) % d->nr_pids;
	}
	if (!data)
		return; /* Write Zeroes, Write Uncorrectable, Verify */
	if (d->vectored) {
		iov->iov_base = u->buf;
		iov->iov_len = u->len;
		cmd->addr = (uint64_t)(uintptr_t)iov;
		cmd->data_len = 1;
	} else {
		cmd->addr = (uint64_t)(uintptr_t)u->buf;
		cmd->data_len = u->len;
	}
}

static enum io_result ucmd_queue(struct worker *w, struct io_unit *u)
{
	struct ucmd_data *d = w->engine_data;
	struct io_uring_sqe *sqe;
	uint32_t mask = (1u << d->lba_shift) - 1;
	bool trim = u->ddir == DDIR_TRIM;
	int ranges = trim ? nvme_dsm_ranges(u, d->lba_shift, d->dsm[u->index].r) : 0;

	if ((u->offset | u->len) & mask || !u->len || ranges < 0) {
		u->result = -EINVAL; /* bssplit or a short last block */
		return IO_COMPLETED;
	}
	sqe = uring_ring_sqe(&d->ring);
	if (!sqe)
		return IO_BUSY;
	memset(sqe, 0, 2 * sizeof(*sqe)); /* an SQE128 */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->flags = d->ring.sqe_flags;
	sqe->fd = d->ring.sqe_flags & IOSQE_FIXED_FILE ? 0 : w->fd;
	/* A trim's ranges are a plain buffer of the engine's, never an
	 * iovec or in a registered buffer (fio's trims follow nonvectored=0
	 * and fixedbufs=1 too, and the kernel would take the ranges for an
	 * iovec or look for them among the registered buffers). */
	sqe->cmd_op = d->vectored && !trim ? NVME_URING_CMD_IO_VEC : NVME_URING_CMD_IO;
	if (d->ring.fixedbufs && !trim) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = (uint16_t)u->index;
	}
	if (d->force_async && ++d->prepped == d->force_async) {
		d->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	ucmd_fill(engine_opts_of(w->job), d, u, ranges, (struct nvme_uring_cmd *)sqe->cmd);
	io_uring_sqe_set_data(sqe, u);
	uring_ring_queued(&d->ring, u);
	return IO_QUEUED;
}

static int ucmd_inspect_device(const char *path, struct engine_device *dev,
			       struct errbuf *err)
{
	return nvme_inspect_device(path, dev, err);
}

static unsigned int ucmd_trim_ranges(const struct job *job)
{
	const struct ucmd_opts *o = engine_opts_of(job);

	return o->num_range ? o->num_range : 1;
}

ENGINE_DEFINE(io_uring_cmd, ENGINE_OWN_TRIM | ENGINE_ALIGNED_BUFFERS,
	      ENGINE_STATE_ARRAYS(struct ucmd_data, ring.pending, ring.cqes, iov, dsm),
	      .init = ucmd_init, .queue = ucmd_queue,
	      .commit = uring_commit, .getevents = uring_getevents,
	      .cleanup = uring_cleanup, .options = ucmd_options,
	      .check_job = ucmd_check_job, .inspect_device = ucmd_inspect_device,
	      .trim_ranges = ucmd_trim_ranges);
