# iodig built with ASan+UBSan (build/asan/iodig) runs short real jobs, a bad job, --output and a SIGINT without any sanitizer report or leak. timeout: 240
source tests/host/lib.sh
need_root
out=${OUT:-build}
[[ "$out" == /* ]] || out=$PWD/$out
ASAN_IODIG=${ASAN_IODIG:-$out/asan/iodig}
[ -x "$ASAN_IODIG" ] || skip "$ASAN_IODIG is not built (make sanitize-build)"
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
REPORT='ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer'

# san_run NAME EXPECTED-EXIT ARGS...: runs the ASan iodig, checks exit and stderr
san_run() {
	local name=$1 want=$2; shift 2
	"$ASAN_IODIG" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	local rc=$?
	if grep -Eq "$REPORT" "$TMP/$name.err"; then
		fail "$name: sanitizer report:"
		grep -E -A12 "$REPORT" "$TMP/$name.err" | head -n 30 >&2
	else
		echo "ok: $name: no sanitizer report"
	fi
	check "$name: exit $rc, expected $want ($(tail -n 1 "$TMP/$name.err"))" [ "$rc" -eq "$want" ]
}

# 1. Scratch device, every probe family, JSON to a file.
san_run probes 0 run --output-format=normal,json --output="$TMP/probes.out" \
	--target=scratch --name=r --rw=randread --bs=4k --ioengine=io_uring --iodepth=16 \
	--runtime=2 --time_based --size=64m
check "probes: report written" grep -q '"jobs"' "$TMP/probes.out"

# 2. File target: libaio writes with verify, then a psync read job in threads.
san_run file 0 run --no-probes --output-format=json --name=w --rw=randwrite \
	--bs=8k --ioengine=libaio --iodepth=8 --size=16m --verify=crc32c \
	--verify_state_save=0 \
	--filename="$TMP/data" --name=r --stonewall --rw=read --bs=4k \
	--ioengine=psync --numjobs=4 --thread --group_reporting --size=16m \
	--filename="$TMP/data"
check "file: JSON has two jobs" [ "$(jq '.jobs | length' "$TMP/file.out" 2>/dev/null)" = 2 ]

# 3. A job file with an error: exit 2 and no leak on the error path.
printf '[bad]\nrw=randread\nbs=notasize\n' >"$TMP/bad.fio"
san_run badjob 2 run "$TMP/bad.fio"
check "badjob: names the file and line" grep -q "bad.fio:3" "$TMP/badjob.err"

# 4. mmap engine and a rate-free time_based mix on the scratch device.
san_run mmap 0 run --probes=block,faults --target=scratch --name=m --ioengine=mmap --rw=randrw \
	--bs=4k --size=8m --runtime=1 --time_based

# 5. SIGINT mid-run: the interrupted path frees everything too.
"$ASAN_IODIG" run --output-format=json --output="$TMP/int.json" --target=scratch --name=i \
	--rw=randread --bs=4k --ioengine=io_uring --iodepth=8 --runtime=30 \
	--time_based >/dev/null 2>"$TMP/int.err" &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
check "sigint: exit 130 (got $rc)" [ "$rc" -eq 130 ]
check "sigint: no sanitizer report" bash -c "! grep -Eq '$REPORT' '$TMP/int.err'"
check "sigint: report valid" jq -e '.iodig.interrupted' "$TMP/int.json"
done_testing
