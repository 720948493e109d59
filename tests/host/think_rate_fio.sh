#!/bin/bash
# rate_ignore_thinktime and thinktime_iotime against fio 3.33, on a file
# in tmpfs (each I/O far quicker than the rate's gap):
# - rate_iops=2000 with a 50 ms think every 100 I/Os: by default the job
#   catches up after each think (near 2000 IOPS); with
#   rate_ignore_thinktime it does not (each 50 ms of I/O is followed by a
#   50 ms think: near 1000 IOPS).
# - thinktime_iotime=300ms with thinktime=100ms, no thinktime_blocks: a
#   think every 400 ms (fio 3.33 times the cycle from the start of the
#   last think, the first after 400 ms of I/O), not after each I/O.  The
#   thinks are the worker's sleeps between two reads asking 40 ms or more
#   in all (strace), each one's time from the worker's first read.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
command -v strace >/dev/null || skip "no strace"
FILE=$TMP/file
head -c 16M /dev/zero >"$FILE"

# job TOOL ARGS...: a time-based randread of FILE; the JSON report on stdout
job() {
	local tool=$1; shift
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	"${cmd[@]}" --name=t --filename="$FILE" --rw=randread --bs=4k --ioengine=psync \
		--time_based --output-format=json "$@" 2>"$TMP/$tool.err" | sed -n '/^{/,$p'
}
iops() { jqr '.jobs[0].read.iops | floor'; }
within() { [ "$1" -ge $(($2 * 85 / 100)) ] && [ "$1" -le $(($2 * 115 / 100)) ]; }

for tool in fio iodig; do
	eval "${tool}_catch=$(job $tool --runtime=3 --rate_iops=2000 --thinktime=50ms \
		--thinktime_blocks=100 | iops)"
	eval "${tool}_ignore=$(job $tool --runtime=3 --rate_iops=2000 --thinktime=50ms \
		--thinktime_blocks=100 --rate_ignore_thinktime=1 | iops)"
done
echo "IOPS catching up: fio $fio_catch, iodig $iodig_catch; ignoring thinktime: fio $fio_ignore, iodig $iodig_ignore"
check "fio catches up ($fio_catch IOPS) near 2000" within "$fio_catch" 2000
check "fio with rate_ignore_thinktime ($fio_ignore IOPS) near 1000" within "$fio_ignore" 1000
check "iodig catches up ($iodig_catch IOPS) as fio ($fio_catch)" within "$iodig_catch" "$fio_catch"
check "iodig with rate_ignore_thinktime ($iodig_ignore IOPS) as fio ($fio_ignore)" \
	within "$iodig_ignore" "$fio_ignore"

# think_times TOOL ARGS...: runs the job under strace, leaves the thinks
think_times() {
	local tool=$1 f n best=0 worker=; shift
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	rm -rf "$TMP/st" && mkdir "$TMP/st"
	strace -ff -ttt -e trace=pread64,nanosleep,clock_nanosleep -o "$TMP/st/t" \
		"${cmd[@]}" --name=t --filename="$FILE" --rw=randread --bs=4k --ioengine=psync \
		--time_based --output-format=json "$@" >/dev/null 2>&1 ||
		fail "$tool under strace failed"
	for f in "$TMP"/st/t.*; do
		n=$(grep -c pread64 "$f")
		[ "$n" -gt "$best" ] && { best=$n; worker=$f; }
	done
	[ -n "$worker" ] || { : >"$TMP/$tool.thinks"; return; }
	# a think is the sleeps between two reads (iodig sleeps a long one
	# in slices, to see a stop), asked for 40 ms or more in all
	awk 'function think() { if (asked >= 40e6) printf "%d\n", (first - t0) * 1000; asked = 0 }
	     /pread64/ { if (!t0) t0 = $1; think(); next }
	     t0 && /sleep/ && match($0, /tv_sec=[0-9]+, tv_nsec=[0-9]+/) {
		split(substr($0, RSTART, RLENGTH), v, /[=,]/)
		if (!asked) first = $1
		asked += v[2] * 1e9 + v[4] }
	     END { think() }' "$worker" >"$TMP/$tool.thinks"
}
# near EXPECTED FILE: FILE's first lines each within 60 ms of the same
# one of EXPECTED (a think due as the run ends may be there or not)
near() {
	local n
	n=$(echo "$1" | wc -w)
	# shellcheck disable=SC2086 # the words of EXPECTED, one a line
	paste -d' ' <(printf '%s\n' $1) <(head -"$n" "$2") |
		awk '{ d = $1 - $2; if (NF != 2 || d > 60 || d < -60) bad++ } END { exit bad > 0 }'
}
ARGS=(--runtime=2 --rate_iops=5000 --thinktime=100ms --thinktime_iotime=300ms)
for tool in fio iodig; do
	think_times $tool "${ARGS[@]}"
	echo "$tool thinks at (ms): $(tr '\n' ' ' <"$TMP/$tool.thinks")"
	check "$tool: 4 thinks (5 if one is due as the run ends) in 2 s" \
		[ "$(wc -l <"$TMP/$tool.thinks")" -ge 4 -a "$(wc -l <"$TMP/$tool.thinks")" -le 5 ]
	check "$tool: a think every 400 ms from the start" near "400 800 1200 1600" "$TMP/$tool.thinks"
done
check "iodig thinks when fio does" near "$(head -4 "$TMP/fio.thinks" | tr '\n' ' ')" "$TMP/iodig.thinks"

done_testing
