# verify over several files per job (filename=a:b:c, nrfiles) against fio 3.33: the same read and write counts, no error on good data, and a block corrupted in the third file found by both (verify_only over what the other tool wrote).
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"

counts() { sed -n '/^{/,$p' "$1" | jq -c '.jobs[0] | [.read.total_ios, .write.total_ios, .error]'; }
# both CASE JOB-ARGS...: each tool in its own empty directory.
both() {
	local name=$1; shift
	mkdir -p "$TMP/$name/i" "$TMP/$name/f"
	(cd "$TMP/$name/i" && "$IODIG" run --no-probes --no-save --output-format=json "$@" >../i.json 2>../i.err)
	(cd "$TMP/$name/f" && fio --output-format=json "$@" >../f.json 2>/dev/null)
	check "$name: reads, writes, error as fio: $(counts "$TMP/$name/i.json") vs $(counts "$TMP/$name/f.json") $(head -c 200 "$TMP/$name/i.err")" \
		[ "$(counts "$TMP/$name/i.json")" = "$(counts "$TMP/$name/f.json")" ]
	check "$name: no verify error" [ "$(counts "$TMP/$name/i.json" | jq '.[2]')" = 0 ]
}

both list --name=job --filename=a:b:c:d --verify=md5 --ioengine=libaio --iodepth=32 --size=512k --loops=4 --rw=write
both nrfiles --name=r --nrfiles=3 --filesize=128k --verify=crc32c --rw=randwrite --bs=4k --ioengine=io_uring --iodepth=4
both backlog --name=s --nrfiles=2 --size=256k --verify=md5 --rw=write --verify_backlog=8 --file_service_type=random

# A corrupted block in the third file: iodig's verify_only finds it where fio wrote, and fio's where iodig wrote.
job=(--name=c --filename=x1:x2:x3 --size=192k --bs=4k --rw=write --verify=crc32c)
for w in fio iodig; do
	d="$TMP/corrupt_$w"; mkdir -p "$d" && cd "$d" || exit 1
	if [ $w = fio ]; then fio "${job[@]}" >/dev/null 2>&1; else "$IODIG" run --no-probes --no-save "${job[@]}" >/dev/null 2>&1; fi
	printf 'garbage' | dd of=x3 bs=1 seek=8200 conv=notrunc status=none
	if [ $w = fio ]; then "$IODIG" run --no-probes --no-save "${job[@]}" --verify_only=1 >out 2>&1; else fio "${job[@]}" --verify_only=1 >out 2>&1; fi
	rc=$?
	check "written by $w, the other tool fails its verify (exit $rc)" [ "$rc" != 0 ]
	check "written by $w, the corrupted block of x3 named by the other tool" grep -qi "file x3\|x3.*verify\|verify.*x3" out
done
done_testing
