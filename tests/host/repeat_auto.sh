# --repeat=auto:PCT runs between 3 and 10 repeats and says which way it stopped: the target reached with the widest headline CI within it, or the maximum reached without; the trace file keeps the target and the reason; a bad target is exit 2 naming the option.
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
make_loop 16 || skip "cannot create a loop device"

JOB=(--name=auto --filename="$LOOP" --ioengine=psync --rw=randread --bs=4k --size=4m
     --runtime=300ms --time_based --no-probes --no-progress)
"$IODIG" run "${JOB[@]}" --repeat=auto:20% --save="$TMP/a.json" >"$TMP/out" 2>"$TMP/err"
check "run --repeat=auto:20% works ($?): $(head -c 300 "$TMP/err")" [ -s "$TMP/a.json" ]
n=$(jqr '.iodig.repeats.count' "$TMP/a.json")
note=$(jqr '.iodig.repeats.auto_stopped' "$TMP/a.json")
echo "info: $n repeats: $note"
check "3 to 10 repeats ($n)" [ "$n" -ge 3 -a "$n" -le 10 ]
check "the target is kept" [ "$(jqr '.iodig.repeats.auto_target_pct' "$TMP/a.json")" = 20 ]
widest=$(echo "$note" | sed -n 's/.*±\([0-9.]*\)%.*/\1/p')
if echo "$note" | grep -q "target reached"; then
	check "reached: widest CI $widest% within 20%" awk "BEGIN{exit !($widest <= 20)}"
else
	check "not reached: at the maximum of 10 ($n), widest $widest% above 20%" \
		[ "$n" = 10 ] && awk "BEGIN{exit !($widest > 20)}"
fi
check "the text report says why it stopped" grep -q -- "--repeat=auto:20%: target" "$TMP/out"
"$IODIG" run "${JOB[@]}" --repeat=auto:0 >/dev/null 2>"$TMP/err"
check "auto:0 is a usage error ($?)" grep -q "option --repeat" "$TMP/err"
done_testing
