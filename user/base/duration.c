// SPDX-License-Identifier: GPL-2.0
#include "base/duration.h"
#include "base/scale.h"

double duration_unit(double ns, const char **unit)
{
	const struct scale_step *s = scale_find(scale_ns, ns);

	*unit = s->name;
	return s->div;
}
