#!/bin/bash
# clocksource as fio 3.33: gettimeofday times in whole microseconds, so
# every latency is a multiple of 1000 ns, for every job of the run, also
# one that does not name it (fio's clock is its process's); clock_gettime
# and cpu time in nanoseconds.  gtod_cpu and profile are refused with
# their reasons, unique_filename (client/server only) taken.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1
truncate -s 16m f || skip "cannot make a file in $TMP"
JOB=(--filename="$TMP/f" --size=4m --bs=4k --output-format=json)

both() {
	CASE="$*"
	fio "${JOB[@]}" "$@" >fio.json 2>fio.err || fail "fio $CASE: $(head -c 200 fio.err)"
	"$IODIG" run --no-probes --no-save "${JOB[@]}" "$@" >iodig.json 2>iodig.err ||
		fail "iodig $CASE: $(head -c 200 iodig.err)"
}
# whole TOOL: per job, "1" when its clat and lat minimum and maximum are
# all whole microseconds, else "0"
whole() {
	sed -n '/^{/,$p' "$1.json" | jq -r '[.jobs[].read | [.clat_ns.min, .clat_ns.max,
		.lat_ns.min, .lat_ns.max] | if all(. % 1000 == 0) then 1 else 0 end] | join(",")' \
		2>/dev/null
}

both --name=a --name=b --clocksource=gettimeofday
check "$CASE: whole microseconds in both jobs: iodig $(whole iodig), fio $(whole fio)" \
	[ "$(whole iodig)" = "1,1" -a "$(whole fio)" = "1,1" ]
for c in clock_gettime cpu; do
	both --name=a --name=b --clocksource=$c
	check "$CASE: nanoseconds: iodig $(whole iodig), fio $(whole fio)" \
		[ "$(whole iodig)" = "0,0" -a "$(whole fio)" = "0,0" ]
done
both --name=a --unique_filename=0
check "$CASE: taken, as by fio" [ "$(jq -r '.jobs[0].read.total_ios' iodig.json)" = 1024 ]
refused "clocksource=foo" "clocksource.*'foo' is not one of" --clocksource=foo
refused "gtod_cpu" "gtod_cpu' is not supported: iodig's workers read the clock" --gtod_cpu=1
refused "profile=act" "profile' is not supported: .*tiobench and act" --profile=act
done_testing
