// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "probes/tracefs.h"

#define TRACEFS_DIR      "/sys/kernel/tracing"
/* libbpf prefers this path when it exists (use_debugfs() in libbpf.c). */
#define DEBUGFS_TRACING  "/sys/kernel/debug/tracing"

static const char *tracefs_root(void)
{
	if (access(DEBUGFS_TRACING "/events", F_OK) == 0)
		return DEBUGFS_TRACING;
	if (access(TRACEFS_DIR "/events", F_OK) == 0)
		return TRACEFS_DIR;
	return NULL;
}

/*
 * Mounts tracefs in a mount namespace of iodig's own when it can: nobody
 * else sees the mount, it goes away with the process even after SIGKILL,
 * and two iodig runs cannot unmount it under each other.  unshare() needs
 * a single-threaded process (probes open before any worker starts); when
 * it fails the mount goes to the host's namespace as before.
 */
static void private_mount_namespace(void)
{
	if (unshare(CLONE_NEWNS))
		return;
	/* Keep our mounts from propagating back to the host.  Source and
	 * type are ignored for a propagation change; "none" rather than NULL
	 * keeps valgrind's syscall checks quiet. */
	mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL);
}

int tracefs_mount(bool *mounted, struct errbuf *err)
{
	*mounted = false;
	if (tracefs_root())
		return 0;
	private_mount_namespace();
	if (mount("tracefs", TRACEFS_DIR, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL))
		return err_set(err, errno, "cannot mount tracefs at %s: %s",
			       TRACEFS_DIR, strerror(errno));
	*mounted = true;
	return 0;
}

void tracefs_unmount(bool mounted)
{
	/* EBUSY means someone started using it meanwhile: leave it. */
	if (mounted)
		umount2(TRACEFS_DIR, 0);
}

int tracefs_event_exists(const char *category, const char *event)
{
	const char *root = tracefs_root();
	char path[512];

	if (!root)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, category, event);
	return access(path, F_OK) ? -ENOENT : 0;
}

int tracefs_events_required(const char *category, const char *const *events, size_t nr,
			    struct errbuf *why)
{
	for (size_t i = 0; i < nr; i++) {
		int err = tracefs_event_exists(category, events[i]);

		if (err == -ENODEV)
			return err_set(why, ENODEV, "tracefs not mounted at " TRACEFS_DIR);
		if (err)
			return err_set(why, -err, "no %s/%s in tracefs", category, events[i]);
	}
	return 0;
}
