# verify's report against fio 3.33: verify_only counts the writes it skips as issued I/O (JSON and text), and each bad block is logged to stderr in fio's words, one after another under continue_on_error=verify, checksums and verify=pattern alike.
source tests/host/lib.sh
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"

# verify_only's figures: the counts, not the timings (the writes' latencies are how long a dry run took).
# The skipped writes take no runtime, so no bandwidth; the reads' runtime is timed.
figures() { sed -n '/^{/,$p' "$1" | jq -c '.jobs[0] | [.error, (.read, .write | .total_ios, .io_bytes, .io_kbytes, .lat_ns.N), (.write | .runtime, .bw, .slat_ns.N)]'; }
issued() { grep -o 'issued rwts: total=[0-9,]*' "$1"; }
vonly() {
	local name=$1; shift
	mkdir -p "$TMP/$name" && cd "$TMP/$name" || exit 1
	fio "$@" >/dev/null 2>&1
	fio "$@" --verify_only=1 --output-format=json >f.json 2>/dev/null
	"$IODIG" run --no-probes --no-save "$@" --verify_only=1 --output-format=json >i.json 2>i.err
	check "$name: verify_only's figures as fio's: $(figures i.json) vs $(figures f.json) $(head -c 200 i.err)" \
		[ "$(figures i.json)" = "$(figures f.json)" ]
	fio "$@" --verify_only=1 >f.txt 2>/dev/null
	"$IODIG" run --no-probes --no-save "$@" --verify_only=1 >i.txt 2>/dev/null
	check "$name: text's issued counts as fio's: $(issued i.txt) vs $(issued f.txt)" \
		[ -n "$(issued f.txt)" -a "$(issued i.txt)" = "$(issued f.txt)" ]
	cd "$TMP" || exit 1
}
vonly write --name=w --filename=f --size=64k --bs=4k --rw=write --verify=crc32c
vonly randwrite --name=r --filename=f --size=128k --bs=8k --rw=randwrite --verify=md5 --ioengine=libaio --iodepth=4
vonly rw --name=m --filename=f --size=96k --bs=4k --rw=rw --verify=crc32c

# Bad blocks: a header crc, a checksum and a magic fault; every tool's stderr lines but its own closing ones.
bad_lines() { grep -v '^fio: pid=\|^iodig: \|^$' "$1"; }
badblocks() {
	local name=$1 coe=$2; shift 2
	mkdir -p "$TMP/$name" && cd "$TMP/$name" || exit 1
	fio "$@" >/dev/null 2>&1
	for at in 8200 20000 40960; do printf 'garbage' | dd of=f bs=1 seek=$at conv=notrunc status=none; done
	fio "$@" --verify_only=1 $coe >/dev/null 2>f.err
	"$IODIG" run --no-probes --no-save "$@" --verify_only=1 $coe >/dev/null 2>i.err
	bad_lines f.err >f.lines; bad_lines i.err >i.lines
	check "$name: fio logs bad blocks ($(wc -l <f.lines) lines)" [ -s f.lines ]
	check "$name: the same bad-block lines as fio: $(diff f.lines i.lines | head -c 600)" cmp -s f.lines i.lines
	cd "$TMP" || exit 1
}
# Without continue_on_error a sync engine stops at the first bad block.
badblocks first "" --name=c --filename=f --size=64k --bs=4k --rw=write --verify=crc32c
badblocks all_crc32c --continue_on_error=verify --name=c --filename=f --size=64k --bs=4k --rw=write --verify=crc32c
badblocks all_md5 --continue_on_error=verify --name=c --filename=f --size=64k --bs=4k --rw=write --verify=md5 --ioengine=libaio --iodepth=8
badblocks all_sha512 --continue_on_error=verify --name=c --filename=f --size=64k --bs=4k --rw=write --verify=sha512
# verify=pattern: the bad byte, its offset in the block, and a failure line
# whose length is what the block's first bytes read as a header (the
# pattern's, or the garbage's), then the header type mismatch fio 3.33 sees
badblocks pattern_first "" --name=c --filename=f --size=64k --bs=4k --rw=write --verify=pattern --verify_pattern=0x12345678
badblocks pattern_all --continue_on_error=verify --name=c --filename=f --size=64k --bs=4k --rw=write --verify=pattern --verify_pattern=0xdeadbeef --ioengine=libaio --iodepth=8
badblocks pattern_interval --continue_on_error=verify --name=c --filename=f --size=64k --bs=4k --rw=write --verify=pattern --verify_pattern='"abc"' --verify_interval=1k
# a checksum over a pattern, and crc32c-intel, which fio writes as crc32c
badblocks md5_pattern --continue_on_error=verify --name=c --filename=f --size=64k --bs=4k --rw=write --verify=md5 --verify_pattern=0x12345678
badblocks crc32c_intel --continue_on_error=verify --name=c --filename=f --size=64k --bs=4k --rw=write --verify=crc32c-intel
done_testing
