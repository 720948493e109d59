# Unknown kernels, simulated with IODIG_BTF: this kernel's BTF with a field renamed makes the family that reads it fall back with a reason naming the field while the others stay active; the pre-5.14 task_struct.state name is read through sched's CO-RE fallback with correct voluntary counts; a bad IODIG_BTF never fails the run. timeout: 240
source tests/host/lib.sh
need_root
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux (kernel without BTF)"
OUT=${OUT:-$PWD/build}
RENAME=$OUT/tests/bpf/btf_rename
[ -x "$RENAME" ] || skip "$RENAME not built (make unit)"
cd "$TMP" || exit 1
OTHERS="iouring faults"   # syscalls is not in the default set

# btf_run NAME BTF-FILE ENGINE: runs iodig with IODIG_BTF, splits text and JSON
btf_run() {
	local name=$1 btf=$2 engine=$3
	IODIG_BTF=$btf "$IODIG" run --no-progress --no-save --output-format=normal,json \
		--name=k --rw=randread --bs=4k --direct=1 --ioengine="$engine" --iodepth=4 \
		--runtime=1 --time_based --target=scratch --scratch-size=64m >"$TMP/out" 2>"$TMP/err"
	RC=$?
	split_report "$TMP/out"
	CASE=$name
	check "$CASE: exit 0 (got $RC): $(tr '\n' ' ' <"$TMP/err")" [ "$RC" -eq 0 ]
	check "$CASE: fio figures in JSON" jq -e '.jobs[0].read.iops > 0' "$TMP/out.json" >/dev/null
}
expect() { expect_probe "$TMP/out" "$@"; }   # expect FAMILY STATE MECHANISM REASON-REGEX

# 1. A field read without fallback: block's device time needs
# request.io_start_time_ns, so tp_btf and raw_tp fail and the classic
# tracepoint (no request pointer) still counts requests.
"$RENAME" "$TMP/rq.btf" request.io_start_time_ns=iodig_renamed_field
btf_run "request.io_start_time_ns renamed" "$TMP/rq.btf" io_uring
expect block degraded tracepoint "tp_btf: CO-RE relocation failed: no struct request\.io_start_time_ns in the IODIG_BTF file; raw_tp: CO-RE"
for f in sched $OTHERS; do expect "$f" active tp_btf ""; done
expect sampling active perf_event ""
check "$CASE: block still counts requests" \
	jq -e '.iodig.kernel.block.requests.read > 0' "$TMP/out.json" >/dev/null

# 2. The v5.14 rename undone (task_struct.__state back to state) on a
# sched_switch without prev_state (before v5.18): sched reads the state
# through its task_struct___old flavour and still tells voluntary
# switches from preemptions as getrusage does.
"$RENAME" "$TMP/state.btf" task_struct.__state=state sched_switch/3
btf_run "task_struct.state, 3-argument sched_switch" "$TMP/state.btf" psync
expect sched active tp_btf ""
for f in block $OTHERS; do expect "$f" active tp_btf ""; done
vol=$(jqr '.iodig.kernel.sched.voluntary' "$TMP/out.json")
rus=$(jqr '.iodig.kernel.sched.workers_rusage.voluntary' "$TMP/out.json")
check "$CASE: sched voluntary $vol within 2% of getrusage's $rus" \
	[ "${rus:-0}" -gt 1000 -a $(( (vol - rus) * 50 )) -le "$rus" -a $(( (rus - vol) * 50 )) -le "$rus" ]

# 3. Neither name: the fallback has nothing to read, sched falls back to
# the classic tracepoint (whose record carries prev_state) and says which
# field was missing.
"$RENAME" "$TMP/gone.btf" task_struct.__state=iodig_gone sched_switch/3
btf_run "task_struct state gone" "$TMP/gone.btf" psync
expect sched degraded tracepoint "tp_btf: CO-RE relocation failed: no struct task_struct\.state in the IODIG_BTF file"
for f in block $OTHERS; do expect "$f" active tp_btf ""; done
check "$CASE: sched still counts switches" \
	jq -e '.iodig.kernel.sched.voluntary > 0' "$TMP/out.json" >/dev/null

# 4. Not a BTF file: said once, and the workload still runs.
echo "not btf" >"$TMP/bad.btf"
IODIG_BTF=$TMP/bad.btf "$IODIG" run --no-progress --no-save --name=k --rw=randread \
	--bs=4k --runtime=1 --time_based --target=scratch --scratch-size=64m >"$TMP/out.txt" 2>"$TMP/err"
RC=$?
check "bad IODIG_BTF: exit 0 (got $RC)" [ "$RC" -eq 0 ]
check "bad IODIG_BTF: fio figures" grep -q 'read: IOPS=' "$TMP/out.txt"
check "bad IODIG_BTF: one message naming the file ($(cat "$TMP/err"))" \
	grep -q "kernel probes unavailable: IODIG_BTF=$TMP/bad.btf: cannot read BTF" "$TMP/err"
done_testing
