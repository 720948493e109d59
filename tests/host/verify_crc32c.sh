# verify=crc32c writes every block with a checksummed header and reads every written block back through the same engine.
source tests/host/lib.sh
need_root
make_loop 32 || skip "cannot create a loop device"
for engine in psync libaio io_uring; do
	"$IODIG" run --no-probes --output-format=json --name=v --filename="$LOOP" --rw=randwrite \
		--bs=4k --size=4m --ioengine=$engine --iodepth=8 --direct=1 --verify=crc32c \
		>"$TMP/v.json" 2>"$TMP/v.err"
	rc=$?
	check "$engine: verify passes (exit $rc: $(cat "$TMP/v.err"))" [ "$rc" = 0 ]
	check "$engine: 1024 writes" [ "$(jqr '.jobs[0].write.total_ios' "$TMP/v.json")" = 1024 ]
	check "$engine: 1024 blocks verified" [ "$(jqr '.jobs[0].iodig.verified_blocks' "$TMP/v.json")" = 1024 ]
done

# Sequential writes verify too (corruption detection itself is covered by
# tests/unit/test_rng_verify.c).
"$IODIG" run --no-probes --output-format=json --name=v --filename="$LOOP" --rw=write \
	--bs=4k --size=1m --ioengine=psync --direct=1 --verify=crc32c >"$TMP/v.json" 2>"$TMP/v.err"
check "sequential write+verify passes" [ "$(jqr '.jobs[0].iodig.verify_errors' "$TMP/v.json")" = 0 ]
done_testing
