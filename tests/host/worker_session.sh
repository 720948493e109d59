#!/bin/bash
# A worker process leads a session of its own, as fio's job process does
# (fio calls setsid() in each forked job; a thread=1 job's threads stay in
# the supervisor's).  With sched_autogroup the session is the CPU share the
# scheduler gives it: a worker left in iodig's session splits one share
# with whatever else runs there, where fio's job has one to itself.
# Checked on running workers of both tools: session id, and the autogroup
# when the kernel has them on.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "needs fio"
cd "$TMP" || exit 1
truncate -s 16M file

JOB=(--name=s --filename="$TMP/file" --rw=randread --bs=4k --ioengine=psync
     --size=16m --runtime=3 --time_based)
AUTOGROUP=$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo 0)

# sessions TOOL-PID: "pid sid autogroup" of TOOL-PID's child once it has
# the job's file open (both tools open it after their setsid), polled for
# up to 10 s: a loaded machine can take seconds to start fio
has_file() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$TMP/file" ] && return 0
	done
	return 1
}
sessions() {
	local c
	for _ in $(seq 100); do
		for c in $(pgrep -P "$1"); do
			has_file "$c" || continue
			echo "$c $(awk '{print $6}' "/proc/$c/stat")" \
				"$(awk '{print $1}' "/proc/$c/autogroup" 2>/dev/null)"
			return 0
		done
		sleep 0.1
	done
}

for tool in fio iodig; do
	if [ $tool = fio ]; then
		fio "${JOB[@]}" --output-format=json >out.$tool 2>err.$tool &
	else
		"$IODIG" run --no-probes --no-save "${JOB[@]}" --output-format=json \
			>out.$tool 2>err.$tool &
	fi
	pid=$!
	read -r wpid wsid wgroup < <(sessions $pid)
	mine=$(awk '{print $1}' /proc/$$/autogroup 2>/dev/null)
	wait $pid
	check "$tool: a worker process was found running (${wpid:-none})" [ -n "${wpid:-}" ]
	check "$tool: the worker leads its own session (sid ${wsid:-?})" \
		[ "${wsid:-x}" = "${wpid:-y}" ]
	if [ "$AUTOGROUP" = 1 ]; then
		check "$tool: the worker's autogroup ($wgroup) is not the caller's ($mine)" \
			[ "${wgroup:-x}" != "$mine" ]
	fi
	check "$tool: the job ran" [ "$(jqr '.jobs[0].read.total_ios' out.$tool)" -gt 0 ]
done

# thread=1: iodig's worker threads, like fio's, stay in the caller's session
"$IODIG" run --no-probes --no-save "${JOB[@]}" --thread --output-format=json \
	>out.thread 2>err.thread &
pid=$!
sleep 1
sid=$(awk '{print $6}' /proc/$pid/stat)
kids=$(pgrep -P $pid | wc -l)
wait $pid
check "thread=1: the supervisor stays in the caller's session" \
	[ "$sid" = "$(awk '{print $6}' /proc/$$/stat)" ]
check "thread=1: no worker process ($kids)" [ "$kids" = 0 ]
done_testing
