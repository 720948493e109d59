#!/bin/bash
# max_latency as fio 3.33: the first I/O whose total latency is above its
# direction's limit (R[,W[,T]], bare number in us) ends the job with
# ETIMEDOUT (110): err= in text, "error" in JSON, terse's error field; the
# I/O itself is counted.  A job that does not measure the total latency
# (disable_lat) is not checked, nor a limit no I/O reaches.  Every read or
# write of a file in tmpfs takes more than 1 us from submission to
# completion (a system call), none takes 10 s.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1
truncate -s 16m f || skip "cannot make a file in $TMP"
JOB=(--name=a --filename="$TMP/f" --bs=4k --size=1m --output-format=json)

both() {
	CASE="$*"
	fio "${JOB[@]}" "$@" >fio.json 2>fio.err
	"$IODIG" run --no-probes --no-save "${JOB[@]}" "$@" >iodig.json 2>iodig.err
}
get() { sed -n '/^{/,$p' "$1.json" | jq -r ".jobs[0].$2" 2>/dev/null; }
# same FIELD [WANT]: iodig's FIELD is fio's (and WANT when given)
same() {
	local f i
	f=$(get fio "$1") i=$(get iodig "$1")
	check "$CASE: $1 $i, fio $f${2:+ (want $2)}" [ -n "$i" -a "$i" = "$f" -a "${2:-$i}" = "$i" ]
}

both --rw=read --max_latency=1us
same error 110; same read.total_ios 1
check "$CASE: iodig says why: $(head -c 200 iodig.err)" \
	grep -q "latency of [0-9]* nsec exceeds specified max (1000 nsec)" iodig.err
both --rw=read --max_latency=10s
same error 0; same read.total_ios 256
both --rw=read --max_latency=1us --disable_lat=1
same error 0; same read.total_ios 256
# per direction: writes limited, reads not; then the other way round
both --rw=randrw --max_latency=10s,1us
same error 110; same write.total_ios 1
both --rw=randrw --max_latency=1us,10s
same error 110; same read.total_ios 1
# the text's err= and terse's error field
for fmt in normal terse; do
	CASE="--rw=read --max_latency=1us ($fmt)"
	fio "${JOB[@]}" --rw=read --max_latency=1us --output-format=$fmt >fio.out 2>/dev/null
	"$IODIG" run --no-probes --no-save "${JOB[@]}" --rw=read --max_latency=1us \
		--output-format=$fmt >iodig.out 2>/dev/null
	if [ $fmt = normal ]; then
		f=$(grep -o 'jobs=1): err=[0-9]*' fio.out) i=$(grep -o 'jobs=1): err=[0-9]*' iodig.out)
	else
		f=$(grep '^3;' fio.out | cut -d';' -f5) i=$(grep '^3;' iodig.out | cut -d';' -f5)
	fi
	check "$CASE: '$i', fio '$f'" [ -n "$i" -a "$i" = "$f" ]
done
refused "max_latency=soon" "max_latency.*not a time" --max_latency=soon
done_testing
