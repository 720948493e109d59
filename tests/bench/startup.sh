#!/bin/bash
# make bench, part 3: how long iodig takes around the I/O.  An outside
# stopwatch (bpftrace on exec, on the job's reads and on exit) gives, for
# one 12 KiB read from a tmpfs file, the time from exec to the first
# workload I/O and from the last one to the process's exit, for fio,
# iodig --no-probes, iodig with the default probes and with --detail:
# alternating runs, medians of PAIRS rounds.  Then where iodig's time
# goes, from its own phase marks (IODIG_TIMING=1 on the default-probe
# runs): the median end of each phase, the wall and the process's CPU ms
# since the mark before.
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
OUT=${OUT:-build}
IODIG=${IODIG:-$PWD/$OUT/iodig}
PAIRS=${PAIRS:-7}
# BASE=<another iodig>: its default-probe run joins each round ("base"),
# for a before/after comparison of alternating runs.
BASE=${BASE:-}
BPFTRACE=${BPFTRACE:-$(command -v bpftrace || true)}
[ "$(id -u)" -eq 0 ] || { echo "start-up bench needs root (bpftrace)"; exit 1; }
[ -n "$BPFTRACE" ] || { echo "start-up bench needs bpftrace (make deps)"; exit 1; }

TMP=$(mktemp -d /dev/shm/iodig-startup.XXXXXX)
BT_PID= MOUNTED_TRACEFS=
cleanup() {
	[ -n "$BT_PID" ] && kill -INT "$BT_PID" 2>/dev/null
	wait 2>/dev/null
	[ -n "$MOUNTED_TRACEFS" ] && umount /sys/kernel/tracing
	rm -rf "$TMP"
}
trap cleanup EXIT
# bpftrace finds tracepoints through tracefs; iodig mounts it only while
# it runs.
if [ ! -e /sys/kernel/tracing/available_events ]; then
	mount -t tracefs nodev /sys/kernel/tracing && MOUNTED_TRACEFS=1
fi
head -c 1M /dev/urandom >"$TMP/f"
# 12 KiB: a read size nothing else in either program uses
JOB=(--name=s --filename="$TMP/f" --rw=read --bs=12k --size=12k)
export IODIG_RUNS_DIR=$TMP/runs  # the trace file is written, as by default

# Only this script's children and their descendants: other iodig and fio
# runs may share the machine.
"$BPFTRACE" -B line -e '
tracepoint:sched:sched_process_exec /(comm == "iodig" || comm == "fio") &&
	curtask->real_parent->tgid == '"$$"'/ {
	@ours[pid] = 1; printf("exec %d %llu\n", pid, nsecs); }
tracepoint:sched:sched_process_fork /@ours[args->parent_pid]/ { @ours[args->child_pid] = 1; }
tracepoint:syscalls:sys_enter_pread64 /@ours[pid] && args->count == 12288/ {
	printf("io %d %llu\n", pid, nsecs); }
tracepoint:sched:sched_process_exit /@ours[pid] && pid == tid/ {
	printf("exit %d %llu\n", pid, nsecs); delete(@ours[pid]); }
END { clear(@ours); }' \
	>"$TMP/bt.txt" 2>"$TMP/bt.err" &
BT_PID=$!
for _ in $(seq 300); do grep -q Attaching "$TMP/bt.txt" 2>/dev/null && break; sleep 0.1; done
grep -q Attaching "$TMP/bt.txt" || { echo "bpftrace did not start: $(cat "$TMP/bt.err")"; exit 1; }

# one labelled run: "label" on the stopwatch's timeline, then the command
run() {
	local label=$1; shift
	"$@" >"$TMP/out.$label.json" 2>"$TMP/err.$label" &
	# by pid: a run the stopwatch lost must not shift the others' labels
	echo "$label $!" >>"$TMP/labels"
	wait $! || true
	grep -s '^iodig-timing:' "$TMP/err.$label" | sed 's/^iodig-timing: *//' >>"$TMP/phases.$label"
	sleep 0.2 # the exit event reaches the stopwatch's buffer
}
for _ in $(seq "$PAIRS"); do
	run fio fio --output-format=json "${JOB[@]}"
	run noprobes "$IODIG" run --no-probes --output-format=json "${JOB[@]}"
	run default env IODIG_TIMING=1 "$IODIG" run --output-format=json "${JOB[@]}"
	[ -z "$BASE" ] || run base "$BASE" run --output-format=json "${JOB[@]}"
	run detail "$IODIG" run --detail --output-format=json "${JOB[@]}"
done
kill -INT "$BT_PID"; wait "$BT_PID" 2>/dev/null || true; BT_PID=

# Each exec starts a run; its reads and its own exit follow before the next
# exec (runs are sequential).
# Prints "label start_ms end_ms total_ms" per run, found by its pid.
awk 'FNR == NR { label[$2] = $1; next }
     $1 == "exec" { pid = $2; t0 = $3; first = 0; last = 0 }
     $1 == "io" && pid { if (!first) first = $3; last = $3 }
     $1 == "exit" && $2 == pid {
	if (first && (pid in label))
		printf "%s %.1f %.1f %.1f\n", label[pid], (first - t0) / 1e6,
		       ($3 - last) / 1e6, ($3 - t0) / 1e6;
	pid = 0 }' "$TMP/labels" "$TMP/bt.txt" >"$TMP/rows"
printf '%-24s %16s %16s %12s\n' "command (12 KiB read)" "exec->1st I/O" "last I/O->exit" "total"
for label in fio noprobes default ${BASE:+base} detail; do
	awk -v l="$label" '$1 == l' "$TMP/rows" >"$TMP/sel"
	printf '%-24s %13s ms %13s ms %9s ms\n' "$label" \
		"$(cut -d' ' -f2 "$TMP/sel" | median)" "$(cut -d' ' -f3 "$TMP/sel" | median)" \
		"$(cut -d' ' -f4 "$TMP/sel" | median)"
done
echo "(medians of $PAIRS alternating rounds; the stopwatch is bpftrace on exec, pread64 and exit)"
echo
TAB=$(printf '\t')
echo "where iodig's time goes, default probes (IODIG_TIMING=1; medians over the rounds):"
# lines "<at> ms +<wall> ms cpu +<cpu> ms <phase...>"; a phase's median end,
# wall and CPU since the mark before, in the order of the median ends
awk '{ at = $1; wall = $3; cpu = $6; $1 = $2 = $3 = $4 = $5 = $6 = $7 = ""
       sub(/^ +/, ""); print $0 "\t" at "\t" wall "\t" cpu }' "$TMP/phases.default" |
	sort -t"$TAB" -k1,1 |
	awk -F'\t' 'function med(a, n,   i, j, v) {  # insertion sort: mawk has no asort
			for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j > 0 && a[j] > v; j--)
				a[j + 1] = a[j]; a[j + 1] = v }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	     function flush() { if (n) {
			printf "%s\t%.1f\t%.1f\t%.1f\n", name, med(at, n), med(wall, n), med(cpu, n) }
			n = 0; delete at; delete wall; delete cpu }
	     $1 != name { flush(); name = $1 }
	     { n++; at[n] = $2 + 0; wall[n] = $3 + 0; cpu[n] = $4 + 0 }
	     END { flush() }' |
	sort -t"$TAB" -k2,2g |
	awk -F'\t' 'BEGIN { printf "  %-24s %10s %10s %10s\n", "phase (end of)", "at ms", "wall ms", "cpu ms" }
		     { printf "  %-24s %10.1f %10.1f %10.1f\n", $1, $2, $3, $4 }'
echo "(wall and CPU since the mark before in the same run; parallel family opens overlap, so"
echo " their wall times do not add up; \"openers parked\" carries the CPU of all of them;"
echo " the \"destroy\" marks come from the teardown thread, which runs beside the report and"
echo " trace file, and \"cleanup done\" waits for it)"
