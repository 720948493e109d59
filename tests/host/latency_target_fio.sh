# latency_target's depth search, against fio 3.33: a target no I/O can meet ends at depth 1 in both tools, a target every I/O meets reaches iodepth in both; JSON latency_target (ns), latency_window (us), latency_percentile are fio's; the text report's latency line gives the depth; a bad percentile is refused. timeout: 120
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
make_loop 64 || skip "cannot make a loop device"
search() { # search TOOL TARGET PERCENTILE: the job's JSON report
	local P
	if [ "$1" = iodig ]; then P=("$IODIG" run --no-probes --no-save); else P=(fio); fi
	"${P[@]}" --name=l --filename="$LOOP" --direct=1 --rw=randread --bs=4k --ioengine=libaio \
		--iodepth=16 --latency_target="$2" --latency_window=100ms --latency_percentile="$3" \
		--runtime=2 --time_based --output-format=json 2>/dev/null | sed -n '/^{/,$p'
}
for who in iodig fio; do
	search $who 1us 99 >"$TMP/$who.tight.json"
	search $who 10s 50 >"$TMP/$who.loose.json"
	tight=$(jqr '.jobs[0].latency_depth' "$TMP/$who.tight.json")
	loose=$(jqr '.jobs[0].latency_depth' "$TMP/$who.loose.json")
	check "$who: a target no I/O meets ends at depth 1 (got $tight)" [ "$tight" = 1 ]
	check "$who: a target every I/O meets reaches iodepth 16 (got $loose)" [ "$loose" = 16 ]
done
for k in latency_target latency_window latency_percentile; do
	a=$(jqr ".jobs[0].$k" "$TMP/iodig.tight.json") b=$(jqr ".jobs[0].$k" "$TMP/fio.tight.json")
	check "$k: iodig $a, fio $b" [ "$a" = "$b" ]
done
out=$("$IODIG" run --no-probes --no-save --name=l --filename="$LOOP" --direct=1 --rw=randread \
	--ioengine=libaio --iodepth=16 --latency_target=1us --latency_window=100ms \
	--latency_percentile=99 --runtime=1 --time_based 2>&1)
check "text: $(grep 'latency   :' <<<"$out")" \
	grep -q 'latency   : target=1000, window=100000, percentile=99.00%, depth=1$' <<<"$out"
out=$("$IODIG" run --no-probes --no-save --parse-only --name=l --filename="$LOOP" \
	--latency_target=1ms --latency_percentile=101 2>&1)
check "latency_percentile=101 refused: $out" grep -q "option 'latency_percentile': '101' is not a percentage" <<<"$out"
done_testing
