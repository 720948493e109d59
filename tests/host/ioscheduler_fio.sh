#!/bin/bash
# ioscheduler against fio 3.33: while the job runs, its disk's
# /sys/block/X/queue/scheduler has the scheduler asked for, read by this
# test during each tool's run, for every scheduler the kernel offers for a
# loop device.  fio leaves it switched; iodig puts back the one the disk
# had, also after a failed job and after SIGINT, and its trace file records
# the scheduler the run measured with.  A scheduler the kernel does not
# have fails the job in both (exit status 1), iodig naming the option.
# timeout: 240
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
DEV=$(basename "$LOOP")
SYSF=/sys/block/$DEV/queue/scheduler
[ -w "$SYSF" ] || skip "no $SYSF to switch"
read -ra SCHEDS < <(tr -d '[]' <"$SYSF")
[ "${#SCHEDS[@]}" -ge 2 ] || skip "$DEV offers one scheduler: ${SCHEDS[*]}"
echo "schedulers of $DEV: ${SCHEDS[*]}"

active() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$SYSF"; }
# start TOOL SCHED: runs a 3 s read job with ioscheduler=SCHED in the
# background, PID in PID
start() {
	if [ "$1" = iodig ]; then
		"$IODIG" run --no-probes --save="$TMP/trace.json" --output-format=json \
			--name=j --filename="$LOOP" --rw=randread --bs=4k --size=16m \
			--time_based --runtime=3 --ioscheduler="$2" >"$TMP/out" 2>"$TMP/err" &
	else
		fio --name=j --filename="$LOOP" --rw=randread --bs=4k --size=16m \
			--time_based --runtime=3 --ioscheduler="$2" >"$TMP/out" 2>"$TMP/err" &
	fi
	PID=$!
}
# during FROM: the scheduler once the running tool has switched from FROM
# (FROM still, if it never did); iodig and fio switch before the job's I/O
during() {
	while kill -0 "$PID" 2>/dev/null && [ "$(active)" = "$1" ]; do sleep 0.05; done
	sleep 0.2
	kill -0 "$PID" 2>/dev/null || echo "note: the run ended before it was seen switched" >&2
	active
}

for s in "${SCHEDS[@]}"; do
	# the disk starts on another scheduler, so the switch is seen
	for other in "${SCHEDS[@]}"; do [ "$other" != "$s" ] && break; done
	for tool in fio iodig; do
		echo "$other" >"$SYSF" || fail "cannot set $DEV to $other"
		start $tool "$s"
		got=$(during "$other")
		wait "$PID"; rc=$?
		check "$tool, ioscheduler=$s: exit status $rc" [ "$rc" = 0 ]
		check "$tool, ioscheduler=$s: $DEV had '$got' during the run" [ "$got" = "$s" ]
		if [ $tool = fio ]; then
			check "fio leaves $DEV on $s: $(active)" [ "$(active)" = "$s" ]
		else
			check "iodig put $DEV back on $other: $(active)" [ "$(active)" = "$other" ]
			rec=$(jqr --arg d "$DEV" '.iodig.environment.devices[] | select(.name == $d) | .scheduler' \
				"$TMP/trace.json")
			check "iodig's trace file records $s for $DEV: '$rec'" [ "$rec" = "$s" ]
		fi
	done
done

# A scheduler the kernel does not have: the job fails, exit status 1.
orig=$(active)
fio --name=j --filename="$LOOP" --size=4m --ioscheduler=nosuch >"$TMP/out" 2>"$TMP/err"
frc=$?
"$IODIG" run --no-probes --no-save --name=j --filename="$LOOP" --size=4m \
	--ioscheduler=nosuch >"$TMP/out" 2>"$TMP/err"
irc=$?
check "unknown scheduler: fio exits $frc, iodig $irc" [ "$frc" = 1 -a "$irc" = "$frc" ]
check "unknown scheduler: iodig names the option: $(tail -n 1 "$TMP/err")" \
	grep -q "ioscheduler.*unable to set io scheduler to nosuch" "$TMP/err"
check "unknown scheduler: $DEV still on $orig: $(active)" [ "$(active)" = "$orig" ]

# A run that fails: one job switched the disk, the other could not; the
# one that ran is put back all the same.
echo "${SCHEDS[0]}" >"$SYSF"
"$IODIG" run --no-probes --no-save --name=a --filename="$LOOP" --size=4m \
	--ioscheduler="${SCHEDS[1]}" --name=b --filename="$LOOP" --size=4m \
	--ioscheduler=nosuch >"$TMP/out" 2>"$TMP/err"
irc=$?
check "a failed job: iodig exits $irc" [ "$irc" = 1 ]
check "a failed job: $DEV back on ${SCHEDS[0]}: $(active)" [ "$(active)" = "${SCHEDS[0]}" ]

# SIGINT in the middle of a long run.
"$IODIG" run --no-probes --no-save --name=j --filename="$LOOP" --rw=randread \
	--size=16m --time_based --runtime=60 --ioscheduler="${SCHEDS[1]}" \
	>"$TMP/out" 2>"$TMP/err" &
PID=$!
got=$(during "${SCHEDS[0]}")
kill -INT "$PID"
wait "$PID"; irc=$?
check "SIGINT: $DEV had '$got' during the run" [ "$got" = "${SCHEDS[1]}" ]
check "SIGINT: iodig exits $irc (128 + 2)" [ "$irc" = 130 ]
check "SIGINT: $DEV back on ${SCHEDS[0]}: $(active)" [ "$(active)" = "${SCHEDS[0]}" ]
done_testing
