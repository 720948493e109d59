#!/bin/bash
# "key=" with nothing after '=' in a job file, as fio 3.33 reads it: bssplit=
# keeps the split [global] gave (the same I/O count and bytes as fio's);
# write_{bw,lat,iops,hist}_log= log under the job's name as the bare key does
# (the same files as fio's); filename= and directory= are refused (fio: "failed
# parsing filename=", the job dropped), as is every "--key=" on the command
# line (fio: "option ... requires an argument").
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
cd "$TMP" || exit 1
truncate -s 1m data
cat >empty.fio <<EOF
[global]
bssplit=4k/50:64k/50
rw=read
size=1m
filename=$TMP/data
ioengine=psync
[inherits]
[empty]
bssplit=
write_bw_log=
write_lat_log=
write_iops_log=
write_hist_log=
[own]
bssplit=8k
EOF
# run DIR TOOL... : each job's "name ios bytes", then the log files made
run() {
	rm -rf "$1"; mkdir "$1"; cp empty.fio "$1/"
	(cd "$1" && "${@:2}" empty.fio --output-format=json >out.json 2>err.txt) ||
		fail "$2 failed: $(head -c 200 "$1/err.txt")"
	jq -r '.jobs[] | "\(.jobname) \(.read.total_ios) \(.read.io_bytes)"' "$1/out.json" 2>/dev/null
	(cd "$1" && ls -- *.log 2>/dev/null)
}
f=$(run f fio)
i=$(run i "$IODIG" run --no-probes --no-save --no-progress)
ran=$(grep -c '^[a-z]* [0-9]* 1048576$' <<<"$f"); logs=$(grep -c '\.log$' <<<"$f")
check "fio ran the three jobs ($ran) and wrote logs ($logs): '$f'" [ "$ran" = 3 -a "$logs" -gt 0 ]
check "bssplit= keeps [global]'s split as fio does: '$(head -2 <<<"$f" | tr '\n' ' ')'" \
	[ "$(sed -n 1p <<<"$f" | cut -d' ' -f2-)" = "$(sed -n 2p <<<"$f" | cut -d' ' -f2-)" ]
check "per job I/Os and bytes, and the log files, as fio's: iodig '$(tr '\n' ' ' <<<"$i")', fio '$(tr '\n' ' ' <<<"$f")'" \
	[ "$i" = "$f" ]

# SPDK's test/vhost/pmem/pmem_integrity.job (spdk/spdk, commit
# ac352604b734d721958c7cf9b4d961849823012c), whose script fills in filename=
cat >spdk.fio <<'EOF'
[global]
blocksize=4k
iodepth=64
ioengine=libaio
runtime=10
filename=
group_reporting
thread
numjobs=1
direct=1
rw=randwrite
do_verify=1
verify=md5
verify_backlog=1024

[pmem-verify]
EOF
printf '[j]\nrw=read\nsize=64k\ndirectory=\n' >dir.fio
for job in spdk.fio dir.fio; do
	fio --parse-only "$job" >fio.out 2>&1; frc=$?
	"$IODIG" run --no-probes --no-save --no-progress "$job" >out.txt 2>err.txt; irc=$?
	check "$job: fio refuses it (rc $frc: $(head -c 80 fio.out))" [ $frc -ne 0 ]
	named=$(grep -c "needs a value" err.txt)
	check "$job: iodig refuses it too, naming the option (rc $irc: $(head -c 120 err.txt))" \
		[ $irc -ne 0 -a "$named" -gt 0 ]
done
check "nothing was written for the refused files" [ -z "$(ls pmem-verify* j.* 2>/dev/null)" ]
for key in bssplit write_bw_log filename; do
	fio --name=c --size=64k --filename="$TMP/data" --$key= --parse-only >fio.out 2>&1; frc=$?
	"$IODIG" run --no-probes --no-save --no-progress --name=c --size=64k \
		--filename="$TMP/data" --$key= >out.txt 2>err.txt; irc=$?
	named=$(grep -c "'$key' needs a value" err.txt)
	check "--$key= on the command line: fio refuses it (rc $frc)" [ $frc -ne 0 ]
	check "--$key= on the command line: iodig refuses it (rc $irc: $(head -c 100 err.txt))" \
		[ $irc -ne 0 -a "$named" -gt 0 ]
done
done_testing
