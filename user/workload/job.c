// SPDX-License-Identifier: GPL-2.0
/* Names of job enums as fio prints them. */
#include "workload/job.h"

const char *rw_mode_name(enum rw_mode rw)
{
	switch (rw) {
	case RW_READ:      return "read";
	case RW_WRITE:     return "write";
	case RW_RANDREAD:  return "randread";
	case RW_RANDWRITE: return "randwrite";
	case RW_RW:        return "rw";
	case RW_RANDRW:    return "randrw";
	case RW_TRIM:      return "trim";
	case RW_RANDTRIM:  return "randtrim";
	case RW_TRIMWRITE: return "trimwrite";
	case RW_RANDTRIMWRITE: return "randtrimwrite";
	}
	return "unknown";
}

const char *ddir_name(enum ddir d)
{
	static const char *const names[DDIR_COUNT] = { "read", "write", "trim" };

	return (unsigned int)d < DDIR_COUNT ? names[d] : "unknown";
}
