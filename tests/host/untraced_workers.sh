# More process workers than the probes' tgid slots: the run succeeds and stderr names the first untraced worker once, also over --repeat=2, with the limit and the thread=1 way out; with thread=1 nothing is said. timeout: 60
source tests/host/lib.sh
need_root
run_many() { # run_many OUT-PREFIX ARGS...: 40 psync workers on the scratch device
	local out=$1; shift
	"$IODIG" run --no-progress --no-save --output-format=json --name=many --rw=randread \
		--bs=4k --ioengine=psync --numjobs=40 --group_reporting --runtime=1 \
		--time_based --target=scratch --scratch-size=64m "$@" >"$out.json" 2>"$out.err"
}
run_many "$TMP/procs" --repeat=2
RC=$?
check "processes: exit 0 (got $RC): $(tr '\n' ' ' <"$TMP/procs.err")" [ "$RC" -eq 0 ]
check "processes: report has I/O" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/procs.json")" -gt 0 ]
N=$(grep -c 'not traced' "$TMP/procs.err")
check "processes: warned once (got $N)" [ "$N" -eq 1 ]
check "processes: the warning's text" grep -Eq '^iodig: worker process [0-9]+ and later ones are not traced: the probes follow at most [0-9]+ processes \(thread=1 puts all workers in one\)$' "$TMP/procs.err"
run_many "$TMP/threads" --thread
RC=$?
check "threads: exit 0 (got $RC)" [ "$RC" -eq 0 ]
check "threads: no warning: $(tr '\n' ' ' <"$TMP/threads.err")" bash -c "! grep -q 'not traced' '$TMP/threads.err'"
done_testing
