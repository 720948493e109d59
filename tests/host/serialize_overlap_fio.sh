#!/bin/bash
# serialize_overlap against fio 3.33.  Random writes at depth 8 over 4
# blocks (norandommap): with the option no two I/Os in flight overlap, so
# at most 4 are ever in flight and fio's iodepth_level shows no depth
# above 4, for iodig and fio alike; without it both go deeper.  Same
# write counts as fio.  Offloaded, the check spans the jobs: two clones
# writing one block never have two requests at the device (the block
# tracepoints, read in a tracefs instance of the test's own, never see a
# second write issued before the first completes; without the option they
# do; the block family's mean in flight, by Little's law, is at most 1).
# fio's t/jobs/t0013.fio (null, offload, 8 jobs over one block) runs and
# ends.
# timeout: 180
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
make_loop 32 || skip "no loop device"
cd "$TMP" || exit 1
own_tracefs serialize_overlap
DEVNO=$(printf '%d,%d' $(stat -c '0x%t 0x%T' "$LOOP"))

JOB=(--name=s --filename="$LOOP" --rw=randwrite --bs=4k --size=16k --io_size=2m
     --iodepth=8 --direct=1 --norandommap)
# writes, and the percent of submissions at a depth above 4
deep() { jqr '.jobs[0] | "\(.write.total_ios) \(.iodepth_level["8"] + .iodepth_level["16"] +
	.iodepth_level["32"] + .iodepth_level[">=64"])"' "$1"; }
for engine in libaio io_uring; do
	for so in 0 1; do
		"$IODIG" run --no-probes --no-save --output-format=json "${JOB[@]}" \
			--ioengine=$engine --serialize_overlap=$so >i.json 2>i.err ||
			fail "iodig $engine so=$so: $(head -c 200 i.err)"
		fio --output-format=json "${JOB[@]}" --ioengine=$engine \
			--serialize_overlap=$so 2>/dev/null | sed -n '/^{/,$p' >f.json
		read -r iw ideep <<<"$(deep i.json)"
		read -r fw fdeep <<<"$(deep f.json)"
		check "$engine so=$so: writes iodig $iw = fio $fw" [ "$iw" = "$fw" ]
		if [ $so = 1 ]; then
			check "$engine so=1: iodig never deeper than 4 ($ideep%)" \
				[ "$(echo "$ideep == 0" | bc)" = 1 ]
			check "$engine so=1: fio never deeper than 4 ($fdeep%)" \
				[ "$(echo "$fdeep == 0" | bc)" = 1 ]
		else
			check "$engine so=0: iodig goes deeper than 4 ($ideep%)" \
				[ "$(echo "$ideep > 0" | bc)" = 1 ]
			check "$engine so=0: fio goes deeper than 4 ($fdeep%)" \
				[ "$(echo "$fdeep > 0" | bc)" = 1 ]
		fi
	done
done

# Offloaded: two clones, one block, depth 4 each.  The most writes the
# device held at once, from the issue and complete events in order.
most_at_device() {
	grep " $DEVNO W" "$INST/trace" | awk '/block_rq_issue:/ { if (++n > m) m = n }
		/block_rq_complete:/ { n-- } END { print m + 0 }'
}
echo 1 >"$INST/events/block/block_rq_issue/enable" &&
	echo 1 >"$INST/events/block/block_rq_complete/enable" ||
	skip "no block tracepoints in tracefs"
mean=() most=()
for so in 0 1; do
	: >"$INST/trace"
	"$IODIG" run --no-save --probes=block --output-format=json --name=o \
		--filename="$LOOP" --rw=write --bs=4k --size=4k --io_size=1m \
		--iodepth=4 --ioengine=libaio --direct=1 --io_submit_mode=offload \
		--thread --numjobs=2 --serialize_overlap=$so >o.json 2>o.err ||
		fail "offload so=$so: $(head -c 200 o.err)"
	most[$so]=$(most_at_device)
	n=$(jqr '[.jobs[].write.total_ios] | add' o.json)
	check "offload so=$so: 2 x 256 writes ($n)" [ "$n" = 512 ]
	m=$(jq '[.. | objects | select(has("inflight_mean")) | .inflight_mean] | max' o.json)
	[ "$m" = null ] && skip "the block family did not load: $(head -c 200 o.err)"
	mean[$so]=$m
done
# How many the device holds without the option depends on how fast the
# submit threads run; two at once happens within 512 writes (80-150 of
# them on this machine), never with it.
check "offload so=1: never two writes at the device (most ${most[1]})" [ "${most[1]}" = 1 ]
check "offload so=0: two writes at the device at once (most ${most[0]})" [ "${most[0]}" -ge 2 ]
check "offload so=1: the block family's mean in flight at most 1 (${mean[1]})" \
	[ "$(echo "${mean[1]} <= 1.0" | bc)" = 1 ]

cp /work/shared/fio-corpus/fio__t_jobs_t0013.fio t0013.fio 2>/dev/null ||
	printf '[test]\nioengine=null\nthread=1\nsize=4K\nblocksize=4K\nio_submit_mode=offload\niodepth=1\nserialize_overlap=1\nnumjobs=8\nloops=1000000\nruntime=10\n' >t0013.fio
timeout 60 "$IODIG" run --no-probes --no-save --output-format=json t0013.fio \
	--runtime=1 >t.json 2>t.err
rc=$?
check "t0013 ends under --runtime=1 (exit $rc: $(head -c 200 t.err))" [ "$rc" = 0 ]
check "t0013: 8 jobs, each read, no error" \
	[ "$(jqr '[.jobs[] | select(.read.total_ios > 0 and .error == 0)] | length' t.json)" = 8 ]
done_testing
