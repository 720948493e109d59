# dev-dax and mtd: fio's example job files for them parse, their options are checked as fio's, and a target that is not a device-DAX or MTD character device (this machine has neither) is refused before any I/O, naming it, where fio fails too; block_error_percentiles on a loop device's trimwrite counts each 16 KiB block's trims (fio 3.33 aborts in that report, so only the I/O counts are fio's).  The devices themselves run in the QEMU lab (tests/vm: mtd_*, devdax_*).
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
CORPUS=/work/shared/fio-corpus
make_loop 16 || skip "cannot create a loop device"

# fio_fails WHAT ARGS...: fio exits non-zero or its job reports an error
# (for a target that is no DAX device fio's dev-dax does no I/O, exits 1
# and reports error 0)
fio_fails() {
	local what=$1 err rc; shift
	fio --output-format=json --name=t --bs=4k --size=1m "$@" >"$TMP/fio.out" 2>/dev/null
	rc=$?
	err=$(sed -n '/^{/,$p' "$TMP/fio.out" | jq -r '.jobs[0].error // 0' 2>/dev/null)
	check "fio fails too on $what (exit $rc, error ${err:-none})" [ "$rc" != 0 -o "${err:-0}" != 0 ]
}

if [ -d "$CORPUS" ]; then
	for f in dev-dax mtd; do
		"$IODIG" run --no-probes --no-save --target="$TMP/absent/target" \
			"$CORPUS/fio__examples_$f.fio" >/dev/null 2>"$TMP/err"
		check "$f.fio parses; stops at the missing target: $(head -c 160 "$TMP/err")" \
			grep -q "$TMP/absent" "$TMP/err"
	done
fi

# Options, as fio defines them.
"$IODIG" run --parse-only --name=t --ioengine=mtd --filename=/dev/mtd0 --rw=read \
	--skip_bad=1 >"$TMP/out" 2>"$TMP/err"
rc=$?
check "mtd takes skip_bad: $(head -c 160 "$TMP/err")" [ "$rc" -eq 0 ]
refused "skip_bad is mtd's" "skip_bad" --ioengine=psync --filename="$LOOP" --skip_bad=1
refused "dev-dax with direct=1" "direct=1 opens the device with O_DIRECT" \
	--ioengine=dev-dax --filename=/dev/null --rw=read --direct=1
refused "block_error_percentiles with two files" "single file" \
	--ioengine=psync --rw=trim --nrfiles=2 --block_error_percentiles=1 --directory="$TMP"
refused "dev-dax does not trim" "issues no trims" --ioengine=dev-dax --filename=/dev/null --rw=trim

# Targets neither engine drives: refused, nothing created; fio fails on them too.
for e in "dev-dax|device-DAX character device (/dev/daxX.Y)" \
	 "mtd|MTD character device (/dev/mtdN)"; do
	IFS='|' read -r eng need <<<"$e"
	refused "$eng on a loop device" "$LOOP: not a character device: ioengine=$eng needs" \
		--ioengine=$eng --filename="$LOOP" --rw=read
	refused "$eng on /dev/null" "character device 1:3 is not of the kernel's" \
		--ioengine=$eng --filename=/dev/null --rw=read
	fio_fails "$eng on /dev/null" --ioengine=$eng --filename=/dev/null --rw=read
	refused "$eng on a new file" "$TMP/new: No such file or directory: ioengine=$eng needs .* $need" \
		--ioengine=$eng --filename="$TMP/new" --rw=write --allow-destructive
	check "$eng made no file" [ ! -e "$TMP/new" ]
done
for d in /dev/dax* /dev/mtd*; do
	[ -c "$d" ] && echo "note: $d exists here; the lab's scenarios are the engines' device tests"
done

# block_error_percentiles: 16 blocks of 16 KiB, trimmed 4 times each.
job=(--name=t --filename="$LOOP" --rw=trimwrite --bs=512,512,16k --size=256k --loops=4
     --output-format=normal,json)
"$IODIG" run --no-probes --no-save --allow-destructive "${job[@]}" --block_error_percentiles=1 \
	>"$TMP/iodig" 2>"$TMP/err" || fail "iodig trimwrite: $(tail -1 "$TMP/err")"
split_report "$TMP/iodig"
fio "${job[@]/normal,json/json}" 2>/dev/null | sed -n '/^{/,$p' >"$TMP/fio.json"
a=$(jqr ".jobs[0].trim.total_ios" "$TMP/iodig.json") b=$(jqr ".jobs[0].trim.total_ios" "$TMP/fio.json")
check "trimwrite: iodig's trims are fio's ($a, fio $b)" [ "$a" = "$b" -a "$a" -gt 0 ]
# A write block smaller than the trim block: fio interleaves its writes
# by positions and bytes issued, iodig writes one write block per trim.
echo "note: trimwrite with bs=512,512,16k: writes iodig $(jqr '.jobs[0].write.total_ios' "$TMP/iodig.json"), fio $(jqr '.jobs[0].write.total_ios' "$TMP/fio.json")"
check "block states: 16 trimmed ($(jqr -c '.jobs[0].block.states' "$TMP/iodig.json"))" \
	[ "$(jqr '.jobs[0].block.states.trimmed' "$TMP/iodig.json")" = 16 ]
check "every percentile is 4 trims ($(jqr -c '[.jobs[0].block.percentiles[]] | unique' "$TMP/iodig.json"))" \
	[ "$(jqr -c '[.jobs[0].block.percentiles[]] | unique' "$TMP/iodig.json")" = "[4]" ]
check "the text report has fio's block lifetime lines" \
	grep -q "^  block lifetime percentiles :" "$TMP/iodig.txt"
check "... and its states line" \
	grep -q "^        states               : unwritten=0, trimmed=16, written=0, trim failure=0, write failure=0$" "$TMP/iodig.txt"
done_testing
