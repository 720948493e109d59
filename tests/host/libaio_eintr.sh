#!/bin/bash
# A libaio worker stopped and continued while it waits in io_getevents
# gets -EINTR (the call is not restarted); the engine retries within the
# same reap, as fio's does, and the run goes on.  The syscalls family counts
# the kernel's calls, the workload one reap per retry loop: the text's
# cross-check says the difference is the failed calls retried, and it
# equals the io_getevents errors.
# timeout: 60
. "$(dirname "$0")/lib.sh"
need_root
make_loop 64 || skip "no loop device"

"$IODIG" run --no-save --no-progress --probes=syscalls --name=eintr --filename="$LOOP" \
	--direct=1 --rw=randread --bs=4k --ioengine=libaio --iodepth=1 \
	--runtime=3 --time_based >"$TMP/out" 2>"$TMP/err" &
run=$!
worker=$(await_workers "$run") || fail "no worker process under iodig ($run)"
sleep 0.3
for _ in $(seq 100); do
	kill -STOP "$worker" 2>/dev/null && kill -CONT "$worker" 2>/dev/null
	sleep 0.01
done
wait "$run"
rc=$?
check "the run ends well after 100 stops (exit $rc: $(head -c 200 "$TMP/err"))" [ "$rc" = 0 ]
errors=$(sed -n 's/^ *io_getevents *: calls=[0-9]* (errors=\([0-9]*\)).*/\1/p' "$TMP/out")
line=$(grep 'reaping *calls:' "$TMP/out")
echo "io_getevents errors: ${errors:-0}; $line"
[ -n "$errors" ] || skip "no io_getevents was interrupted in 100 stops"
traced=$(echo "$line" | sed -n 's/.*: \([0-9]*\) traced, workload counted \([0-9]*\).*/\1/p')
counted=$(echo "$line" | sed -n 's/.*: \([0-9]*\) traced, workload counted \([0-9]*\).*/\2/p')
check "traced reaps less counted ($traced - $counted) are the failed calls ($errors)" \
	[ "$((traced - counted))" = "$errors" ]
check "the cross-check names them: $line" grep -q "+$errors: failed calls retried" <<<"$line"
done_testing
