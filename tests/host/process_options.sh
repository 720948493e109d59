#!/bin/bash
# fio's process options reach the workers: cpus_allowed, cpumask,
# cpus_allowed_policy=split, nice, prio and prioclass, read back from each
# running worker's /proc/<tid>/status (Cpus_allowed_list), /proc/<tid>/stat
# (nice) and ioprio_get (ionice -p), for worker processes and threads.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_root
command -v ionice >/dev/null || skip "no ionice (util-linux)"
# nice= adds to the nice value iodig runs with (nice(2), as fio)
[ "$(awk '{print $19}' /proc/self/stat)" -eq 0 ] || skip "runs under a nice value; the expected ones assume 0"
NCPU=$(nproc)
LAST=$((NCPU - 1))
F=$TMP/data
truncate -s 64m "$F"

# task PID TID: /proc's folder of task TID, a thread of PID or a process
task() {
	local base=/proc/$1/task/$2
	[ "$1" = "$2" ] || [ -d "$base" ] || base=/proc/$2/task/$2
	echo "$base"
}
# reading PID TID: the task has read from the job's file; a worker sets its
# own options before its first I/O, so a task seen at its fork may not have
reading() { [ "$(awk '/^rchar:/ {print $2}' "$(task "$1" "$2")/io" 2>/dev/null)" -gt 0 ] 2>/dev/null; }
# workers PID NUMJOBS MODE: the worker tids of a running iodig, one a line,
# once each has started its I/O (MODE process: its children; thread: its
# tasks but the main one)
workers() {
	local pid=$1 n=$2 mode=$3 list t ready
	while kill -0 "$pid" 2>/dev/null; do
		if [ "$mode" = process ]; then
			list=$(pgrep -P "$pid")
		else
			list=$(ls "/proc/$pid/task" 2>/dev/null | grep -vx "$pid")
		fi
		ready=1
		for t in $list; do reading "$pid" "$t" || ready=; done
		[ -n "$ready" ] && [ "$(echo "$list" | grep -c .)" -ge "$n" ] &&
			{ echo "$list"; return 0; }
		sleep 0.1
	done
	return 1
}

# attrs PID TID: "cpus;nice;ioprio" of one task
attrs() {
	local base
	base=$(task "$1" "$2")
	printf '%s;%s;%s\n' "$(awk '/^Cpus_allowed_list/ {print $2}' "$base/status")" \
		"$(awk '{print $19}' "$base/stat")" "$(ionice -p "$2")"
}

# run CASE MODE NUMJOBS EXPECTED... -- OPTIONS: starts a 3 s job with OPTIONS,
# compares each worker's attrs (sorted) with EXPECTED (sorted)
run_case() {
	local case=$1 mode=$2 n=$3 want=() got pid t rc
	shift 3
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	"$IODIG" run --name="$case" --filename="$F" --size=64m --rw=read --bs=4k \
		--time_based --runtime=3 --numjobs="$n" --no-save --no-probes \
		--no-progress --output-format=json "$@" >"$TMP/$case.json" 2>"$TMP/$case.err" &
	pid=$!
	if ! t=$(workers "$pid" "$n" "$mode"); then
		fail "$case: no $n worker(s) appeared"
		wait "$pid"
		cat "$TMP/$case.err" >&2
		return
	fi
	got=$(for w in $t; do attrs "$pid" "$w"; done | sort)
	wait "$pid"
	rc=$?
	check "$case: iodig exits 0 ($(head -c 200 "$TMP/$case.err"))" [ "$rc" -eq 0 ]
	check "$case: workers run with $(printf '%s ' "${want[@]}")(got: $(echo $got))" \
		[ "$got" = "$(printf '%s\n' "${want[@]}" | sort)" ]
}

run_case procs process 2 "$LAST;5;best-effort: prio 6" "$LAST;5;best-effort: prio 6" -- \
	--cpus_allowed="$LAST" --nice=5 --prio=6 --prioclass=2
run_case prio-only process 1 "0-$LAST;0;best-effort: prio 7" -- --prio=7
[ "$NCPU" -gt 1 ] && NONE="0-$LAST" || NONE=0
run_case class-only thread 1 "$NONE;0;idle" -- --thread=8 --prioclass=3
run_case cpumask process 1 "0;2;none: prio 0" -- --cpumask=1 --nice=2
if [ "$NCPU" -ge 2 ]; then
	# split: one CPU each, round robin over the set, in worker order
	run_case split thread 3 "0;0;none: prio 0" "1;0;none: prio 0" "0;0;none: prio 0" -- \
		--thread --cpus_allowed=0-1 --cpus_allowed_policy=split
else
	echo "skipped: split needs 2 CPUs"
fi

# a CPU the machine lacks: refused before anything runs, as fio does
out=$("$IODIG" run --name=nocpu --filename="$F" --size=1m --cpus_allowed="$NCPU" \
	--no-save --no-probes 2>&1)
check "a CPU the machine lacks is refused ($out)" \
	matches "$out" "CPU $NCPU of cpus_allowed/cpumask does not exist here"
done_testing
