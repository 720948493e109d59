# Unknown kernels, simulated with IODIG_DISABLE and --mechanism (tp_btf gone, tp_btf+raw_tp gone, a family gone, no tracepoint mechanism at all, fentry denied): the run still succeeds with fio figures and names each degraded or missing probe with its reason in text and JSON. timeout: 240
source tests/host/lib.sh
need_root
REPO=$PWD
cd "$TMP" || exit 1
TRACED="block sched iouring syscalls faults"   # tracepoint families

# degraded_run NAME ENV-DISABLE ARGS...: runs iodig with every family and
# hook (--detail, so the opt-in syscalls family is checked too; DETAIL=
# for the default set), splits text and JSON
DETAIL=--detail
degraded_run() {
	local name=$1 disable=$2; shift 2
	# shellcheck disable=SC2086
	IODIG_DISABLE=$disable "$IODIG" run --no-progress --output-format=normal,json $DETAIL "$@" \
		--name=k --rw=randread --bs=4k --ioengine=io_uring --iodepth=4 \
		--runtime=1 --time_based --target=scratch --scratch-size=64m >"$TMP/out" 2>"$TMP/err"
	RC=$?
	split_report "$TMP/out"
	CASE=$name
	check "$CASE: exit 0 (got $RC): $(tr '\n' ' ' <"$TMP/err")" [ "$RC" -eq 0 ]
	check "$CASE: fio figures in text" grep -q 'read: IOPS=' "$TMP/out.txt"
	check "$CASE: fio figures in JSON" jq -e '.jobs[0].read.iops > 0' "$TMP/out.json" >/dev/null
}
expect() { expect_probe "$TMP/out" "$@"; }   # expect FAMILY STATE MECHANISM REASON-REGEX
family_known() { jq -e --arg f "$1" '.iodig.kernel.probes[] | select(.family == $f)' "$TMP/out.json" >/dev/null; }

# The default set leaves the opt-in syscalls family off and says how to
# get it; +name adds to it and -name takes away.
DETAIL=
degraded_run "default set" ""
expect syscalls off none "not in the default set"
expect block active tp_btf ""
degraded_run "default set +syscalls -sampling" "" --probes=+syscalls,-sampling
expect syscalls active tp_btf ""
expect sampling off none "not requested"
expect sched active tp_btf ""
"$IODIG" run --probes=block,+syscalls --target=scratch --name=x --size=1m >/dev/null 2>"$TMP/err"
check "mixed --probes forms rejected with a reason (rc $?)" \
	grep -q -- "--probes=block,+syscalls: give either family names or +/- changes" "$TMP/err"
DETAIL=--detail

degraded_run "no tp_btf" tp_btf
for f in $TRACED; do expect "$f" degraded raw_tp "tp_btf: disabled by IODIG_DISABLE"; done
expect sampling active perf_event ""
check "$CASE: block figures still collected" jq -e '.iodig.kernel.block' "$TMP/out.json" >/dev/null

degraded_run "no tp_btf, no raw_tp" tp_btf,raw_tp
for f in $TRACED; do expect "$f" degraded tracepoint "raw_tp: disabled by IODIG_DISABLE"; done

degraded_run "sched family missing" sched
expect sched missing none "disabled by IODIG_DISABLE"
expect block active tp_btf ""
check "$CASE: no sched section" bash -c "! jq -e '.iodig.kernel.sched' '$TMP/out.json' >/dev/null"

degraded_run "no tracepoint mechanism at all" tp_btf,raw_tp,tracepoint
for f in $TRACED; do expect "$f" missing none "tracepoint: disabled by IODIG_DISABLE"; done
expect sampling active perf_event ""

degraded_run "--mechanism=raw_tp" "" --mechanism=raw_tp
for f in $TRACED; do expect "$f" degraded raw_tp "skipped \(--mechanism=raw_tp\)"; done

degraded_run "--mechanism=tracepoint, sched disabled" sched --mechanism=tracepoint
expect block degraded tracepoint "skipped \(--mechanism=tracepoint\)"
expect sched missing none "disabled by IODIG_DISABLE"

# fentry: denied on this kernel's configuration, or switched off.
degraded_run "fentry denied or disabled" fentry --mechanism=fentry
if family_known funcs; then
	expect funcs "(missing|degraded)" "[a-z_]+" "fentry: (denied|disabled|skipped)"
	expect block active tp_btf ""
else
	echo "note: this build has no fentry family (funcs); only the run itself is checked"
fi
done_testing
