#!/bin/bash
# fio 3.33's remaining log options: log_hist_coarseness (write_hist_log
# lines of 1856 >> N bins, each the sum of 2^N of fio's: the same columns
# as fio's and every completion still counted), log_alternate_epoch and
# log_alternate_epoch_clock_id (times from the epoch of that clock, also
# for log_unix_epoch) and log_entries (fio's range, no effect); same jobs
# in both tools (log_compression: log_compression_fio.sh).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
cd "$TMP" || exit 1
truncate -s 32m f || skip "cannot make a file in $TMP"
JOB=(--name=a --filename="$TMP/f" --rw=read --bs=4k --output-format=json)

# run TOOL ARGS...: the job in TOOL.d/, its JSON report in TOOL.json
run() {
	local tool=$1; shift
	rm -rf "$tool.d" && mkdir "$tool.d"
	if [ "$tool" = fio ]; then
		(cd fio.d && fio "${JOB[@]}" "$@") >fio.json 2>fio.err
	else
		(cd iodig.d && "$IODIG" run --no-probes --no-save "${JOB[@]}" "$@") >iodig.json 2>iodig.err
	fi || fail "$tool $*: $(head -c 300 "$tool.err")"
}
both() { CASE="$*"; run fio "$@"; run iodig "$@"; }
near() { [ -n "$1" -a -n "$2" ] || return 1; local d=$(($1 - $2)); [ "${d#-}" -le "$3" ]; }

for c in 0 1 3 6 7 10; do
	both --size=16m --rate=20m --write_hist_log=x --log_hist_msec=100 --log_hist_coarseness=$c
	h=x_clat_hist.1.log
	f=$(awk -F, '{print NF}' "fio.d/$h" | sort -u | paste -sd' ')
	i=$(awk -F, '{print NF}' "iodig.d/$h" 2>/dev/null | sort -u | paste -sd' ')
	check "$CASE: columns per line $i, fio $f" [ -n "$i" -a "$i" = "$f" ]
	f=$(wc -l <"fio.d/$h") i=$(wc -l <"iodig.d/$h" 2>/dev/null || echo 0)
	check "$CASE: $i lines, fio $f (±1)" near "$i" "$f" 1
	# the lines count the completions of their windows: all but the last
	# window's (at most 150 ms of 4096 I/Os at 5120/s)
	sum=$(awk -F, '{for (k = 4; k <= NF; k++) s += $k} END {print s + 0}' "iodig.d/$h" 2>/dev/null)
	check "$CASE: the bins sum to $sum of the 4096 completions" \
		[ "${sum:-0}" -le 4096 -a "${sum:-0}" -ge 3300 ]
done

# first TOOL: the time of the first line of TOOL's bw log, in ms
first() { head -1 "$1.d/x_bw.1.log" 2>/dev/null | cut -d, -f1; }
mono_ms() { awk '{printf "%d\n", $1 * 1000}' /proc/uptime; }
t0=$(mono_ms)
both --size=1m --write_bw_log=x --log_alternate_epoch=1 --log_alternate_epoch_clock_id=1
f=$(first fio) i=$(first iodig)
check "$CASE: times from boot (CLOCK_MONOTONIC): iodig $i, fio $f, uptime $t0 ms" \
	[ -n "$i" ] && near "$i" "$t0" 10000 && near "$i" "$f" 10000
both --size=1m --write_bw_log=x --log_unix_epoch=1 --log_alternate_epoch_clock_id=1
f=$(first fio) i=$(first iodig)
check "$CASE: log_unix_epoch takes the clock too: iodig $i, fio $f" \
	[ -n "$i" ] && near "$i" "$t0" 10000 && near "$i" "$f" 10000
t0=$(date +%s%3N)
both --size=1m --write_bw_log=x --log_alternate_epoch=1
f=$(first fio) i=$(first iodig)
check "$CASE: CLOCK_REALTIME by default: iodig $i, fio $f, now $t0" \
	[ -n "$i" ] && near "$i" "$t0" 10000 && near "$i" "$f" 10000
both --size=1m --write_bw_log=x --log_alternate_epoch_clock_id=1
f=$(first fio) i=$(first iodig)
check "$CASE: without an epoch option, times from the job's start: iodig $i, fio $f" \
	[ -n "$i" ] && [ "$i" -lt 1000 -a "$f" -lt 1000 ]
refused "a clock the system lacks" "log_alternate_epoch_clock_id 77 is not a clock" \
	--log_alternate_epoch=1 --log_alternate_epoch_clock_id=77

both --size=1m --log_entries=2048 --log_compression_cpus=0 --log_store_compressed=0
check "$CASE: accepted, as by fio" [ "$(jq -r '.jobs[0].read.total_ios' iodig.json)" = 256 ]
refused "log_entries below fio's 1024" "log_entries.*out of range 1024-1048576" --log_entries=100
refused "log_hist_coarseness=11 (fio 3.33 aborts)" "log_hist_coarseness.*out of range 0-10" \
	--log_hist_coarseness=11
done_testing
