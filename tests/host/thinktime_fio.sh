#!/bin/bash
# thinktime against fio 3.33: when a think comes, and how it waits.
#
# When: fio's do_io asks after each I/O issued and the reap a full queue
# needed, counting thinktime_blocks from where it stood when it last
# asked, before the think's wait for the I/O in flight; so at depth 8
# with thinktime_blocks=1 it thinks after every I/O once the queue first
# filled (one io_submit, one io_getevents, a think).  The worker's
# io_submit/io_getevents calls under strace, with their counts, for
# libaio at depth 8 and 64 reads, must be fio's, for thinktime_blocks 1,
# 4, 3 with iodepth_low=2, 5 with iodepth_batch_complete_min=4, and
# thinktime_blocks_type=issue.
#
# How: as fio's usec_sleep, a think shorter than nanosleep's granularity
# (at least the 50 us timer slack) is spun, a longer one slept for what
# lies past the granularity and the rest spun.  Seen in the worker's sleeps under strace, between its first and
# last read of a sized psync job on a tmpfs file:
# - thinktime=20 (us) after each of 256 reads: no sleep at all (a
#   nanosleep of 20 us would take 70 or more, the job 3-4x as long);
# - thinktime=5ms every 64 reads: one sleep a think, asked for less than
#   5 ms (5 ms less the granularity; more than 1 ms, as strace slows the
#   sleeps that measure it), as many as fio's.
# Then a think of 60 s is cut short by SIGINT to iodig.
# timeout: 180
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
command -v strace >/dev/null || skip "no strace"
FILE=$TMP/file
head -c 1M /dev/zero >"$FILE"

# sleeps TOOL ARGS...: the job under strace; leaves in $TMP/TOOL.sleeps
# the nanoseconds each sleep of the worker asked for, from its first
# read to its last
sleeps() {
	local tool=$1 f n best=0 worker=; shift
	local cmd=(fio)
	[ "$tool" = iodig ] && cmd=("$IODIG" run --no-probes --no-save)
	rm -rf "$TMP/st" && mkdir "$TMP/st"
	strace -ff -e trace=pread64,nanosleep,clock_nanosleep -o "$TMP/st/t" \
		"${cmd[@]}" --name=t --filename="$FILE" --rw=randread --bs=4k \
		--ioengine=psync --size=1m "$@" >/dev/null 2>&1 || fail "$tool under strace failed"
	for f in "$TMP"/st/t.*; do
		n=$(grep -c pread64 "$f")
		[ "$n" -gt "$best" ] && { best=$n; worker=$f; }
	done
	[ "$best" -eq 256 ] || fail "$tool: $best reads in its busiest process, not 256"
	awk '/pread64/ { reads++; if (reads == 256) exit; next }
	     reads && /sleep/ && match($0, /tv_sec=[0-9]+, tv_nsec=[0-9]+/) {
		split(substr($0, RSTART, RLENGTH), v, /[=,]/)
		printf "%d\n", v[2] * 1e9 + v[4] }' "$worker" >"$TMP/$tool.sleeps"
}
count() { wc -l <"$1"; }

for args in "--thinktime=20" "--thinktime=20 --thinktime_blocks=4" \
	"--thinktime=20 --thinktime_blocks=3 --iodepth_low=2" \
	"--thinktime=20 --thinktime_blocks=5 --iodepth_batch_complete_min=4" \
	"--thinktime=20 --thinktime_blocks_type=issue"; do
	# shellcheck disable=SC2086 # the words of ARGS
	f=$(libaio_calls fio --filename="$FILE" --rw=randread --bs=4k --iodepth=8 --size=256k $args)
	# shellcheck disable=SC2086
	i=$(libaio_calls iodig --filename="$FILE" --rw=randread --bs=4k --iodepth=8 --size=256k $args)
	echo "$args: fio $f"
	echo "$args: iodig $i"
	check "$args: iodig submits and reaps in fio's order" [ -n "$f" -a "$f" = "$i" ]
done
# all_between LO HI FILE: every line of FILE is within (LO, HI)
all_between() { awk -v lo="$1" -v hi="$2" '$1 <= lo || $1 >= hi { bad++ } END { exit bad > 0 }' "$3"; }

for tool in fio iodig; do
	sleeps $tool --thinktime=20
	check "$tool: a 20 us think after each read is spun, never slept ($(count "$TMP/$tool.sleeps") sleeps)" \
		[ "$(count "$TMP/$tool.sleeps")" -eq 0 ]
done

for tool in fio iodig; do
	sleeps $tool --thinktime=5ms --thinktime_blocks=64
	cp "$TMP/$tool.sleeps" "$TMP/$tool.long"
	echo "$tool sleeps (ns): $(tr '\n' ' ' <"$TMP/$tool.long")"
	check "$tool: each 5 ms think sleeps less than 5 ms, more than 1" \
		all_between 1000000 5000000 "$TMP/$tool.long"
done
# fio thinks after reads 64, 128 and 192 within the reads, and after 256
check "iodig sleeps as often as fio ($(count "$TMP/iodig.long") against $(count "$TMP/fio.long"))" \
	[ "$(count "$TMP/iodig.long")" -eq "$(count "$TMP/fio.long")" -a "$(count "$TMP/fio.long")" -ge 3 ]

# A long think ends on a stop: SIGINT after the first read's think began
"$IODIG" run --no-probes --no-save --name=t --filename="$FILE" --rw=randread --bs=4k \
	--ioengine=psync --size=1m --thinktime=60s >"$TMP/int.out" 2>&1 &
PID=$!
sleep 2
kill -INT "$PID"
for _ in $(seq 100); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$PID" 2>/dev/null; then
	kill -KILL "$PID"
	fail "iodig still thinking 10 s after SIGINT (a 60 s think)"
fi
wait "$PID"
check "iodig stopped by SIGINT in a 60 s think reports its one read" \
	grep -qE 'read: IOPS=.*\(4096B/' "$TMP/int.out"

done_testing
