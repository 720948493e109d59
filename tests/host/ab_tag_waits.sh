# iodig ab of nr_requests=128 (A) against nr_requests=4 (B), two loop devices under libaio iodepth 64 x2: the tag waits per I/O are called changed (from next to none), and a tag-wait row (the count, or its time off-CPU in blk_mq_get_tag) leads the story's rows but for sampled slat frames and the getevents wait it replaced; the diff warns that the queue setting differs; --fail-on on the tag waits exits 1. timeout: 120
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
make_loop 128 || skip "cannot create a loop device"
AMPLE=$LOOP
make_loop 128 || skip "cannot create a second loop device"
STARVED=$LOOP
NR_A=/sys/block/$(basename "$AMPLE")/queue/nr_requests
NR_B=/sys/block/$(basename "$STARVED")/queue/nr_requests
OLD_A=$(cat "$NR_A") OLD_B=$(cat "$NR_B")
# nr_requests outlives the device's detach; put it back for the next user
trap 'echo "$OLD_A" >"$NR_A" 2>/dev/null; echo "$OLD_B" >"$NR_B" 2>/dev/null; cleanup' EXIT
echo 128 >"$NR_A" || skip "cannot set nr_requests 128"
echo 4 >"$NR_B" || skip "cannot set nr_requests 4"

job() { # job FILE DEVICE
	printf '[tags]\nfilename=%s\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=64\nnumjobs=2\nthread=1\ngroup_reporting\nruntime=1s\ntime_based\n' \
		"$2" >"$1"
}
job "$TMP/ample.fio" "$AMPLE"
job "$TMP/starved.fio" "$STARVED"
# A real change is judged at alpha 0.05, as in diff_zram_vs_loop.sh: with
# 6 runs a side and ~80 rows, a count that wanders by 10% between runs on
# a loaded VM can miss the strict default's q < 0.01.
"$IODIG" ab "$TMP/ample.fio" "$TMP/starved.fio" --repeat=6 --no-progress --format=json --alpha=0.05 \
	--fail-on=kernel.tag_waits_per_io --save-a="$TMP/a.json" --save-b="$TMP/b.json" \
	>"$TMP/d.json" 2>"$TMP/err"
rc=$?
check "ab --fail-on=kernel.tag_waits_per_io: B is worse, exit 1 ($rc): $(head -c 300 "$TMP/err")" \
	[ "$rc" = 1 -a -s "$TMP/d.json" ]
check "6 runs a side" \
	[ "$(jqr '.iodig.repeats.count' "$TMP/a.json")/$(jqr '.iodig.repeats.count' "$TMP/b.json")" = 6/6 ]
row() { # row KEY: verdict and means of the row
	jq -c --arg k "$1" '.rows[] | select(.key == $k) | [.values[1].verdict, .values[0].mean, .values[1].mean]' \
		"$TMP/d.json"
}
echo "info: story: $(jq -c '[.story.kernel[] | {key, change: .values[1].change, q: .values[1].q}]' "$TMP/d.json")"
# A's 128 tags just cover its 2 x 64 in flight, but a request's tag is
# freed after its completion reaches the ring, so a worker that reaps and
# submits at once can, rarely, find none free: A's waits are near 0, not 0.
tw=$(row kernel.tag_waits_per_io)
check "tag waits per I/O changed, from near 0 (under 1% of B's) to about one in two I/Os ($tw)" \
	[ -n "$(echo "$tw" | jq -r 'select(.[0] == "changed" and .[2] > 0.1 and .[1] < 0.01 * .[2]) | 1')" ]
# Two kinds of row may rank beside the tag waits, and are left out here:
# a sampled slat frame is inclusive, so one on every submission stack (the
# syscall's entry) carries the whole slat change; and the workers' sleep
# moves from io_getevents (read_events: waiting for completions, A) to
# io_submit (blk_mq_get_tag: waiting for a tag, B), the same change seen
# from its other end, which ranks first when its time moved more.
first=$(jq -r '[.story.kernel[] | select(.key | test("^fn\\|(slat\\||sched\\|read_events\\|)") | not) | .key][0]' "$TMP/d.json")
check "a tag-wait row leads the story's other rows (got $first)" \
	[ "$first" = "fn|sched|blk_mq_get_tag|ns_per_io" -o "$first" = kernel.tag_waits_per_io ]
# How long a tag wait lasts follows the loop device's service time, which
# a loaded VM spreads widely between runs: only its direction is certain.
gt=$(row "fn|sched|blk_mq_get_tag|ns_per_io")
check "off-CPU time in blk_mq_get_tag: next to none in A (under 1% of B's), some in B ($gt)" \
	[ -n "$(echo "$gt" | jq -r 'select(.[2] > 0 and .[1] < 0.01 * .[2]) | 1')" ]
check "the diff warns that nr_requests differs" grep -q "nr_requests is 128 in A, 4 in B" "$TMP/err"
done_testing
