# fsync= and fdatasync= on engines that queue their syncs (io_uring, posixaio) at iodepth 4 and 16, against fio 3.33, on a file on ext4 on a loop device: the same writes and bytes; the syncs the kernel runs on the filesystem (ext4_sync_file_enter, fsyncs and fdatasyncs apart) within fio's own spread over repeated runs; the same kinds (posixaio's aio_fsync is an fsync even for fdatasync=); and iodig's JSON sync figures equal to what the kernel saw; libaio with iodepth_batch_submit=8, whose syncs wait for its unsubmitted writes as fio's do, the same syncs as fio's.
#
# Why a range and not one number: fio 3.33 decides a sync before each new
# I/O when the writes issued are a multiple of N and the last completion it
# reaped was not a sync; it reaps one completion (io_uring: the next CQE;
# posixaio: every finished request, in unit order) each time the queue is
# full.  How many syncs fill the free slots before a sync's completion is
# the one reaped depends on when each completes: io_uring runs each fsync
# in an io-wq worker while buffered writes complete at submission; glibc
# runs one file's requests in order in a helper thread.  fio's own count
# varies by up to a fifth either way from run to run (docs/usage.md); one
# sync per N writes, as a synchronous engine does, is 2 to 8 times fewer.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4"
cd "$TMP" || exit 1
make_loop 64 || skip "cannot make a loop device"
mkfs.ext4 -q -F "$LOOP" || skip "mkfs.ext4 failed"
mkdir mnt && mount "$LOOP" mnt || skip "cannot mount ext4"

# every sync ext4 runs on the loop device (the cleanup unmounts it)
own_tracefs iodig-fsyncq
[ -d "$INST/events/ext4/ext4_sync_file_enter" ] || skip "no ext4_sync_file_enter tracepoint"
dev_filter "$LOOP" >"$INST/events/ext4/ext4_sync_file_enter/filter"
echo 1024 >"$INST/buffer_size_kb"

# run TOOL...: the job's JSON in out.json; KERNEL="fsyncs fdatasyncs" the
# filesystem saw; JSON="writes bytes fsyncs syncs" (write total_ios and
# io_bytes, sync total_ios and lat_ns.N)
run() {
	echo >"$INST/trace"
	echo 1 >"$INST/events/ext4/ext4_sync_file_enter/enable"
	"$@" --output-format=json >out.txt 2>err.txt
	local rc=$?
	echo 0 >"$INST/events/ext4/ext4_sync_file_enter/enable"
	KERNEL="$(grep -c 'datasync 0' "$INST/trace") $(grep -c 'datasync 1' "$INST/trace")"
	sed -n '/^{/,$p' out.txt >out.json
	JSON=$(jqr '.jobs[0] | "\(.write.total_ios) \(.write.io_bytes) \(.sync.total_ios) \(.sync.lat_ns.N)"' out.json)
	return $rc
}
# the kinds of sync in "fsyncs fdatasyncs": which of the two are nonzero
kinds() { local k=($1); echo "$((k[0] > 0)) $((k[1] > 0))"; }
total() { local k=($1); echo $((k[0] + k[1])); }

for e in io_uring posixaio; do
	for d in 4 16; do
		for o in fsync=4 fdatasync=8; do
			job=(--name=w --filename="$TMP/mnt/f" --rw=write --bs=4k --size=4m
			     --ioengine=$e --iodepth=$d --$o)
			lo=999999 hi=0 fw= sum=0
			for r in 1 2 3 4; do
				run fio "${job[@]}"
				n=$(total "$KERNEL")
				((n < lo)) && lo=$n
				((n > hi)) && hi=$n
				fk=$(kinds "$KERNEL") fw=${JSON% * *}
			done
			for r in 1 2; do
				c="$e iodepth=$d $o run $r"
				if ! run "$IODIG" run --no-probes --no-save "${job[@]}"; then
					fail "$c: iodig failed: $(head -c 300 err.txt)"
					continue
				fi
				n=$(total "$KERNEL") j=($JSON) k=($KERNEL)
				sum=$((sum + n))
				check "$c: writes and bytes '${JSON% * *}', fio '$fw'" [ "${JSON% * *}" = "$fw" ]
				check "$c: kinds (fsync fdatasync) '$(kinds "$KERNEL")', fio '$fk'" \
					[ "$(kinds "$KERNEL")" = "$fk" ]
				# JSON: every sync in lat_ns.N, DDIR_SYNC alone in total_ios
				if [ $e = posixaio ]; then want_f=$([ $o = fsync=4 ] && echo $n || echo 0)
				else want_f=${k[0]}; fi
				check "$c: JSON sync total_ios ${j[2]}, lat_ns.N ${j[3]}; kernel '$KERNEL'" \
					[ "${j[3]}" = "$n" -a "${j[2]}" = "$want_f" ]
			done
			# iodig's mean within fio's range widened by a third: four
			# runs show only part of fio's spread on a loaded machine
			# (docs/usage.md); one sync per N writes stays well below
			n=$((sum / 2)) lo=$((lo * 2 / 3)) hi=$((hi * 4 / 3))
			check "$e iodepth=$d $o: $n syncs (mean), fio's range widened $lo-$hi" \
				[ "$n" -ge $lo -a "$n" -le $hi ]
		done
	done
done

# libaio syncs at once, beside its I/O in flight, but turns a sync away
# while it holds writes not yet submitted (iodepth_batch_submit > 1): fio
# submits them and reaps a completion first, which moves the later
# boundaries; the count is fio's own on every run, so it is matched exactly
for o in fsync=4 fdatasync=6; do
	job=(--name=w --filename="$TMP/mnt/f" --rw=write --bs=4k --size=4m
	     --ioengine=libaio --iodepth=16 --iodepth_batch_submit=8 --$o)
	run fio "${job[@]}"
	fk=$KERNEL fw=${JSON% * *}
	c="libaio iodepth_batch_submit=8 $o"
	if run "$IODIG" run --no-probes --no-save "${job[@]}"; then
		check "$c: writes and bytes '${JSON% * *}', fio '$fw'" [ "${JSON% * *}" = "$fw" ]
		check "$c: syncs (fsync fdatasync) the kernel saw '$KERNEL', fio '$fk'" \
			[ "$KERNEL" = "$fk" ]
	else
		fail "$c: iodig failed: $(head -c 300 err.txt)"
	fi
done
done_testing
