# The block section's tag figures end to end: a loop device with nr_requests=4 under libaio iodepth 64 x2 shows tag waits (sleeps in blk_mq_get_tag, from the sched family) for most voluntary switches and in-flight requests within the 4 tags; nr_requests=128 at iodepth 8 shows none; without sched the section says the waits were not measured. timeout: 180
source tests/host/lib.sh
need_root
make_loop 256 || skip "no loop device"
DISK=$(basename "$LOOP")
NR=/sys/block/$DISK/queue/nr_requests
OLD_NR=$(cat "$NR")
# nr_requests outlives the device's detach; put it back for the next user
trap 'echo "$OLD_NR" >"$NR" 2>/dev/null; cleanup' EXIT

# run NAME IODEPTH [ARGS...]: a 2 s randread job on the loop device
run() {
	local name=$1 depth=$2; shift 2
	"$IODIG" run --no-progress --no-save --output-format=normal,json "$@" \
		--name=tags --filename="$LOOP" --rw=randread --bs=4k --direct=1 \
		--ioengine=libaio --iodepth="$depth" --numjobs=2 --thread=1 \
		--group_reporting --runtime=2 --time_based >"$TMP/$name" 2>"$TMP/$name.err"
	rc=$?
	check "$name: exit 0 ($(head -c 200 "$TMP/$name.err"))" [ "$rc" -eq 0 ]
	split_report "$TMP/$name"
}
q() { jqr "$2" "$TMP/$1.json"; }

echo 4 >"$NR"
run starved 64
sleeps=$(q starved '.iodig.kernel.block.tag_waits.sleeps // 0')
vol=$(q starved '.iodig.kernel.sched.voluntary // 0')
inflight=$(q starved '.iodig.kernel.block.inflight_mean // 0')
echo "nr_requests=4: $sleeps tag sleeps of $vol voluntary switches, in flight $inflight"
check "starved: block reports nr_requests 4" [ "$(q starved '.iodig.kernel.block.nr_requests')" = 4 ]
check "starved: tag waits measured by sched" \
	[ "$(q starved '.iodig.kernel.block.tag_waits.source')" = sched ]
check "starved: tag sleeps ($sleeps) are most of the voluntary switches ($vol)" \
	awk -v s="$sleeps" -v v="$vol" 'BEGIN { exit !(v > 1000 && s >= 0.5 * v) }'
# Little's law over device time: never more requests in the driver than tags
check "starved: mean in flight $inflight within the 4 tags" \
	awk -v m="$inflight" 'BEGIN { exit !(m > 0 && m <= 4.05) }'
check "starved: text shows the tag line" grep -q 'tag waits: [0-9]* sleeps in blk_mq_get_tag' \
	"$TMP/starved.txt"
check "starved: text shows in flight against nr_requests" \
	grep -q 'in flight: avg=[0-9.]* of nr_requests=4' "$TMP/starved.txt"

echo 128 >"$NR"
run ample 8
sleeps=$(q ample '.iodig.kernel.block.tag_waits.sleeps // -1')
ios=$(q ample '.jobs[0].read.total_ios // 0')
echo "nr_requests=128, iodepth 8: $sleeps tag sleeps for $ios I/Os"
check "ample: tag sleeps ($sleeps) near zero for $ios I/Os" \
	awk -v s="$sleeps" -v n="$ios" 'BEGIN { exit !(n > 1000 && s >= 0 && s <= 0.001 * n) }'

run nosched 8 --probes=-sched
check "no sched: tag waits marked not measured" \
	[ "$(q nosched '.iodig.kernel.block.tag_waits.measured')" = false ]
check "no sched: text says so" grep -q 'tag waits: not measured (the sched family is not loaded)' \
	"$TMP/nosched.txt"
done_testing
