# read_iolog's pace at depth against fio 3.33: a log fio wrote of 2048 4k random reads (libaio, iodepth=16, direct=1) replayed by both tools in turns with libaio and io_uring at iodepth=16, direct=1, on a loop device of the test's own: the device sees the log's reads and as many in flight at most as with fio, and the process replaying the log sleeps about as often as fio's between its first and last I/O (fio 3.33 spins through gaps shorter than nanosleep's granularity with its queue full; sleeping through each lets the queue drain to one or two).
source tests/host/lib.sh
fio_loop_test 64
own_tracefs iolog-depth
# a second instance for the replaying processes' system calls, chosen by
# pid: its pid filter would hide the loop worker's completions from INST
SYS=$TRACE/instances/iolog-depth-sys.$$
trap 'rmdir "$INST" "$SYS" 2>/dev/null; umount -q "$TRACE"; cleanup' EXIT
mkdir "$SYS" || skip "cannot make a tracefs instance"
RUN=(--no-probes --no-save --no-progress --allow-destructive)
EVENTS=(block_rq_issue block_rq_complete)
for e in "${EVENTS[@]}"; do
	[ -d "$INST/events/block/$e" ] || skip "no $e tracepoint"
	dev_filter "$LOOP" >"$INST/events/block/$e/filter"
done
CALLS=(sys_enter_nanosleep sys_enter_clock_nanosleep sys_enter_io_submit sys_enter_io_uring_enter)
for e in "${CALLS[@]}"; do
	[ -d "$SYS/events/syscalls/$e" ] || skip "no syscalls/$e tracepoint"
done
# this shell and what it forks from here on: nothing of other tests
echo 1 >"$SYS/options/event-fork" || skip "no event-fork option in tracefs"
echo $$ >"$SYS/set_event_pid" || skip "cannot choose the traced pid"
echo 8192 >"$INST/buffer_size_kb"
echo 8192 >"$SYS/buffer_size_kb"

fio --name=w --filename="$LOOP" --rw=randread --bs=4k --size=8m --ioengine=libaio --iodepth=16 \
	--direct=1 --write_iolog="$TMP/log" >/dev/null 2>&1
check "fio logged 2048 reads" [ "$(grep -c ' read ' "$TMP/log")" = 2048 ]

# tracing on|off: the block events of the device, and the system calls of
# the test's processes
tracing() {
	local e v=0
	[ "$1" = on ] && v=1
	for e in "${EVENTS[@]}"; do echo $v >"$INST/events/block/$e/enable"; done
	for e in "${CALLS[@]}"; do echo $v >"$SYS/events/syscalls/$e/enable"; done
}
# replay CMD...: CMD run traced; prints the requests the device saw, the
# most in flight at an issue, and the sleeps (nanosleep, clock_nanosleep)
# of the process replaying the log while it replays
replay() {
	settle "${LOOP#/dev/}"
	echo >"$INST/trace"
	echo >"$SYS/trace"
	tracing on
	"$@" >/dev/null 2>&1
	tracing off
	awk '/block_rq_issue:/ { n++; if (++d > max) max = d }
	     /block_rq_complete:/ { if (d > 0) d-- }
	     END { printf "%d %d ", n, max }' "$INST/trace"
	# "comm-PID [cpu] flags time: sys_NAME(...)": the task is the field
	# before the cpu, its pid after the last '-'.  The sleeps counted are a
	# pid's between its first and last I/O submitted: both tools measure
	# nanosleep's granularity before, and stop and exit after
	awk '{ pid = ""; for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
	       if (i <= NF) { pid = $(i - 1); sub(/.*-/, "", pid) }
	       sleep = /: sys_(clock_)?nanosleep\(/ }
	     FNR == NR { if (pid != "" && !sleep && /: sys_/) { if (!first[pid]) first[pid] = FNR; last[pid] = FNR }
	                 next }
	     sleep && first[pid] && FNR > first[pid] && FNR < last[pid] { s++ }
	     END { printf "%d\n", s }' "$SYS/trace" "$SYS/trace"
}
# mid N...: the middle one of an odd number of numbers
mid() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

for e in libaio io_uring; do
	job=(--name=r --read_iolog="$TMP/log" --ioengine=$e --iodepth=16 --direct=1)
	fn=() fmax=0 fsl=() in=() imax=0 isl=()
	# five runs each, taken in turns: the machine's load moves both alike
	for run in 1 2 3 4 5; do
		read -r n max sl < <(replay fio "${job[@]}")
		fn+=("$n") fsl+=("$sl"); [ "$max" -gt "$fmax" ] && fmax=$max
		read -r n max sl < <(replay "$IODIG" run "${RUN[@]}" "${job[@]}")
		in+=("$n") isl+=("$sl"); [ "$max" -gt "$imax" ] && imax=$max
	done
	check "$e: the device saw the log's 2048 reads from each run (iodig ${in[*]}, fio ${fn[*]})" \
		[ "$(printf '%s\n' "${in[@]}" "${fn[@]}" | sort -u)" = 2048 ]
	check "$e: at most as many in flight as fio's ($imax vs $fmax)" [ "$imax" = "$fmax" ]
	# Not the mean in flight: on a loop device it is the loop worker's
	# schedule, about 2 when it runs beside the replay, 8 when in turns
	# with it, in runs of either tool alike.  What sets it is whether the
	# replay sleeps: the log's gaps are mostly 4-20 us, a handful longer
	# than nanosleep's granularity; sleeping through the short ones is
	# hundreds of sleeps.  The margin, one sleep per 64 reads, is for the
	# gaps a loaded machine's granularity measure puts on the other side
	# of the line than fio's did.
	im=$(mid "${isl[@]}") fm=$(mid "${fsl[@]}")
	check "$e: the replay sleeps about as often as fio's (iodig ${isl[*]}, fio ${fsl[*]})" \
		[ "$im" -le $((fm + 2048 / 64)) ]
done
done_testing
