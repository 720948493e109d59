// SPDX-License-Identifier: GPL-2.0
#include "base/duration.h"

double duration_unit(double ns, const char **unit)
{
	if (ns >= 1e9) {
		*unit = "s";
		return 1e9;
	}
	if (ns >= 1e6) {
		*unit = "ms";
		return 1e6;
	}
	if (ns >= 1e3) {
		*unit = "us";
		return 1e3;
	}
	*unit = "ns";
	return 1.0;
}
