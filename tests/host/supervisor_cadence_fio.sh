# While a job runs, iodig's supervisor wakes as often as fio's main thread does (fio 3.33 reaps its jobs every 10 ms: wait4, then a 10 ms sleep): counted as the main thread's context switches over one second mid-run, iodig's are within 0.7-2x of fio's for the same job, with the default probes, with --no-probes, and with thread=1 (where the worker is a thread of iodig's process and not counted).
source tests/host/lib.sh
need_fio3
cd "$TMP" || exit 1
F=$TMP/data
truncate -s 64m "$F" || exit 1
JOB=(--name=c --filename="$F" --rw=randread --bs=4k --ioengine=psync --runtime=3 --time_based)

# switches TOOL ARGS...: the main thread's context switches in one second,
# from 1 s after the tool started its job (both start their I/O within 0.3 s)
switches() {
	local pid a b
	"$@" >/dev/null 2>"$TMP/err" &
	pid=$!
	sleep 1
	a=$(awk '/ctxt_switches/ { s += $2 } END { print s }' "/proc/$pid/task/$pid/status" 2>/dev/null)
	sleep 1
	b=$(awk '/ctxt_switches/ { s += $2 } END { print s }' "/proc/$pid/task/$pid/status" 2>/dev/null)
	wait "$pid" || { echo "FAIL: $* exited $?: $(head -c 300 "$TMP/err")" >&2; echo 0; return; }
	echo $((${b:-0} - ${a:-0}))
}

fio_n=$(switches fio "${JOB[@]}" --output-format=json)
check "fio's main thread wakes about every 10 ms ($fio_n in 1 s)" between "$fio_n" 60 130
for mode in probes no-probes thread; do
	case $mode in
	probes) extra=() ;;
	no-probes) extra=(--no-probes) ;;
	thread) extra=(--thread) ;;
	esac
	n=$(switches "$IODIG" run --no-save --no-progress "${JOB[@]}" "${extra[@]}" --output=/dev/null)
	check "$mode: iodig's supervisor wakes $n times in 1 s, fio's main thread $fio_n (0.7-2x)" \
		between "$n" $(((fio_n * 7 + 9) / 10)) $((fio_n * 2))
done
done_testing
