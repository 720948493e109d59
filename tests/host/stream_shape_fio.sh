# loops, number_ios, bssplit, bsrange, blockalign, rw=...:N and rw_sequencer issue the I/Os fio 3.33 issues: same counts and bytes, and the same offsets and sizes in the same order at the block layer.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
make_loop 64 || skip "cannot create a loop device"
dev=$(( $(stat -c '0x%t' "$LOOP") << 20 | $(stat -c '0x%T' "$LOOP") ))

# A private tracefs instance records block_rq_issue for the loop device.
mkdir "$TMP/tracing"
mount -t tracefs nodev "$TMP/tracing" 2>/dev/null || skip "cannot mount tracefs"
INST=$TMP/tracing/instances/stream$$
trap 'rmdir "$INST" 2>/dev/null; umount -q "$TMP/tracing"; cleanup' EXIT
mkdir "$INST" || skip "cannot create a tracefs instance"
echo "dev == $dev" >"$INST/events/block/block_rq_issue/filter"

# traced OUT CMD...: runs CMD, writes "sector+sectors" per request to OUT
traced() {
	local out=$1; shift
	echo >"$INST/trace"
	echo 1 >"$INST/events/block/block_rq_issue/enable"
	"$@" >"$out.json" 2>"$out.err"
	echo 0 >"$INST/events/block/block_rq_issue/enable"
	awk '/block_rq_issue:/ { for (i = 1; i <= NF; i++) if ($i == "+") { print $(i-1) "+" $(i+1); break } }' \
		"$INST/trace" >"$out.rq"
}

same_requests() { [ -s "$2" ] && cmp -s "$1" "$2"; }
totals() { jq -c '.jobs[0] | [.read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes]' "$1.json" 2>/dev/null |
	tr -d '\n'; }

# same CASE ARGS...: iodig and fio run the job; counts, bytes, requests equal
same() {
	local name=$1; shift
	local args=(--name=s --filename="$LOOP" --ioengine=psync --direct=1 --size=2m "$@")
	traced "$TMP/i" "$IODIG" run --no-probes --allow-destructive --output-format=json "${args[@]}"
	traced "$TMP/f" fio --output-format=json "${args[@]}"
	sed -i -n '/^{/,$p' "$TMP/f.json"
	local ti tf
	ti=$(totals "$TMP/i") tf=$(totals "$TMP/f")
	check "$name: iodig $ti = fio $tf (ios, bytes per direction)" [ -n "$ti" -a "$ti" = "$tf" ]
	check "$name: the same $(wc -l <"$TMP/f.rq") requests at the same sectors" \
		same_requests "$TMP/i.rq" "$TMP/f.rq"
}

same "loops=3" --rw=read --bs=64k --loops=3
same "number_ios=10 loops=2" --rw=randread --bs=4k --number_ios=10 --loops=2
same "randread" --rw=randread --bs=4k
same "bssplit randwrite" --rw=randwrite --bssplit=4k/10:64k/50:32k/
same "bssplit per direction" --rw=randread --bssplit=8k/30:16k/70,4k
same "bsrange randread" --rw=randread --bsrange=4k-32k
same "bsrange write" --rw=write --bsrange=4k-32k
same "rw=read:4k (holes)" --rw=read:4k --bs=4k
same "rw=read:-8k (backwards)" --rw=read:-8k --bs=4k
same "rw=randread:4" --rw=randread:4 --bs=4k
same "rw_sequencer=identical" --rw=randread:4 --rw_sequencer=identical --bs=4k
same "blockalign=8k" --rw=randread --bs=4k --blockalign=8k
same "iodepth_low" --rw=randread --bs=4k --ioengine=libaio --iodepth=16 --iodepth_low=4
done_testing
