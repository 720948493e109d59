# loops, number_ios, bssplit, bsrange, blockalign, rw=...:N, rw_sequencer, zoned distributions, percentage_random, tausworthe64 and offset_increment (bytes and N% of the device, with offset=N% rounded as fio rounds, and without a size each clone to the device's end) issue the I/Os fio 3.33 issues: same counts and bytes, and the same offsets and sizes in the same order at the block layer; zipf, pareto and normal as skewed as fio's.
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

run_both() { # SIZE= (empty) leaves size out
	local args=(--name=s --filename="$LOOP" --ioengine=psync --direct=1 ${SIZE---size=2m} "$@")
	traced "$TMP/i" "$IODIG" run --no-probes --allow-destructive --output-format=json "${args[@]}"
	traced "$TMP/f" fio --output-format=json "${args[@]}"
	sed -i -n '/^{/,$p' "$TMP/f.json"
}

# same CASE ARGS...: iodig and fio run the job; counts, bytes, requests equal
same() {
	local name=$1; shift
	local ti tf
	run_both "$@"
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
same "zoned" --rw=randread --bs=4k --random_distribution=zoned:50/5:30/15:20/
same "zoned_abs" --rw=randread --bs=4k --random_distribution=zoned_abs:60/64k:40/1m
same "percentage_random=50" --rw=randread --bs=4k --percentage_random=50
same "tausworthe64" --rw=randread --bs=4k --random_generator=tausworthe64

# clones CASE ARGS...: clones of a job, each in its own region (their
# requests interleave, so the sectors are compared as sets)
clones() {
	local name=$1; shift
	run_both --rw=write --bs=64k ${SIZE---size=1m} --group_reporting "$@"
	# Clones run side by side, so how the block layer splits and merges
	# their requests varies: compare what was written, 4 KiB at a time,
	# each as often as it was written.
	for t in i f; do
		awk -F+ '{ for (s = $1; s < $1 + $2; s += 8) print s }' "$TMP/$t.rq" | sort -n >"$TMP/$t.units"
	done
	check "$name: iodig $(totals "$TMP/i") = fio $(totals "$TMP/f")" [ "$(totals "$TMP/i")" = "$(totals "$TMP/f")" ]
	check "$name: the same $(wc -l <"$TMP/f.units") 4 KiB units written" same_requests "$TMP/i.units" "$TMP/f.units"
}
clones "offset_increment=1m" --numjobs=3 --offset_increment=1m
# N% of the 64 MiB device: clone N at N quarters
clones "offset_increment=25%" --numjobs=4 --offset_increment=25%
# 3% + N * 10% rounded up to the block size as a whole, as fio does
clones "offset=3% offset_increment=10%" --numjobs=4 --offset=3% --offset_increment=10%
# no size: each clone writes from its start to the end of the device
SIZE= clones "offset_increment=25%, no size" --numjobs=4 --offset_increment=25% --bs=1m

# skewed CASE ARGS...: fio seeds these from a hash of the file name, so
# the sequence differs; the I/O count and the share of the 10% hottest
# blocks (within 10 points of fio's) do not.
hot_share() { sort "$1" | uniq -c | sort -rn | awk '{ n[NR] = $1; t += $1 } END {
	k = int(NR / 10); for (i = 1; i <= k; i++) h += n[i]; print int(100 * h / t) }'; }
skewed() {
	local name=$1; shift
	run_both "$@"
	local ti tf hi hf
	ti=$(totals "$TMP/i") tf=$(totals "$TMP/f") hi=$(hot_share "$TMP/i.rq") hf=$(hot_share "$TMP/f.rq")
	check "$name: iodig $ti = fio $tf" [ -n "$ti" -a "$ti" = "$tf" ]
	check "$name: hottest 10% of blocks get $hi% of I/Os, fio $hf%" [ $((hi - hf)) -le 10 -a $((hf - hi)) -le 10 ]
}
skewed "zipf:1.2" --rw=randread --bs=4k --random_distribution=zipf:1.2 --io_size=8m
skewed "pareto:0.3" --rw=randread --bs=4k --random_distribution=pareto:0.3 --io_size=8m
skewed "normal:10" --rw=randread --bs=4k --random_distribution=normal:10 --io_size=8m
done_testing
