#!/bin/bash
# bwavgtime and iopsavgtime as fio 3.33: the window of each bandwidth and
# IOPS sample of the report (JSON bw_samples, iops_samples), each its own;
# with write_bw_log/write_iops_log, log_avg_msec is the window unless the
# option is given, the log's lines follow the same window, and a log not
# averaged makes fio sample every I/O.  The same rate-limited timed job runs
# in both tools.  fio's own runs of these jobs give the same counts run after
# run but for the last window, which the end of the job may cut (100 ms
# windows over 3.35 s: 32 or 33), hence a tolerance of one sample.
# timeout: 300
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1
truncate -s 64m f || skip "cannot make a file in $TMP"
JOB=(--name=j --filename="$TMP/f" --rw=read --bs=4k --rate=20m --time_based --runtime=3350ms
     --output-format=json)

# run TOOL ARGS...: the job's JSON report in TOOL.json, its logs in TOOL.logs/
run() {
	local tool=$1; shift
	rm -rf "$tool.logs" && mkdir "$tool.logs"
	if [ "$tool" = fio ]; then
		(cd "$tool.logs" && fio "${JOB[@]}" "$@") >fio.json 2>fio.err
	else
		(cd "$tool.logs" && "$IODIG" run --no-probes --no-save "${JOB[@]}" "$@") >iodig.json 2>iodig.err
	fi || fail "$tool $*: $(head -c 300 "$tool.err")"
}
field() { jqr ".jobs[0].read.$2" "$1.json"; }
near() { [ -n "$1" -a -n "$2" ] || return 1; local d=$(($1 - $2)); [ "${d#-}" -le "$3" ]; }
# both ARGS...: runs the job in both tools with ARGS
both() { CASE="$*"; run fio "$@"; run iodig "$@"; }
# same FIELD TOLERANCE: iodig's FIELD is fio's, within TOLERANCE
same() {
	local f i
	f=$(field fio "$1"); i=$(field iodig "$1")
	check "$CASE: $1 $i, fio $f (±$2)" near "$i" "$f" "$2"
	eval "LAST_$1=$i"
}

both --bwavgtime=100 --iopsavgtime=100
same bw_samples 1; same iops_samples 1
short=$LAST_bw_samples
both --bwavgtime=1000 --iopsavgtime=1000
same bw_samples 1; same iops_samples 1
check "100 ms windows give ($short) over five times the samples of 1000 ms ($LAST_bw_samples)" \
	[ "$short" -gt $((5 * LAST_bw_samples)) ]
# each its own window
both --bwavgtime=1000 --iopsavgtime=250
same bw_samples 1; same iops_samples 1
check "$CASE: more IOPS samples ($LAST_iops_samples) than bandwidth ones ($LAST_bw_samples)" \
	[ "$LAST_iops_samples" -gt $((2 * LAST_bw_samples)) ]

# write_bw_log: log_avg_msec is the window, unless bwavgtime is given
both --write_bw_log=x --log_avg_msec=1000
same bw_samples 1; same iops_samples 1
both --write_bw_log=x --log_avg_msec=1000 --bwavgtime=250
same bw_samples 1
fl=$(wc -l <fio.logs/x_bw.1.log) il=$(wc -l <iodig.logs/x_bw.1.log 2>/dev/null || echo 0)
check "$CASE: the bw log has $il lines, fio's $fl (±1)" near "$il" "$fl" 1
check "$CASE: a line a sample ($il lines, $LAST_bw_samples samples)" near "$il" "$LAST_bw_samples" 1
# an unaveraged log: a sample per I/O, iops ones of 1, iopsavgtime or not
for given in "" --iopsavgtime=200; do
	both --write_iops_log=x $given
	ios=$(field iodig total_ios)
	same iops_samples $((${ios:-0} / 100))
	check "$CASE: one IOPS sample per I/O ($LAST_iops_samples, $ios I/Os)" \
		[ "${ios:-0}" -gt 1000 -a "$LAST_iops_samples" = "$ios" ]
	check "$CASE: each IOPS sample is 1, as fio's" \
		[ "$(field iodig iops_min)/$(field iodig iops_max)" = "1/1" ]
	same bw_samples 1
done
done_testing
