// SPDX-License-Identifier: GPL-2.0
/*
 * The engines of fio 3.33 (and the few added since), each in one of
 * iodig's classes.  iodig explains the kernel's local storage path, so:
 *
 * - kernel: the engine's I/O enters the kernel through system calls
 *   (read/write family, AIO, io_uring, ioctls, page faults on mapped
 *   files, DAX included) and reaches a local file or device; iodig may
 *   implement it, and says "not yet" until it does.
 * - bypass: a user-space driver talks to the device (SPDK, vfio), or data
 *   moves between storage and GPU memory (GPUDirect Storage): the kernel
 *   block layer never sees the I/O.  Libraries with both kinds of backend
 *   (xnvme, libblkio) are here, their message naming the engine that does
 *   what their kernel backends do.
 * - remote: the storage is across a network (sockets, RDMA, object stores,
 *   user-space NFS, iSCSI, NBD clients): not local I/O.
 * - no I/O: the engine burns CPU or runs a program.
 * - other OS: Windows's or Solaris's interfaces.
 * - external: fio loads engine code from a file iodig cannot run.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "job/fio_engines.h"

/* An engine of a class, which iodig does not run as another of its own. */
#define KERNEL(name, what) { name, FIO_ENGINE_KERNEL, what, NULL }
#define BYPASS(name, what) { name, FIO_ENGINE_BYPASS, what, NULL }
#define REMOTE(name, what) { name, FIO_ENGINE_REMOTE, what, NULL }
#define NO_IO(name, what) { name, FIO_ENGINE_NO_IO, what, NULL }
#define OTHER_OS(name, what) { name, FIO_ENGINE_OTHER_OS, what, NULL }

static const struct fio_engine engines[] = {
	/* kernel */
	KERNEL("sync", "read(2)/write(2) after lseek(2)"),
	KERNEL("psync", "pread(2)/pwrite(2)"),
	KERNEL("vsync", "readv(2)/writev(2)"),
	KERNEL("pvsync", "preadv(2)/pwritev(2)"),
	KERNEL("pvsync2", "preadv2(2)/pwritev2(2)"),
	KERNEL("libaio", "Linux native AIO"),
	KERNEL("io_uring", "io_uring reads and writes"),
	KERNEL("io_uring_cmd", "NVMe passthrough commands over io_uring"),
	KERNEL("posixaio", "POSIX AIO, aio_read(3)/aio_write(3)"),
	KERNEL("mmap", "memcpy to and from an mmap(2)ed file"),
	KERNEL("splice", "splice(2) and vmsplice(2)"),
	KERNEL("sg", "SCSI generic: SG_IO ioctls, read/write on sg devices"),
	KERNEL("libzbc",
	       "zoned block commands through libzbc, SG_IO or block ioctls"),
	KERNEL("null", "completes I/O without doing any"),
	{ "cpp_null", FIO_ENGINE_KERNEL,
	  "fio's null engine built as a C++ external engine", "null" },
	KERNEL("filecreate", "creates each file, open(2)"),
	KERNEL("filestat", "stat(2) of each file"),
	KERNEL("filedelete", "unlink(2) of each file"),
	KERNEL("dircreate", "mkdir(2) of each directory"),
	KERNEL("dirstat", "stat(2) of each directory"),
	KERNEL("dirdelete", "rmdir(2) of each directory"),
	KERNEL("ftruncate", "ftruncate(2) at each offset"),
	KERNEL("falloc", "fallocate(2)"),
	KERNEL("e4defrag", "ext4 EXT4_IOC_MOVE_EXT ioctls"),
	KERNEL("page_fault", "page faults on an mmap(2)ed file"),
	KERNEL("mtd", "MTD character device reads, writes and erases"),
	KERNEL("dev-dax",
	       "loads and stores to a device-DAX mapping, PMDK libpmem"),
	KERNEL("libpmem",
	       "loads and stores to a DAX-mapped file, PMDK libpmem"),
	KERNEL("pmemblk", "PMDK libpmemblk blocks on a DAX-mapped file"),

	/* bypass */
	BYPASS("spdk", "SPDK's user-space NVMe driver"),
	BYPASS("spdk_bdev", "SPDK's user-space block device layer"),
	BYPASS("libcufile",
	       "NVIDIA GPUDirect Storage moves data between storage and GPU "
	       "memory"),
	BYPASS("libhipfile",
	       "AMD hipFile moves data between storage and GPU memory"),
	BYPASS("xnvme",
	       "xNVMe's SPDK and vfio backends; for its io_uring, libaio and "
	       "ioctl ones use ioengine=io_uring, libaio or io_uring_cmd"),
	BYPASS("libblkio",
	       "libblkio's vfio-pci and vhost-user drivers; for its io_uring "
	       "drivers use ioengine=io_uring or io_uring_cmd"),

	/* remote */
	REMOTE("net", "TCP, UDP or unix sockets"),
	REMOTE("netsplice", "sockets with splice(2)"),
	REMOTE("rdma", "RDMA over InfiniBand, RoCE or iWARP"),
	REMOTE("http", "HTTP(S) requests to an S3, Swift or WebDAV server"),
	REMOTE("rbd", "Ceph RBD images through librbd"),
	REMOTE("rados", "Ceph RADOS objects through librados"),
	REMOTE("nfs", "an NFS client in user space, libnfs"),
	REMOTE("gfapi", "GlusterFS volumes through libgfapi"),
	REMOTE("gfapi_async", "GlusterFS volumes through libgfapi"),
	REMOTE("libhdfs", "Hadoop HDFS through libhdfs"),
	REMOTE("libiscsi", "an iSCSI initiator in user space, libiscsi"),
	REMOTE("nbd", "a Network Block Device server over a socket, libnbd"),
	REMOTE("dfs", "the DAOS file system through libdfs"),
	REMOTE("ime_psync", "DDN's Infinite Memory Engine client library"),
	REMOTE("ime_psyncv", "DDN's Infinite Memory Engine client library"),
	REMOTE("ime_aio", "DDN's Infinite Memory Engine client library"),

	/* no I/O */
	NO_IO("cpuio", "it burns CPU cycles"),
	NO_IO("exec", "it runs another program"),

	/* other operating systems */
	OTHER_OS("windowsaio", "Windows"),
	OTHER_OS("solarisaio", "Solaris"),
};

#define NR_ENGINES (sizeof(engines) / sizeof(engines[0]))

/* The own options of the engines above that iodig does not run, where
 * known (fio 3.33's --enghelp, or fio's sources for engines it was built
 * without): an option of theirs gets the engine's refusal. */
static const struct {
	const char *engine;
	const char *options; /* space-separated */
} engine_options[] = {
	{ "libblkio",
	  "libblkio_driver libblkio_path libblkio_pre_connect_props "
	  "libblkio_num_entries libblkio_queue_size "
	  "libblkio_pre_start_props libblkio_vectored "
	  "libblkio_write_zeroes_on_trim libblkio_wait_mode "
	  "libblkio_force_enable_completion_eventfd" },
	{ "net",
	  "hostname port protocol nodelay listen pingpong interface "
	  "ttl window_size mss" },
	{ "netsplice",
	  "hostname port protocol nodelay listen pingpong interface "
	  "ttl window_size mss" },
	{ "rdma",
	  "hostname bindname port verb" },
	{ "http",
	  "https http_host http_user http_pass http_s3_key "
	  "http_s3_keyid http_swift_auth_token http_s3_region "
	  "http_mode http_verbose http_s3_sse_customer_key "
	  "http_s3_sse_customer_algorithm http_s3_storage_class" },
	{ "rbd",
	  "clustername rbdname pool clientname busy_poll" },
	{ "rados",
	  "clustername pool clientname conf busy_poll touch_objects" },
	{ "nfs",
	  "nfs_url" },
	{ "gfapi",
	  "volume brick single-instance" },
	{ "gfapi_async",
	  "volume brick single-instance" },
	{ "nbd",
	  "uri" },
	{ "cpuio",
	  "cpuload cpuchunks cpumode exit_on_io_done" },
	{ "exec",
	  "program arguments grace_time std_redirect" },
};

static const struct fio_engine external_engine = {
	"external", FIO_ENGINE_EXTERNAL, "engine code in a file", NULL,
};

/* Whether @name is a shared object's file name (libfio_ceph_objectstore.so),
 * which fio dlopen()s through the library search path. */
static bool names_shared_object(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && !strcmp(name + n - 3, ".so");
}

const struct fio_engine *fio_engine_find(const char *name)
{
	if (!name)
		return NULL;
	/* fio: "external:PATH", or any name it then dlopen()s as a path */
	if (!strncmp(name, "external", 8) || strchr(name, '/') ||
	    names_shared_object(name))
		return &external_engine;
	for (size_t i = 0; i < NR_ENGINES; i++)
		if (!strcmp(engines[i].name, name))
			return &engines[i];
	return NULL;
}

const struct engine_ops *fio_engine_resolve(const char *name)
{
	const struct engine_ops *ops = engine_find(name);
	const struct fio_engine *fe = ops ? NULL : fio_engine_find(name);

	return fe && fe->same_as ? engine_find(fe->same_as) : ops;
}

/* Whether the space-separated @list holds the word @key. */
static bool word_in(const char *list, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = list; p && (p = strstr(p, key)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

const struct fio_engine *fio_engine_of_option(const char *key)
{
	size_t n = sizeof(engine_options) / sizeof(engine_options[0]);

	for (size_t i = 0; key && *key && i < n; i++)
		if (word_in(engine_options[i].options, key))
			return fio_engine_find(engine_options[i].engine);
	return NULL;
}

const struct fio_engine *fio_engine_at(size_t i)
{
	return i < NR_ENGINES ? &engines[i] : NULL;
}

/* Why each class is refused: "%.64s" is the name, "%s" the engine's what
 * (unused by external). */
static const char *const refusals[] = {
	[FIO_ENGINE_KERNEL] = "engine '%.64s' is a kernel engine iodig does not "
			      "implement yet (%s)",
	[FIO_ENGINE_BYPASS] = "engine '%.64s' bypasses the kernel block layer "
			      "(%s): nothing for iodig to trace",
	[FIO_ENGINE_REMOTE] = "engine '%.64s' is not local I/O (%s): iodig "
			      "traces the kernel's path to local files and "
			      "devices",
	[FIO_ENGINE_NO_IO] = "engine '%.64s' does no storage I/O (%s): not a "
			     "kernel I/O path for iodig to trace",
	[FIO_ENGINE_OTHER_OS] = "engine '%.64s' is %s's asynchronous I/O: not a "
				"kernel I/O path on Linux",
	[FIO_ENGINE_EXTERNAL] = "engine '%.64s' loads fio engine code from a "
				"file, which iodig cannot run: not a kernel "
				"engine iodig has",
};

void fio_engine_refusal(const struct fio_engine *e, const char *name,
			char *buf, size_t len)
{
	snprintf(buf, len, refusals[e->cls], name, e->what);
}
