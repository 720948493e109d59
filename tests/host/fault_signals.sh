# SIGINT, SIGTERM and SIGKILL while BPF programs load, mid-run and while the report is written: exit status and message say what happened, the report is complete or absent, and no BPF program, link, worker, scratch device or temp file survives; after SIGKILL the next run removes the stale scratch file and says so. timeout: 300
source tests/host/lib.sh
source tests/host/fault.lib
need_root
# iodig may save trace files under ./iodig-runs: keep them in $TMP.
REPO=$PWD
cd "$TMP" || exit 1
command -v bpftool >/dev/null || skip "bpftool not installed"
HAVE_STRACE=1
command -v strace >/dev/null || HAVE_STRACE=

JOB=(--name=f --rw=randrw --bs=4k --ioengine=io_uring --iodepth=8 --runtime=30
     --time_based --target=scratch --scratch-size=64m --output-format=json --no-progress)

# The report's fsync is the only one a scratch run makes before its report
# is in place (x86-64 and arm64 syscall numbers).
in_fsync() { local nr; read -r nr _ </proc/"$1"/syscall 2>/dev/null && [ "$nr" = 74 -o "$nr" = 82 ]; }

# fault SIG PHASE
fault() {
	local sig=$1 phase=$2 tag="SIG$1 $2" out=$TMP/out-$1-$2.json pid rc workers
	local ids=$TMP/ids-$1-$2 sent=
	case $phase in
	report)
		# Hold the report's fsync for 3 s so the signal lands while the
		# temp file is written; strace is the only tracee-side delay.
		strace -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=3000000 \
			"$IODIG" run "${JOB[@]}" --runtime=1 --output="$out" \
			>/dev/null 2>"$TMP/err" &
		local tracer=$!
		wait_for has_children "$tracer"
		pid=$(pgrep -P "$tracer" | head -n 1) ;;
	*)
		"$IODIG" run "${JOB[@]}" --output="$out" >/dev/null 2>"$TMP/err" &
		pid=$! ;;
	esac
	bpf_track "$pid" "$ids" &
	case $phase in
	# The tracker polls too: let it record a program before the kill.
	load)   wait_for has_bpf_fd "$pid" && wait_for test -s "$ids" ;;
	run)    await_workers "$pid" >/dev/null && sleep "0.$((RANDOM % 9 + 1))" ;;
	report) wait_for in_fsync "$pid" ;;
	esac
	[ $? -eq 0 ] && sent=1
	workers=$(pgrep -P "$pid" | tr '\n' ' ')
	kill -"$sig" "$pid"
	if [ "$phase" = report ]; then wait "$tracer"; else wait "$pid"; fi
	rc=$?
	wait   # the tracker
	echo "--- $tag: exit $rc, stderr: $(tr '\n' ' ' <"$TMP/err")"
	check "$tag: the phase was reached before the signal" [ -n "$sent" ]

	case $sig in
	KILL)
		check "$tag: exit 137 (got $rc)" [ "$rc" -eq 137 ]
		check "$tag: no report file" [ ! -e "$out" ] ;;
	*)
		local want=$((128 + $(kill -l "$sig")))
		if [ "$phase" = report ]; then
			# Signals stay blocked after the run; the report completes
			# and the exit status still tells about the signal.
			check "$tag: exit $want (got $rc)" [ "$rc" -eq "$want" ]
			check "$tag: stderr says the signal came during the report" \
				grep -qi "signal.*report" "$TMP/err"
			check "$tag: report complete" jqe '.jobs[0].job_runtime > 0' "$out"
		elif grep -q "before the workload started" "$TMP/err"; then
			check "$tag: exit $want (got $rc)" [ "$rc" -eq "$want" ]
			check "$tag: no report when nothing ran" [ ! -e "$out" ]
		else
			check "$tag: exit $want (got $rc)" [ "$rc" -eq "$want" ]
			check "$tag: stderr says interrupted" grep -qi interrupted "$TMP/err"
			check "$tag: report complete and marked interrupted" \
				jqe '.iodig.interrupted == true and (.jobs | length) == 1' "$out"
		fi ;;
	esac
	check "$tag: no temp output left: $(ls "$TMP" | grep iodig-tmp)" \
		[ -z "$(ls "$TMP" | grep iodig-tmp)" ]
	local left
	left=$(bpf_leftovers "$ids")
	check "$tag: $(sort -u "$ids" | wc -l) BPF ids tracked, none left: $left" \
		[ -s "$ids" -a -z "$left" ]
	sleep 0.2
	for w in $workers; do
		check "$tag: worker $w gone" bash -c "! kill -0 $w 2>/dev/null || grep -q '^State:.*Z' /proc/$w/status"
	done
	check "$tag: no scratch loop device left: $(scratch_devs_of "$pid")" \
		wait_for bash -c "[ -z \"\$(source $REPO/tests/host/fault.lib; scratch_devs_of $pid)\" ]"
	if [ "$sig" = KILL ]; then
		# The backing file outlives a SIGKILL; the next run removes it.
		check "$tag: scratch file kept for the next run" [ -n "$(scratch_files_of "$pid")" ]
		"$IODIG" run --no-probes --name=next --rw=read --size=1m --filename="$TMP/next" \
			>/dev/null 2>"$TMP/next.err"
		check "$tag: next run says it removed a stale scratch device: $(cat "$TMP/next.err")" \
			grep -q "removed [0-9]* scratch device" "$TMP/next.err"
	fi
	check "$tag: no scratch file left: $(scratch_files_of "$pid")" [ -z "$(scratch_files_of "$pid")" ]
}

for sig in INT TERM KILL; do
	for phase in load run report; do
		if [ "$phase" = report ] && [ -z "$HAVE_STRACE" ]; then
			echo "note: strace missing; SIG$sig while writing the report not tested"
			continue
		fi
		fault "$sig" "$phase"
	done
done
done_testing
