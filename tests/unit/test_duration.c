// Durations in the unit they read best in (base/duration.c): each unit from its lower bound on, the one below just under it, zero in ns.
#include <stdio.h>
#include <string.h>

#include "tests/lib/check.h"
#include "base/duration.h"

static void expect(double ns, const char *want_unit, double want_div)
{
	const char *unit = NULL;
	double div = duration_unit(ns, &unit);

	CHECK_MSG(unit && !strcmp(unit, want_unit) && div == want_div,
		  "%g ns: got %s / %g, want %s / %g", ns, unit ? unit : "(null)", div,
		  want_unit, want_div);
}

int main(void)
{
	expect(0, "ns", 1.0);
	expect(999.9, "ns", 1.0);
	expect(1e3, "us", 1e3);
	expect(999999.0, "us", 1e3);
	expect(1e6, "ms", 1e6);
	expect(1e9 - 1, "ms", 1e6);
	expect(1e9, "s", 1e9);
	expect(3600e9, "s", 1e9);
	return CHECK_DONE();
}
