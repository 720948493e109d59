# numjobs as processes and threads, group_reporting, stonewall groups, rwmixread, directory= files, ramp_time and the Disk stats all behave as in fio.
source tests/host/lib.sh
need_root
make_loop 64 || skip "cannot create a loop device"
disk=$(basename "$LOOP")

# numjobs=4 processes, size-based: every clone does the whole region.
"$IODIG" run --no-probes --output-format=json --name=p --filename="$LOOP" --rw=randread --bs=4k \
	--size=8m --numjobs=4 --ioengine=libaio --iodepth=4 --direct=1 >"$TMP/p.json" 2>"$TMP/err"
check "4 process jobs reported separately" [ "$(jqr '.jobs | length' "$TMP/p.json")" = 4 ]
check "each did 2048 I/Os" [ "$(jqr '[.jobs[].read.total_ios] | unique | .[0]' "$TMP/p.json")" = 2048 ]
pids() { "$IODIG" run --no-probes --name=p --filename="$LOOP" --rw=randread --bs=4k --size=1m \
	--numjobs=3 --ioengine=psync --direct=1 "$@" | grep -o ': pid=[0-9]*' | sort -u | wc -l; }
check "numjobs=3 without thread: 3 worker processes" [ "$(pids)" = 3 ]
check "numjobs=3 with thread: one process" [ "$(pids --thread)" = 1 ]
check "disk saw at least the workload's reads" [ "$(jqr ".disk_util[] | select(.name==\"$disk\") | .read_ios" "$TMP/p.json")" -ge 8192 ]

# threads + group_reporting: one entry with the sum.
"$IODIG" run --no-probes --output-format=json --name=t --filename="$LOOP" --rw=randread --bs=4k \
	--size=8m --numjobs=3 --thread --group_reporting --ioengine=io_uring --iodepth=4 --direct=1 \
	>"$TMP/t.json" 2>"$TMP/err"
check "group_reporting folds 3 threads into one entry" [ "$(jqr '.jobs | length' "$TMP/t.json")" = 1 ]
check "group total is 3 x 2048 I/Os" [ "$(jqr '.jobs[0].read.total_ios' "$TMP/t.json")" = 6144 ]

# stonewall: two groups, run one after the other.
cat >"$TMP/two.fio" <<JOB
[global]
filename=$LOOP
bs=4k
size=4m
direct=1
ioengine=psync
[first]
rw=read
[second]
stonewall
rw=randread
JOB
"$IODIG" run --no-probes --output-format=json "$TMP/two.fio" >"$TMP/two.json" 2>"$TMP/err"
check "stonewall makes two groups" [ "$(jqr '[.jobs[].groupid] | unique | length' "$TMP/two.json")" = 2 ]
check "normal output has two Run status groups" [ "$("$IODIG" run --no-probes "$TMP/two.fio" | grep -c 'Run status group')" = 2 ]

# rwmixread=70 on randrw: reads are 70% +- 3%.
"$IODIG" run --no-probes --allow-destructive --output-format=json --name=m --filename="$LOOP" --rw=randrw \
	--rwmixread=70 --bs=4k --size=16m --ioengine=libaio --iodepth=8 --direct=1 >"$TMP/m.json" 2>"$TMP/err"
r=$(jqr '.jobs[0].read.total_ios' "$TMP/m.json"); w=$(jqr '.jobs[0].write.total_ios' "$TMP/m.json")
check "randrw covers the region once ($r + $w = 4096)" [ $((r + w)) = 4096 ]
check "rwmixread=70 gives 67-73% reads ($r)" [ "$r" -ge 2744 -a "$r" -le 2990 ]

# directory=: one file per clone, fio's name.clone.0 naming.
mkdir "$TMP/dir"
"$IODIG" run --no-probes --output-format=json --name=d --directory="$TMP/dir" --rw=write --bs=64k \
	--size=1m --numjobs=2 --ioengine=psync >"$TMP/d.json" 2>"$TMP/err"
check "directory= made d.0.0 and d.1.0" [ -f "$TMP/dir/d.0.0" -a -f "$TMP/dir/d.1.0" ]
check "each file 1 MiB" [ "$(stat -c %s "$TMP/dir/d.0.0")" = 1048576 ]

# ramp_time: I/O before the ramp ends is not counted; runtime counts after it.
"$IODIG" run --no-probes --output-format=json --name=r --filename="$LOOP" --rw=randread --bs=4k \
	--ioengine=psync --direct=1 --ramp_time=1 --runtime=1 --time_based >"$TMP/r.json" 2>"$TMP/err"
rt=$(jqr '.jobs[0].read.runtime' "$TMP/r.json")
check "runtime after ramp is about 1 s ($rt ms)" [ "$rt" -ge 900 -a "$rt" -le 1300 ]
done_testing
