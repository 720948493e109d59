# Verify options against fio 3.33: engines at depth, random and sequential writes, norandommap, verify_backlog, verify_interval, verify_offset, verify_dump, verify_state_save/load, verify_only, read-only jobs; I/O counts as fio's.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "needs fio"
make_loop 32 || skip "cannot create a loop device"
cd "$TMP" || exit 1
iodig() { "$IODIG" run --no-probes --no-save "$@"; }
counts() { jqr '.jobs[0] | "\(.write.total_ios) \(.read.total_ios) \(.error)"' "$1"; }

for engine in psync libaio io_uring; do
	iodig --output-format=json --name=v --filename="$LOOP" --rw=randwrite \
		--bs=4k --size=4m --ioengine=$engine --iodepth=8 --direct=1 --verify=crc32c \
		>v.json 2>v.err
	rc=$?
	check "$engine: verify passes (exit $rc: $(cat v.err))" [ "$rc" = 0 ]
	check "$engine: 1024 writes, 1024 verify reads" [ "$(counts v.json)" = "1024 1024 0" ]
	check "$engine: 1024 blocks verified" [ "$(jqr '.jobs[0].iodig.verified_blocks' v.json)" = 1024 ]
done

# The same I/O counts as fio for the same jobs.
same_counts() { # description, job options...
	local what=$1; shift
	iodig --output-format=json --name=v --filename="$LOOP" "$@" >i.json 2>i.err
	# (fio may print a notice before its JSON)
	fio --output-format=json --name=v --filename="$LOOP" "$@" 2>f.err |
		sed -n '/^{/,$p' >f.json
	check "$what: iodig $(counts i.json) = fio $(counts f.json) ($(head -c 200 i.err))" \
		[ "$(counts i.json)" = "$(counts f.json)" ]
}
same_counts "sequential" --rw=write --bs=4k --size=1m --verify=md5
same_counts "read-only verify" --rw=read --bs=4k --size=1m --verify=md5
same_counts "io_size twice the size (verify writes size)" --rw=write --bs=4k \
	--size=512k --io_size=1m --verify=crc32c
same_counts "backlog 16" --rw=randwrite --bs=4k --size=1m --verify=crc32c --verify_backlog=16
same_counts "backlog 16 batch 8" --rw=randwrite --bs=4k --size=1m --verify=crc32c \
	--verify_backlog=16 --verify_backlog_batch=8
same_counts "do_verify=0" --rw=write --bs=4k --size=1m --verify=md5 --do_verify=0
iodig --output-format=json --name=v --filename="$LOOP" --rw=write --bs=4k \
	--size=256k --verify=crc32c --time_based --runtime=1 >i.json 2>i.err
check "time_based: writes all the runtime, no time left to verify, as fio" \
	[ "$(jqr '.jobs[0].read.total_ios' i.json)" = 0 ] &&
	[ "$(jqr '.jobs[0].write.total_ios' i.json)" -gt 64 ]

# Where the offsets or the read/write mix come from a random generator
# (iodig's is not fio's), the counts differ by chance; what holds: every
# written block is read back once, a rewritten block once.
iodig --output-format=json --name=v --filename="$LOOP" --rw=randwrite --bs=4k \
	--size=1m --verify=md5 --norandommap >i.json 2>i.err
read -r w r e <<<"$(counts i.json)"
check "norandommap: $r reads for $w writes, rewrites read once" \
	[ "$e" = 0 ] && [ "$r" -lt "$w" ] && [ "$r" -gt 150 ]
iodig --output-format=json --name=v --filename="$LOOP" --rw=randrw --bs=4k \
	--size=1m --verify=crc32c >i.json 2>i.err
read -r w r e <<<"$(counts i.json)"
check "randrw: reads = random reads + one per write ($w $r $e)" [ "$e" = 0 -a "$r" = 256 ]
iodig --output-format=json --name=v --filename="$LOOP" --rw=write --bsrange=4k-16k \
	--size=1m --verify=xxhash >i.json 2>i.err
read -r w r e <<<"$(counts i.json)"
check "bsrange: passes, every kept write read once ($w $r $e $(cat i.err))" \
	[ "$e" = 0 ] && [ "$r" -le "$w" ] && [ "$r" -gt 60 ]

# verify_interval and verify_offset: fio reads iodig's layout.
iodig --name=v --filename="$LOOP" --rw=write --bs=16k --size=1m --verify=sha256 \
	--verify_interval=4k --verify_offset=1k >/dev/null 2>i.err
rc=$?
check "interval+offset: iodig passes ($(cat i.err))" [ "$rc" = 0 ]
fio --name=v --filename="$LOOP" --rw=read --bs=16k --size=1m --verify=sha256 \
	--verify_interval=4k --verify_offset=1k >f.txt 2>&1
check "interval+offset: fio verifies iodig's blocks" grep -q 'err= 0' f.txt
# a corrupted second interval is reported at its own offset
printf 'X' | dd of="$LOOP" bs=1 seek=$((65536 + 4096 + 3000)) conv=notrunc status=none
iodig --name=v --filename="$LOOP" --rw=read --bs=16k --size=1m --verify=sha256 \
	--verify_interval=4k --verify_offset=1k --verify_dump=1 >/dev/null 2>i.err
check "interval: the bad interval at offset 69632 ($(cat i.err))" \
	grep -q "offset 69632, length 4096 (requested block: offset=65536, length=16384)" i.err
base=$(basename "$LOOP")
check "verify_dump: fio's file names" [ -s "$base.69632.received" -a -s "$base.69632.expected" ]
# past the header (whose time fio's expected block does not keep either),
# the dumps differ only where the block was hit
data_diff=$(cmp -l "$base.69632.received" "$base.69632.expected" | awk '$1 > 104 {print $1}')
check "verify_dump: the data differ at byte 3001 only (got '$data_diff')" [ "$data_diff" = 3001 ]

# verify_state_save: fio's file, which fio's own tool reads.
rm -f local-*
iodig --name=sv --filename="$LOOP" --rw=write --bs=4k --size=1m --iodepth=4 \
	--ioengine=libaio --verify=crc32c --do_verify=0 >/dev/null 2>&1
check "verify_state_save writes local-sv-0-verify.state" [ -s local-sv-0-verify.state ]
fio-verify-state local-sv-0-verify.state >s.txt 2>&1
check "fio-verify-state reads it: 256 writes, depth 4" \
	grep -Pzq 'Depth:\s+4\nNumber IOs:\s+256' s.txt
iodig --name=sv --filename="$LOOP" --rw=read --bs=4k --size=1m --verify=crc32c \
	--verify_state_load=1 >/dev/null 2>i.err
rc=$?
check "verify_state_load: a read job verifies with the state ($(cat i.err))" [ "$rc" = 0 ]
rm -f local-*
iodig --name=sv --filename="$LOOP" --rw=read --bs=4k --size=1m --verify=crc32c \
	--verify_state_load=1 >/dev/null 2>i.err
check "verify_state_load without the file fails, naming it" \
	grep -q "local-sv-0-verify.state" i.err
iodig --name=nv --filename="$LOOP" --rw=write --bs=4k --size=64k --verify=crc32c \
	--verify_state_save=0 >/dev/null 2>&1
check "verify_state_save=0 writes none" [ ! -e local-nv-0-verify.state ]

# verify_only replays the writes: passes on what the job wrote, not on zeros;
# the writes it skips count as issued I/O, as fio's dry run counts them.
iodig --name=vo --filename="$LOOP" --rw=randwrite --bs=4k --size=1m --verify=md5 >/dev/null 2>&1
iodig --output-format=json --name=vo --filename="$LOOP" --rw=randwrite --bs=4k \
	--size=1m --verify=md5 --verify_only=1 >i.json 2>i.err
check "verify_only: 256 skipped writes counted, 256 checked ($(cat i.err))" [ "$(counts i.json)" = "256 256 0" ]
dd if=/dev/zero of="$LOOP" bs=1M count=1 oflag=direct status=none
iodig --name=vo --filename="$LOOP" --rw=randwrite --bs=4k --size=1m --verify=md5 \
	--verify_only=1 >/dev/null 2>i.err
check "verify_only on zeros: bad magic, as fio says" grep -q "bad magic header 0, wanted acca" i.err
done_testing
