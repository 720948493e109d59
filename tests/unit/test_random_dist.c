// random_distribution parses with fio 3.33's defaults, ranges and zone rules (access percentages must add to 100, missing sizes share the rest), and fio's newer sequence:B,B,... block lists.
#include <string.h>

#include "tests/lib/check.h"
#include "job/random_dist_opt.h"

static int parse(const char *v, struct rand_dist_opts *o, char *why)
{
	return random_dist_parse(v, 1024, o, why, 160);
}

int main(void)
{
	struct rand_dist_opts o;
	char why[160];

	CHECK(parse("random", &o, why) == 0 && o.kind == DIST_RANDOM);
	CHECK(parse("zipf", &o, why) == 0 && o.kind == DIST_ZIPF && o.value == 1.1);
	CHECK(parse("zipf:0.5", &o, why) == 0 && o.value == 0.5);
	CHECK(parse("pareto", &o, why) == 0 && o.value == 0.2);
	CHECK(parse("normal:10", &o, why) == 0 && o.kind == DIST_NORMAL);
	CHECK(parse("zipf:1", &o, why) < 0 && strstr(why, "other than 1.0"));
	CHECK(parse("pareto:1.5", &o, why) < 0 && strstr(why, "below 1"));
	CHECK(parse("normal:100", &o, why) < 0);
	CHECK(parse("zipf:x", &o, why) < 0 && strstr(why, "not a number"));
	/* fio's VALUE:CENTER, the center 0 to 1 */
	CHECK(parse("zipf:1.2:0.25", &o, why) == 0 && o.value == 1.2 &&
	      o.centered && o.center == 0.25);
	CHECK(parse("normal:5", &o, why) == 0 && !o.centered);
	CHECK(parse("pareto:0.3:1.5", &o, why) < 0 && strstr(why, "center"));
	CHECK(parse("normal:5:", &o, why) < 0 && strstr(why, "not a center"));
	CHECK(parse("bogus", &o, why) < 0 && strstr(why, "not one of"));
	CHECK(parse("sequence:2, 0 ,1", &o, why) == 0 && o.kind == DIST_SEQUENCE);
	CHECK(o.seq_nr == 3 && o.seq[0] == 2 && o.seq[1] == 0 && o.seq[2] == 1);
	CHECK(parse("sequence:1,,2", &o, why) < 0 && strstr(why, "not a block index"));
	CHECK(parse("sequence:-1", &o, why) < 0 && strstr(why, "not a block index"));

	CHECK(parse("zoned:50/5:30/15:20/", &o, why) == 0);
	CHECK(o.kind == DIST_ZONED && o.nr[DDIR_READ] == 3 && o.nr[DDIR_WRITE] == 3);
	CHECK(o.zones[DDIR_READ][2].access_perc == 20 && o.zones[DDIR_READ][2].size == 80);
	CHECK(parse("zoned:50/5:30/15:20/,50/10:50/90", &o, why) == 0);
	CHECK(o.nr[DDIR_WRITE] == 2 && o.zones[DDIR_WRITE][1].size == 90);
	CHECK(parse("zoned:50/5:30/15", &o, why) < 0 && strstr(why, "add to 80, not 100"));
	CHECK(parse("zoned:60/50:50/60", &o, why) < 0 && strstr(why, "more than 100"));
	CHECK(parse("zoned_abs:60/64k:40/1m", &o, why) == 0);
	CHECK(o.kind == DIST_ZONED_ABS && o.zones[DDIR_READ][0].size == 65536);
	CHECK(parse("zoned_abs:60/64k:40/x", &o, why) < 0 && strstr(why, "zone size"));
	return CHECK_DONE();
}
