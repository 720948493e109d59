/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Character devices of one kernel class (device-DAX, MTD), as the engines
 * that drive them find them: the node's class from sysfs and the figures
 * the driver publishes there.
 */
#ifndef IODIG_ENGINES_CHAR_DEV_H
#define IODIG_ENGINES_CHAR_DEV_H

#include <stdint.h>
#include <sys/types.h>

#include "base/errbuf.h"

/* 0 when @path is a character device of the kernel's class or bus @cls
 * (/sys/dev/char/MAJ:MIN/subsystem), its number in *@rdev; else -errno
 * with a message naming @path, ending in @needs, what the engine drives
 * ("ioengine=X needs ..."). */
int char_dev_of_class(const char *path, const char *cls, const char *needs,
		      dev_t *rdev, struct errbuf *err);

/* The decimal number in /sys/dev/char/MAJ:MIN/@attr of @rdev. */
int char_dev_attr(dev_t rdev, const char *attr, uint64_t *val,
		  struct errbuf *err);

#endif /* IODIG_ENGINES_CHAR_DEV_H */
