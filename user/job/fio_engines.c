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

static const struct fio_engine engines[] = {
	/* kernel */
	{ "sync", FIO_ENGINE_KERNEL, "read(2)/write(2) after lseek(2)", NULL },
	{ "psync", FIO_ENGINE_KERNEL, "pread(2)/pwrite(2)", NULL },
	{ "vsync", FIO_ENGINE_KERNEL, "readv(2)/writev(2)", NULL },
	{ "pvsync", FIO_ENGINE_KERNEL, "preadv(2)/pwritev(2)", NULL },
	{ "pvsync2", FIO_ENGINE_KERNEL, "preadv2(2)/pwritev2(2)", NULL },
	{ "libaio", FIO_ENGINE_KERNEL, "Linux native AIO", NULL },
	{ "io_uring", FIO_ENGINE_KERNEL, "io_uring reads and writes", NULL },
	{ "io_uring_cmd", FIO_ENGINE_KERNEL,
	  "NVMe passthrough commands over io_uring", NULL },
	{ "posixaio", FIO_ENGINE_KERNEL, "POSIX AIO, aio_read(3)/aio_write(3)",
	  NULL },
	{ "mmap", FIO_ENGINE_KERNEL, "memcpy to and from an mmap(2)ed file",
	  NULL },
	{ "splice", FIO_ENGINE_KERNEL, "splice(2) and vmsplice(2)", NULL },
	{ "sg", FIO_ENGINE_KERNEL,
	  "SCSI generic: SG_IO ioctls, read/write on sg devices", NULL },
	{ "libzbc", FIO_ENGINE_KERNEL,
	  "zoned block commands through libzbc, SG_IO or block ioctls", NULL },
	{ "null", FIO_ENGINE_KERNEL, "completes I/O without doing any", NULL },
	{ "cpp_null", FIO_ENGINE_KERNEL,
	  "fio's null engine built as a C++ external engine", "null" },
	{ "filecreate", FIO_ENGINE_KERNEL, "creates each file, open(2)", NULL },
	{ "filestat", FIO_ENGINE_KERNEL, "stat(2) of each file", NULL },
	{ "filedelete", FIO_ENGINE_KERNEL, "unlink(2) of each file", NULL },
	{ "dircreate", FIO_ENGINE_KERNEL, "mkdir(2) of each directory", NULL },
	{ "dirstat", FIO_ENGINE_KERNEL, "stat(2) of each directory", NULL },
	{ "dirdelete", FIO_ENGINE_KERNEL, "rmdir(2) of each directory", NULL },
	{ "ftruncate", FIO_ENGINE_KERNEL, "ftruncate(2) at each offset", NULL },
	{ "falloc", FIO_ENGINE_KERNEL, "fallocate(2)", NULL },
	{ "e4defrag", FIO_ENGINE_KERNEL, "ext4 EXT4_IOC_MOVE_EXT ioctls", NULL },
	{ "page_fault", FIO_ENGINE_KERNEL,
	  "page faults on an mmap(2)ed file", NULL },
	{ "mtd", FIO_ENGINE_KERNEL,
	  "MTD character device reads, writes and erases", NULL },
	{ "dev-dax", FIO_ENGINE_KERNEL,
	  "loads and stores to a device-DAX mapping, PMDK libpmem", NULL },
	{ "libpmem", FIO_ENGINE_KERNEL,
	  "loads and stores to a DAX-mapped file, PMDK libpmem", NULL },
	{ "pmemblk", FIO_ENGINE_KERNEL,
	  "PMDK libpmemblk blocks on a DAX-mapped file", NULL },

	/* bypass */
	{ "spdk", FIO_ENGINE_BYPASS, "SPDK's user-space NVMe driver", NULL },
	{ "spdk_bdev", FIO_ENGINE_BYPASS,
	  "SPDK's user-space block device layer", NULL },
	{ "libcufile", FIO_ENGINE_BYPASS,
	  "NVIDIA GPUDirect Storage moves data between storage and GPU "
	  "memory", NULL },
	{ "libhipfile", FIO_ENGINE_BYPASS,
	  "AMD hipFile moves data between storage and GPU memory", NULL },
	{ "xnvme", FIO_ENGINE_BYPASS,
	  "xNVMe's SPDK and vfio backends; for its io_uring, libaio and "
	  "ioctl ones use ioengine=io_uring, libaio or io_uring_cmd", NULL },
	{ "libblkio", FIO_ENGINE_BYPASS,
	  "libblkio's vfio-pci and vhost-user drivers; for its io_uring "
	  "drivers use ioengine=io_uring or io_uring_cmd", NULL },

	/* remote */
	{ "net", FIO_ENGINE_REMOTE, "TCP, UDP or unix sockets", NULL },
	{ "netsplice", FIO_ENGINE_REMOTE, "sockets with splice(2)", NULL },
	{ "rdma", FIO_ENGINE_REMOTE,
	  "RDMA over InfiniBand, RoCE or iWARP", NULL },
	{ "http", FIO_ENGINE_REMOTE,
	  "HTTP(S) requests to an S3, Swift or WebDAV server", NULL },
	{ "rbd", FIO_ENGINE_REMOTE, "Ceph RBD images through librbd", NULL },
	{ "rados", FIO_ENGINE_REMOTE, "Ceph RADOS objects through librados",
	  NULL },
	{ "nfs", FIO_ENGINE_REMOTE, "an NFS client in user space, libnfs",
	  NULL },
	{ "gfapi", FIO_ENGINE_REMOTE, "GlusterFS volumes through libgfapi",
	  NULL },
	{ "gfapi_async", FIO_ENGINE_REMOTE,
	  "GlusterFS volumes through libgfapi", NULL },
	{ "libhdfs", FIO_ENGINE_REMOTE, "Hadoop HDFS through libhdfs", NULL },
	{ "libiscsi", FIO_ENGINE_REMOTE,
	  "an iSCSI initiator in user space, libiscsi", NULL },
	{ "nbd", FIO_ENGINE_REMOTE,
	  "a Network Block Device server over a socket, libnbd", NULL },
	{ "dfs", FIO_ENGINE_REMOTE, "the DAOS file system through libdfs",
	  NULL },
	{ "ime_psync", FIO_ENGINE_REMOTE,
	  "DDN's Infinite Memory Engine client library", NULL },
	{ "ime_psyncv", FIO_ENGINE_REMOTE,
	  "DDN's Infinite Memory Engine client library", NULL },
	{ "ime_aio", FIO_ENGINE_REMOTE,
	  "DDN's Infinite Memory Engine client library", NULL },

	/* no I/O */
	{ "cpuio", FIO_ENGINE_NO_IO, "it burns CPU cycles", NULL },
	{ "exec", FIO_ENGINE_NO_IO, "it runs another program", NULL },

	/* other operating systems */
	{ "windowsaio", FIO_ENGINE_OTHER_OS, "Windows", NULL },
	{ "solarisaio", FIO_ENGINE_OTHER_OS, "Solaris", NULL },
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

const struct fio_engine *fio_engine_find(const char *name)
{
	if (!name)
		return NULL;
	/* fio: "external:PATH", or any name it then dlopen()s as a path */
	if (!strncmp(name, "external", 8) || strchr(name, '/'))
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

void fio_engine_refusal(const struct fio_engine *e, const char *name,
			char *buf, size_t len)
{
	switch (e->cls) {
	case FIO_ENGINE_KERNEL:
		snprintf(buf, len, "engine '%.64s' is a kernel engine iodig does "
			 "not implement yet (%s)", name, e->what);
		break;
	case FIO_ENGINE_BYPASS:
		snprintf(buf, len, "engine '%.64s' bypasses the kernel block "
			 "layer (%s): nothing for iodig to trace", name,
			 e->what);
		break;
	case FIO_ENGINE_REMOTE:
		snprintf(buf, len, "engine '%.64s' is not local I/O (%s): iodig "
			 "traces the kernel's path to local files and devices",
			 name, e->what);
		break;
	case FIO_ENGINE_NO_IO:
		snprintf(buf, len, "engine '%.64s' does no storage I/O (%s): not "
			 "a kernel I/O path for iodig to trace", name, e->what);
		break;
	case FIO_ENGINE_OTHER_OS:
		snprintf(buf, len, "engine '%.64s' is %s's asynchronous I/O: not "
			 "a kernel I/O path on Linux", name, e->what);
		break;
	case FIO_ENGINE_EXTERNAL:
		snprintf(buf, len, "engine '%.64s' loads fio engine code from a "
			 "file, which iodig cannot run: not a kernel engine "
			 "iodig has", name);
		break;
	}
}
